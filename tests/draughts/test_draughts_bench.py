"""Smoke test of bench/draughts.py. Speed is what the bench prints, side by side with pydraughts; it is not a
test assertion (a shared CI machine once ran it at a third of its usual speed and failed the build)."""

import importlib.util
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_bench():
    spec = importlib.util.spec_from_file_location("draughts_bench", os.path.join(ROOT, "bench", "draughts.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_plays_games_and_prints_both_variants(capsys):
    bench = load_bench()
    for variant in ("brazilian", "international"):
        plies, secs = bench.bench_ours(variant, 0.05)
        assert plies > 0 and secs > 0, variant
    assert bench.main(["--seconds", "0.05", "--no-pydraughts"]) == 0
    out = capsys.readouterr().out
    for variant in ("brazilian", "international"):
        line = next(line for line in out.splitlines() if variant in line)
        assert re.search(r"\d", line), line
