"""Legal-move generation speed: random playouts, plies per second (one ply = generate every legal move of the
position, then play one of them at random), for Brazilian (64) and international (100) draughts, ours and,
when it is installed, pydraughts' (loaded under another module name, see tests/draughts/pydraughts_loader.py).

    PYTHONPATH=. .venv/bin/python bench/draughts.py [--seconds 3] [--pyd-seconds 3] [--no-pydraughts]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# This script is itself called draughts.py: drop its own folder from sys.path so that ``import draughts`` finds
# the project's package, not this file.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from draughts.board import Position  # noqa: E402


def bench_ours(variant: str, seconds: float, seed: int = 1, max_plies: int = 200) -> tuple[int, float]:
    rng = random.Random(seed)
    plies = 0
    games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        pos = Position.initial(variant)
        games += 1
        for _ in range(max_plies):
            moves = pos.legal_moves()
            plies += 1
            if not moves or pos.is_draw_by_king_moves():
                break
            pos = pos.play(rng.choice(moves))
    return plies, time.perf_counter() - t0


def bench_pydraughts(variant: str, seconds: float, seed: int = 1, max_plies: int = 200) -> tuple[int, float] | None:
    sys.path.insert(0, os.path.join(ROOT, "tests", "draughts"))
    try:
        from pydraughts_loader import load_pydraughts
    finally:
        sys.path.pop(0)
    pyd = load_pydraughts()
    if pyd is None:
        return None
    name = "brazilian" if variant == "brazilian" else "standard"
    rng = random.Random(seed)
    plies = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while time.perf_counter() < deadline:
        board = pyd.Board(name)
        for _ in range(max_plies):
            if time.perf_counter() >= deadline:
                break
            moves = board.legal_moves()
            plies += 1
            if not moves or board.is_over():
                break
            board.push(rng.choice(moves))
    return plies, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per variant for our engine")
    ap.add_argument("--pyd-seconds", type=float, default=3.0, help="time per variant for pydraughts")
    ap.add_argument("--no-pydraughts", action="store_true")
    args = ap.parse_args(argv)
    print(f"{'engine':<12} {'variant':<14} {'plies':>8} {'seconds':>8} {'plies/s':>10}")
    for variant in ("brazilian", "international"):
        plies, secs = bench_ours(variant, args.seconds)
        print(f"{'damas-swiss':<12} {variant:<14} {plies:>8} {secs:>8.2f} {plies / secs:>10.0f}")
        if not args.no_pydraughts:
            res = bench_pydraughts(variant, args.pyd_seconds)
            if res is None:
                print(f"{'pydraughts':<12} {variant:<14} {'(not installed)':>28}")
            else:
                p2, s2 = res
                print(
                    f"{'pydraughts':<12} {variant:<14} {p2:>8} {s2:>8.2f} {p2 / s2:>10.0f}"
                    f"   (ours x{(plies / secs) / (p2 / s2):.0f})"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
