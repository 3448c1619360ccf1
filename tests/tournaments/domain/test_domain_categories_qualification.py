"""Categories, qualification spots (docs/domain.md section 6) and performance figures."""

from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest

from tests.tournaments.domain.domain_builder import build
from tests.tournaments.domain.test_domain_standings import T2_PLAYERS, T2_ROUNDS, T3_PLAYERS, T3_ROUNDS
from tournaments.domain import (
    CategoryRule,
    Person,
    StandingsSettings,
    category_qualification,
    category_standings,
    compute_standings,
    is_member,
    members,
    performances,
    spots_for_average,
)
from tournaments.domain.performance import dp_for

# ------------------------------------------------------------------------------- categories

SUB18 = CategoryRule("S18", "Sub-18", max_age=17)
VET = CategoryRule("V60", "Veteranos", min_age=60)
FEM = CategoryRule("FEM", "Feminino", sex="F")
ABS = CategoryRule("ABS", "Absoluto")


def test_age_on_31_december_of_the_tournament_year():
    # 2026 tournament: born 2009-12-31 is 17 on 2026-12-31 -> sub-18; born 2008-01-01 is 18 -> not
    assert is_member(SUB18, Person(1, "M", date(2009, 12, 31)), 2026)
    assert not is_member(SUB18, Person(2, "M", date(2008, 12, 31)), 2026)
    assert not is_member(SUB18, Person(3, "M", date(2008, 1, 1)), 2026)
    assert is_member(VET, Person(4, "M", date(1966, 12, 31)), 2026)  # 60 on 31 Dec 2026
    assert not is_member(VET, Person(5, "M", date(1967, 1, 1)), 2026)  # 59
    assert not is_member(SUB18, Person(6, "F", None), 2026)  # no birth date: cannot be checked
    assert is_member(FEM, Person(7, "f", None), 2026) and not is_member(FEM, Person(8, "M"), 2026)
    assert is_member(ABS, Person(9), 2026)
    both = CategoryRule("FS18", sex="F", max_age=17)
    assert members(
        both,
        [Person(1, "F", date(2010, 5, 5)), Person(2, "M", date(2010, 5, 5)), Person(3, "F", date(2000, 5, 5))],
        2026,
    ) == {1}


def test_a_year_of_birth_alone_decides_the_age_on_31_december():
    """Age on 31 December is the tournament's year minus the year of birth: the year alone (a TRF's ``1975`` or
    ``1975/00/00``) places the player as a full date of that year would; a date given wins over a year."""
    assert is_member(SUB18, Person(1, "M", birth_year=2009), 2026)  # 17 on 31/12/2026
    assert not is_member(SUB18, Person(2, "M", birth_year=2008), 2026)  # 18
    assert is_member(VET, Person(3, "M", birth_year=1966), 2026) and not is_member(
        VET, Person(4, birth_year=1967), 2026
    )
    assert not is_member(SUB18, Person(5, "M", date(2000, 1, 1), birth_year=2010), 2026)
    assert members(SUB18, [Person(6, birth_year=2012), Person(7), Person(8, birth_year=1990)], 2026) == {6}


def test_category_standings_recompute_ranks_and_keep_shared_places():
    # Tournament 2 with the custom profile [buchholz]: overall 1-2 {P1,P3}, 3-4 {P2,P6}, 5 P4, 6 P5.
    s = compute_standings(build(T2_PLAYERS, T2_ROUNDS), StandingsSettings(profile=["buchholz"]))
    rows = category_standings(s, {3, 2, 6, 5})
    # P3 alone from its shared place -> 1; P2 and P6 share -> 2-3; P5 -> 4
    assert [(r.rank, r.row.id, r.overall_rank) for r in rows] == [
        ("1", 3, "1-2"),
        ("2-3", 2, "3-4"),
        ("2-3", 6, "3-4"),
        ("4", 5, "6"),
    ]
    assert category_standings(s, set()) == []


# ---------------------------------------------------------------------------- qualification


@pytest.mark.parametrize(
    "ratings, participants, spots",
    [
        ([1900] * 30, 30, 1),  # 1,900 -> 1
        ([1899] * 30, 30, 0),
        ([2000] * 15 + [2001] * 15, 30, 1),  # mean 60,015 / 30 = 2,000.5: not rounded -> 1
        ([2001] * 30, 30, 2),  # 2,001 -> 2
        ([2149] * 30, 120, 2),
        ([2149] * 30, 121, 3),  # 2,149 >= 2,100 with more than 120 participants
        ([2150] * 30, 30, 3),  # 2,150 -> 3
        ([2100] * 30, 121, 3),  # more than 120 participants and 2,100 -> 3
        ([2100] * 30, 120, 2),  # exactly 120 -> 2
        ([2099] * 29 + [2100], 500, 2),  # 2,099.03 < 2,100
    ],
)
def test_spots_edges(ratings, participants, spots):
    q = category_qualification("ABS", ratings, participants)
    assert q.spots == spots
    assert q.counted == 30 and q.entries == 30 and q.note is None


