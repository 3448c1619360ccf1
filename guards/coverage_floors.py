"""The coverage ratchet: coverage per file, with a list of floors that may only shrink (issue 39.2).

guards/coverage.txt lists the files ``make coverage`` measures below 100 %, each with its floor (the whole
percentage it had when it was listed or last raised). After ``make coverage`` this guard reads the coverage data
(``.coverage``) and fails when

  * a listed file is below its floor (its tests were lost or its new code is untested);
  * a file not listed is below 100 % (a new file comes fully covered, as in Zulip's ``tools/test-backend``).

A listed file that rose past its floor, reached 100 % or is gone is said, and ``--update`` raises or deletes its
line: a run that measures more (CI's, with the browser tests) must not fail for it, so it is not a failure.

    .venv/bin/python guards/coverage_floors.py                       check (run by `make coverage`, after the tests)
    .venv/bin/python guards/coverage_floors.py --update              rewrite the list from the data: raise floors, drop
                                                              fully covered and gone files; refuse the rest
    .venv/bin/python guards/coverage_floors.py --update --allow-new  also list new files below 100 % and lowered floors
                                                              (say why in the commit message; CI prints them)
    .venv/bin/python guards/coverage_floors.py --summary             files below 80 % and the total, from the data

The floors are whole percentages, so a file's figure may wobble by less than a point between runs (a test of a
Redis outage takes another branch on another machine) without failing.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOORS_FILE = ROOT / "guards" / "coverage.txt"
UPDATE = ".venv/bin/python guards/coverage_floors.py --update"

HEADER = f"""\
# Files `make coverage` measures below 100 %, with their floor in whole percent. This list may only shrink
# (guards/coverage_floors.py says how it is checked): a listed file may not drop below its floor, a file not listed must be
# fully covered, and a listed file that reaches 100 % (or is gone) must leave. After `make coverage` run
#     {UPDATE}
# which only raises floors and deletes lines; never add a line or lower a floor by hand.
"""


def measured(data_file: Path | None = None) -> tuple[dict[str, float], float]:
    """({file: percent covered}, total percent) from the coverage data, with the project's coverage settings."""
    import coverage

    # data_file=None would mean "no data file" to coverage: name the default (.coverage at the project's root)
    cov = coverage.Coverage(data_file=str(data_file or ROOT / ".coverage"), config_file=str(ROOT / "pyproject.toml"))
    cov.load()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "coverage.json"
        cov.json_report(outfile=str(out))
        report = json.loads(out.read_text(encoding="utf-8"))
    files = {}
    for name, entry in report["files"].items():
        path = Path(name)
        rel = (path.relative_to(ROOT) if path.is_absolute() else path).as_posix()
        files[rel] = float(entry["summary"]["percent_covered"])
    return files, float(report["totals"]["percent_covered"])


def read_floors(path: Path = FLOORS_FILE) -> dict[str, int]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, floor = line.split()
            out[name] = int(floor)
    return out


def write_floors(floors: dict[str, int], path: Path = FLOORS_FILE) -> None:
    path.write_text(HEADER + "".join(f"{name} {floors[name]}\n" for name in sorted(floors)), encoding="utf-8")


def floor_of(percent: float) -> int:
    return math.floor(percent + 1e-9)


def problems(floors: dict[str, int], now: dict[str, float]) -> tuple[list[str], list[str]]:
    """(failures, notes): files below their floor or not listed and not fully covered; lines to raise or delete."""
    failures, notes = [], []
    for name, percent in sorted(now.items()):
        floor = floors.get(name)
        if floor is None and percent < 100:
            failures.append(
                f"{name} is {percent:.1f} % covered and not listed: a file not listed must be fully covered"
            )
        elif floor is not None and percent < floor:
            failures.append(f"{name} dropped to {percent:.1f} %, below its floor of {floor} %")
        elif floor is not None and percent >= 100:
            notes.append(f"{name} is fully covered now: its line goes")
        elif floor is not None and floor_of(percent) > floor:
            notes.append(f"{name} rose to {percent:.1f} %: its floor of {floor} % goes up")
    notes += [f"{name} is no longer measured: its line goes" for name in sorted(floors.keys() - now.keys())]
    return failures, notes


def updated(floors: dict[str, int], now: dict[str, float], allow_new: bool) -> tuple[dict[str, int], list[str]]:
    """The floors rewritten from ``now``, shrinking only (raised floors, fewer files); and what was refused."""
    out, refused = {}, []
    for name, percent in now.items():
        if percent >= 100:
            continue
        floor, figure = floors.get(name), floor_of(percent)
        if allow_new or (floor is not None and figure >= floor):
            out[name] = figure
        else:
            refused.append(f"{name} ({percent:.1f} %" + (f", floor {floor} %)" if floor is not None else ", new)"))
            if floor is not None:
                out[name] = floor  # keep it: the check keeps failing until it is covered again
    return out, refused


def summary(now: dict[str, float], total: float, under: float = 80.0) -> str:
    low = sorted((percent, name) for name, percent in now.items() if percent < under)
    lines = [f"{len(now)} files, total {total:.1f} %; {len(low)} below {under:.0f} %:"]
    lines += [f"  {percent:5.1f} %  {name}" for percent, name in low]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="the coverage data file (default: .coverage)")
    parser.add_argument("--update", action="store_true", help="rewrite the list, shrinking only")
    parser.add_argument("--allow-new", action="store_true", help="with --update: also list new files, lower floors")
    parser.add_argument("--summary", action="store_true", help="print the files below 80 %% and the total")
    args = parser.parse_args(argv)
    now, total = measured(args.data)
    if args.summary:
        print(summary(now, total))
        return 0
    if args.update:
        floors, refused = updated(read_floors(), now, args.allow_new)
        write_floors(floors)
        if refused:
            print("Not listed (cover them; or --update --allow-new, saying why):", *refused, sep="\n  ")
            return 1
        print(f"{FLOORS_FILE.relative_to(ROOT)} updated: {len(floors)} files below 100 %.")
        return 0
    failures, notes = problems(read_floors(), now)
    if notes:
        print(f"The coverage list can shrink ({UPDATE}):", *notes, sep="\n  ")
    if failures:
        print("The coverage ratchet (guards/coverage_floors.py) found:", *failures, sep="\n  ")
        print("Cover what dropped and the new code.")
        return 1
    print(f"Coverage per file: every file at or above its floor in {FLOORS_FILE.relative_to(ROOT)}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
