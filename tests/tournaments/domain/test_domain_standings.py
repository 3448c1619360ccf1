"""Hand-computed standings of small tournaments, every tiebreak value asserted.

Scoring 2/1/0 per game.  Expected values are worked out by hand in the comments.
"""

from tests.tournaments.domain.domain_builder import build
from tournaments.domain import TIEBREAK_KEYS, StandingsSettings, compute_standings
from tournaments.domain.standings import (
    NORMAL_ORDER,
    ORDER_END,
    REASON_ACCELERATION_END,
    REASON_ACCELERATION_SECOND,
    REASON_DIRECT,
    REASON_TOP3_END,
)


def tb(order, **values):
    """Expected tiebreak dict; keys in the order used, then the canonical order."""
    assert set(values) == set(TIEBREAK_KEYS)
    keys = list(order) + [k for k in TIEBREAK_KEYS if k not in order]
    return {k: values[k] for k in keys}


def check(standings, expected):
    """expected: list of (rank, id, points, tiebreaks dict, order reason code or None), best first."""
    got = [(r.rank, r.id, r.points, r.tiebreaks, r.order_reasons) for r in standings.rows]
    expected = [(*e[:4], (e[4],) if e[4] else ()) for e in expected]
    for g, e in zip(got, expected):
        assert g == e, f"\n got {g}\nwant {e}"
    assert len(got) == len(expected)
    for r in standings.rows:  # dict order is part of the contract ("in the order used")
        exp = next(e for e in expected if e[1] == r.id)
        assert list(r.tiebreaks) == list(exp[3])


