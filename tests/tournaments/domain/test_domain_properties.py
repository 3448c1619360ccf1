"""Properties of the standings on random tournaments (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.standings import build as random_tournament
from tournaments.domain import TIEBREAK_KEYS, StandingsSettings, TiebreakCalculator, compute_standings


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=1, max_value=25),
    rounds=st.integers(min_value=0, max_value=7),
    seed=st.integers(min_value=0, max_value=10**6),
    accelerated=st.booleans(),
)
def test_standings_invariants(players, rounds, seed, accelerated):
    t = random_tournament(players, rounds, seed)
    t = type(t)(**{**t.__dict__, "acceleration_used": accelerated})
    s = compute_standings(t)
    calc = TiebreakCalculator(t)
    assert sorted(r.id for r in s.rows) == sorted(p.id for p in t.players)
    # points never increase down the list; positions are 1..N
    assert all(a.points >= b.points for a, b in zip(s.rows, s.rows[1:]))
    assert [r.position for r in s.rows] == list(range(1, len(s.rows) + 1))
    for _i, r in enumerate(s.rows):
        assert set(r.tiebreaks) == set(TIEBREAK_KEYS)
        assert list(r.tiebreaks)[: len(r.order)] == list(r.order)
        first, _, last = r.rank.partition("-")
        last = last or first
        assert int(first) <= r.position <= int(last)
        v = r.tiebreaks
        # cuts never add; truncated Solkoff is the lowest-term cut
        assert v["buchholz"] >= v["buchholz_cut1"] >= v["buchholz_median"]
        assert v["truncated_solkoff"] <= v["buchholz"]
        assert v["progressive"] >= v["progressive_corrected"]
        assert r.points == calc.score[r.id]
    # players sharing a place have equal points and equal values for the keys used
    for a, b in zip(s.rows, s.rows[1:]):
        if a.rank == b.rank:
            assert a.points == b.points and a.order == b.order
            assert all(a.tiebreaks[k] == b.tiebreaks[k] for k in a.order if k != "direct_encounter")
            assert a.id < b.id
    # custom profile with every key still gives a complete, consistent list
    s2 = compute_standings(t, StandingsSettings(profile=list(TIEBREAK_KEYS)))
    assert sorted(r.id for r in s2.rows) == sorted(p.id for p in t.players)
