"""The engine's shortcuts give the pairing of the whole-round computation.

By default each matching is computed on the bracket and the next score group only, an even
bracket that can be paired within itself is computed alone (``MatchingState.try_close``), and so
is a bracket (or its remainder) whose players would all meet the next score group alike
(``MatchingState.restrict_subset``), or else whose matchings are shown to float players that fill
the next bracket as well as any could (``restrict_subset`` with the group; a matching not shown so
is computed with the group). With
``Dutch(t, reduce=False)`` every matching covers the whole round, as the reference engine does; the
two must agree on every round of simulated tournaments (several sizes, draw rates, absences,
forfeits, 1-0 and micro-match scoring).
"""

import random

import pytest

from pairing import model as M
from pairing.convert import build
from pairing.dutch import Dutch, NoValidPairingError
from pairing.matching import MatchingState


def simulate(n, rounds, seed, draw_rate, absent_rate, micro):
    """Yield the state before each round of a tournament paired by the engine itself."""
    rng = random.Random(seed)
    players = [M.PlayerState(id=i + 1, name=f"P{i + 1}", rating=2200 - 7 * i) for i in range(n)]
    scoring = M.Scoring(win=2, draw=1, loss=0) if micro else M.Scoring()
    state = M.TournamentState(
        players=players, total_rounds=rounds, initial_color="w", scoring=scoring, micro_match=micro
    )
    byid = {p.id: p for p in players}
    for _ in range(rounds):
        state.absences = {p.id: M.ZERO_BYE for p in players if rng.random() < absent_rate}
        yield state
        try:
            pairs, bye = Dutch(build(state)).run()
        except NoValidPairingError:
            return
        for w, b in pairs:
            pw, pb = byid[w + 1], byid[b + 1]
            if rng.random() < 0.03:
                pw.history.append(M.RoundEntry(M.FORFEIT_WIN, pb.id, "w", points=4 if micro else None))
                pb.history.append(M.RoundEntry(M.FORFEIT_LOSS, pw.id, "b", points=0 if micro else None))
                continue
            r = rng.random()
            res = (
                "D"
                if r < draw_rate
                else ("W" if r < draw_rate + (1 - draw_rate) * (0.5 + (pb.id - pw.id) / (4 * n)) else "L")
            )
            other = {"W": "L", "D": "D", "L": "W"}[res]
            pts = {"W": 3, "D": 2, "L": 1} if micro else {}
            pw.history.append(M.RoundEntry(M.GAME, pb.id, "w", res, points=pts.get(res)))
            pb.history.append(M.RoundEntry(M.GAME, pw.id, "b", other, points=pts.get(other)))
        if bye is not None:
            byid[bye + 1].history.append(M.RoundEntry(M.PAB, points=4 if micro else None))
        for pid, kind in state.absences.items():
            byid[pid].history.append(M.RoundEntry(kind, points=0 if micro else None))


def outcome(state, reduce):
    try:
        return Dutch(build(state), reduce=reduce).run()
    except NoValidPairingError:
        return "no valid pairing"