# ---------------------------------------------------------------------------------------------
# Tournament 1: micro-match, 5 players, 3 rounds, with a bye, a forfeit, a withdrawal,
# a micro-match with one forfeited game, an unrated player.  Round unit: win 4, draw 2;
# 16.4.2 cap = 2 x 3 = 6.
ANA, BRUNO, CARLA, DAVI, EVA = 1, 2, 3, 4, 5
T1_PLAYERS = [
    (ANA, "Ana", 2100),
    (BRUNO, "Bruno", 2000),
    (CARLA, "Carla", 1900),
    (DAVI, "Davi", None),
    (EVA, "Eva", 1700),
]
T1_ROUNDS = [
    [(ANA, CARLA, "WD"), (BRUNO, DAVI, "WW"), (EVA, "bye")],
    [(ANA, BRUNO, "DD"), (EVA, DAVI, "++"), (CARLA, "bye")],
    [(ANA, EVA, "D+"), (BRUNO, CARLA, "LD"), (DAVI, "withdrawn")],
]
# Round points:        R1  R2  R3  total   running      PS  PS-C1
#   Ana               3   2   3     8    3, 5, 8      16   13
#   Bruno             4   2   1     7    4, 6, 7      17   13
#   Carla             1   4b  3     8    1, 5, 8      14   13
#   Davi              0   0f  0w    0    0, 0, 0       0    0
#   Eva               4b  4f  1     9    4, 8, 9      21   17
# Adjusted scores (16.3): Davi's R3 withdrawal is a requested bye in the last round
# (category 5) -> counts a round draw, 2: Davi adjusted 2.  Others = score (bye cat. 1 and
# forfeits cat. 2/4 count as awarded): Ana 8, Bruno 7, Carla 8, Eva 9.
# Buchholz terms (opponent adjusted or dummy = min(own, cap)):
#   Ana:   Carla 8, Bruno 7, Eva 9                      BH 24; C1 -7 = 17; M1 -7 -9 = 8
#   Bruno: Davi 2, Ana 8, Carla 8                       BH 18; C1 16; M1 -2 -8 = 8
#   Carla: Ana 8, bye dummy min(8, 6) = 6, Bruno 7      BH 21; C1 -6 = 15; M1 -6 -8 = 7
#   Davi:  Bruno 7, forfeit-loss dummy min(0, Eva 9) = 0 (VUR),
#          withdrawal dummy min(0, 6) = 0 (VUR)         BH 7; C1 cuts a VUR 0 -> 7;
#                                                       M1 cuts VUR 0, then 7 -> 0
#   Eva:   bye dummy min(9, 6) = 6, forfeit-win dummy min(9, Davi 2) = 2, Ana 8
#                                                       BH 16; C1 -2 = 14; M1 -2 -8 = 6
# Truncated Solkoff = BH - lowest term: Ana 17, Bruno 16, Carla 15, Davi 7, Eva 14.
# SB = sum(term x own round points):
#   Ana 8*3 + 7*2 + 9*3 = 65; Bruno 2*4 + 8*2 + 8*1 = 32; Carla 8*1 + 6*4 + 7*3 = 53;
#   Davi 0; Eva 6*4 + 2*4 + 8*1 = 40.
# Matches won (played encounters): Ana R1 3-1, R3 3-1 -> 2; Bruno R1 -> 1; Carla R3 3-1 -> 1;
#   Davi 0; Eva 0 (bye and forfeit are not played).
# Games won over the board: Ana 1 (R1; R3's forfeit game does not count); Bruno 2; Carla 1;
#   Davi 0; Eva 0.
# Match points 2/1/0 per round: Ana 2+1+2 = 5; Bruno 2+1+0 = 3; Carla 0 + bye 2 + 2 = 4;
#   Davi 0; Eva bye 2 + forfeit win 2 + 0 = 4.
# Opponents' rating (over the board; Davi unrated at 1600):
#   Ana (1900+2000+1700)/3 = 1866.7 -> 1867; Bruno (1600+2100+1900)/3 -> 1867;
#   Carla (2100+2000)/2 = 2050; Davi 2000; Eva 2100.
# Riga (opponent's score x 2 per game won, 1 per game drawn; forfeit game won counts 2):
#   Ana 8*3 + 7*2 + 9*3 = 65; Bruno 0*4 + 8*2 + 8*1 = 24; Carla 8*1 + 7*3 = 29; Davi 0;
#   Eva 8*1 = 8.
# Order: Eva 9; Ana and Carla 8, exactly two, met in R1 -> CBJD exception 1: direct
# encounter first: Ana 3, Carla 1 -> Ana 2nd; Bruno 7; Davi 0.


