"""The plain-data API: round 1, acceleration, forbidden pairs, absences, late entries,
withdrawals, micro-match mode and explanations."""

import pytest

from pairing import (
    ACCEL_BAKU,
    ACCEL_CLASSIC,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    GAME,
    PAB,
    ZERO_BYE,
    ForbiddenPair,
    InvalidInput,
    NoValidPairing,
    PlayerState,
    RoundEntry,
    Scoring,
    TournamentState,
    pair_round,
    seed_order,
)
from pairing.api import seed_key
from pairing.convert import baku_accelerations, build


def players(n):
    return [PlayerState(id=i + 1, name=f"P{i + 1}", rating=2400 - 10 * i) for i in range(n)]


def state(n, **kw):
    kw.setdefault("total_rounds", 7)
    kw.setdefault("initial_color", "w")
    kw.setdefault("scoring", Scoring(win=2, draw=1, loss=0))
    return TournamentState(players=players(n), **kw)


def test_round_one_top_half_against_bottom_half():
    res = pair_round(state(8))
    assert res.round == 1
    assert res.boards == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert res.bye is None


def test_round_one_initial_black():
    res = pair_round(state(8, initial_color="b"))
    assert res.boards == [(5, 1), (2, 6), (7, 3), (4, 8)]


def test_round_one_odd_lowest_gets_bye():
    res = pair_round(state(7))
    assert res.bye == 7
    assert len(res.boards) == 3


def test_seed_order_rating_fmjd_title_name():
    ps = [
        PlayerState(id=0, name="Bruno", rating=1800),
        PlayerState(id=0, name="Ana", rating=1800),
        PlayerState(id=0, name="Caio", rating=1800, title="GM"),
        PlayerState(id=0, name="Davi", rating=1800, fmjd_rating=2100),
        PlayerState(id=0, name="Eva", rating=2000),
    ]
    assert [p.name for p in seed_order(ps)] == ["Eva", "Davi", "Caio", "Ana", "Bruno"]


def test_seed_order_unrated_at_the_provisional_rating():
    ps = [
        PlayerState(id=0, name="Ana", rating=1500),
        PlayerState(id=0, name="Bruno", rating=0),  # unrated, as in a TRF
        PlayerState(id=0, name="Caio", rating=1700),
    ]
    assert [p.name for p in seed_order(ps, provisional_rating=1600)] == ["Caio", "Bruno", "Ana"]
    assert [p.name for p in seed_order(ps)] == ["Caio", "Ana", "Bruno"]  # no provisional rating: last


def test_seed_order_titles_draughts_and_chess_in_one_list():
    """FIDE C.04.2's order, each FMJD title at its chess counterpart's place: GMIF (= WGM) between MI and MF,
    the national master after every international title, then no title; equal titles alphabetically."""
    titles = ["", "MN", "MFF", "MC", "MIF", "MF", "GMIF", "MI", "GMI", "WFM", "FM", "WGM", "IM", "GM", "XYZ"]
    ps = [PlayerState(id=0, name=f"{t or 'none'}", rating=2000, title=t) for t in titles]
    got = [p.title for p in seed_order(ps)]
    assert got == ["GM", "GMI", "IM", "MI", "GMIF", "WGM", "FM", "MF", "MIF", "MC", "MFF", "WFM", "MN", "", "XYZ"]
    assert seed_key(2000, 0, "GMIF", "x") < seed_key(2000, 0, "MF", "x") < seed_key(2000, 0, "MIF", "x")


def test_seed_order_names_alphabetically_whatever_the_case_and_accents():
    ps = [PlayerState(id=0, name=n, rating=1800) for n in ("bruno", "Álvaro", "Ana", "Élcio", "Davi")]
    assert [p.name for p in seed_order(ps)] == ["Álvaro", "Ana", "bruno", "Davi", "Élcio"]


def play(st, boards, results):
    """Append one round: results[i] is White's result on board i ("W", "D", "L")."""
    other = {"W": "L", "D": "D", "L": "W"}
    seen = set()
    byid = {p.id: p for p in st.players}
    for (w, b), r in zip(boards, results):
        byid[w].history.append(RoundEntry(GAME, b, "w", r))
        byid[b].history.append(RoundEntry(GAME, w, "b", other[r]))
        seen |= {w, b}
    for p in st.players:
        if p.id not in seen:
            p.history.append(None)


def test_forbidden_pair_whole_event():
    st = state(8, forbidden=[ForbiddenPair([1, 5])])
    res = pair_round(st)
    flat = {tuple(sorted(b)) for b in res.boards}
    assert (1, 5) not in flat


def test_forbidden_pair_round_range():
    st = state(8, forbidden=[ForbiddenPair([1, 5], first_round=2, last_round=3)])
    res = pair_round(st)
    assert (1, 5) in res.boards


def test_absence_not_paired_and_no_rematch():
    st = state(6)
    r1 = pair_round(st)
    play(st, r1.boards, ["W"] * len(r1.boards))
    st.absences = {2: ZERO_BYE}
    r2 = pair_round(st)
    flat = [x for b in r2.boards for x in b]
    assert 2 not in flat and r2.bye != 2
    assert r2.bye is not None
    met = {frozenset(b) for b in r1.boards}
    assert not any(frozenset(b) in met for b in r2.boards)


