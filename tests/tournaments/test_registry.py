"""The national registry on the staff pages: search without accents or case, likely duplicates, editing players
(federation permission, audited, the player's history), bulk entries."""

import pytest
from django.urls import reverse

from tournaments.entries.services import player_search
from tournaments.models import Player

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


# ---- likely duplicates when creating a player -------------------------------------------------------------


def entries_url(t):
    return reverse("staff:entries", args=[t.slug])


def add_url(t):
    return reverse("staff:entry_add", args=[t.slug])


NEW_PLAYER = {"action": "create", "name": "Joao Araujo", "sex": "M", "birth_date": "2001-05-04", "club": "Clube X"}


def test_creating_a_likely_duplicate_warns_and_keeps_the_form(client, director, make_tournament, make_player):
    from datetime import date

    same = make_player(name="João Araújo", cbjd_id="30101", birth_date=date(1990, 1, 1))
    make_player(name="Joana Araújo", cbjd_id="30102")
    t = make_tournament()
    client.force_login(director)
    response = client.post(add_url(t), NEW_PLAYER)
    assert response.status_code == 200
    assert [p.pk for p in response.context["duplicates"]] == [same.pk]
    html = response.content.decode()
    assert "talvez já esteja no cadastro" in html and "30101" in html
    assert 'value="Joao Araujo"' in html and 'value="Clube X"' in html
    assert Player.objects.count() == 2 and not t.entries.exists()
    # confirmed as another person: created and entered, audited as a registry creation
    response = client.post(add_url(t), dict(NEW_PLAYER, not_a_duplicate="1"))
    assert response.status_code == 302
    created = Player.objects.get(name="Joao Araujo")
    assert t.entries.get().player == created
    from tournaments.models import AuditEntry

    log = AuditEntry.objects.get(action="player.create", object_id=str(created.pk))
    assert log.username == "diretor" and log.new["birth_date"] == "2001-05-04"


def test_same_birth_date_and_surname_is_a_likely_duplicate(make_player):
    from datetime import date

    from tournaments.registry.selectors import likely_duplicates

    twin = make_player(name="Maria Conceição Silva", birth_date=date(2005, 3, 2))
    make_player(name="Pedro Silva", birth_date=date(2004, 3, 2))
    make_player(name="Maria Souza", birth_date=date(2001, 1, 1))
    assert likely_duplicates("Maria C. Silva", date(2005, 3, 2)) == [twin]
    assert likely_duplicates("Ana Silva", date(2005, 3, 2)) == [twin]
    assert likely_duplicates("Ana Souza", date(2005, 3, 2)) == []
    assert likely_duplicates("MARIA CONCEICAO SILVA", None) == [twin]


def test_player_form_errors_are_portuguese_on_the_field(client, director, make_tournament, make_player):
    make_player(name="Outro", cbjd_id="30101")
    t = make_tournament()
    client.force_login(director)
    for change, field, message in [
        ({"cbjd_id": "30101"}, "cbjd_id", "Outro jogador do cadastro já tem este ID CBJD."),
        ({"rating": "5000"}, "rating", "O rating deve estar entre 100 e 3000."),
        ({"fmjd_rating": "50"}, "fmjd_rating", "O rating deve estar entre 100 e 3000."),
    ]:
        response = client.post(add_url(t), dict(NEW_PLAYER, name="Novo Nome", **change))
        assert response.status_code == 200
        assert message in response.context["player_form"].errors[field], change
        html = response.content.decode()
        assert "player_cbjd_id_unique" not in html and "player_rating_range" not in html
        assert 'value="Novo Nome"' in html
    assert not t.entries.exists()


# ---- editing players: the federation, audited, the history page ------------------------------------------


def test_the_federation_edits_a_player_and_the_history_shows_before_and_after(
    client, federation, make_player, make_tournament, director
):
    from tournaments.entries.services import entry_register

    p = make_player(name="Jose Silva", cbjd_id="30101", sex="M", state="PE", club="Clube A")
    t = make_tournament()
    entry_register(tournament=t, player=p, user=director)
    client.force_login(federation)
    url = reverse("staff:player", args=[p.pk])
    data = {"name": "José da Silva", "birth_date": "1999-12-31", "sex": "M", "state": "PB", "club": "Clube A"}
    data["cbjd_id"] = "30101"
    response = client.post(url, data)
    assert response.status_code == 302
    p.refresh_from_db()
    assert (p.name, p.birth_date.isoformat(), p.state) == ("José da Silva", "1999-12-31", "PB")
    assert player_search("jose da silva")[0] == p
    html = client.get(url).content.decode()
    assert "federacao" in html and "Alterado" in html
    assert "Nome completo: Jose Silva → José da Silva" in html
    assert "Data de nascimento: — → 31/12/1999" in html
    assert "Estado (UF): PE → PB" in html
    assert "Clube A →" not in html  # unchanged fields are not listed
    # the entry shows the new name at once
    assert "José da Silva" in client.get(reverse("public:players", args=[t.slug])).content.decode()


def test_an_edit_error_keeps_the_form_and_saves_nothing(client, federation, make_player):
    make_player(name="Outro", cbjd_id="30102")
    p = make_player(name="Jose Silva", cbjd_id="30101")
    client.force_login(federation)
    data = {"name": "José Silva Neto", "sex": "M", "cbjd_id": "30102"}
    response = client.post(reverse("staff:player", args=[p.pk]), data)
    assert response.status_code == 200
    assert response.context["form"].errors["cbjd_id"] == ["Outro jogador do cadastro já tem este ID CBJD."]
    assert 'value="José Silva Neto"' in response.content.decode()
    p.refresh_from_db()
    assert p.name == "Jose Silva"


def test_a_rating_list_import_is_audited_per_player(federation, make_player):
    from tournaments.entries.services import rating_list_import
    from tournaments.models import AuditEntry

    p = make_player(name="Ana Lima", cbjd_id="30101", rating=1800, sex="F")
    make_player(name="Bia Souza", cbjd_id="30102", rating=1700, sex="F")
    data = "ID CBJD;Nome;Rating;Sexo\n30101;Ana Lima;1850;F\n30102;Bia Souza;1700;F\n30103;Caio Reis;1600;M\n"
    rating_list_import(data=data.encode(), filename="cbjd-dez.csv", user=federation)
    change = AuditEntry.objects.get(action="player.update", object_id=str(p.pk))
    assert (change.old, change.new, change.username) == ({"rating": 1800}, {"rating": 1850}, "federacao")
    assert "cbjd-dez.csv" in change.summary
    caio = Player.objects.get(cbjd_id="30103")
    assert AuditEntry.objects.get(action="player.create", object_id=str(caio.pk)).new["name"] == "Caio Reis"
    # Bia's line changed nothing: no line in her history
    assert not AuditEntry.objects.filter(object_type="player", object_id=str(Player.objects.get(cbjd_id="30102").pk))