def test_tournament1_micro_match_bye_forfeit_withdrawal():
    t = build(T1_PLAYERS, T1_ROUNDS, fmt="micro-match")
    s = compute_standings(t)
    de = ("direct_encounter",) + NORMAL_ORDER
    check(
        s,
        [
            (
                "1",
                EVA,
                9,
                tb(
                    NORMAL_ORDER,
                    progressive=21,
                    progressive_corrected=17,
                    buchholz=16,
                    buchholz_cut1=14,
                    buchholz_median=6,
                    direct_encounter=None,
                    sonneborn_berger=40,
                    matches_won=0,
                    games_won=0,
                    match_points=4,
                    opponents_rating=2100,
                    truncated_solkoff=14,
                    riga=8,
                ),
                None,
            ),
            (
                "2",
                ANA,
                8,
                tb(
                    de,
                    progressive=16,
                    progressive_corrected=13,
                    buchholz=24,
                    buchholz_cut1=17,
                    buchholz_median=8,
                    direct_encounter=3,
                    sonneborn_berger=65,
                    matches_won=2,
                    games_won=1,
                    match_points=5,
                    opponents_rating=1867,
                    truncated_solkoff=17,
                    riga=65,
                ),
                REASON_DIRECT,
            ),
            (
                "3",
                CARLA,
                8,
                tb(
                    de,
                    progressive=14,
                    progressive_corrected=13,
                    buchholz=21,
                    buchholz_cut1=15,
                    buchholz_median=7,
                    direct_encounter=1,
                    sonneborn_berger=53,
                    matches_won=1,
                    games_won=1,
                    match_points=4,
                    opponents_rating=2050,
                    truncated_solkoff=15,
                    riga=29,
                ),
                REASON_DIRECT,
            ),
            (
                "4",
                BRUNO,
                7,
                tb(
                    NORMAL_ORDER,
                    progressive=17,
                    progressive_corrected=13,
                    buchholz=18,
                    buchholz_cut1=16,
                    buchholz_median=8,
                    direct_encounter=None,
                    sonneborn_berger=32,
                    matches_won=1,
                    games_won=2,
                    match_points=3,
                    opponents_rating=1867,
                    truncated_solkoff=16,
                    riga=24,
                ),
                None,
            ),
            (
                "5",
                DAVI,
                0,
                tb(
                    NORMAL_ORDER,
                    progressive=0,
                    progressive_corrected=0,
                    buchholz=7,
                    buchholz_cut1=7,
                    buchholz_median=0,
                    direct_encounter=None,
                    sonneborn_berger=0,
                    matches_won=0,
                    games_won=0,
                    match_points=0,
                    opponents_rating=2000,
                    truncated_solkoff=7,
                    riga=0,
                ),
                None,
            ),
        ],
    )
    davi = s.row(DAVI)
    assert davi.withdrawn_from == 3 and davi.unrated
    assert s.row(ANA).order == ("direct_encounter", "progressive", "progressive_corrected", "buchholz")
    assert s.as_json()[1] == {
        "rank": "2",
        "id": ANA,
        "name": "Ana",
        "points": 8,
        "tiebreaks": s.row(ANA).tiebreaks,
        "order_reasons": [REASON_DIRECT],
    }


def test_tournament1_corrected_progressive_settings():
    t = build(T1_PLAYERS, T1_ROUNDS, fmt="micro-match")
    # cut 2: Ana's running 3, 5, 8 -> 8; Eva 4, 8, 9 -> 9
    s = compute_standings(t, StandingsSettings(corrected_cut=2))
    assert s.row(ANA).tiebreaks["progressive_corrected"] == 8
    assert s.row(EVA).tiebreaks["progressive_corrected"] == 9
    # points won without play excluded (cut 1): Eva counts only R3's over-the-board draw:
    # running 0, 0, 1 -> 0 + 1 = 1; Carla (R2 bye excluded): 1, 1, 4 -> 5;
    # Ana (R3's forfeited game excluded): 3, 5, 6 -> 11
    s = compute_standings(t, StandingsSettings(corrected_counts_unplayed=False))
    assert s.row(EVA).tiebreaks["progressive_corrected"] == 1
    assert s.row(CARLA).tiebreaks["progressive_corrected"] == 5
    assert s.row(ANA).tiebreaks["progressive_corrected"] == 11
    assert s.row(ANA).tiebreaks["progressive"] == 16  # the plain progressive is unchanged
    assert "não contam" in s.readings[0]


