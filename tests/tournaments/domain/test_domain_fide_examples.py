"""The worked examples of docs/notes/fide_tiebreaks.md section 1.9 (2/1/0 single games, 4 rounds;
draw = 1 so the 16.4.2 cap is 1 x 4 = 4), in the 2026 and 2024 columns.

Each example is embedded in a small, consistent 8-player tournament; the filler players
(F*, G*, H*) only give the named opponents the scores the example states.
"""

import pytest

from tests.tournaments.domain.domain_builder import build
from tournaments.domain import StandingsSettings, TiebreakCalculator, UnplayedRules, compute_standings

P, A, B, C, F1, F2, F3, F4 = range(1, 9)
PLAYERS_P = [
    (P, "P", 2000),
    (A, "A", 1900),
    (B, "B", 2100),
    (C, "C", 1950),
    (F1, "F1", 1800),
    (F2, "F2", 1700),
    (F3, "F3", 1600),
    (F4, "F4", 1500),
]
ROUNDS_P = [
    [(P, A, "W"), (B, F1, "W"), (C, F2, "W"), (F3, F4, "D")],
    [(P, "bye"), (A, F1, "W"), (B, F2, "D"), (C, "absent", 1), (F3, F4, "D")],
    [(B, P, "W"), (A, F2, "L"), (C, F1, "L"), (F3, F4, "D")],
    [(P, C, "D"), (A, "withdrawn"), (B, F1, "D"), (F2, F3, "D"), (F4, "bye")],
]
# P: 2 + 2 (PAB) + 0 + 1 = 5.  A: 0 + 2 + 0 + 0 (withdrawn, last round, category 5) = 2,
# adjusted 2 + 1 (draw) = 3.  B: 2 + 1 + 2 + 1 = 6.  C: 2 + 1 (half-point bye followed by
# played rounds, category 3: as awarded) + 0 + 1 = 4, adjusted 4.


def tournament_p(rules):
    return build(PLAYERS_P, ROUNDS_P, unplayed_rules=rules)


def test_adjusted_scores_16_3():
    calc = TiebreakCalculator(tournament_p(UnplayedRules.FIDE2026))
    assert calc.score[A] == 2 and calc.adjusted[A] == 3
    assert calc.score[B] == 6 and calc.adjusted[B] == 6
    assert calc.score[C] == 4 and calc.adjusted[C] == 4
    assert calc.category[A] == [None, None, None, 5]
    assert calc.category[C] == [None, 3, None, None]
    assert calc.category[P] == [None, 1, None, None]


@pytest.mark.parametrize(
    "rules, dummy, bh, bh_c1, bh_m1, sb",
    [
        # dummy min(5, 4) = 4; BH = 3 + 4 + 6 + 4 = 17; C1 cuts A's 3 -> 14; M1 cuts 3 then 6 -> 8;
        # SB = 3*2 + 4*2 + 6*0 + 4*1 = 18
        (UnplayedRules.FIDE2026, 4, 17, 14, 8, 18),
        # dummy = own score 5; BH = 3 + 5 + 6 + 4 = 18; C1 15; M1 9; SB = 6 + 10 + 0 + 4 = 20
        (UnplayedRules.FIDE2024, 5, 18, 15, 9, 20),
    ],
)
def test_player_p(rules, dummy, bh, bh_c1, bh_m1, sb):
    t = tournament_p(rules)
    calc = TiebreakCalculator(t)
    assert [c.value for c in calc.contributions[P]] == [3, dummy, 6, 4]
    row = compute_standings(t).row(P)
    assert row.points == 5
    tb = row.tiebreaks
    assert tb["buchholz"] == bh
    assert tb["buchholz_cut1"] == bh_c1
    assert tb["buchholz_median"] == bh_m1
    assert tb["sonneborn_berger"] == sb
    assert tb["progressive"] == 15  # 2 + 4 + 4 + 5
    assert tb["progressive_corrected"] == 13  # PS-C1: 15 - 2
    assert tb["games_won"] == 1  # WON: only R1 over the board
    assert tb["matches_won"] == 1


Q, X, Y, Z, G1, G2, G3, G4 = range(1, 9)
PLAYERS_Q = [
    (Q, "Q", 2000),
    (X, "X", 1900),
    (Y, "Y", 1800),
    (Z, "Z", 2100),
    (G1, "G1", 1700),
    (G2, "G2", 1600),
    (G3, "G3", 1500),
    (G4, "G4", 1400),
]
ROUNDS_Q = [
    [(Q, X, "W"), (Y, G1, "W"), (Z, G2, "W"), (G3, G4, "D")],
    [(Q, "absent", 1), (X, G1, "D"), (Y, G2, "L"), (Z, G3, "D"), (G4, "bye")],
    [(Q, Y, "W"), (X, G2, "L"), (Z, G4, "W"), (G1, G3, "D")],
    [(Q, Z, "L"), (X, G3, "L"), (Y, G4, "D"), (G1, G2, "D")],
]
# X: 0 + 1 + 0 + 0 = 1.  Y: 2 + 0 + 0 + 1 = 3.  Z: 2 + 1 + 2 + 2 = 7.  Q: 2 + 1 + 2 + 0 = 5.


