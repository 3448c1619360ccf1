"""CBJD order exceptions, direct encounter (C.07 Article 6), unplayed-round edge cases,
input helpers.  Scoring 2/1/0; expected values worked by hand in the comments."""

import pytest

from tests.tournaments.domain.domain_builder import build
from tests.tournaments.domain.test_domain_standings import T3_PLAYERS, T3_ROUNDS
from tournaments.domain import (
    GameResult as G,
)
from tournaments.domain import (
    PlayerData,
    RoundKind,
    RoundRecord,
    StandingsSettings,
    TiebreakCalculator,
    TournamentData,
    TournamentError,
    UnplayedRules,
    compute_standings,
)
from tournaments.domain.standings import (
    NORMAL_ORDER,
    ORDER_END,
    REASON_ACCELERATION_END,
    REASON_DIRECT,
)

SIX = [(i, f"P{i}", 2300 - 100 * i) for i in range(1, 7)]

# Single games, 3 rounds:
E1_ROUNDS = [
    [(1, 3, "W"), (2, 4, "L"), (5, 6, "D")],
    [(1, 4, "W"), (2, 5, "W"), (3, 6, "D")],
    [(2, 1, "W"), (3, 5, "D"), (4, 6, "D")],
]
# P1 2,2,0 = 4 (running 2,4,4: PS 10, PS-C1 8)   P2 0,2,2 = 4 (0,2,4: PS 6, PS-C1 6)
# P4 2,0,1 = 3 (2,2,3: PS 7, C1 5)               P6 1,1,1 = 3 (1,2,3: PS 6, C1 5)
# P3 0,1,1 = 2 (0,1,2: PS 3, C1 3)               P5 1,0,1 = 2 (1,1,2: PS 4, C1 3)
# Three tie groups of two, each pair met in round 3.


def test_exception1_direct_encounter_beats_progressive():
    s = compute_standings(build(SIX, E1_ROUNDS))
    # {P1,P2}: P2 won their game -> P2 first although P1's progressive is higher (10 > 6).
    # {P4,P6}: drew -> level, normal order follows: PS P4 7 > P6 6.
    # {P3,P5}: drew -> PS P5 4 > P3 3.
    assert [(r.rank, r.id) for r in s.rows] == [("1", 2), ("2", 1), ("3", 4), ("4", 6), ("5", 5), ("6", 3)]
    assert all(r.order == ("direct_encounter",) + NORMAL_ORDER for r in s.rows)
    assert all(r.order_reasons == (REASON_DIRECT,) for r in s.rows)
    assert (s.row(2).tiebreaks["direct_encounter"], s.row(1).tiebreaks["direct_encounter"]) == (2, 0)
    assert s.row(4).tiebreaks["direct_encounter"] == 1


def test_exception1_with_acceleration():
    # the reading "corrected progressive first" (issue 26 made Buchholz first the default: its own test)
    s = compute_standings(
        build(SIX, E1_ROUNDS, acceleration_used=True), StandingsSettings(acceleration_order="corrected")
    )
    # {P1,P2}: DE -> P2, P1.
    # {P4,P6}: DE level; PS-C1 5 = 5; BH P4: P2 4 + P1 4 + P6 3 = 11, P6: P5 2 + P3 2 + P4 3 = 7
    #   -> P4 first.
    # {P3,P5}: DE level; PS-C1 3 = 3; BH P3: P1 4 + P6 3 + P5 2 = 9, P5: P6 3 + P2 4 + P3 2 = 9;
    #   PS P5 4 > P3 3 -> P5 first.
    assert [r.id for r in s.rows] == [2, 1, 4, 6, 5, 3]
    assert s.row(4).tiebreaks["buchholz"] == 11 and s.row(6).tiebreaks["buchholz"] == 7
    assert s.row(3).tiebreaks["buchholz"] == 9 and s.row(5).tiebreaks["buchholz"] == 9
    assert s.row(1).order == ("direct_encounter",) + ORDER_END
    assert s.row(1).order_reasons == (REASON_DIRECT, REASON_ACCELERATION_END)


