"""The national-circuit regulation (seed 000, "REGULAMENTO ... CIRCUITO NACIONAL"), article by article, on plain
data: who is a participant (art. 6), how the qualification spots are given (art. 6, art. 10, art. 13) and CBJD
exception c) of art. 6. Every test quotes the words it enforces."""

import pytest

from tests.tournaments.domain.domain_builder import build
from tournaments.domain import (
    Candidate,
    SpotNote,
    StandingsSettings,
    award_spots,
    category_qualification,
    compute_standings,
    participated,
    participation,
)
from tournaments.domain.standings import (
    REASON_TOP3_BUCHHOLZ_END,
    REASON_TOP3_BUCHHOLZ_SECOND,
    REASON_TOP3_END,
    TOP3_ORDER_END,
)

# ------------------------------------------------------------------------------------------- exception c)
# Art. 6: "o escore acumulado não poderá ser utilizado como primeiro critério de desempate nas 3 situações a
# seguir: ... c) quando os 3 maiores ratings da competição vencerem todos os seus adversários e tenham jogado e
# empatado entre si."
#
# Worked example: 10 players, 5 micro-match rounds (2/1/0 per game: a micro-match win is 4, a draw 2).
# A 2300, B 2250, C 2200 are the three highest ratings. They beat everyone else and draw among themselves:
# A-B in round 2, A-C in round 3, B-C in round 4.
#
#            R1  R2  R3  R4  R5  total  running            progressive  corrected (cut 1)
#   A (1)     4   2   2   4   4    16   4, 6, 8, 12, 16         46          42
#   B (2)     4   2   4   2   4    16   4, 6, 10, 12, 16        48          44
#   C (3)     4   4   2   2   4    16   4, 8, 10, 12, 16        50          46
#
# The corrected score is the progressive score less its first term, and the first term is 4 for all three:
# it repeats the progressive order C, B, A. So "moving the progressive score" (corrected progressive first)
# changes nothing, although art. 6 c) says the progressive score may not decide.
# Buchholz (final scores of the opponents; every game played):
#   A: D 13 + B 16 + C 16 + F 12 + E 9 = 66;  B: E 9 + A 16 + J 4 + C 16 + G 7 = 52;
#   C: J 4 + I 3 + A 16 + B 16 + H 4 = 43.
# With Buchholz first (the default reading): A, B, C, the reverse of the normal order.
TOP3_PLAYERS = [
    (1, "A", 2300),
    (2, "B", 2250),
    (3, "C", 2200),
    (4, "D", 1900),
    (5, "E", 1850),
    (6, "F", 1800),
    (7, "G", 1700),
    (8, "H", 1600),
    (9, "I", 1500),
    (10, "J", 1400),
]
TOP3_ROUNDS = [
    [(1, 4, "WW"), (2, 5, "WW"), (3, 10, "WW"), (6, 7, "WW"), (8, 9, "WL")],
    [(1, 2, "DD"), (3, 9, "WW"), (4, 6, "WD"), (5, 8, "WW"), (7, 10, "WD")],
    [(1, 3, "DD"), (2, 10, "WW"), (4, 5, "DD"), (6, 8, "WW"), (7, 9, "WW")],
    [(2, 3, "DD"), (1, 6, "WW"), (4, 7, "WW"), (5, 9, "WD"), (8, 10, "DD")],
    [(1, 5, "WW"), (2, 7, "WW"), (3, 8, "WW"), (4, 9, "WW"), (6, 10, "WD")],
]
NORMAL = StandingsSettings(profile=("progressive", "progressive_corrected", "buchholz"))


def top3(rounds=TOP3_ROUNDS, **settings):
    return compute_standings(build(TOP3_PLAYERS, rounds, fmt="micro-match"), StandingsSettings(**settings))


def test_exception_c_changes_the_order_where_moving_only_the_progressive_score_would_not():
    normal = compute_standings(build(TOP3_PLAYERS, TOP3_ROUNDS, fmt="micro-match"), NORMAL)
    assert [r.id for r in normal.rows][:3] == [3, 2, 1]
    values = {r.id: (r.points, r.tiebreaks["progressive"], r.tiebreaks["progressive_corrected"]) for r in normal.rows}
    assert [values[i] for i in (1, 2, 3)] == [(16, 46, 42), (16, 48, 44), (16, 50, 46)]
    assert [r.tiebreaks["buchholz"] for r in normal.rows][:3] == [43, 52, 66]

    moved = top3(top3_order="moved")  # the other reading: corrected progressive first
    assert [r.id for r in moved.rows][:3] == [3, 2, 1]  # ... the same order as the normal one
    assert moved.rows[0].order_reasons == (REASON_TOP3_END,)

    s = top3()  # default: Buchholz first
    assert [(r.rank, r.id) for r in s.rows][:3] == [("1", 1), ("2", 2), ("3", 3)]
    assert all(r.order == TOP3_ORDER_END and r.order_reasons == (REASON_TOP3_BUCHHOLZ_END,) for r in s.rows[:3])
    assert list(s.rows[0].tiebreaks)[:3] == ["buchholz", "progressive_corrected", "progressive"]
    assert s.rows[3].order_reasons == () and s.rows[3].id == 4  # the other tie groups keep the normal order

    second = top3(accelerated_progressive="second")
    assert second.rows[0].order == ("buchholz", "progressive", "progressive_corrected")
    assert second.rows[0].order_reasons == (REASON_TOP3_BUCHHOLZ_SECOND,)


def test_exception_c_a_forfeit_win_is_a_win():
    """ "vencerem todos os seus adversários": C's round-1 opponent did not come (both games W.O.)."""
    rounds = [list(r) for r in TOP3_ROUNDS]
    rounds[0][2] = (3, 10, "++")
    s = top3(rounds)
    assert {r.id for r in s.rows[:3]} == {1, 2, 3}
    assert all(r.order_reasons == (REASON_TOP3_BUCHHOLZ_END,) for r in s.rows[:3])


