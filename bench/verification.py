"""Benchmark: the federation's verification of a stage (issue 29, 36), pure (no database), as the worker runs it.

    .venv/bin/python bench/verification.py [--players 300] [--rounds 9] [--compare-with REF]

Two stages: the 34-player stage of the tests (engine-paired; every round re-paired, no finding) and a synthetic
``players`` x ``rounds`` stage (tournaments.interchange.synthetic) whose rounds are made to claim this product's
engine, so that every round is re-paired (the worst case: each one differs and is reported). Prints the
verification's wall and CPU time of each (best of 3) and the number of findings.

``--compare-with REF`` measures the code of git revision REF too (checked out in a temporary ``git worktree``,
removed at the end), each in a fresh process running this same script, and prints both side by side.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_CODE_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

STAGE = Path(__file__).resolve().parent.parent / "tests" / "data" / "federation" / "etapa-caruaru.json"
LINE = re.compile(r"^(?P<label>.+?)\s+wall\s+(?P<wall>[\d.]+) s\s+CPU\s+(?P<cpu>[\d.]+) s\s+(?P<rest>.*)$")


def registry_of(data):
    from tournaments.federation.verification import Registry, RegistryPlayer

    players = {
        p["cbjd_id"]: RegistryPlayer(p["cbjd_id"], p["name"], p["rating"], p.get("sex", ""), None)
        for p in data["players"]
    }
    return Registry(date(2026, 10, 1), "lista", players)


def best_of(n, fn):
    walls, cpus, result = [], [], None
    for _ in range(n):
        start, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus), result


def measure(players, rounds):
    import django

    django.setup()
    from tournaments.federation.verification import ENGINE_NAME, verify
    from tournaments.interchange.synthetic import synthetic_tournament

    stage = json.loads(STAGE.read_text(encoding="utf-8"))
    synthetic = synthetic_tournament(players=players, rounds=rounds)
    for rnd in synthetic["rounds"]:
        rnd["engine"] = ENGINE_NAME
    for label, data in (("stage of the tests, 34 x 7", stage), (f"synthetic {players} x {rounds}", synthetic)):
        registry = registry_of(data)
        wall, cpu, result = best_of(3, lambda d=data, r=registry: verify(d, r))
        print(
            f"{label:32} wall {wall:7.3f} s   CPU {cpu:7.3f} s   findings {len(result.findings):3}   rights {result.rights}"
        )


def compare(ref, players, rounds):
    here = Path(__file__).resolve().parent.parent
    rev = subprocess.run(
        ["git", "-C", str(here), "rev-parse", "--short", ref], capture_output=True, text=True, check=True
    ).stdout.strip()
    tree = Path(tempfile.mkdtemp(prefix="damas-bench-verification-"))
    tree.rmdir()
    subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(tree), rev], check=True)
    rows = []
    try:
        for label, root in ((f"{ref} ({rev})", tree), ("this tree", here)):
            out = subprocess.run(
                [sys.executable, __file__, "--players", str(players), "--rounds", str(rounds)],
                cwd=root,
                env=dict(os.environ, BENCH_CODE_ROOT=str(root)),
                capture_output=True,
                text=True,
                timeout=900,
            )
            if out.returncode != 0:
                sys.exit(f"the measurement of {label} failed:\n{out.stdout}{out.stderr}")
            for line in out.stdout.splitlines():
                found = LINE.match(line)
                if found:
                    rows.append((found["label"], label, found["wall"], found["cpu"], found["rest"]))
    finally:
        subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(tree)], check=False)
    print(f"{'stage':32} {'code':22} {'wall s':>7} {'CPU s':>7}  verdict")
    for stage, code, wall, cpu, rest in sorted(rows, key=lambda r: (r[0], r[1] != rows[0][1])):
        print(f"{stage:32} {code:22} {wall:>7} {cpu:>7}  {rest}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--compare-with", metavar="REF")
    args = parser.parse_args()
    if args.compare_with:
        compare(args.compare_with, args.players, args.rounds)
    else:
        measure(args.players, args.rounds)


if __name__ == "__main__":
    main()
