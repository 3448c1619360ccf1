"""The national registry on the staff pages: search without accents or case, likely duplicates, editing players
(federation permission, audited, the player's history), bulk entries."""

import pytest
from django.urls import reverse

from tournaments.models import Player
from tournaments.services.entries import player_search

pytestmark = pytest.mark.django_db


def names(qs):
    return [p.name for p in qs]


def test_search_ignores_accents_and_case(make_player):
    make_player(name="João Araújo", cbjd_id="30101")
    make_player(name="Joana Lima", cbjd_id="30102")
    make_player(name="ÉDSON MONTEIRO", cbjd_id="30103")
    assert names(player_search("joao")) == ["João Araújo"]
    assert names(player_search("JOÃO araujo")) == ["João Araújo"]
    assert names(player_search("araujo joao")) == ["João Araújo"]  # every word, in any order
    assert names(player_search("jo")) == ["Joana Lima", "João Araújo"]
    assert names(player_search("edson")) == ["ÉDSON MONTEIRO"]
    assert names(player_search("  monteiro  ")) == ["ÉDSON MONTEIRO"]
    assert names(player_search("30102")) == ["Joana Lima"]
    assert names(player_search("joao lima")) == []
    assert names(player_search("   ")) == []


def test_the_search_key_follows_renames_and_bulk_creation(make_player):
    p = make_player(name="Maria Conceição")
    assert Player.objects.get(pk=p.pk).search_name == "maria conceicao"
    p.name = "Maria da Conceição Ávila"
    p.save()
    assert names(player_search("avila")) == ["Maria da Conceição Ávila"]
    Player.objects.bulk_create([Player(name="Ênio Brandão", sex="M")])
    assert names(player_search("enio brandao")) == ["Ênio Brandão"]


def test_the_staff_search_page_finds_joao(client, director, make_tournament, make_player):
    make_player(name="João Araújo", cbjd_id="30101")
    t = make_tournament()
    client.force_login(director)
    html = client.get(reverse("staff:entries", args=[t.slug]), {"q": "joao"}).content.decode()
    assert "João Araújo" in html and "30101" in html