def random_events(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        yield (
            rng.randint(5, 45),
            rng.randint(3, 8),
            rng.randrange(10**6),
            rng.choice([0.0, 0.15, 0.35]),
            rng.choice([0.0, 0.0, 0.05, 0.12]),
            rng.random() < 0.3,
        )


@pytest.mark.parametrize("seed", range(6))
def test_reduced_computation_equals_the_whole_round(monkeypatch, seed):
    closed = []
    original = MatchingState.try_close

    def counting(self, *args):
        result = original(self, *args)
        closed.append(result is not None)
        return result

    monkeypatch.setattr(MatchingState, "try_close", counting)
    restricted = []
    original_restrict = MatchingState.restrict_subset

    def counting_restrict(self, subset, mask, group=None, floaters=()):
        restricted.append(group is not None)
        return original_restrict(self, subset, mask, group, floaters)

    monkeypatch.setattr(MatchingState, "restrict_subset", counting_restrict)
    certified = []
    original_certificate = MatchingState._group_certificate

    def counting_certificate(self, *args):
        result = original_certificate(self, *args)
        certified.append(result)
        return result

    monkeypatch.setattr(MatchingState, "_group_certificate", counting_certificate)
    compared = 0
    for n, rounds, event_seed, draw_rate, absent_rate, micro in random_events(40, seed):
        for state in simulate(n, rounds, event_seed, draw_rate, absent_rate, micro):
            if not any(p.history for p in state.players):
                continue  # round 1: test_first_round_shortcut_equals_the_whole_round
            assert outcome(state, True) == outcome(state, False), (
                n,
                rounds,
                event_seed,
                draw_rate,
                absent_rate,
                micro,
                len(state.players[0].history) + 1,
            )
            compared += 1
    assert compared > 100
    assert sum(closed) > 20, "few brackets were computed on their own: the shortcut went untested"
    assert restricted.count(False) > 20, "few brackets met the next score group alike: the shortcut went untested"
    assert restricted.count(True) > 20, "few brackets were restricted with the next group: the shortcut went untested"
    # matchings accepted on the certificate, and matchings it could not certify (computed with the group)
    assert certified.count(True) > 100
    assert certified.count(False) > 5


@pytest.mark.parametrize("seed", range(3))
def test_first_round_shortcut_equals_the_whole_round(seed):
    """Round 1 pairs each (accelerated) score group S1 v S2 directly; the whole-round computation
    must agree, with every acceleration, odd and even groups, absences and manual virtual points
    that make three or more groups."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(25):
        n = rng.randint(4, 48)
        players = [M.PlayerState(id=i + 1, name=f"P{i + 1}", rating=2300 - 9 * i) for i in range(n)]
        accel = rng.choice([M.ACCEL_NONE, M.ACCEL_BAKU, M.ACCEL_CLASSIC, "manual"])
        if accel == "manual":
            for p in players:
                p.accelerations = [rng.choice([0, 0, 1, 2])]
            accel = M.ACCEL_NONE
        state = M.TournamentState(
            players=players,
            total_rounds=rng.randint(5, 9),
            initial_color=rng.choice("wb"),
            acceleration=accel,
        )
        state.absences = {p.id: M.ZERO_BYE for p in players if rng.random() < 0.08}
        fast = Dutch(build(state))
        assert fast.run() == outcome(state, False), (seed, n, accel)
        compared += 1
    assert compared == 25


def test_a_round_two_with_only_decisive_results_pairs_each_half_on_its_own():
    """1,000-player-like shape in small: two score groups of even size, no draw."""
    n = 200
    players = [M.PlayerState(id=i + 1, name=f"P{i + 1}", rating=2400 - i) for i in range(n)]
    for i in range(n // 2):
        hi, lo = players[i], players[i + n // 2]
        white_hi = i % 2 == 0
        hi.history.append(M.RoundEntry(M.GAME, lo.id, "w" if white_hi else "b", "W"))
        lo.history.append(M.RoundEntry(M.GAME, hi.id, "b" if white_hi else "w", "L"))
    state = M.TournamentState(players=players, total_rounds=9, initial_color="w")
    pairs, bye = outcome(state, True)
    assert (pairs, bye) == outcome(state, False)
    assert bye is None and len(pairs) == n // 2
    winners = {p.id - 1 for p in players if p.history[0].result == "W"}
    assert all((w in winners) == (b in winners) for w, b in pairs)  # nobody floats


def test_complete_matching_with_weights_wider_than_the_native_integers():
    """The first complete matching of a round with many score groups has weights above 127 bits."""
    m = MatchingState(4)
    mate = m.compute_edges([(0, 1, 3 << 200), (1, 2, 1 << 200), (2, 3, 3 << 200), (0, 3, 1)])
    assert mate == [1, 0, 3, 2]