# ---------------------------------------------------------------------------------------------
# Tournament 2: single games, 6 players, 3 rounds, acceleration used (CBJD exception 2).
T2_PLAYERS = [(1, "P1", 2200), (2, "P2", 2100), (3, "P3", 2000), (4, "P4", 1900), (5, "P5", 1800), (6, "P6", 1700)]
T2_ROUNDS = [
    [(1, 2, "D"), (3, 4, "W"), (5, 6, "L")],
    [(3, 6, "D"), (1, 4, "W"), (2, 5, "W")],
    [(1, 3, "D"), (2, 6, "D"), (4, 5, "W")],
]
# Points  R1 R2 R3 total  running   PS PS-C1
#   P1    1  2  1   4     1,3,4     8   7
#   P2    1  2  1   4     1,3,4     8   7
#   P3    2  1  1   4     2,3,4     9   7
#   P4    0  0  2   2     0,0,2     2   2
#   P5    0  0  0   0     0,0,0     0   0
#   P6    2  1  1   4     2,3,4     9   7
# Everything played, adjusted = score.  BH terms:
#   P1: P2 4, P4 2, P3 4 = 10 (C1 8, M1 4)   P2: P1 4, P5 0, P6 4 = 8 (C1 8, M1 4)
#   P3: P4 2, P6 4, P1 4 = 10 (C1 8, M1 4)   P6: P5 0, P3 4, P2 4 = 8 (C1 8, M1 4)
#   P4: P3 4, P1 4, P5 0 = 8 (C1 8, M1 4)    P5: P6 4, P2 4, P4 2 = 10 (C1 8, M1 4)
#   truncated Solkoff = C1 here (no unplayed round).
# SB (term x points): P1 4*1 + 2*2 + 4*1 = 12; P2 4*1 + 0*2 + 4*1 = 8; P3 2*2 + 4 + 4 = 12;
#   P6 0*2 + 4 + 4 = 8; P4 0 + 0 + 0*2 = 0; P5 0.  Riga (single game: 2/1/0 x score) = SB here.
# Wins (matches = games): P1 1, P2 1, P3 1, P6 1, P4 1, P5 0.  Match points = points here.
# ARO: P1 (2100+1900+2000)/3 = 2000; P2 (2200+1800+1700)/3 = 1900; P3 (1900+1700+2200)/3
#   = 1933.3 -> 1933; P6 (1800+2000+2100)/3 = 1966.7 -> 1967; P4 (2000+2200+1800)/3 = 2000;
#   P5 (1700+2100+1900)/3 = 1900.
# DE within the 4-point group {1,2,3,6}: each drew its two games inside it: 1 + 1 = 2.
# Acceleration: order corrected, Buchholz, progressive.  PS-C1 all 7; BH {P1,P3} 10, {P2,P6} 8;
# PS P3 9 > P1 8, P6 9 > P2 8 -> P3, P1, P6, P2.  (Normal order would give P3, P6, P1, P2.)


def t2_values(pid):
    v = {
        1: {
            "progressive": 8,
            "progressive_corrected": 7,
            "buchholz": 10,
            "sonneborn_berger": 12,
            "matches_won": 1,
            "games_won": 1,
            "match_points": 4,
            "opponents_rating": 2000,
            "riga": 12,
            "direct_encounter": 2,
        },
        2: {
            "progressive": 8,
            "progressive_corrected": 7,
            "buchholz": 8,
            "sonneborn_berger": 8,
            "matches_won": 1,
            "games_won": 1,
            "match_points": 4,
            "opponents_rating": 1900,
            "riga": 8,
            "direct_encounter": 2,
        },
        3: {
            "progressive": 9,
            "progressive_corrected": 7,
            "buchholz": 10,
            "sonneborn_berger": 12,
            "matches_won": 1,
            "games_won": 1,
            "match_points": 4,
            "opponents_rating": 1933,
            "riga": 12,
            "direct_encounter": 2,
        },
        4: {
            "progressive": 2,
            "progressive_corrected": 2,
            "buchholz": 8,
            "sonneborn_berger": 0,
            "matches_won": 1,
            "games_won": 1,
            "match_points": 2,
            "opponents_rating": 2000,
            "riga": 0,
            "direct_encounter": None,
        },
        5: {
            "progressive": 0,
            "progressive_corrected": 0,
            "buchholz": 10,
            "sonneborn_berger": 0,
            "matches_won": 0,
            "games_won": 0,
            "match_points": 0,
            "opponents_rating": 1900,
            "riga": 0,
            "direct_encounter": None,
        },
        6: {
            "progressive": 9,
            "progressive_corrected": 7,
            "buchholz": 8,
            "sonneborn_berger": 8,
            "matches_won": 1,
            "games_won": 1,
            "match_points": 4,
            "opponents_rating": 1967,
            "riga": 8,
            "direct_encounter": 2,
        },
    }[pid]
    return dict(v, buchholz_cut1=8, buchholz_median=4, truncated_solkoff=8)


