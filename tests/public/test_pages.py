"""Every public page answers for a published tournament; drafts never show; unknown slugs give 404."""

import pytest
from django.urls import reverse

from tournaments.models import Entry, Round

pytestmark = pytest.mark.django_db


def public_urls(t):
    entry = Entry.objects.filter(tournament=t).order_by("pairing_number").first()
    return [
        reverse("public:home"),
        reverse("public:tournament", args=[t.slug]),
        reverse("public:pairings", args=[t.slug]),
        reverse("public:pairings_alpha", args=[t.slug]),
        reverse("public:rounds", args=[t.slug]),
        reverse("public:round", args=[t.slug, 1]),
        reverse("public:round_alpha", args=[t.slug, 5]),
        reverse("public:opening", args=[t.slug, 2]),
        reverse("public:board", args=[t.slug, 3, 1]),
        reverse("public:standings", args=[t.slug]),
        reverse("public:standings_category", args=[t.slug, "FEM"]),
        reverse("public:crosstable", args=[t.slug]),
        reverse("public:players", args=[t.slug]),
        reverse("public:player", args=[t.slug, entry.pk]),
        reverse("public:screen_standings", args=[t.slug]),
        reverse("public:screen_pairings", args=[t.slug]),
        reverse("public:print_index", args=[t.slug]),
        reverse("public:print_pairings", args=[t.slug, 5]),
        reverse("public:print_pairings_alpha", args=[t.slug, 5]),
        reverse("public:print_slips", args=[t.slug, 5]),
        reverse("public:print_standings", args=[t.slug]),
        reverse("public:print_crosstable", args=[t.slug]),
        reverse("public:print_qr", args=[t.slug]),
    ]


def test_it_serves_every_public_page(client, published):
    for url in public_urls(published):
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"<html" in response.content


def main_part(response):
    html = response.content.decode()
    return html[html.index("<main") : html.index("</main>")]


def test_it_serves_the_pages_twice_from_the_cache(client, published):
    for url in public_urls(published):
        if "/imprimir/" in url:
            continue
        first = main_part(client.get(url))
        assert main_part(client.get(url)) == first, url


def test_it_is_read_only(client, published):
    for url in public_urls(published)[:6]:
        assert client.post(url).status_code == 405, url


@pytest.mark.parametrize(
    "name,args",
    [
        ("public:tournament", []),
        ("public:standings", []),
        ("public:pairings", []),
        ("public:crosstable", []),
        ("public:round", [1]),
        ("public:print_standings", []),
        ("public:print_qr", []),
    ],
)
def test_it_gives_404_for_an_unknown_tournament(client, db, name, args):
    assert client.get(reverse(name, args=["nao-existe", *args])).status_code == 404


def test_it_gives_404_for_unknown_round_board_player_category(client, published):
    slug = published.slug
    assert client.get(reverse("public:round", args=[slug, 9])).status_code == 404
    assert client.get(reverse("public:board", args=[slug, 1, 99])).status_code == 404
    assert client.get(reverse("public:player", args=[slug, 999999])).status_code == 404
    assert client.get(reverse("public:standings_category", args=[slug, "XYZ"])).status_code == 404


def test_it_never_shows_a_draft_round(client, published):
    draft = Round.objects.get(tournament=published, number=6)
    assert draft.status == "draft"
    assert client.get(reverse("public:round", args=[published.slug, 6])).status_code == 404
    assert client.get(reverse("public:round_alpha", args=[published.slug, 6])).status_code == 404
    assert client.get(reverse("public:opening", args=[published.slug, 6])).status_code == 404
    assert client.get(reverse("public:print_slips", args=[published.slug, 6])).status_code == 404
    current = client.get(reverse("public:pairings", args=[published.slug])).content.decode()
    assert "Rodada 5" in current and "Rodada 6" not in current
    crosstable = client.get(reverse("public:crosstable", args=[published.slug])).content.decode()
    assert '<th scope="col" class="num">6</th>' not in crosstable
    card = client.get(reverse("public:player", args=[published.slug, draft.seats.first().entry_id])).content.decode()
    assert "/rodadas/6/" not in card


def test_staff_may_print_a_draft_marked_as_such(client, published, director):
    client.force_login(director)
    response = client.get(reverse("public:print_slips", args=[published.slug, 6]))
    assert response.status_code == 200
    assert "RASCUNHO" in response.content.decode()
    # ...but the public pages stay without it, even for staff
    assert client.get(reverse("public:round", args=[published.slug, 6])).status_code == 404


def test_a_tournament_with_nothing_yet_still_has_its_pages(client, make_tournament):
    t = make_tournament(slug="recem-criado")
    for name in (
        "public:tournament",
        "public:pairings",
        "public:pairings_alpha",
        "public:rounds",
        "public:standings",
        "public:crosstable",
        "public:players",
        "public:screen_standings",
        "public:screen_pairings",
        "public:print_index",
        "public:print_standings",
        "public:print_crosstable",
        "public:print_qr",
    ):
        response = client.get(reverse(name, args=[t.slug]))
        assert response.status_code == 200, name
    assert (
        "Nenhuma rodada foi publicada ainda." in client.get(reverse("public:pairings", args=[t.slug])).content.decode()
    )


def test_entries_before_round_one_show_on_the_public_pages(client, make_tournament, make_player, director):
    from tournaments.entries.services import entry_register

    t = make_tournament(slug="inscricoes-abertas")
    for _ in range(3):
        entry_register(tournament=t, player=make_player(), user=director)
    players = client.get(reverse("public:players", args=[t.slug])).content.decode()
    assert players.count('data-search="Jogador') == 3
    standings = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    assert standings.count("/jogadores/") >= 3
