"""The ratchets: today's offenders of two rules, listed in files that may only shrink (issue 24).

complexity   guards/complexity.txt: the functions over ruff's limits (pyproject.toml: C901 ``max-complexity``,
             PLR0912 ``max-branches``, PLR0915 ``max-statements``), each with its figures. A function not listed
             may not go over; a listed one may not grow, and once it shrinks or is back under the limits its line
             must follow (lowered or deleted), so the list only ever shrinks.
annotations  pyproject.toml's mypy section "NOT YET fully annotated": the modules with a function whose arguments
             or return are not all annotated. mypy requires every other module to be fully annotated
             (``disallow_untyped_defs`` for all); a module listed that is now fully annotated must leave the list.

    .venv/bin/python guards/ratchet.py              check both (run by `make lint`, pre-commit and tests/test_guards.py)
    .venv/bin/python guards/ratchet.py --update     rewrite both lists from today's code, shrinking only: a function
                                                    or module that got better leaves or is lowered, one that moved to
                                                    another file follows it; a new or grown offender is refused
    .venv/bin/python guards/ratchet.py --update --allow-new   also list the new and grown offenders (say why in the
                                                    commit message: the list is meant to shrink)

Run --update after a rebase that moved or split functions (git cannot merge figures), and before each landing.
Keys are ``path::qualified.name`` (a nested function is ``outer.inner``; a second definition of the same name in a
file gets ``#2``), so a function moved to another file keeps its name and is recognised as the same offender.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPLEXITY_FILE = ROOT / "guards" / "complexity.txt"
PYPROJECT = ROOT / "pyproject.toml"
RULES = ("C901", "PLR0912", "PLR0915")
RULE_NAMES = {"C901": "complexity", "PLR0912": "branches", "PLR0915": "statements"}
UPDATE = ".venv/bin/python guards/ratchet.py --update"

Figures = dict[str, int]


# ----------------------------------------------------------------------------------------------- complexity


def _functions(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    """Every function of a module with its qualified name (classes and enclosing functions, dot-separated)."""

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                yield child, name
                yield from walk(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def _keys_by_line(path: Path) -> dict[int, str]:
    """{line of a ``def``: its key} for one file."""
    rel = path.relative_to(ROOT).as_posix()
    seen: dict[str, int] = {}
    out: dict[int, str] = {}
    for node, name in _functions(ast.parse(path.read_text(encoding="utf-8"))):
        seen[name] = seen.get(name, 0) + 1
        suffix = f"#{seen[name]}" if seen[name] > 1 else ""
        out[node.lineno] = f"{rel}::{name}{suffix}"
    return out


def current_offenders() -> dict[str, Figures]:
    """{key: {rule: figure}} for every function over a limit today (ruff with the limits of pyproject.toml)."""
    ruff = Path(sys.executable).with_name("ruff")
    proc = subprocess.run(
        [str(ruff), "check", "--select", ",".join(RULES), "--output-format", "json", "--exit-zero", "-q", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, Figures] = {}
    keys: dict[Path, dict[int, str]] = {}
    for finding in json.loads(proc.stdout):
        path = Path(finding["filename"])
        if path not in keys:
            keys[path] = _keys_by_line(path)
        key = keys[path][finding["location"]["row"]]
        figure = re.search(r"\((\d+) > \d+\)", finding["message"])
        if figure is None:  # pragma: no cover - ruff's message format changed
            raise RuntimeError(f"cannot read the figure in ruff's message: {finding['message']}")
        out.setdefault(key, {})[finding["code"]] = int(figure.group(1))
    return out


def _format_figures(figures: Figures) -> str:
    return " ".join(f"{rule}={figures[rule]}" for rule in RULES if rule in figures)


def read_complexity(text: str | None = None) -> dict[str, Figures]:
    out: dict[str, Figures] = {}
    if text is None:
        text = COMPLEXITY_FILE.read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key, *figures = line.split()
        out[key] = {rule: int(value) for rule, value in (f.split("=") for f in figures)}
    return out


COMPLEXITY_HEADER = f"""\
# Functions over ruff's complexity and length limits (pyproject.toml: C901 max-complexity, PLR0912 max-branches,
# PLR0915 max-statements), with their figures. This list may only shrink (guards/ratchet.py says how it is checked):
# a function not listed may not go over a limit, a listed one may not grow, and one that shrank or split must have
# its line lowered or deleted. After a rebase that moved functions, or before landing, regenerate it with
#     {UPDATE}
# which only lowers, deletes and follows moves; never add a line by hand.
"""


def write_complexity(entries: dict[str, Figures]) -> None:
    lines = [f"{key} {_format_figures(entries[key])}" for key in sorted(entries)]
    COMPLEXITY_FILE.write_text(COMPLEXITY_HEADER + "\n".join(lines) + "\n", encoding="utf-8")


def complexity_problems(listed: dict[str, Figures], now: dict[str, Figures]) -> list[str]:
    problems = []
    for key in sorted(now.keys() - listed.keys()):
        problems.append(f"new offender {key} ({_format_figures(now[key])}): split it into functions of one job each")
    for key in sorted(listed.keys() - now.keys()):
        problems.append(f"{key} is now under every limit: delete its line")
    for key in sorted(listed.keys() & now.keys()):
        before, after = listed[key], now[key]
        for rule in RULES:
            b, a = before.get(rule), after.get(rule)
            if a is not None and (b is None or a > b):
                problems.append(f"{key} grew: {RULE_NAMES[rule]} {b or 'under the limit'} -> {a}")
            elif b is not None and (a is None or a < b):
                problems.append(f"{key} shrank ({RULE_NAMES[rule]} {b} -> {a or 'under the limit'}): lower its line")
    return problems


def _name(key: str) -> str:
    return key.split("::", 1)[1]


def _within(figures: Figures, limit: Figures) -> bool:
    return all(rule in limit and value <= limit[rule] for rule, value in figures.items())


def updated_complexity(
    listed: dict[str, Figures], now: dict[str, Figures], allow_new: bool
) -> tuple[dict[str, Figures], list[str]]:
    """The list rewritten from ``now``, shrinking only; returns it and the offenders it refused."""
    gone = {key: listed[key] for key in listed.keys() - now.keys()}
    out: dict[str, Figures] = {}
    refused = []
    for key, figures in now.items():
        limit = listed.get(key)
        if limit is None:  # a function that moved to another file keeps its name
            moved = [g for g in gone if _name(g) == _name(key) and _within(figures, gone[g])]
            if moved:
                limit = gone.pop(moved[0])
        if allow_new or (limit is not None and _within(figures, limit)):
            out[key] = figures
        else:
            refused.append(f"{key} ({_format_figures(figures)})")
            if limit is not None:
                out[key] = limit  # keep its old line: the check keeps failing until it is split
    return out, refused


# ----------------------------------------------------------------------------------------------- annotations

NOT_YET_START = "# --- NOT YET fully annotated: generated by guards/ratchet.py --update; may only shrink ---"
NOT_YET_END = "# --- end of NOT YET ---"


def _mypy_files() -> list[Path]:
    import tomllib

    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]
    excluded = [re.compile(pattern) for pattern in config.get("exclude", [])]
    out = []
    for entry in config["files"]:
        for path in sorted((ROOT / entry).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if not any(pattern.search(rel) for pattern in excluded):
                out.append(path)
    return out


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unannotated_functions(path: Path) -> list[str]:
    """The functions of a file that mypy's ``disallow_untyped_defs``/``disallow_incomplete_defs`` refuse: an
    argument (but ``self``/``cls`` of a method) or the return without annotation (``__init__`` may omit ``-> None``
    when an argument is annotated)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    methods = {
        id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body if isinstance(f, ast.FunctionDef)
    }
    out = []
    for node, name in _functions(tree):
        a = node.args
        args = [*a.posonlyargs, *a.args, *a.kwonlyargs]
        decorators = {getattr(d, "id", getattr(d, "attr", "")) for d in node.decorator_list}
        if id(node) in methods and args and "staticmethod" not in decorators:
            args = args[1:]
        if a.vararg:
            args.append(a.vararg)
        if a.kwarg:
            args.append(a.kwarg)
        missing_arg = any(arg.annotation is None for arg in args)
        missing_return = node.returns is None and not (
            node.name == "__init__" and any(arg.annotation is not None for arg in args)
        )
        if missing_arg or missing_return:
            out.append(name)
    return out


