"""Differential test: the same legal moves as pydraughts 0.6.7 (test-only dependency) on thousands of positions
of both variants: random play from the initial positions and from every tablita opening, plus random placements
rich in kings (flying captures, where bugs hide).

pydraughts' import name is ``draughts`` too; pydraughts_loader.load_pydraughts() loads it from its file path
and files its modules under ``pydraughts*`` so that our package keeps the name (see that module).

DRAUGHTS_DIFF_SCALE=10 (environment) multiplies the number of positions for a longer run."""

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pydraughts_loader import load_pydraughts, pydraughts_moves

import draughts
from draughts import Position, load_openings

SCALE = float(os.environ.get("DRAUGHTS_DIFF_SCALE", "1"))

pyd = load_pydraughts()
pytestmark = pytest.mark.skipif(pyd is None, reason="pydraughts is not installed")


def ours(pos):
    return {m.key() for m in pos.legal_moves()}


def test_loader_keeps_our_package():
    assert draughts.__file__.startswith(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert hasattr(draughts, "validate_game")
    assert pyd.__version__ == "0.6.7"
    assert sys.modules["draughts"] is draughts
    assert sys.modules["pydraughts"] is pyd


def compare(positions, variant):
    seen = set()
    n = 0
    for pos in positions:
        fen = pos.fen()
        if fen in seen:
            continue
        seen.add(fen)
        mine = ours(pos)
        theirs = pydraughts_moves(pyd, variant, fen)
        assert mine == theirs, (fen, sorted(mine - theirs, key=str), sorted(theirs - mine, key=str))
        n += 1
    return n


def playouts(starts, seed, per_start, plies, every=1):
    rng = random.Random(seed)
    for start in starts:
        for _ in range(per_start):
            for i, pos in enumerate(start.random_playout(rng, plies)):
                if i % every == 0:
                    yield pos


@pytest.mark.parametrize("variant,games", [("brazilian", 10), ("international", 8)])
def test_random_play_from_start(variant, games):
    n = compare(playouts([Position.initial(variant)], 1, int(games * SCALE), 150), variant)
    assert n >= 500 * min(SCALE, 1) * (0.8 if variant == "international" else 1)


def test_random_play_from_tablita_openings():
    openings = [o for o in load_openings() if o.table != "IDF-64-basic"]
    rng = random.Random(4)
    starts = [o.position() for o in rng.sample(openings, int(120 * SCALE))]
    n = compare(playouts(starts, 2, 1, 120, every=8), "brazilian")
    assert n >= 600 * min(SCALE, 1)


@pytest.mark.parametrize("variant,count", [("brazilian", 120), ("international", 80)])
def test_random_placements_with_kings(variant, count):
    v = draughts.get_variant(variant)
    rng = random.Random(9)
    positions = []
    for _ in range(int(count * SCALE)):
        sq = rng.sample(range(1, v.num_squares + 1), rng.randint(4, 14))
        k = len(sq) // 2
        w, b = sq[:k], sq[k:]
        wk = [s for s in w if rng.random() < 0.4 or s <= v.h]
        bk = [s for s in b if rng.random() < 0.4 or s > v.num_squares - v.h]
        positions.append(
            Position.from_pieces(
                variant, [s for s in w if s not in wk], wk, [s for s in b if s not in bk], bk, rng.randint(0, 1)
            )
        )
    assert compare(positions, variant) >= count * SCALE * 0.95