def test_tournament2_acceleration_moves_progressive_to_the_end():
    t = build(T2_PLAYERS, T2_ROUNDS, acceleration_used=True)
    # the reading "corrected progressive first" (issue 26 made Buchholz first the default: its own test)
    s = compute_standings(t, StandingsSettings(acceleration_order="corrected"))
    r = REASON_ACCELERATION_END
    check(
        s,
        [
            ("1", 3, 4, tb(ORDER_END, **t2_values(3)), r),
            ("2", 1, 4, tb(ORDER_END, **t2_values(1)), r),
            ("3", 6, 4, tb(ORDER_END, **t2_values(6)), r),
            ("4", 2, 4, tb(ORDER_END, **t2_values(2)), r),
            ("5", 4, 2, tb(ORDER_END, **t2_values(4)), r),
            ("6", 5, 0, tb(ORDER_END, **t2_values(5)), r),
        ],
    )


def test_tournament2_acceleration_second_place_setting_and_normal_order():
    t = build(T2_PLAYERS, T2_ROUNDS, acceleration_used=True)
    s = compute_standings(t, StandingsSettings(accelerated_progressive="second", acceleration_order="corrected"))
    # corrected (all 7), progressive {P3,P6} 9 > {P1,P2} 8, Buchholz P3 10 > P6 8, P1 10 > P2 8
    assert [r.id for r in s.rows] == [3, 6, 1, 2, 4, 5]
    assert s.row(3).order == ("progressive_corrected", "progressive", "buchholz")
    assert s.row(3).order_reasons == (REASON_ACCELERATION_SECOND,)
    s = compute_standings(build(T2_PLAYERS, T2_ROUNDS))
    assert [r.id for r in s.rows] == [3, 6, 1, 2, 4, 5]
    assert s.row(3).order == NORMAL_ORDER and s.row(3).order_reasons == ()


def test_shared_places_custom_profile():
    # Custom profile [buchholz] on tournament 2: {P1,P3} 10 share 1-2, {P2,P6} 8 share 3-4,
    # listed by pairing number; P4 5th, P5 6th.
    s = compute_standings(build(T2_PLAYERS, T2_ROUNDS), StandingsSettings(profile=["buchholz"]))
    assert [(r.rank, r.id) for r in s.rows] == [("1-2", 1), ("1-2", 3), ("3-4", 2), ("3-4", 6), ("5", 4), ("6", 5)]
    assert all(r.order_reasons == () and r.order == ("buchholz",) for r in s.rows)
    assert list(s.row(1).tiebreaks)[0] == "buchholz"
    # empty list: the whole 4-point group shares 1-4
    s = compute_standings(build(T2_PLAYERS, T2_ROUNDS), StandingsSettings(profile=[]))
    assert [(r.rank, r.id) for r in s.rows][:4] == [("1-4", 1), ("1-4", 2), ("1-4", 3), ("1-4", 6)]


