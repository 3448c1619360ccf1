"""Benchmark of the pairing engine.

    python bench/pairing.py [--sizes 100,300,1000] [--round 8] [--seed 1] [--decisive]
                            [--reference PATH] [--keep DIR]

Generates random tournaments (histories built with a quick greedy Swiss, random
results with draws, forfeits and byes, 2/1/0 scoring), pairs one more round of
each with this engine and prints the seconds per round.  With ``--reference``
it also runs another engine with the same command-line contract
(``ENGINE --dutch IN.trf -p OUT``) on the same TRF files and prints the time
ratio and whether the pairings are identical.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from pairing import model as M  # noqa: E402
from pairing import trf  # noqa: E402
from pairing.__main__ import format_pairs  # noqa: E402
from pairing.api import pair_trf  # noqa: E402


def random_tournament(n: int, rounds_played: int, total: int, seed: int, decisive: bool = False) -> M.TournamentState:
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1000, 2400) for _ in range(n)), reverse=True)
    players = [M.PlayerState(id=i + 1, name=f"Jogador {i + 1:04d}", rating=r) for i, r in enumerate(ratings)]
    score = [0] * n
    played = [set() for _ in range(n)]
    had_bye = [False] * n
    whites = [0] * n
    for _rnd in range(rounds_played):
        absent = set() if decisive else {i for i in range(n) if rng.random() < 0.03}
        order = sorted((i for i in range(n) if i not in absent), key=lambda i: (-score[i], i))
        entries = {}
        if len(order) % 2:
            for i in reversed(order):
                if not had_bye[i]:
                    order.remove(i)
                    had_bye[i] = True
                    entries[i] = M.RoundEntry(M.PAB)
                    score[i] += 2
                    break
            else:
                i = order.pop()
                absent.add(i)
        pool = list(order)
        while pool:
            a = pool.pop(0)
            j = next((k for k, b in enumerate(pool) if b not in played[a]), 0)
            b = pool.pop(j)
            played[a].add(b)
            played[b].add(a)
            if whites[a] <= whites[b]:
                w, bl = a, b
            else:
                w, bl = b, a
            whites[w] += 1
            x = rng.random()
            if x < 0.02:
                entries[w] = M.RoundEntry(M.FORFEIT_WIN, bl + 1, "w")
                entries[bl] = M.RoundEntry(M.FORFEIT_LOSS, w + 1, "b")
                score[w] += 2
                continue
            res = ("W" if x < 0.51 else "L") if decisive else "W" if x < 0.45 else "D" if x < 0.7 else "L"
            other = {"W": "L", "D": "D", "L": "W"}[res]
            entries[w] = M.RoundEntry(M.GAME, bl + 1, "w", res)
            entries[bl] = M.RoundEntry(M.GAME, w + 1, "b", other)
            score[w] += {"W": 2, "D": 1, "L": 0}[res]
            score[bl] += {"W": 2, "D": 1, "L": 0}[other]
        for i in absent:
            entries[i] = M.RoundEntry(M.HALF_BYE if rng.random() < 0.3 else M.ZERO_BYE)
            if entries[i].kind == M.HALF_BYE:
                score[i] += 1
        for i in range(n):
            players[i].history.append(entries.get(i))
    return M.TournamentState(
        players=players,
        total_rounds=total,
        initial_color="w",
        scoring=M.Scoring(win=2, draw=1, loss=0),
        name=f"Bench {n}",
    )


def run_reference(engine: str, path: str):
    out = path + ".ref.pairs"
    t0 = time.perf_counter()
    proc = subprocess.run([engine, "--dutch", path, "-p", out], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        return dt, None
    with open(out) as fh:
        return dt, fh.read()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,300,1000")
    ap.add_argument("--round", type=int, default=8, help="round to pair")
    ap.add_argument("--total", type=int, default=11, help="total rounds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--decisive",
        action="store_true",
        help="no draws and no absences: few, large score groups (the slowest early rounds)",
    )
    ap.add_argument("--reference", help="another engine with the same CLI contract")
    ap.add_argument("--keep", help="directory to keep the generated TRF files")
    args = ap.parse_args(argv)
    workdir = args.keep or tempfile.mkdtemp(prefix="pairing-bench-")
    os.makedirs(workdir, exist_ok=True)
    for size in [int(x) for x in args.sizes.split(",") if x]:
        state = random_tournament(size, args.round - 1, args.total, args.seed + size, args.decisive)
        path = os.path.join(workdir, f"bench-n{size}-r{args.round:02d}.trf")
        with open(path, "w") as fh:
            fh.write(trf.dumps(state))
        data = trf.read(path)
        t0 = time.perf_counter()
        c0 = time.process_time()
        result = pair_trf(data)
        dt = time.perf_counter() - t0
        cpu = time.process_time() - c0
        mine = format_pairs(result)
        line = (
            f"{size:5d} players, round {args.round}{' (decisive)' if args.decisive else ''}: "
            f"{dt:8.3f} s per round (cpu {cpu:.3f} s)"
        )
        if args.reference:
            rdt, ref = run_reference(args.reference, path)
            if ref is None:
                line += f" | reference failed ({rdt:.3f} s)"
            else:
                same = ref.split() == mine.split()
                line += (
                    f" | reference {rdt:8.3f} s, ratio {rdt / dt if dt else float('inf'):6.2f}x,"
                    f" {'identical' if same else 'DIFFERENT'}"
                )
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