@pytest.mark.parametrize(
    "rules, bh, c1, c2, m1, sb, solkoff",
    [
        # dummy min(5, 4) = 4 (VUR); BH = 1 + 4 + 3 + 7 = 15; C1 cuts the VUR's 4 (not X's 1) -> 11;
        # C2 then cuts 1 -> 10; M1 cuts 4 then 7 -> 4; SB = 1*2 + 4*1 + 3*2 + 7*0 = 12;
        # truncated Solkoff (FMJD, no VUR rule) = 15 - 1 = 14
        (UnplayedRules.FIDE2026, 15, 11, 10, 4, 12, 14),
        # dummy 5; BH 16; C1 cuts the VUR's 5 -> 11; C2 -> 10; M1 cuts 5 then 7 -> 4;
        # SB = 2 + 5 + 6 + 0 = 13; Solkoff 16 - 1 = 15
        (UnplayedRules.FIDE2024, 16, 11, 10, 4, 13, 15),
    ],
)
def test_player_q_vur_cut_first(rules, bh, c1, c2, m1, sb, solkoff):
    t = build(PLAYERS_Q, ROUNDS_Q, unplayed_rules=rules)
    calc = TiebreakCalculator(t)
    assert calc.score[Q] == 5
    assert calc.buchholz_cut(Q, 2) == c2
    tb = compute_standings(t).row(Q).tiebreaks
    assert (tb["buchholz"], tb["buchholz_cut1"], tb["buchholz_median"]) == (bh, c1, m1)
    assert tb["sonneborn_berger"] == sb
    assert tb["truncated_solkoff"] == solkoff


R, D, H1, H2, H3, H4, H5, H6 = range(1, 9)
PLAYERS_R = [(R, "R", 2000), (D, "D", 1900)] + [(i, f"H{i - 2}", 1800 - i) for i in range(3, 9)]
ROUNDS_R = [
    [(R, D, "+"), (H1, H2, "D"), (H3, H4, "D"), (H5, H6, "D")],
    [(R, H1, "W"), (D, H2, "W"), (H3, H5, "D"), (H4, H6, "D")],
    [(R, H3, "L"), (D, H4, "D"), (H1, H5, "D"), (H2, H6, "D")],
    [(R, H5, "W"), (D, H6, "L"), (H1, H3, "D"), (H2, H4, "D")],
]
# R: 2 (forfeit win) + 2 + 0 + 2 = 6.  D: 0 (forfeit loss, keeps 0) + 2 + 1 + 0 = 3, adjusted 3.
# H1: 1 + 0 + 1 + 1 = 3.  H3: 1 + 1 + 2 + 1 = 5.  H5: 1 + 1 + 1 + 0 = 3.


@pytest.mark.parametrize(
    "rules, dummy, bh, sb",
    [
        # 16.4.1: dummy min(6, D's adjusted 3) = 3; BH 3 + 3 + 5 + 3 = 14; SB 3*2 + 3*2 + 0 + 3*2 = 18
        (UnplayedRules.FIDE2026, 3, 14, 18),
        # 2024: dummy 6; BH 17; SB 12 + 6 + 0 + 6 = 24
        (UnplayedRules.FIDE2024, 6, 17, 24),
    ],
)
def test_player_r_forfeit_win_capped_at_opponent(rules, dummy, bh, sb):
    t = build(PLAYERS_R, ROUNDS_R, unplayed_rules=rules)
    calc = TiebreakCalculator(t)
    assert calc.adjusted[D] == 3
    assert calc.contributions[R][0].value == dummy
    tb = compute_standings(t).row(R).tiebreaks
    assert tb["buchholz"] == bh
    assert tb["sonneborn_berger"] == sb
    assert tb["games_won"] == 2  # the forfeit win is not a game won over the board
    assert tb["matches_won"] == 2
    assert tb["match_points"] == 6  # 2 (forfeit win) + 2 + 0 + 2


def test_planned_rounds_cap_setting():
    # Mid-event reading: after 4 of 7 planned rounds, the 16.4.2 cap for P's PAB is
    # 1 x 4 = 4 by default (rounds computed) and 1 x 7 = 7 with the "planned" setting,
    # so the dummy becomes P's own 5.
    t = build(PLAYERS_P, ROUNDS_P, planned_rounds=7)
    assert compute_standings(t).row(P).tiebreaks["buchholz"] == 17
    s = StandingsSettings(dummy_cap_rounds="planned")
    assert compute_standings(t, s).row(P).tiebreaks["buchholz"] == 18
