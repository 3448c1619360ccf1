"""Benchmark: zip bombs of every compression (issue 25, item 5), memory side by side.

For each bomb (``testkit/hostile_files.py``), two readings, each in a child process of its own so that its peak
resident memory (ru_maxrss) is its own:

* old: what the upload did before: ``zipfile`` opens the zip and reads the member (for a Swiss Perfect zip whole,
  as ``files_from_zip`` did; for a workbook 64 KB at a time, as ``xlsxread`` streams the worksheet);
* new: the upload's reader now (``import_upload`` for a Swiss Perfect zip, ``parse_rating_list`` for a workbook).

Printed per bomb: its size, each reading's outcome, its Python peak (tracemalloc) and the child's peak RSS over
the interpreter's own baseline (a child that only imports Django).

    .venv/bin/python bench/zip_bombs.py [--mb 256]

The issue's figures: a 686-byte Swiss Perfect zip added 901 MB to the live worker, a 4.9 KB XLSX 1 GB.
"""

import argparse
import multiprocessing as mp
import os
import resource
import sys
import tracemalloc
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _setup():
    import django

    django.setup()
    from django.utils import translation

    translation.activate("pt-br")


def _old(data, member):
    with zipfile.ZipFile(__import__("io").BytesIO(data)) as zf:
        if member is None:
            return f"{len(zf.infolist())} entries listed"
        if member.endswith(".sco"):  # files_from_zip read the three members whole
            return f"read {len(zf.read(member))} bytes"
        with zf.open(member) as fh:  # xlsxread streamed the worksheet
            total = 0
            while chunk := fh.read(64 * 1024):
                total += len(chunk)
            return f"read {total} bytes"


def _new(data, filename):
    from tournaments.interchange import InterchangeError, import_upload
    from tournaments.interchange.dispatch import Upload
    from tournaments.registry.ratinglist import RatingListError, parse_rating_list

    if filename.endswith(".zip"):
        try:
            import_upload(Upload(data, filename))
        except InterchangeError as exc:
            return "refused: " + exc.messages[0][:80]
        return "imported (rolled back)"
    try:
        return f"read {len(parse_rating_list(data, filename))} rows"
    except RatingListError as exc:
        return "refused: " + str(exc.errors[0][1])[:80]


def _child(queue, which, data, arg):
    _setup()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    try:
        if which == "old":
            outcome = _old(data, arg)
        elif which == "new":
            outcome = _new(data, arg)
        else:
            outcome = "baseline"
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, ValueError) as exc:
        outcome = f"{type(exc).__name__}: {str(exc)[:60]}"
    peak = tracemalloc.get_traced_memory()[1] / (1024 * 1024)
    tracemalloc.stop()
    rss = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    queue.put((outcome, peak, rss))


def measure(which, data, arg):
    queue = mp.get_context("fork").Queue()
    proc = mp.get_context("fork").Process(target=_child, args=(queue, which, data, arg))
    proc.start()
    result = queue.get()
    proc.join()
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=256, help="zeros behind each compressed bomb (default 256)")
    size = parser.parse_args().mb * 1024 * 1024
    _setup()
    from testkit import hostile_files as H

    sheet = H.SHEET
    cases = [
        ("Swiss Perfect zip, bzip2 .sco", lambda: H.sp_zip_bomb(zipfile.ZIP_BZIP2, size), "evento.sco", "evento.zip"),
        ("Swiss Perfect zip, LZMA .sco", lambda: H.sp_zip_bomb(zipfile.ZIP_LZMA, size), "evento.sco", "evento.zip"),
        (
            "Swiss Perfect zip, deflate .sco",
            lambda: H.sp_zip_bomb(zipfile.ZIP_DEFLATED, size),
            "evento.sco",
            "evento.zip",
        ),
        ("XLSX, bzip2 worksheet", lambda: H.xlsx_bomb(zipfile.ZIP_BZIP2, size), sheet, "lista.xlsx"),
        ("XLSX, LZMA worksheet", lambda: H.xlsx_bomb(zipfile.ZIP_LZMA, size), sheet, "lista.xlsx"),
        ("XLSX, deflate worksheet", lambda: H.xlsx_bomb(zipfile.ZIP_DEFLATED, size), sheet, "lista.xlsx"),
        ("XLSX, 40 MB member (honest size)", H.inflating_member, "xl/media/zeros.bin", "lista.xlsx"),
        ("XLSX, nested zips (3 deep)", H.nested_zip_bomb, "xl/media/nested.zip", "lista.xlsx"),
        ("XLSX, 5,000 members", H.many_members, None, "lista.xlsx"),
        ("zip, 60,000 directory entries", H.directory_flood, None, "evento.zip"),
    ]
    print(f"bombs of {size // (1024 * 1024)} MB of zeros; memory: Python peak / child RSS over its baseline")
    print(f"{'bomb':36} {'size':>9} | {'old':>8} {'RSS':>8}  outcome | {'new':>8} {'RSS':>8}  outcome")
    for label, build, member, filename in cases:
        data = build()
        old = measure("old", data, member)
        new = measure("new", data, filename)
        print(
            f"{label:36} {len(data) / 1024:7.1f}KB | {old[1]:6.1f}MB {old[2]:6.1f}MB  {old[0][:40]} | "
            f"{new[1]:6.1f}MB {new[2]:6.1f}MB  {new[0][:90]}"
        )


if __name__ == "__main__":
    main()