def test_average_is_exact_and_unrounded():
    q = category_qualification("ABS", [2000] * 15 + [2001] * 15, 30)
    assert q.average == Decimal("2000.5") and q.exact_average == Fraction(4001, 2)
    # 29 x 2,000 + 2,001 = 60,001 / 30 = 2,000.0333...: still 1 spot
    q = category_qualification("ABS", [2000] * 29 + [2001], 30)
    assert q.spots == 1 and q.exact_average == Fraction(60001, 30)
    assert spots_for_average(Fraction(40019, 20), 30) == 1  # 2000.95
    assert spots_for_average(2001, 30) == 2


def test_only_the_30_highest_count():
    # 30 x 2,001 and 10 x 1,000: the 1,000s are not among the 30 highest -> 2,001 -> 2
    q = category_qualification("ABS", [1000] * 10 + [2001] * 30, 40)
    assert (q.entries, q.counted, q.average, q.spots) == (40, 30, Decimal(2001), 2)


def test_fewer_than_30_entries_uses_all_and_says_so():
    # 2,100 + 2,000 + unrated 1,600 = 5,700 / 3 = 1,900 -> 1
    q = category_qualification("S18", [2100, 2000, None], 40)
    assert (q.entries, q.counted, q.average, q.spots) == (3, 3, Decimal(1900), 1)
    assert "menos de 30" in q.note
    empty = category_qualification("V60", [], 40)
    assert (empty.entries, empty.counted, empty.average, empty.spots) == (0, 0, None, 0)


def test_unrated_at_provisional_rating():
    # 29 x 1,900 + unrated: at 1,600 -> (55,100 + 1,600) / 30 = 1,890 -> 0;
    # at a provisional 1,900 -> 1,900 -> 1
    assert category_qualification("ABS", [1900] * 29 + [None], 30).spots == 0
    assert category_qualification("ABS", [1900] * 29 + [None], 30, provisional=1900).spots == 1
    # the provisional rating also takes part in choosing the 30 highest:
    # 30 x 1,500 and one unrated at 1,600 -> (29 x 1,500 + 1,600) / 30 = 1,503.33
    q = category_qualification("ABS", [1500] * 30 + [None], 31)
    assert q.exact_average == Fraction(29 * 1500 + 1600, 30)


def test_spots_go_to_the_best_placed_only_with_rights():
    q = category_qualification("ABS", [2001] * 30, 30, ranked_ids=[7, 3, 9, 1], rights=False)
    assert q.spots == 2 and q.qualified == ()
    q = category_qualification("ABS", [2001] * 30, 30, ranked_ids=[7, 3, 9, 1], rights=True)
    assert q.qualified == (7, 3)
    assert q.as_json() == {
        "code": "ABS",
        "entries": 30,
        "average": Decimal(2001),
        "counted": 30,
        "spots": 2,
        "qualified": [7, 3],
    }


# ------------------------------------------------------------------------------ performance


def test_dp_table():
    assert dp_for(Fraction(1, 2)) == 0
    assert dp_for(Fraction(2, 3)) == 125  # 0.67
    assert dp_for(Fraction(1, 3)) == -125  # 0.33
    assert dp_for(Fraction(3, 4)) == 193
    assert dp_for(Fraction(1, 8)) == -322  # 0.125 rounds half up to 0.13
    assert dp_for(1) == 800 and dp_for(0) == -800


def test_performances_tournament3():
    perf = performances(build(T3_PLAYERS, T3_ROUNDS, fmt="micro-match"))
    # P1: vs P2 DD (2 games, 2250), vs P3 WL (2 games, 2200), vs P6 unrated: excluded.
    #   4 games, 2 + 2 = 4 of 8 -> p 0.50, dp 0; Ra (2 x 2250 + 2 x 2200) / 4 = 2225 -> 2225
    p1 = perf[1]
    assert (p1.games, p1.score, p1.percentage, p1.average_rating, p1.performance) == (4, 4, Fraction(1, 2), 2225, 2225)
    # P3: vs P4 WW (1800), vs P1 LW (2300), vs P2 DD (2250): 6 games, 4 + 2 + 2 = 8 of 12
    #   -> 0.67, dp 125; Ra 12,700 / 6 = 2116.67 -> 2117; Rp 2241.67 -> 2242
    p3 = perf[3]
    assert (p3.games, p3.score, p3.average_rating, p3.performance) == (6, 8, 2117, 2242)
    # P6 (unrated) vs P5 LW (1700), P4 DD (1800), P1 LL (2300): 6 games, 2 + 2 + 0 = 4 of 12
    #   -> 0.33, dp -125; Ra 11,600 / 6 = 1933.33 -> 1933; Rp 1808.33 -> 1808
    p6 = perf[6]
    assert (p6.games, p6.score, p6.average_rating, p6.performance) == (6, 4, 1933, 1808)
    # P5 met the unrated P6 in R1: only R2 (P2, 2250, LL) and R3 (P4, 1800, WD) count:
    #   4 games, 0 + 3 = 3 of 8 -> 0.375 -> 0.38, dp -87; Ra 8,100 / 4 = 2025; Rp 1938
    p5 = perf[5]
    assert (p5.games, p5.score, p5.average_rating, p5.performance) == (4, 3, 2025, 1938)


def test_performance_without_rated_games():
    players = [(1, "P1", None), (2, "P2", None)]
    perf = performances(build(players, [[(1, 2, "W")]]))
    assert perf[1].games == 0 and perf[1].performance is None
