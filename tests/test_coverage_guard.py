"""Issue 39.2 and 39.3: coverage per file with floors that only rise (guards/coverage_floors.py, guards/coverage.txt), and
what ``--allow-new`` let into the shrink-only lists since main, printed by ``guards/ratchet.py --since``."""

import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    spec = importlib.util.spec_from_file_location(f"guards_{name}", ROOT / "guards" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


coverage_guard = _load("coverage_floors")
ratchet = _load("ratchet")


def test_a_file_below_its_floor_or_new_and_not_fully_covered_fails():
    floors = {"a.py": 80, "b.py": 90, "c.py": 70, "gone.py": 50}
    now = {"a.py": 79.9, "b.py": 100.0, "c.py": 72.5, "new.py": 99.5, "full.py": 100.0}
    failures, notes = coverage_guard.problems(floors, now)
    assert failures == [
        "a.py dropped to 79.9 %, below its floor of 80 %",
        "new.py is 99.5 % covered and not listed: a file not listed must be fully covered",
    ]
    assert notes == [
        "b.py is fully covered now: its line goes",
        "c.py rose to 72.5 %: its floor of 70 % goes up",
        "gone.py is no longer measured: its line goes",
    ]
    assert coverage_guard.problems({"a.py": 80}, {"a.py": 80.4}) == ([], [])  # less than a point: no change


def test_update_raises_floors_and_shrinks_the_list_but_refuses_a_drop_or_a_new_file():
    floors = {"a.py": 80, "b.py": 90, "c.py": 70, "gone.py": 50}
    now = {"a.py": 79.9, "b.py": 100.0, "c.py": 72.5, "new.py": 60.0}
    out, refused = coverage_guard.updated(floors, now, allow_new=False)
    assert out == {"a.py": 80, "c.py": 72}  # a.py keeps its floor (and keeps failing), b.py and gone.py leave
    assert refused == ["a.py (79.9 %, floor 80 %)", "new.py (60.0 %, new)"]
    out, refused = coverage_guard.updated(floors, now, allow_new=True)
    assert out == {"a.py": 79, "c.py": 72, "new.py": 60} and refused == []


def test_the_list_is_well_formed_and_sorted():
    floors = coverage_guard.read_floors()
    assert floors and all(0 <= floor < 100 for floor in floors.values())
    assert list(floors) == sorted(floors)
    assert all((ROOT / name).exists() for name in floors)


def test_the_figures_are_read_from_the_coverage_data(tmp_path):
    import coverage

    import draughts.pdn as target

    data = tmp_path / ".coverage"
    cov = coverage.Coverage(data_file=str(data), config_file=str(ROOT / "pyproject.toml"))
    cov.start()
    importlib.reload(target)
    cov.stop()
    cov.save()
    files, total = coverage_guard.measured(data)
    assert 0 < files["draughts/pdn.py"] < 100  # the module's top level ran, its functions did not
    assert files["tournaments/models/choices.py"] == 0  # measured packages' files that did not run count as 0 %
    assert 0 < total < 100


@pytest.fixture
def lists(tmp_path, monkeypatch):
    """The three lists in a temporary folder; ``then`` holds their text at the base commit."""
    then = {}
    paths = {
        "complexity": tmp_path / "complexity.txt",
        "pyproject": tmp_path / "pyproject.toml",
        "coverage": tmp_path / "coverage.txt",
    }
    monkeypatch.setattr(ratchet, "COMPLEXITY_FILE", paths["complexity"])
    monkeypatch.setattr(ratchet, "PYPROJECT", paths["pyproject"])
    monkeypatch.setattr(ratchet, "COVERAGE_FILE", paths["coverage"])
    monkeypatch.setattr(ratchet, "_at", lambda base, path: then[path.name])
    monkeypatch.setattr(ratchet, "_who", lambda base, path, text: "")
    return paths, then


def _not_yet(*modules):
    body = "".join(f'    "{m}",\n' for m in modules)
    return f"{ratchet.NOT_YET_START}\nmodule = [\n{body}]\n{ratchet.NOT_YET_END}\n"


def test_since_main_lists_what_allow_new_added_to_each_list(lists):
    paths, then = lists
    then["complexity.txt"] = "a.py::old C901=12\nb.py::grew C901=11\n"
    paths["complexity"].write_text("a.py::old C901=12\nb.py::grew C901=13\nc.py::new PLR0915=55\n")
    then["pyproject.toml"] = _not_yet("tournaments.a")
    paths["pyproject"].write_text(_not_yet("tournaments.a", "tournaments.b"))
    then["coverage.txt"] = "x.py 80\ny.py 90\n"
    paths["coverage"].write_text("x.py 85\ny.py 88\nz.py 40\n")
    assert ratchet.added_since("base") == [
        "complexity  b.py::grew C901=13 (was C901=11)",
        "complexity  c.py::new PLR0915=55",
        "annotations tournaments.b",
        "coverage    y.py 88 % (was 90 %)",
        "coverage    z.py 40 %",
    ]


def test_since_main_is_empty_when_the_lists_only_shrank(lists):
    paths, then = lists
    then["complexity.txt"] = "a.py::old C901=12\n"
    paths["complexity"].write_text("a.py::old C901=11\n")
    then["pyproject.toml"] = paths["pyproject"].write_text(_not_yet()) and _not_yet("tournaments.a")
    then["coverage.txt"] = "x.py 80\n"
    paths["coverage"].write_text("")
    assert ratchet.added_since("base") == []


def test_the_base_is_named_by_ci_or_found_from_main(monkeypatch):
    monkeypatch.setenv("RATCHET_BASE", "HEAD~1")
    base, rule = ratchet.default_base()
    assert rule == "RATCHET_BASE=HEAD~1" and base == ratchet._git("rev-parse", "HEAD~1")
    monkeypatch.delenv("RATCHET_BASE")
    base, rule = ratchet.default_base()
    assert ratchet._git("merge-base", "--is-ancestor", base, "HEAD") is not None and base != ratchet._git(
        "rev-parse", "HEAD"
    )