def test_withdrawal_and_late_entry():
    st = state(6)
    st.players[5].late_entry_round = 2
    r1 = pair_round(st)
    assert 6 not in [x for b in r1.boards for x in b] and r1.bye != 6
    play(st, r1.boards, ["D"] * len(r1.boards))
    st.players[5].history[0] = RoundEntry(ZERO_BYE)
    st.players[0].withdrawn_from_round = 2
    r2 = pair_round(st)
    flat = [x for b in r2.boards for x in b] + [r2.bye]
    assert 1 not in flat
    assert 6 in flat


def test_no_valid_pairing():
    st = state(2, total_rounds=3)
    play(st, [(1, 2)], ["W"])
    with pytest.raises(NoValidPairing):
        pair_round(st)


def test_invalid_input_message():
    st = state(4)
    st.players[0].history = [RoundEntry(GAME, 9, "w", "W")]
    with pytest.raises(InvalidInput) as exc:
        pair_round(st)
    assert "adversário" in str(exc.value)


def test_second_bye_forbidden_and_forfeit_win_blocks_bye():
    st = state(3, total_rounds=5)
    st.players[2].history = [RoundEntry(PAB)]
    st.players[0].history = [RoundEntry(FORFEIT_WIN, 2, "w")]
    st.players[1].history = [RoundEntry(FORFEIT_LOSS, 1, "b")]
    res = pair_round(st)
    assert res.bye == 2


def test_baku_virtual_points_rule():
    # 9 rounds: 5 accelerated rounds, a win's points in rounds 1-3, a draw's in 4-5
    assert baku_accelerations(16, 9, 20, 10, 9) == [20, 20, 20, 10, 10]
    assert baku_accelerations(16, 9, 10, 5, 2) == [10, 10]
    assert baku_accelerations(16, 7, 10, 5, 7) == [10, 10, 5, 5]
    st = state(18, total_rounds=9, acceleration=ACCEL_BAKU)
    t = build(st)
    # group A: first half rounded up to an even number: 2 * ceil(18 / 4) = 10
    assert [bool(p.accel) for p in t.players] == [True] * 10 + [False] * 8
    assert t.players[0].accel == [20]
    res = pair_round(st)
    # group A (1-10) pairs among itself, group B (11-18) too
    for w, b in res.boards:
        assert (w <= 10) == (b <= 10)


def test_baku_needs_win_twice_draw():
    st = state(8, acceleration=ACCEL_BAKU, scoring=Scoring(win=3, draw=1, loss=0))
    with pytest.raises(InvalidInput):
        pair_round(st)


def test_classic_acceleration_rounds_one_and_two():
    st = state(16, acceleration=ACCEL_CLASSIC)
    t = build(st)
    assert t.players[0].accel == [20] and t.players[8].accel == []
    res = pair_round(st)
    # top quarter meets second quarter, third meets fourth
    assert {tuple(sorted(b)) for b in res.boards} >= {(1, 5), (9, 13)}


def test_virtual_points_do_not_change_board_scores():
    st = state(8, acceleration=ACCEL_CLASSIC)
    res = pair_round(st)
    exp = res.explanations[1]
    assert exp.score == "2.0"  # pairing score includes the virtual win


def test_explanations():
    st = state(6)
    r1 = pair_round(st)
    play(st, r1.boards, ["W", "W", "W"])
    r2 = pair_round(st)
    assert set(r2.explanations) == {1, 2, 3, 4, 5, 6}
    for pid, e in r2.explanations.items():
        assert e.player == pid
        assert e.color in ("w", "b")
        assert e.preference_strength in ("mild", "strong", "absolute", None)
        assert e.float in ("down", "up", None)
        assert e.color_rule
    # one game with White: a strong preference for Black
    e = r2.explanations[r1.boards[0][0]]
    assert e.color_preference == "B" and e.preference_strength == "strong"


def test_micro_match_points_and_colour_history():
    st = state(6, micro_match=True)
    r1 = pair_round(st)
    byid = {p.id: p for p in st.players}
    for w, b in r1.boards:
        byid[w].history.append(RoundEntry(GAME, b, "w", "W", points=3))
        byid[b].history.append(RoundEntry(GAME, w, "b", "L", points=1))
    t = build(st)
    assert t.win == 40 and t.no_colour_criteria
    assert sorted(p.score for p in t.players) == [10, 10, 10, 30, 30, 30]
    r2 = pair_round(st)
    # game-1 White alternates: the round-1 game-1 Whites get game-1 Black when possible
    whites1 = {w for w, _ in r1.boards}
    assert sum(1 for w, _ in r2.boards if w in whites1) <= 1


def test_check_pairing_absolute_criteria():
    from pairing import check_pairing

    st = state(6)
    r1 = pair_round(st)
    assert check_pairing(st, r1.boards, r1.bye) == []
    play(st, r1.boards, ["W", "D", "L"])
    r2 = pair_round(st)
    assert check_pairing(st, r2.boards, r2.bye) == []
    w, b = r1.boards[0]
    others = [x for x in range(1, 7) if x not in (w, b)]
    bad = [(w, b), (others[0], others[1]), (others[2], others[3])]
    problems = check_pairing(st, bad)
    assert any("já se enfrentaram" in p for p in problems)
    assert any("aparece" in p for p in check_pairing(st, [(1, 2), (1, 3), (4, 5)], 6))
    assert any("sem emparceiramento" in p for p in check_pairing(st, [(1, 2)]))
