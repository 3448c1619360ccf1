"""Issue 14, workbook: the place (“Lugar”) is a number, a shared place is said explicitly, and the averages are
rounded as the pages show them."""

from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation

from tests.tournaments.test_homologation import homologable, imported
from tournaments.homologation.report import homologation_check, published_standings
from tournaments.homologation.workbook import as_shown, homologation_workbook, place_cells
from tournaments.standings.presenters import standings_table


def test_a_place_is_a_number_and_a_shared_one_says_so():
    assert place_cells("1") == (1, None)
    assert place_cells("3-4") == (3, "3º a 4º (dividido)")
    assert place_cells("12-15") == (12, "12º a 15º (dividido)")
    assert place_cells(None) == (None, None)


def test_averages_are_rounded_as_the_pages_round_them():
    assert as_shown(Fraction(64501, 30)) == 2150.03  # 2150.0333…
    assert as_shown(Fraction(1, 8)) == 0.12  # half to even, as fmt_number shows 0,12
    assert as_shown(Fraction(60000, 30)) == 2000 and isinstance(as_shown(Fraction(60000, 30)), int)
    assert as_shown(Decimal("1999.995")) == 2000


@pytest.mark.django_db
def test_the_workbook_places_and_averages_match_the_pages():
    t = imported(homologable())
    report = homologation_check(t)
    wb = homologation_workbook(t, report)
    rows = list(wb["Classificação"].iter_rows(min_row=2, values_only=True))
    ranks = [row.rank for row in report.standings.rows]
    assert [(r[0], r[1]) for r in rows] == [place_cells(rank) for rank in ranks]
    assert all(isinstance(r[0], int) for r in rows)
    va = list(wb["Vagas"].iter_rows(min_row=2, max_row=5, values_only=True))
    with translation.override("pt-br"):
        for row in va:
            shown = published_standings(t, category=row[0])  # as the public standings show it
            page = standings_table(t, shown, row[0])["average"]
            assert (None if row[4] is None else str(row[4]).replace(".", ",")) == page
    assert isinstance(va[0][4], float) and len(str(va[0][4]).split(".")[1]) <= 2  # ABS: 2 decimals at most


@pytest.mark.django_db
def test_a_shared_place_in_the_workbook(field, director):
    from tournaments.rounds.results import game_record_result
    from tournaments.rounds.services import round_pair

    t, _entries = field(4, planned_rounds=1)
    rnd = round_pair(tournament=t, user=director, publish=True)
    for board in rnd.boards.all():  # two draws: the four players share the first place
        game_record_result(board=board, results={1: "1/2", 2: "1/2"}, expected_version=1, user=director)
    wb = homologation_workbook(t)
    rows = list(wb["Classificação"].iter_rows(min_row=2, values_only=True))
    assert [(r[0], r[1]) for r in rows] == [(1, "1º a 4º (dividido)")] * 4
