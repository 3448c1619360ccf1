"""Benchmark: the homologation workbook of a 300-player, 9-round micro-match Swiss.

    .venv/bin/python bench/homologation.py [players] [rounds]
    DATABASE_URL=postgres://... .venv/bin/python bench/homologation.py

The tournament is built through the JSON import from a generated interchange file
(``tournaments.interchange.synthetic``) in a throw-away test database (SQLite in memory by default, or a
``test_`` copy of the PostgreSQL database). Prints the import time and the workbook time (read + compute +
openpyxl + save; best of 3). Target for the workbook: under 3 s.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()


def main(players=300, rounds=9):
    from tournaments.homologation.report import homologation_check
    from tournaments.homologation.workbook import homologation_workbook
    from tournaments.interchange import import_data
    from tournaments.interchange.synthetic import synthetic_tournament

    data = synthetic_tournament(players, rounds)
    t0 = time.perf_counter()
    tournament = import_data(data)
    t_import = time.perf_counter() - t0
    print(f"import of {players} players x {rounds} rounds (JSON): {t_import:.2f} s")
    best = None
    for _ in range(3):
        import io

        t0 = time.perf_counter()
        report = homologation_check(tournament)
        t1 = time.perf_counter()
        wb = homologation_workbook(tournament, report)
        t2 = time.perf_counter()
        buf = io.BytesIO()
        wb.save(buf)
        t3 = time.perf_counter()
        run = (t3 - t0, t1 - t0, t2 - t1, t3 - t2, len(buf.getvalue()))
        best = run if best is None or run[0] < best[0] else best
    total, check, build, save, size = best
    print(
        f"homologation workbook: {total:.2f} s (check + standings {check:.2f} s, sheets {build:.2f} s, "
        f"save {save:.2f} s; {size // 1024} KiB)  target < 3 s"
    )
    return total


if __name__ == "__main__":
    from throwaway_db import run_in_throwaway_db

    run_in_throwaway_db(main, *[int(a) for a in sys.argv[1:3]], name=__file__)