def test_exception1_not_applied_when_they_did_not_meet_or_only_by_forfeit():
    # P1 and P2 both 2 points; their only pairing was a forfeit (not a played encounter).
    rounds = [[(1, 2, "+"), (3, 4, "D")], [(2, 3, "W"), (1, 4, "L")]]
    players = [(1, "P1", 2000), (2, "P2", 1900), (3, "P3", 1800), (4, "P4", 1700)]
    s = compute_standings(build(players, rounds))
    # P1 2 + 0 = 2, P2 0 + 2 = 2, P4 1 + 2 = 3, P3 1 + 0 = 1.
    row = s.row(1)
    assert row.points == 2 and s.row(2).points == 2
    assert row.order == NORMAL_ORDER and row.order_reasons == ()
    assert row.tiebreaks["direct_encounter"] is None
    # PS P1 2 + 2 = 4 > P2 0 + 2 = 2
    assert [r.id for r in s.rows] == [4, 1, 2, 3]


def test_exception3_not_when_the_group_is_not_the_three_highest_rated():
    # Tournament 3 with P4 rated 2400: the three highest ratings are P4, P1, P2, and P4 lost,
    # so the {P1,P2,P3} tie uses the normal order: PS P3 18 > P2 16 > P1 14.
    players = [(pid, name, 2400 if pid == 4 else r) for pid, name, r in T3_PLAYERS]
    s = compute_standings(build(players, T3_ROUNDS, fmt="micro-match"))
    assert [r.id for r in s.rows[:3]] == [3, 2, 1]
    assert s.row(1).order == NORMAL_ORDER and s.row(1).order_reasons == ()


def test_exception3_not_with_a_custom_profile():
    s = compute_standings(
        build(T3_PLAYERS, T3_ROUNDS, fmt="micro-match"), StandingsSettings(profile=["progressive", "buchholz"])
    )
    assert [r.id for r in s.rows[:3]] == [3, 2, 1]
    assert s.row(1).order_reasons == ()


# Direct encounter among more than two (custom profiles): C.07 6.2 and 6.3.
DE_ROUNDS = [
    [(1, 2, "W"), (3, 4, "W"), (5, 6, "D")],
    [(1, 3, "W"), (2, 5, "W"), (4, 6, "D")],
]


def test_direct_encounter_not_all_met_6_3():
    calc = TiebreakCalculator(build(SIX, DE_ROUNDS))
    # {P1,P2,P3}: P1 beat both (worst case 4); P2 and P3 never met: best cases 0 + 2 = 2 each,
    # so P1 is alone at the top whatever happens; {P2,P3} did not meet: stays tied.
    assert calc.de_split([1, 2, 3]) == [[1], [2, 3]]
    # {P2,P3,P5}: P2 beat P5; P3-P2 and P3-P5 missing: P2 worst 2, P3 best 0 + 4 = 4 -> nothing.
    assert calc.de_split([2, 3, 5]) == [[2, 3, 5]]


def test_direct_encounter_all_met_6_2_with_sub_tie():
    rounds = DE_ROUNDS + [[(2, 3, "D"), (4, 5, "D"), (6, 1, "D")]]
    calc = TiebreakCalculator(build(SIX, rounds))
    # all three pairs met: P1 2 + 2 = 4, P2 0 + 1 = 1, P3 0 + 1 = 1 -> P1; {P2,P3} reapplied:
    # they drew -> still tied.
    assert calc.de_split([1, 2, 3]) == [[1], [2, 3]]
    assert calc.de_points(2, [1, 2, 3]) == 1


def test_direct_encounter_twice_uses_the_mean():
    # P1 and P2 met twice (a rematch, as input data): W then D -> P1 mean (2 + 1) / 2 (C.07 6.1.2).
    rounds = [[(1, 2, "W"), (3, 4, "D")], [(1, 2, "D"), (3, 4, "D")]]
    players = [(1, "P1", 2000), (2, "P2", 1900), (3, "P3", 1800), (4, "P4", 1700)]
    calc = TiebreakCalculator(build(players, rounds))
    from fractions import Fraction

    assert calc.de_points(1, [1, 2]) == Fraction(3, 2)
    assert calc.de_points(2, [1, 2]) == Fraction(1, 2)