def current_unannotated() -> list[str]:
    return sorted(_module(path) for path in _mypy_files() if unannotated_functions(path))


def read_not_yet(text: str | None = None) -> list[str]:
    if text is None:
        text = PYPROJECT.read_text(encoding="utf-8")
    if NOT_YET_START not in text:
        return []
    block = text.split(NOT_YET_START, 1)[1].split(NOT_YET_END, 1)[0]
    return re.findall(r'^\s*"([\w.]+)",', block, flags=re.MULTILINE)


def write_not_yet(modules: list[str]) -> None:
    text = PYPROJECT.read_text(encoding="utf-8")
    head, rest = text.split(NOT_YET_START, 1)
    _old, tail = rest.split(NOT_YET_END, 1)
    body = "\n[[tool.mypy.overrides]]\nmodule = [\n"
    body += "".join(f'    "{m}",\n' for m in modules)
    body += "]\ndisallow_untyped_defs = false\ndisallow_incomplete_defs = false\n"
    PYPROJECT.write_text(head + NOT_YET_START + body + NOT_YET_END + tail, encoding="utf-8")


def annotation_problems(listed: list[str], now: list[str]) -> list[str]:
    problems = [
        f"module {m} has a function not fully annotated and is not listed: annotate it" for m in now if m not in listed
    ]
    problems += [
        f"module {m} is now fully annotated (or gone): delete it from the list" for m in listed if m not in now
    ]
    return problems


