"""Issue 39.9: every pinned runtime dependency is used by the project's code (tablib was pinned and never imported)."""

import re
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("config", "tournaments", "pairing", "draughts", "testkit")


def _requirements():
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            yield re.split(r"[=<>~\[;]", line)[0].strip()


def _import_names(distribution):
    wanted = distribution.lower().replace("_", "-")
    return sorted(
        module
        for module, dists in metadata.packages_distributions().items()
        if wanted in (d.lower().replace("_", "-") for d in dists)
    )


def test_every_runtime_requirement_is_imported_or_named_by_the_code():
    text = "\n".join(path.read_text(encoding="utf-8") for folder in CODE for path in (ROOT / folder).rglob("*.py"))
    unused = []
    for distribution in _requirements():
        names = _import_names(distribution)
        assert names, f"{distribution} is pinned but not installed"
        if not any(re.search(rf"\b{re.escape(name)}\b", text) for name in names):
            unused.append(distribution)
    assert unused == []


def test_every_requirement_is_pinned():
    lines = [
        line.split("#")[0].strip()
        for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if line.split("#")[0].strip()
    ]
    assert all(re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[\w.]+", line) for line in lines), lines
