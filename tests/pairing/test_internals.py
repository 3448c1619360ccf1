"""Internal consistency: the fast weight paths equal the field-by-field definition,
and the weight compression keeps the order of matchings."""

import random

import pytest

from pairing import trf
from pairing.bigmatch import max_weight_matching
from pairing.convert import build
from pairing.dutch import Dutch
from pairing.matching import solve
from testkit import vectors

SAMPLE = ["t001000-n034-r05", "t001004-n147-r06", "t001001-n010-r03"]


@pytest.mark.parametrize("name", SAMPLE)
def test_fast_weights_match_definition(name):
    data = trf.parse(vectors.trf_text(name))
    t = build(data.state, byes_240=data.byes_240)
    d = Dutch(t)
    d.run()
    ps = d.sorted
    d.unplayed_ranks = {g: g % 3 for g in range(30)}
    for single in (False, True):
        bye = d.pairing_score[ps[-1].pid] if single else 0
        d.prepare_fast(bye, single)
        for i in range(0, len(ps), 3):
            for j in range(i):
                for cur, nxt in ((True, False), (False, True), (False, False)):
                    ref = d.edge_weight(ps[j], ps[i], cur, nxt, bye, single)
                    assert d.fast_weight(ps[j], ps[i], cur, nxt) == ref
                ref = d.edge_weight(ps[j], ps[i], False, False, bye, single)
                assert d.outside_weight(ps[j], ps[i], bye, single) == ref


def test_the_weight_layout_stacks_its_fields_in_priority_order():
    data = trf.parse(vectors.trf_text("t001004-n147-r06"))
    d = Dutch(build(data.state, byes_240=data.byes_240))
    d.run()
    layout = d.weight_layout()
    names = [name for name, _ in layout]
    assert names[:9] == [
        "current_pairs",
        "current_scores",
        "next_pairs",
        "next_scores",
        "unplayed",
        "colour_imbalance",
        "colour_absolute",
        "colour_preference",
        "colour_strong",
    ]
    assert names[9:] == ["down_1", "up_1", "down_2", "up_2"] + [
        "down_1_scores",
        "up_1_scores",
        "down_2_scores",
        "up_2_scores",
    ]
    positions = d.field_positions()
    # each field starts where the one below it ends; the completion field is on top of them all
    below = 0
    for name, width in reversed(layout):
        assert positions[name] == below
        below += width
    assert positions["completion"] == below == sum(width for _, width in layout)
    assert dict(layout)["unplayed"] == 2 * d.count_bits and dict(layout)["next_scores"] == d.score_bits


def test_compressed_weights_give_an_optimal_matching():
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(2, 16)
        edges = []
        for u in range(n):
            for v in range(u + 1, n):
                if rng.random() < 0.6:
                    a = 0
                    for field in range(rng.randint(1, 6)):
                        a |= rng.randint(0, 3) << (40 * field + rng.randint(0, 30))
                    a |= 1 << 300
                    edges.append((u, v, a, rng.randint(-5, 5)))
        if not edges:
            continue
        exact = max_weight_matching([(u, v, (a << 20) + b) for u, v, a, b in edges])
        got = solve(edges, n, n)
        w = {(u, v): (a << 20) + b for u, v, a, b in edges}

        def val(m, w=w):
            return sum(w.get((min(x, y), max(x, y))) for x, y in m)

        assert val(got) == val(exact)


def test_players_meet_the_next_group_alike_as_their_weights_say(monkeypatch):
    """Dutch.meet_alike tells from the players' data what MatchingState.rows_alike reads off the
    weights; both must agree wherever the engine asks (both answers occur), on vectors with
    colour keys, forbidden pairs and single byes."""
    from pairing.matching import MatchingState

    answers = []
    original = Dutch.meet_alike

    def checked(self, M, vertices, group, mask):
        fast = original(self, M, vertices, group, mask)
        assert fast == MatchingState.rows_alike(M, vertices, group, mask)
        answers.append(fast)
        return fast

    monkeypatch.setattr(Dutch, "meet_alike", checked)
    for name in vectors.names()[::9]:
        data = trf.parse(vectors.trf_text(name))
        Dutch(build(data.state, byes_240=data.byes_240)).run()
    assert answers.count(True) > 20 and answers.count(False) > 20