# ----------------------------------------------------------------------------------------------- since main

COVERAGE_FILE = ROOT / "guards" / "coverage.txt"
LAST_GREEN = "ci-last-green"  # in the git directory: the last commit .ci/run passed (never committed)


def _git(*args: str) -> str | None:
    proc = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else None


def default_base() -> tuple[str, str] | None:
    """(commit, the rule that chose it) to compare the lists with; None when there is nothing to compare with.

    1. ``RATCHET_BASE`` (a commit), when CI or a reviewer names one.
    2. A branch ahead of main: where it left main (``git merge-base HEAD origin/main``, else ``main``).
    3. Main itself (CI's clone is main's tip, and landings are fast-forwards, so no merge commit marks them): the
       last commit .ci/run passed on this clone (recorded in the git directory), so a run shows every line the
       commits since that run added; without a record, the parent commit.
    """
    head = _git("rev-parse", "HEAD")
    if head is None:
        return None
    given = os.environ.get("RATCHET_BASE")
    if given:
        commit = _git("rev-parse", "--verify", f"{given}^{{commit}}")
        return (commit, f"RATCHET_BASE={given}") if commit else None
    for ref in ("origin/main", "main"):
        if _git("rev-parse", "--verify", "-q", ref) is None:
            continue
        base = _git("merge-base", "HEAD", ref)
        if base and base != head:
            return base, f"where this branch left {ref}"
        break
    git_dir = _git("rev-parse", "--absolute-git-dir")
    record = Path(git_dir) / LAST_GREEN if git_dir else None
    if record is not None and record.exists():
        last = record.read_text(encoding="utf-8").strip()
        if last != head and _git("merge-base", "--is-ancestor", last, "HEAD") is not None:
            return last, "the last commit .ci/run passed on this clone"
    parent = _git("rev-parse", "-q", "--verify", "HEAD~1")
    return (parent, "the parent commit (no earlier CI run recorded)") if parent else None


def _at(commit: str, path: Path) -> str:
    return _git("show", f"{commit}:{path.relative_to(ROOT).as_posix()}") or ""


def _read_floors(text: str) -> dict[str, int]:
    floors = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            name, floor = line.split()
            floors[name] = int(floor)
    return floors