# ---------------------------------------------------------------------------------------------
# Tournament 3: micro-matches, 6 players, 3 rounds.  The three highest ratings (P1 2300,
# P2 2250, P3 2200) play every round, beat every other opponent 4-0 and draw (2-2) the three
# micro-matches among themselves: CBJD exception 3.  P6 is unrated (1600).
T3_PLAYERS = [(1, "P1", 2300), (2, "P2", 2250), (3, "P3", 2200), (4, "P4", 1800), (5, "P5", 1700), (6, "P6", None)]
T3_ROUNDS = [
    [(1, 2, "DD"), (3, 4, "WW"), (5, 6, "WL")],
    [(1, 3, "WL"), (2, 5, "WW"), (4, 6, "DD")],
    [(2, 3, "DD"), (1, 6, "WW"), (4, 5, "LD")],
]
# Points  R1 R2 R3 total  running   PS  PS-C1
#   P1    2  2  4   8     2,4,8     14  12
#   P2    2  4  2   8     2,6,8     16  14
#   P3    4  2  2   8     4,6,8     18  14
#   P4    0  2  1   3     0,2,3      5   5
#   P5    2  0  3   5     2,2,5      9   7
#   P6    2  2  0   4     2,4,4     10   8
# BH terms (all played):
#   P1: P2 8, P3 8, P6 4 = 20 (C1 16, M1 8)    P2: P1 8, P5 5, P3 8 = 21 (C1 16, M1 8)
#   P3: P4 3, P1 8, P2 8 = 19 (C1 16, M1 8)    P4: P3 8, P6 4, P5 5 = 17 (C1 13, M1 5)
#   P5: P6 4, P2 8, P4 3 = 15 (C1 12, M1 4)    P6: P5 5, P4 3, P1 8 = 16 (C1 13, M1 5)
# SB: P1 8*2 + 8*2 + 4*4 = 48; P2 8*2 + 5*4 + 8*2 = 52; P3 3*4 + 8*2 + 8*2 = 44;
#   P4 8*0 + 4*2 + 5*1 = 13; P5 4*2 + 8*0 + 3*3 = 17; P6 5*2 + 3*2 + 8*0 = 16.
#   Riga = SB here (all games over the board, 2/1/0: the multiplier is the match score).
# Matches won: P1 1 (R3), P2 1 (R2), P3 1 (R1), P4 0, P5 1 (R3 3-1), P6 0.
# Games won: P1 1 + 2 = 3; P2 2; P3 2 + 1 = 3; P4 0; P5 1 + 1 = 2; P6 1.
# Match points: P1 1+1+2 = 4; P2 1+2+1 = 4; P3 2+1+1 = 4; P4 0+1+0 = 1; P5 1+0+2 = 3;
#   P6 1+1+0 = 2.
# ARO: P1 (2250+2200+1600)/3 = 2016.7 -> 2017; P2 (2300+1700+2200)/3 = 2066.7 -> 2067;
#   P3 (1800+2300+2250)/3 = 2116.7 -> 2117; P4 (2200+1600+1700)/3 = 1833.3 -> 1833;
#   P5 (1600+2250+1800)/3 = 1883.3 -> 1883; P6 (1700+1800+2300)/3 = 1933.3 -> 1933.
# DE inside {P1,P2,P3}: 2 + 2 = 4 each.
# Exception 3: order corrected, Buchholz, progressive: PS-C1 P2 14 = P3 14 > P1 12;
#   BH P2 21 > P3 19 -> P2, P3, P1.  (Normal order: PS P3 18 > P2 16 > P1 14.)
# Then P5 5, P6 4, P4 3.