# Unplayed-round edge cases.


def test_double_forfeit():
    players = [(1, "P1", 2000), (2, "P2", 1900), (3, "P3", 1800), (4, "P4", 1700)]
    rounds = [[(1, 2, "="), (3, 4, "W")], [(1, 3, "W"), (2, 4, "D")]]
    # P1 0 + 2 = 2, P2 0 + 1 = 1, P3 2 + 0 = 2, P4 0 + 1 = 1; double forfeit = category 4 for both,
    # a VUR, adjusted keeps the 0: adjusted = score.  2026 dummies (16.4.1):
    #   P1 R1 min(2, P2's 1) = 1; BH 1 + P3 2 = 3; C1 cuts the VUR 1 -> 2; SB 1*0 + 2*2 = 4
    #   P2 R1 min(1, P1's 2) = 1; BH 1 + P4 1 = 2; SB 0 + 1*1 = 1
    t = build(players, rounds)
    calc = TiebreakCalculator(t)
    assert calc.records[1][0].kind is RoundKind.DOUBLE_FORFEIT
    assert calc.category[1] == [4, None]
    s = compute_standings(t)
    p1, p2 = s.row(1).tiebreaks, s.row(2).tiebreaks
    assert (p1["buchholz"], p1["buchholz_cut1"], p1["sonneborn_berger"], p1["match_points"]) == (3, 2, 4, 2)
    assert (p2["buchholz"], p2["sonneborn_berger"]) == (2, 1)
    assert p1["opponents_rating"] == 1800  # only P3 met over the board
    # 2024: dummies = own score: P1 2 + 2 = 4; P2 1 + 1 = 2
    s = compute_standings(build(players, rounds, unplayed_rules=UnplayedRules.FIDE2024))
    assert (s.row(1).tiebreaks["buchholz"], s.row(2).tiebreaks["buchholz"]) == (4, 2)


def test_late_entry_and_absences_categories():
    players = [(1, "P1", 2000), (2, "P2", 1900), (3, "P3", 1800), (4, "P4", 1700), (5, "P5", 1600)]
    rounds = [
        [(1, 2, "W"), (3, "bye"), (4, "late"), (5, "absent")],
        [(1, 4, "W"), (2, 3, "D"), (5, "absent", 1)],
        [(1, 3, "D"), (2, 4, "L"), (5, "withdrawn")],
    ]
    calc = TiebreakCalculator(build(players, rounds))
    # P4: late R1 followed by played rounds -> category 3 (as awarded, 0); P4 0 + 0 + 2 = 2.
    assert calc.category[4] == [3, None, None] and calc.adjusted[4] == 2
    # P5: absent (0), absent (draw value 1), withdrawn: every one followed only by VURs ->
    # category 5, each counted as a draw for the opponents: adjusted 3, actual 1.
    assert calc.category[5] == [5, 5, 5] and calc.score[5] == 1 and calc.adjusted[5] == 3
    # P3: PAB category 1.
    assert calc.category[3] == [1, None, None]
    # P1's Buchholz: P2 (0 + 1 + 0 = 1) + P4 2 + P3 (2 + 1 + 1 = 4) = 7
    assert calc.buchholz(1) == 7
    # P5's own dummies: min(1, cap 1 x 3 = 3) = 1 each, all VUR: BH 3, C1 2, M1 1
    assert (calc.buchholz(5), calc.buchholz_cut(5, 1), calc.buchholz_cut(5, 1, 1)) == (3, 2, 1)