def added_since(base: str) -> list[str]:
    """What the lists gained since ``base``: new or grown offenders, modules newly not annotated, files newly below
    100 % or with a lowered floor (what ``--allow-new`` let in), each with the commit that wrote it."""
    out = []
    before, now = read_complexity(_at(base, COMPLEXITY_FILE)), read_complexity()
    for key in sorted(now):
        old = before.get(key)
        if old is None or any(value > old.get(rule, 0) for rule, value in now[key].items()):
            was = f" (was {_format_figures(old)})" if old else ""
            out.append(f"complexity  {key} {_format_figures(now[key])}{was}{_who(base, COMPLEXITY_FILE, key)}")
    was_not_yet = set(read_not_yet(_at(base, PYPROJECT)))
    for module in read_not_yet():
        if module not in was_not_yet:
            quoted = f'"{module}",'
            out.append(f"annotations {module}{_who(base, PYPROJECT, quoted)}")
    if COVERAGE_FILE.exists():
        floors_then, floors = _read_floors(_at(base, COVERAGE_FILE)), _read_floors(COVERAGE_FILE.read_text("utf-8"))
        for name in sorted(floors):
            then = floors_then.get(name)
            if then is None or floors[name] < then:
                was = f" (was {then} %)" if then is not None else ""
                out.append(f"coverage    {name} {floors[name]} %{was}{_who(base, COVERAGE_FILE, name)}")
    return out


def _who(base: str, path: Path, text: str) -> str:
    """— the commit since ``base`` that last touched the line holding ``text`` (empty when not committed yet)."""
    rel = path.relative_to(ROOT).as_posix()
    found = _git("log", "-1", "--format=%h %an: %s", "-S", text, f"{base}..HEAD", "--", rel)
    return f"  <- {found[:100]}" if found else "  <- not committed yet"


def print_since(base_ref: str | None) -> int:
    chosen = (_git("rev-parse", "--verify", f"{base_ref}^{{commit}}"), base_ref) if base_ref else default_base()
    if chosen is None or chosen[0] is None:
        print("ratchets since main: nothing to compare with")
        return 0
    base, rule = chosen
    added = added_since(base)
    print(f"ratchets since {base[:10]} ({rule}): {len(added)} line(s) added by --allow-new")
    for line in added:
        print(f"  {line}")
    return 0


# ----------------------------------------------------------------------------------------------- main


def problems() -> list[str]:
    """Everything the two ratchets find wrong today, one line each (empty: all is well)."""
    return complexity_problems(read_complexity(), current_offenders()) + annotation_problems(
        read_not_yet(), current_unannotated()
    )


def update(allow_new: bool) -> list[str]:
    """Rewrite both lists (shrinking only unless ``allow_new``); returns what was refused."""
    entries, refused = updated_complexity(read_complexity(), current_offenders(), allow_new)
    write_complexity(entries)
    listed, now = read_not_yet(), current_unannotated()
    if allow_new:
        write_not_yet(now)
    else:
        write_not_yet([m for m in now if m in listed])
        refused += [f"module {m} (not fully annotated)" for m in now if m not in listed]
    return refused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the lists, shrinking only")
    parser.add_argument("--allow-new", action="store_true", help="with --update: also list new offenders")
    parser.add_argument(
        "--since",
        nargs="?",
        const="",
        metavar="REF",
        help="print what the lists gained since REF (default: main, see default_base) and exit",
    )
    args = parser.parse_args(argv)
    if args.since is not None:
        return print_since(args.since or None)
    if args.update:
        refused = update(args.allow_new)
        if refused:
            print("Not listed (split or annotate them; or --update --allow-new, saying why):", *refused, sep="\n  ")
            return 1
        print("guards/complexity.txt and pyproject.toml's NOT YET list updated.")
        return 0
    found = problems()
    if found:
        print("The ratchets (guards/ratchet.py) found:", *found, sep="\n  ")
        print(f"Fix the new offenders; for what shrank or moved, run: {UPDATE}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
