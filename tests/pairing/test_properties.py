"""Property tests on random micro-match tournaments (hypothesis)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing import (
    FORFEIT_LOSS,
    FORFEIT_WIN,
    GAME,
    PAB,
    ZERO_BYE,
    NoValidPairing,
    PlayerState,
    RoundEntry,
    Scoring,
    TournamentState,
    pair_round,
)


@st.composite
def tournaments(draw):
    n = draw(st.integers(min_value=2, max_value=24))
    rounds = draw(st.integers(min_value=2, max_value=9))
    seed = draw(st.integers(min_value=0, max_value=10**6))
    absent_rate = draw(st.sampled_from([0.0, 0.05, 0.15]))
    forfeit_rate = draw(st.sampled_from([0.0, 0.05]))
    return n, rounds, seed, absent_rate, forfeit_rate


def simulate(n, rounds, seed, absent_rate, forfeit_rate):
    import random

    rng = random.Random(seed)
    players = [PlayerState(id=i + 1, name=f"P{i + 1}", rating=2000 - i) for i in range(n)]
    st_ = TournamentState(
        players=players,
        total_rounds=rounds,
        initial_color="w",
        scoring=Scoring(win=2, draw=1, loss=0),
        micro_match=True,
    )
    byid = {p.id: p for p in players}
    checks = []
    for rnd in range(1, rounds + 1):
        absent = {p.id: ZERO_BYE for p in players if rng.random() < absent_rate}
        st_.absences = absent
        try:
            res = pair_round(st_)
        except NoValidPairing:
            break
        checks.append((rnd, res, dict(absent), {p.id: list(p.history) for p in players}))
        for w, b in res.boards:
            if rng.random() < forfeit_rate:
                byid[w].history.append(RoundEntry(FORFEIT_WIN, b, "w", points=4))
                byid[b].history.append(RoundEntry(FORFEIT_LOSS, w, "b", points=0))
                continue
            g1 = rng.choice([2, 1, 0])
            g2 = rng.choice([2, 1, 0])
            pts = g1 + g2
            res_w = "W" if pts > 2 else "D" if pts == 2 else "L"
            other = {"W": "L", "D": "D", "L": "W"}[res_w]
            byid[w].history.append(RoundEntry(GAME, b, "w", res_w, points=pts))
            byid[b].history.append(RoundEntry(GAME, w, "b", other, points=4 - pts))
        if res.bye is not None:
            byid[res.bye].history.append(RoundEntry(PAB, points=4))
        for pid, kind in absent.items():
            byid[pid].history.append(RoundEntry(kind, points=0))
    return checks


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_micro_match_invariants(params):
    for rnd, res, absent, history in simulate(*params):
        assert res.round == rnd
        seen = [x for b in res.boards for x in b]
        if res.bye is not None:
            seen.append(res.bye)
        # nobody twice
        assert len(seen) == len(set(seen))
        # every present player paired, absentees not
        present = set(history) - set(absent)
        assert set(seen) == present
        # at most one bye each (no PAB after a PAB)
        if res.bye is not None:
            assert all(e is None or e.kind != PAB for e in history[res.bye])
        # no rematch of a played encounter
        met = {
            frozenset((pid, e.opponent)) for pid, h in history.items() for e in h if e is not None and e.kind == GAME
        }
        for w, b in res.boards:
            assert frozenset((w, b)) not in met
        # brackets respected: everybody is paired in the bracket of their own
        # score or, floating down, in a lower one; the opponent of a player who
        # floats up comes from that player's higher bracket
        for _pid, exp in res.explanations.items():
            score = float(exp.score)
            bracket = float(exp.bracket)
            assert bracket <= score
            if exp.opponent is not None:
                opp = res.explanations[exp.opponent]
                assert float(opp.bracket) == bracket
                if exp.float == "up":
                    assert float(opp.score) > score
                if exp.float is None:
                    assert float(opp.score) == score