def test_exception_c_needs_them_to_have_played_and_drawn_among_themselves_and_beaten_the_others():
    """ "tenham jogado e empatado entre si": a forfeit between two of them, a level micro-match of theirs that
    was a win and a loss is still a draw of the encounter; a drawn micro-match against another player is not a
    win. (A pairing-allocated bye is no opponent and does not switch it off: issue 26, test_regulation_round_two.)"""
    rounds = [list(r) for r in TOP3_ROUNDS]
    rounds[1][0] = (1, 2, "WL")  # level encounter (2-2): still "empatado"
    assert top3(rounds).rows[0].order_reasons == (REASON_TOP3_BUCHHOLZ_END,)
    rounds[1][0] = (1, 2, "+-")  # level, but not played
    assert not applies(top3(rounds))
    rounds = [list(r) for r in TOP3_ROUNDS]
    rounds[4][0] = (1, 5, "WL")  # A only draws E: A does not beat every opponent
    assert not applies(top3(rounds))


def applies(standings):
    return any(set(r.order_reasons) & {REASON_TOP3_BUCHHOLZ_END, REASON_TOP3_END} for r in standings.rows)


# ---------------------------------------------------------------------------------------------- participants
# Art. 6: "Mínimo de 30 participantes." A participant played at least one game (setting: or won one by
# forfeit); an entry withdrawn before playing, or never paired, is not one.


def test_who_is_a_participant():
    assert participated(["played"]) and participated(["absent", "played"])
    assert not participated(["forfeit_win", "pab", "absent", "withdrawn", "late", "forfeit_loss"])
    assert participated(["forfeit_win"], "present") and not participated(["pab", "forfeit_loss"], "present")
    kinds = {
        1: ["played", "played"],
        2: ["forfeit_win", "pab"],  # never played a game over the board
        3: ["withdrawn", "withdrawn"],  # withdrawn before playing
        4: ["late", "late"],  # entered late: plays from round 3 on
        5: ["absent", "absent"],  # announced absences, still entered
    }
    withdrawn = {1: None, 2: None, 3: 1, 4: None, 5: None}
    during = participation(kinds, withdrawn, rounds_counted=2, planned_rounds=5, over=False)
    assert (during.played, during.to_play, during.excluded) == ({1}, {2, 4, 5}, {3})
    assert len(during) == 4
    after = participation(kinds, withdrawn, rounds_counted=2, planned_rounds=5, over=True)
    assert (after.played, after.to_play, after.excluded) == ({1}, set(), {2, 3, 4, 5})
    present = participation(kinds, withdrawn, 2, 5, True, "present")
    assert present.played == {1, 2}
    # withdrawn from the round after the next one: can still play the next round
    later = participation({6: []}, {6: 2}, 0, 5, False)
    assert later.to_play == {6}
    assert participation({6: []}, {6: 1}, 0, 5, False).excluded == {6}


# ---------------------------------------------------------------------------------------------- spots
# Art. 6: "Oferecerá por categoria: uma vaga ... duas vagas ... três vagas ... se o evento tiver mais de 120
# participantes". Art. 10: "Não abandonar a competição antes do término desta, o que implicará em suspensão
# automática". Art. 13: "Todos os casos omissos serão resolvidos pela Comissão Organizadora".


def cand(pid, place, points, abandoned=False, **tiebreaks):
    order = tuple(tiebreaks) or ("progressive",)
    return Candidate(pid, place, points, tiebreaks or {"progressive": 0}, order, abandoned)


def test_an_abandoning_player_takes_no_spot_the_next_one_does():
    cands = [cand(1, 1, 10), cand(2, 2, 9, abandoned=True), cand(3, 3, 8), cand(4, 4, 7)]
    assert award_spots(2, cands) == ((1, 3), (SpotNote("abandoned", (2,)),))
    # abandoning below the spots is not worth a note
    assert award_spots(1, cands) == ((1,), ())


def test_a_tie_on_points_at_the_last_spot_is_decided_by_the_tiebreak_order_and_said():
    cands = [
        cand(1, 1, 10, progressive=30, buchholz=20),
        cand(2, 2, 8, progressive=25, buchholz=21),
        cand(3, 3, 8, progressive=25, buchholz=19),
    ]
    qualified, notes = award_spots(2, cands)
    assert qualified == (1, 2)
    assert notes == (SpotNote("tiebreak", (2, 3), "buchholz", (21, 19)),)


@pytest.mark.parametrize(
    "rule,qualified,note",
    [
        ("committee", (1,), SpotNote("tie_committee", (2, 3), spots=1)),
        ("share", (1, 2, 3), SpotNote("tie_shared", (2, 3), spots=1)),
    ],
)
def test_a_shared_place_at_the_last_spot_is_never_decided_by_pairing_number(rule, qualified, note):
    cands = [cand(1, 1, 10), cand(2, 2, 8), cand(3, 2, 8), cand(4, 3, 6)]
    assert award_spots(2, cands, rule) == (qualified, (note,))


def test_qualification_with_candidates_and_rights():
    cands = [cand(1, 1, 10), cand(2, 2, 9, abandoned=True), cand(3, 3, 8)]
    ratings = [2200] * 3
    q = category_qualification("ABS", ratings, 3, rights=True, candidates=cands)
    assert q.spots == 3 and q.qualified == (1, 3) and q.notes == (SpotNote("abandoned", (2,)),)
    assert category_qualification("ABS", ratings, 3, rights=False, candidates=cands).qualified == ()
    assert "participantes" in q.note
