"""The app reads every reference case as the engine does, end to end: each case imported through the TRF importer
(players, results, byes, forfeits, absences of either value in one tournament, absences announced for the round to
pair, initial colour), the next round paired by ``round_pair``, its boards read back from the database and compared
with the reference's pairing; the tournament exported as TRF gives the engine's command line the same pairing, and
imported again gives the same tournament (the interchange file of both is the same but for the address).

A sample runs in the normal suite (with every case that mixes half-point and zero-point absences among the first
ones); the whole set, 1,894 cases, is the ``slow`` test (``make test-slow``, ``make test-all`` and CI run it)."""

import io

import pytest
from django.core.management import call_command

from pairing import trf
from pairing.__main__ import check_rounds, format_pairs
from pairing.api import pair_trf
from testkit import vectors
from tournaments.interchange import export_data, export_trf, import_trf_with_warnings
from tournaments.models import Tournament
from tournaments.models.choices import SeatSide
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db

ALL = vectors.names()


def _result_codes(text):
    codes = set()
    for line in text.splitlines():
        if line.startswith("001"):
            codes.update(line[col + 7] for col in range(91, len(line) - 7, 10))
    return codes


MIXED = [n for n in ALL if {"H", "Z"} <= _result_codes(vectors.trf_text(n))]
SAMPLE = sorted(set(ALL[::50]) | set(MIXED[:8]))


def same_tournament(a, b):
    """The interchange files of two tournaments, without their addresses."""
    da, db = export_data(a), export_data(b)
    for d in (da, db):
        d["tournament"].pop("slug")
        # where each came from (issue 35.4: the file the import page took, or none for a text read directly)
        d["tournament"].pop("provenance", None)
    return da == db


def check_case(name, director, folder):
    """``manage.py import_tournament`` takes the case's file (its warnings on standard error), the app pairs the
    next round as the reference, and the TRF export (before and after that pairing) reads back everywhere."""
    expected = [line.strip() for line in vectors.expected_pairs(name).split("\n") if line.strip()]
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(vectors.write_case(name, folder)), stdout=out, stderr=err)
    t = Tournament.objects.get(slug=out.getvalue().strip())
    # The cases carry no start date: imported anyway, the director is asked for it.
    assert t.start_date_unknown and "aviso: TRF: sem data de início (linha 042)" in err.getvalue()

    exported = export_trf(t)
    assert format_pairs(pair_trf(trf.parse(exported))).split() == " ".join(expected).split()
    again, _warnings = import_trf_with_warnings(exported, slug=f"{name.lower()}-copia")
    assert same_tournament(t, again)

    rnd = round_pair(tournament=t, user=director)
    seats = list(rnd.seats.select_related("entry", "board"))
    boards = {}
    for s in seats:
        if s.board_id is not None:
            boards.setdefault(s.board.number, {})[s.side] = s.entry.pairing_number
    got = [f"{b[SeatSide.FIRST]} {b[SeatSide.SECOND]}" for _n, b in sorted(boards.items())]
    got += [f"{s.entry.pairing_number} 0" for s in seats if s.side == SeatSide.BYE]
    assert [str(len(got))] + got == expected

    # Exported with that round paired but not played: the engine pairs it the same way, its checker re-pairs
    # every played round as they were, and the importer gives the same tournament back.
    paired = export_trf(t)
    assert format_pairs(pair_trf(trf.parse(paired))).split() == " ".join(expected).split()
    assert check_rounds(trf.parse(paired)) == []
    again, _warnings = import_trf_with_warnings(paired, slug=f"{name.lower()}-rodada")
    assert same_tournament(t, again)


def test_the_cases_mix_both_absence_values():
    assert len(MIXED) == 66 and len(SAMPLE) >= 40


@pytest.mark.parametrize("name", SAMPLE)
def test_imported_case_is_paired_as_the_reference(name, director, tmp_path):
    check_case(name, director, tmp_path)


# The whole set in parts of about 80 cases: each fails naming its cases, the parts run side by side
# (`make test-slow` runs two at a time), and the progress line moves every minute or so instead of sitting still.
CHUNKS = 24


@pytest.mark.slow
@pytest.mark.parametrize("part", range(CHUNKS))
def test_every_case_is_imported_round_tripped_and_paired_as_the_reference(part, director, tmp_path):
    from django.db import transaction

    failures = []
    for name in ALL[part::CHUNKS]:
        if name in SAMPLE:
            continue  # run above
        try:
            with transaction.atomic():
                check_case(name, director, tmp_path)
                transaction.set_rollback(True)
        except Exception as exc:  # collect every failing case, then fail once naming them
            failures.append(f"{name}: {type(exc).__name__}: {str(exc)[:200]}")
    assert not failures, f"{len(failures)} casos falharam:\n" + "\n".join(failures[:30])


def test_mixed_absences_keep_each_value(director):
    """An H and a Z in the same tournament: each absence keeps its value (the tournament's setting stays zero)."""
    from tournaments.models import Absence

    name = MIXED[0]
    text = vectors.trf_text(name)
    t, _w = import_trf_with_warnings(text, user=director, slug="misto")
    assert t.absence_value == "zero"
    values = set(Absence.objects.filter(entry__tournament=t).values_list("value", flat=True))
    assert values == {"zero", "draw"}
    written = {
        (int(line[4:8]), (col - 91) // 10 + 1): line[col + 7]
        for line in text.splitlines()
        if line.startswith("001")
        for col in range(91, len(line) - 7, 10)
        if line[col : col + 4] == "0000" and line[col + 7] in "HZ"
    }
    stored = {
        (pn, rnd): {"draw": "H", "zero": "Z"}[v]
        for pn, rnd, v in Absence.objects.filter(entry__tournament=t).values_list(
            "entry__pairing_number", "round_number", "value"
        )
    }
    assert stored == written
