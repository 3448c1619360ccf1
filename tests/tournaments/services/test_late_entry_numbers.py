"""Issue 28.8: a late entrant takes the pairing number its rating gives (FIDE C.04.2, the initial ranking list) before
the next round is paired, until round 4; from round 5 on the next free number. The rounds already paired stay
reproducible from the new numbers (the TRF export re-pairs identically), and their explanations follow the players."""

import pytest
from django.utils import translation

from pairing import trf
from pairing.__main__ import check_rounds
from tournaments.audit.presenters import audit_sentence
from tournaments.entries.services import entry_register
from tournaments.interchange.trf import export_trf
from tournaments.models import AuditEntry, Entry, Round
from tournaments.models.tournament import facts_changed
from tournaments.rounds.numbering import ranking_with_late_entries
from tournaments.rounds.results import game_record_result
from tournaments.rounds.selectors import board_pair, rounds_with_boards
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


def play(t, number, director):
    """Every board of round ``number``: the first player wins the first game, the second game (if any) drawn, but a
    draw on board 2."""
    for board in Round.objects.get(tournament=t, number=number).boards.all():
        results = {1: "1/2" if board.number == 2 else "1-0", 2: "1/2"} if t.is_micro_match else {1: "1-0"}
        if not t.is_micro_match and board.number == 2:
            results = {1: "1/2"}
        game_record_result(board=board, results=results, expected_version=board.version, user=director)


def pairs_by_name(t, number):
    rnd = next(r for r in rounds_with_boards(t) if r.number == number)
    return [tuple(e.player.name for e in board_pair(b)) for b in rnd.boards.all()]


def numbers(t):
    return dict(Entry.objects.filter(tournament=t).values_list("player__name", "pairing_number"))


def test_a_late_entrant_takes_its_rating_place_before_the_next_round(field, director, make_player):
    t, entries = field(10)  # P01 2000 ... P10 1910
    round_pair(tournament=t, user=director, publish=True)
    play(t, 1, director)
    round1 = pairs_by_name(t, 1)
    explanation_of_p09 = Round.objects.get(tournament=t, number=1).explanation["9"]
    late = entry_register(tournament=t, player=make_player(name="Tardia", rating=1975), user=director)
    assert late.pairing_number == 11  # the next free number until round 2 is paired
    round_pair(tournament=t, user=director, publish=True)
    after = numbers(t)
    assert after["Tardia"] == 4  # 2000, 1990, 1980, then 1975
    assert [after[f"P{i:02d}"] for i in range(1, 11)] == [1, 2, 3, 5, 6, 7, 8, 9, 10, 11]
    # round 1 is the same games between the same players; its explanations moved with them
    assert pairs_by_name(t, 1) == round1
    moved = Round.objects.get(tournament=t, number=1).explanation["10"]
    assert moved["player"] == 10 and moved["score"] == explanation_of_p09["score"]
    assert moved["opponent"] == explanation_of_p09["opponent"] + (explanation_of_p09["opponent"] >= 4)
    # the audit log says it, naming the late entrant
    line = AuditEntry.objects.get(action="entry.renumber")
    assert audit_sentence(line) == (
        "Números de emparceiramento reatribuídos pela ordem de rating antes da rodada 2 (FIDE C.04.2) por diretor: "
        "Tardia 11 → 4; 7 outros números desceram um lugar ou mais."
    )


def test_every_round_paired_before_is_paired_again_identically_from_the_trf(field, director, make_player):
    t, entries = field(9, format="single-game")
    round_pair(tournament=t, user=director, publish=True)
    play(t, 1, director)
    entry_register(tournament=t, player=make_player(name="Tardio A", rating=1995), user=director)
    round_pair(tournament=t, user=director, publish=True)
    play(t, 2, director)
    entry_register(tournament=t, player=make_player(name="Tardio B", rating=1955), user=director)
    entry_register(tournament=t, player=make_player(name="Tardio C", rating=1200), user=director)
    round_pair(tournament=t, user=director, publish=True)
    play(t, 3, director)
    after = numbers(t)
    assert (after["Tardio A"], after["Tardio B"], after["Tardio C"]) == (2, 7, 12)
    assert check_rounds(trf.parse(export_trf(t))) == []


def test_after_round_4_a_late_entrant_keeps_the_next_free_number(field, director, make_player):
    t, entries = field(8)
    for number in range(1, 5):
        round_pair(tournament=t, user=director, publish=True)
        play(t, number, director)
    before = numbers(t)
    late = entry_register(tournament=t, player=make_player(name="Forte", rating=2500), user=director)
    round_pair(tournament=t, user=director, publish=True)
    late.refresh_from_db()
    assert late.pairing_number == 9
    assert {k: v for k, v in numbers(t).items() if k != "Forte"} == before
    assert not AuditEntry.objects.filter(action="entry.renumber").exists()


def test_an_imported_numbering_out_of_rating_order_is_kept(field, director, make_player):
    """Only the late entrants not yet seated move: players already numbered keep their order, even when it is not
    the rating order (a file's numbering), so the rounds they played still re-pair the same."""
    t, entries = field(6)
    round_pair(tournament=t, user=director, publish=True)
    play(t, 1, director)
    with facts_changed("rating corrigido depois da 1ª rodada"):  # issue 35.3: only with a reason
        Entry.objects.filter(pk=entries[0].pk).update(rating=1000)  # P01, no. 1, now rated below everyone
    late = entry_register(tournament=t, player=make_player(name="Tardio", rating=1955), user=director)
    order = [e.player.name for e in ranking_with_late_entries(t)]
    assert order == ["P01", "P02", "P03", "P04", "P05", "Tardio", "P06"]
    late.refresh_from_db()
    assert late.pairing_number == 7