def test_tournament3_top_three_exception_moved_reading():
    """The ``top3_order="moved"`` reading (exception c as exception a). The default is in test_domain_regulation:
    here Buchholz first would give P2 21, P1 20, P3 19."""
    default = compute_standings(build(T3_PLAYERS, T3_ROUNDS, fmt="micro-match"))
    assert [r.id for r in default.rows][:3] == [2, 1, 3]
    s = compute_standings(build(T3_PLAYERS, T3_ROUNDS, fmt="micro-match"), StandingsSettings(top3_order="moved"))
    r = REASON_TOP3_END
    check(
        s,
        [
            (
                "1",
                2,
                8,
                tb(
                    ORDER_END,
                    progressive=16,
                    progressive_corrected=14,
                    buchholz=21,
                    buchholz_cut1=16,
                    buchholz_median=8,
                    direct_encounter=4,
                    sonneborn_berger=52,
                    matches_won=1,
                    games_won=2,
                    match_points=4,
                    opponents_rating=2067,
                    truncated_solkoff=16,
                    riga=52,
                ),
                r,
            ),
            (
                "2",
                3,
                8,
                tb(
                    ORDER_END,
                    progressive=18,
                    progressive_corrected=14,
                    buchholz=19,
                    buchholz_cut1=16,
                    buchholz_median=8,
                    direct_encounter=4,
                    sonneborn_berger=44,
                    matches_won=1,
                    games_won=3,
                    match_points=4,
                    opponents_rating=2117,
                    truncated_solkoff=16,
                    riga=44,
                ),
                r,
            ),
            (
                "3",
                1,
                8,
                tb(
                    ORDER_END,
                    progressive=14,
                    progressive_corrected=12,
                    buchholz=20,
                    buchholz_cut1=16,
                    buchholz_median=8,
                    direct_encounter=4,
                    sonneborn_berger=48,
                    matches_won=1,
                    games_won=3,
                    match_points=4,
                    opponents_rating=2017,
                    truncated_solkoff=16,
                    riga=48,
                ),
                r,
            ),
            (
                "4",
                5,
                5,
                tb(
                    NORMAL_ORDER,
                    progressive=9,
                    progressive_corrected=7,
                    buchholz=15,
                    buchholz_cut1=12,
                    buchholz_median=4,
                    direct_encounter=None,
                    sonneborn_berger=17,
                    matches_won=1,
                    games_won=2,
                    match_points=3,
                    opponents_rating=1883,
                    truncated_solkoff=12,
                    riga=17,
                ),
                None,
            ),
            (
                "5",
                6,
                4,
                tb(
                    NORMAL_ORDER,
                    progressive=10,
                    progressive_corrected=8,
                    buchholz=16,
                    buchholz_cut1=13,
                    buchholz_median=5,
                    direct_encounter=None,
                    sonneborn_berger=16,
                    matches_won=0,
                    games_won=1,
                    match_points=2,
                    opponents_rating=1933,
                    truncated_solkoff=13,
                    riga=16,
                ),
                None,
            ),
            (
                "6",
                4,
                3,
                tb(
                    NORMAL_ORDER,
                    progressive=5,
                    progressive_corrected=5,
                    buchholz=17,
                    buchholz_cut1=13,
                    buchholz_median=5,
                    direct_encounter=None,
                    sonneborn_berger=13,
                    matches_won=0,
                    games_won=0,
                    match_points=1,
                    opponents_rating=1833,
                    truncated_solkoff=13,
                    riga=13,
                ),
                None,
            ),
        ],
    )


def test_points_given_or_taken_outside_the_games_count_in_the_score_and_buchholz():
    """A penalty (a TRF's 299 line, issue 27): in the score, hence in the opponents' Buchholz; no round changes."""
    import dataclasses

    t = build(
        [(1, "Ana", 2000), (2, "Bia", 1990), (3, "Caio", 1980), (4, "Davi", 1970)],
        [[(1, 2, "W"), (3, 4, "D")], [(1, 3, "D"), (2, 4, "W")]],
    )
    plain = compute_standings(t)
    assert {r.id: r.points for r in plain.rows} == {1: 3, 2: 2, 3: 2, 4: 1} and plain.rows[0].id == 1
    assert plain.row(2).tiebreaks["buchholz"] == 4
    penalised = dataclasses.replace(
        t, players=(dataclasses.replace(t.players[0], adjustment=-2), *t.players[1:3], t.players[3])
    )
    st = compute_standings(penalised)
    assert {r.id: r.points for r in st.rows} == {1: 1, 2: 2, 3: 2, 4: 1}
    assert {st.rows[0].id, st.rows[1].id} == {2, 3}
    assert st.row(2).tiebreaks["buchholz"] == 2 and st.row(3).tiebreaks["buchholz"] == 2
    assert st.row(1).tiebreaks["progressive"] == plain.row(1).tiebreaks["progressive"]  # the rounds are the same