def test_from_games():
    r = RoundRecord.from_games(7, [G.WIN, G.FORFEIT_WIN])
    assert (r.kind, r.points, r.opponent) == (RoundKind.PLAYED, 4, 7)
    assert RoundRecord.from_games(7, [G.FORFEIT_WIN, G.FORFEIT_WIN]).kind is RoundKind.FORFEIT_WIN
    assert RoundRecord.from_games(7, [G.FORFEIT_LOSS] * 2).kind is RoundKind.FORFEIT_LOSS
    assert RoundRecord.from_games(7, [G.DOUBLE_FORFEIT] * 2).kind is RoundKind.DOUBLE_FORFEIT
    assert RoundRecord.from_games(7, [G.FORFEIT_WIN, G.DOUBLE_FORFEIT]).kind is RoundKind.FORFEIT_WIN
    assert RoundRecord.from_games(7, ["draw"]).points == 1


def test_input_errors():
    bad = PlayerData(id=1, name="x", rounds=(RoundRecord(kind=RoundKind.PLAYED),))
    with pytest.raises(TournamentError):
        TiebreakCalculator(TournamentData(players=(bad,), rounds_completed=1, planned_rounds=1))
    short = PlayerData(id=1, name="x")
    with pytest.raises(TournamentError):
        TiebreakCalculator(TournamentData(players=(short,), rounds_completed=1, planned_rounds=1))
    with pytest.raises(ValueError):
        StandingsSettings(profile=["no_such_key"])


def test_scores_are_int_or_decimal():
    # A Fraction or a float among the scores would meet the Decimal ones (TypeError) or lose exactness:
    # refused where they enter, the scoring and a record's given points.
    from decimal import Decimal
    from fractions import Fraction

    from tournaments.domain import Scoring

    with pytest.raises(TypeError, match="scoring draw must be an int or a Decimal, not Fraction"):
        Scoring(1, Fraction(1, 2), 0)
    with pytest.raises(TypeError, match="scoring win must be an int or a Decimal, not float"):
        Scoring(1.0, Decimal("0.5"), 0)
    players = [(1, "P1", 2000), (2, "P2", 1900)]
    absent = build(players, [[(1, "absent", Fraction(1, 2)), (2, "bye")]])
    with pytest.raises(TournamentError, match="player 1 round 1: points must be an int or a Decimal, not Fraction"):
        TiebreakCalculator(absent)
    assert TiebreakCalculator(build(players, [[(1, "absent", Decimal("0.5")), (2, "bye")]])).score == {
        1: Decimal("0.5"),
        2: 2,
    }


def test_no_round_played_yet():
    players = tuple(PlayerData(id=i, name=f"P{i}", rating=2000 - i) for i in (1, 2, 3))
    s = compute_standings(TournamentData(players=players, rounds_completed=0, planned_rounds=7))
    assert [(r.rank, r.id) for r in s.rows] == [("1-3", 1), ("1-3", 2), ("1-3", 3)]
    assert s.row(1).tiebreaks["buchholz"] == 0 and s.row(1).tiebreaks["opponents_rating"] is None


def test_standings_after_an_earlier_round():
    # records beyond rounds_completed are ignored: tournament 3 after round 1
    t = build(T3_PLAYERS, T3_ROUNDS, fmt="micro-match", rounds_completed=1)
    s = compute_standings(t)
    # R1: P3 4 (WW), then P1, P2, P5, P6 2 each, P4 0
    assert s.rows[0].id == 3 and s.rows[0].points == 4 and s.rows[-1].id == 4


def test_decimal_scoring_one_half_zero():
    # Tournament 2 on a 1 / 0.5 / 0 scale: every score halves, so Buchholz and progressive
    # halve and SB (score x score) is a quarter: P1 BH 10 -> 5, PS 8 -> 4, SB 12 -> 3.
    from decimal import Decimal

    from tests.tournaments.domain.test_domain_standings import T2_PLAYERS, T2_ROUNDS
    from tournaments.domain import Scoring

    t = build(T2_PLAYERS, T2_ROUNDS, scoring=Scoring(1, Decimal("0.5"), 0))
    v = compute_standings(t).row(1).tiebreaks
    assert (v["buchholz"], v["progressive"], v["sonneborn_berger"]) == (5, 4, 3)
    # Riga's multiplier stays 2 per game won / 1 per draw whatever the scale:
    # D vs P2 (2) 1*2 + W vs P4 (1) 2*1 + D vs P3 (2) 1*2 = 6
    assert v["riga"] == 6


