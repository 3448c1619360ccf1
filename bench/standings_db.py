"""Benchmark: standings of a 500-player, 11-round micro-match Swiss through the database path.

    .venv/bin/python bench/standings_db.py [players] [rounds]
    .venv/bin/python bench/standings_db.py 1000 11      # issue 17's size
    DATABASE_URL=postgres://... .venv/bin/python bench/standings_db.py

The tournament is imported from a generated interchange file into a throw-away test database. Prints, best of 5:
the database read (``read_snapshot``: the tournament's snapshot), the computation (``standings_of``: the domain
input, ``compute_standings``, categories and qualification spots) and the number of queries; then
``tournament_standings(public=True)`` (read and computation, the overall standings pages' road) and
``homologation_check`` (what the staff pages, the commands and the workbook run: the staff snapshot, the standings,
the conditions and the spots). Target: under 0.3 s for 1,000 players x 11 rounds (issue 17). Wall and CPU times
(the CPU time is the figure to judge on a shared machine); the load average is printed.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def main(players=500, rounds=11):
    from tournaments.homologation.report import homologation_check
    from tournaments.interchange import import_data
    from tournaments.interchange.synthetic import synthetic_tournament
    from tournaments.standings import read_snapshot, standings_of, tournament_standings

    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    t0 = time.perf_counter()
    tournament = import_data(synthetic_tournament(players, rounds, seed=11))
    print(f"import of {players} players x {rounds} rounds (JSON): {time.perf_counter() - t0:.2f} s")
    best = None
    for _ in range(5):
        with CaptureQueriesContext(connection) as ctx:
            t0, c0 = time.perf_counter(), time.process_time()
            snapshot = read_snapshot(tournament, public=True)
            t1, c1 = time.perf_counter(), time.process_time()
            result = standings_of(snapshot, rights=False)
            t2, c2 = time.perf_counter(), time.process_time()
        run = (t1 - t0, t2 - t1, c1 - c0, c2 - c1, len(ctx.captured_queries))
        best = run if best is None or run[2] + run[3] < best[2] + best[3] else best
    read, compute, read_cpu, compute_cpu, queries = best
    print(
        f"standings of {len(result.rows)} players after {result.rounds_completed} rounds (best of 5 by CPU): "
        f"database read {read:.3f} s wall, {read_cpu:.3f} s CPU; computation {compute:.3f} s wall, "
        f"{compute_cpu:.3f} s CPU (target < 0.3 s); {queries} queries"
    )

    def best_of_5(run):
        """Best wall and CPU time of five runs, and the queries of the last."""
        walls, cpus = [], []
        for _ in range(5):
            with CaptureQueriesContext(connection) as ctx:
                t0, c0 = time.perf_counter(), time.process_time()
                run()
                walls.append(time.perf_counter() - t0)
                cpus.append(time.process_time() - c0)
        return min(walls), min(cpus), len(ctx.captured_queries)

    wall, cpu, queries = best_of_5(lambda: tournament_standings(tournament, public=True, categories=()))
    print(
        f"tournament_standings(public=True, no category) (the overall standings pages: snapshot read, computation):"
        f" best of 5 {wall:.3f} s wall, {cpu:.3f} s CPU, {queries} queries"
    )
    wall, cpu, queries = best_of_5(lambda: homologation_check(tournament))
    print(
        f"homologation_check end to end (staff snapshot, standings, conditions, spots): best of 5 {wall:.3f} s "
        f"wall, {cpu:.3f} s CPU (target < 0.3 s; on SQLite the CPU time includes the database's), "
        f"{queries} queries; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    from throwaway_db import run_in_throwaway_db

    run_in_throwaway_db(main, *[int(a) for a in sys.argv[1:3]], name=__file__)
