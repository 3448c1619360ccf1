"""The app pairs as the reference engine does, end to end: reference cases imported through the TRF importer
(players, results, byes, withdrawals, absences announced for the round to pair, initial colour), the next round
paired by ``round_pair``, its boards read back from the database and compared with the reference's pairing. The
tournament exported again as TRF, before pairing, gives the engine's command line the same pairing."""

import pytest

from pairing import trf
from pairing.__main__ import format_pairs
from pairing.api import pair_trf
from testkit import vectors
from tournaments.interchange import InterchangeError, export_trf, import_trf
from tournaments.models.choices import SeatSide
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

ALL = vectors.names()
SAMPLE = ALL[::50]  # 38 cases: 7 to 320 players, 1/0.5/0 and 2/1/0 scoring, rounds 1 to 11
HEADER = "012 Caso de referência\n042 2026/01/10\n"  # the cases carry no start date; the importer needs one


def _result_codes(text):
    codes = set()
    for line in text.splitlines():
        if line.startswith("001"):
            codes.update(line[col + 7] for col in range(91, len(line) - 7, 10))
    return codes


def _mixes_absence_values(name):
    return {"H", "Z"} <= _result_codes(vectors.trf_text(name))


@pytest.mark.parametrize("name", [n for n in SAMPLE if not _mixes_absence_values(n)])
def test_imported_case_is_paired_as_the_reference(name, director):
    t = import_trf(HEADER + vectors.trf_text(name), user=director, slug=name.lower())
    expected = [line.strip() for line in vectors.expected_pairs(name).split("\n") if line.strip()]
    assert format_pairs(pair_trf(trf.parse(export_trf(t)))).split() == " ".join(expected).split()

    rnd = round_pair(tournament=t, user=director)
    seats = list(rnd.seats.select_related("entry", "board"))
    boards = {}
    for s in seats:
        if s.board_id is not None:
            boards.setdefault(s.board.number, {})[s.side] = s.entry.pairing_number
    got = [f"{b[SeatSide.FIRST]} {b[SeatSide.SECOND]}" for _n, b in sorted(boards.items())]
    got += [f"{s.entry.pairing_number} 0" for s in seats if s.side == SeatSide.BYE]
    assert [str(len(got))] + got == expected


def test_a_case_mixing_half_point_and_zero_point_absences_is_refused_whole():
    """The tournament has one value for announced absences (domain.md): such a file is refused, nothing written."""
    from tournaments.models import Tournament

    name = next(n for n in ALL if _mixes_absence_values(n))
    with pytest.raises(InterchangeError, match="meio ponto .H. e de zero ponto .Z."):
        import_trf(HEADER + vectors.trf_text(name), slug="misto")
    assert not Tournament.objects.filter(slug="misto").exists()