def test_direct_encounter_mean_on_a_half_point_scale():
    # The database's 1 / 0.5 / 0 scale reaches the domain as Scoring(1, Decimal("0.5"), 0): a win or a loss
    # is an int, a draw a Decimal.  P1 and P2 met twice (W, L: mean (1 + 0) / 2), P3 and P4 twice (D, D):
    #   R1 P1-P2 W, P3-P4 D   R2 P2-P1 W, P3-P4 D   R3 P1-P3 D, P2-P4 D  -> everyone 1.5, one tie group.
    # Direct encounter among the four: P1 1/2 (P2, mean) + 0.5 (P3) = 1; P2 1/2 + 0.5 (P4) = 1;
    # P3 0.5 (P1) + 0.5 (P4, mean) = 1; P4 0.5 + 0.5 = 1.  The int encounters' mean is exact; it met the
    # Decimal draws and raised TypeError (Fraction + Decimal) before.
    from decimal import Decimal
    from fractions import Fraction

    from tournaments.domain import Scoring

    players = [(1, "P1", 2000), (2, "P2", 1900), (3, "P3", 1800), (4, "P4", 1700)]
    rounds = [[(1, 2, "W"), (3, 4, "D")], [(2, 1, "W"), (3, 4, "D")], [(1, 3, "D"), (2, 4, "D")]]
    t = build(players, rounds, scoring=Scoring(1, Decimal("0.5"), 0))
    calc = TiebreakCalculator(t)
    assert [calc.de_points(p, [1, 2, 3, 4]) for p in (1, 2, 3, 4)] == [1, 1, 1, 1]
    assert calc.de_points(1, [1, 2]) == Fraction(1, 2) and calc.de_points(3, [3, 4]) == Decimal("0.5")
    s = compute_standings(t)
    assert [r.points for r in s.rows] == [Decimal("1.5")] * 4
    assert [s.row(p).tiebreaks["direct_encounter"] for p in (1, 2, 3, 4)] == [1, 1, 1, 1]
    # 6.3 with a mean and Decimal points: each missed one encounter (P1-P4, P2-P3), so each has 1 at worst and
    # 1 + 1 (a win in the missing encounter) at best: nobody is alone at the top.
    assert calc.de_split([1, 2, 3, 4]) == [[1, 2, 3, 4]]


def test_direct_encounter_6_3_best_case_on_a_decimal_win():
    # Scale 2.5 / 1 / 0 (the database allows it): Scoring(Decimal("2.5"), 1, 0).  P1-P2 met twice, D then
    # P2 won; P2 beat P3; P1 and P3 never met.  Group {P1, P2, P3} (C.07 6.3):
    #   P1 mean (1 + 0) / 2 = 1/2, best 1/2 + 2.5 = 3      P2 (1 + 2.5) / 2 + 2.5 = 4.25, met both
    #   P3 0, best 0 + 2.5 = 2.5
    # P2 is alone at the top; P1 and P3 did not meet: still tied.  Before, P1's best case added the exact
    # mean (a Fraction) to the Decimal win and raised TypeError.
    from decimal import Decimal

    from tournaments.domain import Scoring

    players = [(1, "P1", 2000), (2, "P2", 1900), (3, "P3", 1800), (4, "P4", 1700)]
    rounds = [[(1, 2, "D"), (3, 4, "W")], [(2, 1, "W"), (3, 4, "L")], [(2, 3, "W"), (1, 4, "D")]]
    calc = TiebreakCalculator(build(players, rounds, scoring=Scoring(Decimal("2.5"), 1, 0)))
    assert calc.de_points(1, [1, 2, 3]) * 2 == 1 and calc.de_points(2, [1, 2, 3]) == Decimal("4.25")
    assert calc.de_split([1, 2, 3]) == [[2], [1, 3]]
