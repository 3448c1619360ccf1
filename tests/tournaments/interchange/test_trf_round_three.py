"""TRFs written in the middle of an event, imported by the app (issue 27): a round paired whose results are not in
comes in as a published round for the director to enter, absences of later rounds kept; round dates one 132 line
per round; 299 lines counted in the standings and written back; TRF-2026 162 symbols; no round count."""

import pytest

from tests.tournaments.interchange.round_three_files import in_progress
from tournaments.interchange import InterchangeError, export_trf, import_trf_with_warnings
from tournaments.models import Absence
from tournaments.models.choices import RoundStatus, SeatSide

pytestmark = pytest.mark.django_db


def boards_of(rnd):
    out = []
    for b in rnd.boards.order_by("number").prefetch_related("seats__entry", "games"):
        seats = {s.side: s.entry.pairing_number for s in b.seats.all()}
        out.append((b.number, seats[SeatSide.FIRST], seats[SeatSide.SECOND], [g.result for g in b.games.all()]))
    return out


def test_round_paired_without_results_is_published_for_the_director(director):
    t, warnings = import_trf_with_warnings(in_progress().encode("latin-1"), user=director)
    assert t.planned_rounds == 5
    assert [r.status for r in t.rounds.order_by("number")] == [RoundStatus.PUBLISHED] * 3
    r3 = t.rounds.get(number=3)
    assert boards_of(r3) == [(1, 1, 4, [None]), (2, 7, 2, [None]), (3, 8, 3, [None])]
    assert r3.seats.get(side=SeatSide.BYE).entry.pairing_number == 5
    absences = sorted(
        Absence.objects.filter(entry__tournament=t).values_list("round_number", "entry__pairing_number", "value")
    )
    assert absences == [(3, 6, "draw"), (4, 3, "draw"), (4, 8, "zero")]
    assert (
        "TRF: a rodada 3 está emparceirada sem resultados; importada como publicada, para o diretor lançar os "
        "resultados" in warnings
    )
    # round dates written one 132 line per round are all kept, and written back on one line
    assert t.trf_header["132"] == ["26/03/14", "26/03/14", "26/03/15"]
    assert "132" + " " * 88 + "26/03/14  26/03/14  26/03/15\n" in export_trf(t)


def test_round_partly_entered_keeps_the_results_it_has(director):
    t, warnings = import_trf_with_warnings(in_progress(results3={1: "1", 4: "0"}))
    assert boards_of(t.rounds.get(number=3)) == [(1, 1, 4, ["1-0"]), (2, 7, 2, [None]), (3, 8, 3, [None])]
    t2, warnings2 = import_trf_with_warnings(in_progress(results3={1: "1"}))
    assert boards_of(t2.rounds.get(number=3))[0] == (1, 1, 4, [None])
    assert (
        "linha 14, rodada 3: resultado “1” só na linha do jogador 1 (em branco na do adversário); a mesa fica sem "
        "resultado para o diretor lançar" in warnings2
    )


def test_paired_with_someone_whose_line_says_otherwise_is_refused_naming_both():
    text = in_progress().replace("   5 w 1     2 w", "   5 w 1  0000 - H")
    with pytest.raises(InterchangeError) as exc:
        import_trf_with_warnings(text)
    assert exc.value.messages == [
        "TRF, linha 15, rodada 3: o jogador 2 está emparceirado com 7, mas a linha de 7 mostra ninguém nessa rodada"
    ]
