"""Smoke test of bench/draughts.py and a loose speed floor (issue #8 asks for 20,000 plies/s; the floor is far
below so that a loaded CI machine does not fail, yet a 10x regression does)."""

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_bench():
    spec = importlib.util.spec_from_file_location("draughts_bench", os.path.join(ROOT, "bench", "draughts.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_runs_and_is_fast_enough(capsys):
    bench = load_bench()
    for variant in ("brazilian", "international"):
        plies, secs = bench.bench_ours(variant, 0.3)
        assert plies / secs > 3000, (variant, plies / secs)
    assert bench.main(["--seconds", "0.05", "--no-pydraughts"]) == 0
    out = capsys.readouterr().out
    assert "brazilian" in out and "international" in out
