"""Issue 28.6: a draft pairing edited by hand by picking players by name ("nº — Nome (pts)"), not by typing pairing
numbers; the same service behind it (all or nothing, Portuguese errors naming the players), hostile posts refused."""

import pytest
from django.urls import reverse

from tournaments.models import AuditEntry, Round
from tournaments.rounds.results import game_record_result
from tournaments.rounds.selectors import board_pair, rounds_with_boards
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


def boards_of(t, number):
    rnd = rounds_with_boards(t, number=number)[0]
    return [tuple(e.pk for e in board_pair(b)) for b in rnd.boards.all()], (
        rnd.bye_seats[0].entry_id if rnd.bye_seats else None
    )


@pytest.fixture
def draft(field, director, client):
    """Round 1 played (every first player wins both games), round 2 a draft; 7 players, so a bye."""
    t, entries = field(7)
    rnd = round_pair(tournament=t, user=director, publish=True)
    for board in rnd.boards.all():
        game_record_result(board=board, results={1: "1-0", 2: "0-1"}, expected_version=1, user=director)
    round_pair(tournament=t, user=director)
    client.force_login(director)
    return t, entries


def post(client, t, pairs, bye):
    data = {"first": [str(a) for a, _b in pairs], "second": [str(b) for _a, b in pairs], "bye": str(bye or "")}
    return client.post(reverse("staff:round_edit", args=[t.slug, 2]), data, follow=True)


def test_the_page_lists_the_players_by_number_name_and_points(draft, client):
    t, entries = draft
    page = client.get(reverse("staff:round_edit", args=[t.slug, 2])).content.decode()
    assert page.count('<select name="first"') == 3 and page.count('<select name="second"') == 3
    assert f'<option value="{entries[0].pk}">1 — P01 (4)</option>' in page  # won both games
    assert f'<option value="{entries[1].pk}">2 — P02 (0)</option>' in page
    assert f'<option value="{entries[6].pk}">7 — P07 (4)</option>' in page  # the bye of round 1: a won round
    assert '<select name="bye" id="bye">' in page
    assert "<textarea" not in page


def test_a_swap_of_two_players_is_saved(draft, client):
    t, entries = draft
    (b1, b2, b3), bye = boards_of(t, 2)
    swapped = [(b2[0], b1[1]), (b1[0], b2[1]), b3]
    response = post(client, t, swapped, bye)
    assert response.redirect_chain[-1][0] == reverse("staff:round", args=[t.slug, 2])
    assert boards_of(t, 2) == (swapped, bye)
    assert Round.objects.get(tournament=t, number=2).manually_edited
    assert AuditEntry.objects.filter(action="round.edit").count() == 1
    assert "Emparceiramento manual salvo." in [str(m) for m in response.context["messages"]]


def test_a_player_twice_is_refused_naming_the_players_and_nothing_is_written(draft, client):
    t, entries = draft
    before = boards_of(t, 2)
    (b1, b2, b3), bye = before
    response = post(client, t, [(b1[0], b2[1]), (b1[0], b1[1]), b3], bye)
    shown = [str(m) for m in response.context["messages"]]
    twice = entries[[e.pk for e in entries].index(b1[0])].player.name
    missing = entries[[e.pk for e in entries].index(b2[0])].player.name
    assert shown[0] == "Nada foi salvo: corrija o emparceiramento e salve de novo."
    assert f"{twice} está emparceirado mais de uma vez." in shown
    assert f"{missing} está presente mas não foi emparceirado." in shown
    assert boards_of(t, 2) == before
    assert not AuditEntry.objects.filter(action="round.edit").exists()
    page = response.content.decode()
    assert page.count(f'<option value="{b1[0]}" selected>') == 2  # what was chosen is shown again


def test_the_refusals_agree_with_a_female_players_sex(draft, client):
    """Issue 28.14: "emparceirada", "presente mas não foi emparceirada", as the entries page says "inscrita"."""
    t, entries = draft
    (b1, b2, b3), bye = boards_of(t, 2)
    by_pk = {e.pk: e for e in entries}
    for pk in (b1[0], b2[0]):
        by_pk[pk].player.sex = "F"
        by_pk[pk].player.save(update_fields=["sex"])
    response = post(client, t, [(b1[0], b2[1]), (b1[0], b1[1]), b3], bye)
    shown = [str(m) for m in response.context["messages"]]
    assert f"{by_pk[b1[0]].player.name} está emparceirada mais de uma vez." in shown
    assert f"{by_pk[b2[0]].player.name} está presente mas não foi emparceirada." in shown


@pytest.mark.parametrize(
    "data",
    [
        {"first": ["abc"], "second": ["1"], "bye": ""},
        {"first": ["1", "2"], "second": ["3"], "bye": ""},
        {"first": ["-1"], "second": ["0"], "bye": "x"},
        {"first": ["99999999999"], "second": ["1"], "bye": ""},
        {"first": ["1"] * 2001, "second": ["2"] * 2001, "bye": ""},
        {"first": ["\x00"], "second": ["1"], "bye": "²"},
    ],
)
def test_hostile_posts_write_nothing(draft, client, data):
    t, entries = draft
    before = boards_of(t, 2)
    response = client.post(reverse("staff:round_edit", args=[t.slug, 2]), data)
    assert response.status_code in (200, 400)
    assert boards_of(t, 2) == before
    assert not AuditEntry.objects.filter(action="round.edit").exists()


def test_players_of_another_tournament_are_refused(draft, client, field):
    t, entries = draft
    other, strangers = field(2)
    before = boards_of(t, 2)
    (b1, b2, b3), bye = before
    response = post(client, t, [(strangers[0].pk, strangers[1].pk), b2, b3], bye)
    assert "Um jogador de outro torneio não pode ser emparceirado aqui." in [
        str(m) for m in response.context["messages"]
    ]
    assert boards_of(t, 2) == before
