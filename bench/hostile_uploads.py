"""Benchmark: hostile rating lists (``testkit/hostile_files.py``), each read by ``parse_rating_list`` as the upload
page reads it. Prints, per file: its size, the outcome, the time (best of 3) and the peak of Python memory
(tracemalloc, a separate run: tracing slows the run it measures), then the process's peak resident memory.

    .venv/bin/python bench/hostile_uploads.py

Targets (issue 15, item 1): a 1,000,000-row file refused in well under a second; no file above a few tens of MB.
The issue's file (6,000 rows declared ``A1:XFD6000``) took 881 MB and 8.6 s through openpyxl.
"""

import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()


def main():
    from django.utils import translation

    from testkit import hostile_files as H
    from tournaments.registry.ratinglist import RatingListError, parse_rating_list

    translation.activate("pt-br")
    cases = [
        ("declared A1:XFD6000, 6,000 rows (the issue's)", H.declared_dimension_bomb, "lista.xlsx"),
        ("1,000,000 small rows", H.million_rows, "lista.xlsx"),
        ("1,000,000 player rows (170 MB unpacked)", H.million_rows_declared_sizes, "lista.xlsx"),
        ("one row numbered 1,048,576", H.far_row, "lista.xlsx"),
        ("a row of 200,000 cells", H.wide_row, "lista.xlsx"),
        ("a 40 MB member of zeros", H.inflating_member, "lista.xlsx"),
        ("a member lying about its size", H.lying_member, "lista.xlsx"),
        ("5,000 members", H.many_members, "lista.xlsx"),
        ("billion laughs", H.entity_expansion, "lista.xlsx"),
        ("CSV: one line of 8 M separators", H.csv_long_line, "lista.csv"),
        ("CSV: 1,000,000 rows", H.csv_million_rows, "lista.csv"),
    ]
    largest = (0.0, "")
    for label, build, filename in cases:
        data = build()

        def run(data=data, filename=filename):
            try:
                return f"read {len(parse_rating_list(data, filename))} rows"
            except RatingListError as exc:
                return "refused: " + str(exc.errors[0][1])[:70]

        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            outcome = run()
            times.append(time.perf_counter() - t0)
        tracemalloc.start()
        run()
        peak = tracemalloc.get_traced_memory()[1] / (1024 * 1024)
        tracemalloc.stop()
        largest = max(largest, (peak, label))
        print(f"{label:48} {len(data) / 1024:9.0f} KB {min(times):7.3f} s {peak:7.1f} MB  {outcome}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"largest Python memory peak: {largest[0]:.1f} MB ({largest[1]}); process peak RSS {rss:.0f} MB")


if __name__ == "__main__":
    main()
