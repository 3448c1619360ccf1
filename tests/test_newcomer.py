"""Issue 24 item 5: the README and docs/ tried as a new user would. Every command line they show names a `make`
target that exists and a management command that exists and takes the options shown; a bare ``python manage.py``
only where the page has said to activate the virtualenv first (a fresh shell has no Django); the specifications
the code cites are the repository's own copies under docs/; `make run` starts without WhiteNoise's warning about
a missing staticfiles/ folder."""

import re
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class

ROOT = Path(__file__).resolve().parents[1]
# The how-to pages; the specifications (docs/domain.md, docs/interchange.md...) state rules and contracts.
DOCS = [ROOT / "README.md", *(ROOT / "docs" / name for name in ("reference.md", "production.md", "development.md"))]
ACTIVATE = ". .venv/bin/activate"


def code_lines(path):
    """(line number, text) of the indented code blocks of a Markdown file, comments cut."""
    out = []
    previous_blank = True
    in_block = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("    ") and (in_block or previous_blank) and not line.lstrip().startswith(("-", "|")):
            in_block = True
            text = line.strip()
            if not text.startswith("#"):
                out.append((number, text))
        elif line.strip():
            in_block = False
        previous_blank = not line.strip()
    return out


def inline_code(path):
    return re.findall(r"`([^`\n]+)`", path.read_text(encoding="utf-8"))


def make_targets():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"(?m)^([A-Za-z][\w-]*)\s*:(?!=)", makefile))


def test_the_docs_show_command_lines():
    """The extraction below finds what it checks (a test that found nothing would pass for nothing)."""
    lines = [text for path in DOCS for _n, text in code_lines(path)]
    assert any(t.startswith("make run ") for t in lines) and any(t.startswith("make test ") for t in lines)
    assert sum("manage.py" in t for t in lines) >= 10


def test_every_make_target_named_exists():
    targets = make_targets()
    assert {"run", "test", "test-fast", "test-slow", "test-all", "coverage", "backup", "lint"} <= targets
    missing = []
    for path in DOCS:
        texts = [t for _n, t in code_lines(path)] + inline_code(path)
        for text in texts:
            for target in re.findall(r"(?:^|[\s(;&])make ([a-z][\w-]*)", text):
                if target not in targets:
                    missing.append(f"{path.relative_to(ROOT)}: make {target}")
    assert not missing, missing


def _placeholders_filled(args):
    """``[--format text|csv|json]`` -> ``--format text``: optional brackets dropped, the first choice taken."""
    out = []
    for arg in args:
        arg = arg.strip("[]")
        if arg and arg != "...":
            out.append(arg.split("|")[0])
    return out


def test_every_management_command_line_runs_with_the_options_shown():
    commands = get_commands()
    bad = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for number, line in code_lines(path):
            code = line.split(" #")[0]
            if "manage.py" not in code:
                continue
            where = f"{path.relative_to(ROOT)}:{number}: {line}"
            tokens = shlex.split(code)
            at = next(i for i, t in enumerate(tokens) if t.endswith("manage.py"))
            python = tokens[at - 1] if at else ""
            if python == "python" and ACTIVATE not in "\n".join(text.splitlines()[:number]):
                bad.append(f"{where}: bare python before the page says `{ACTIVATE}`")
            elif python not in ("python", ".venv/bin/python"):
                bad.append(f"{where}: run it as .venv/bin/python manage.py")
            name, *args = tokens[at + 1 :]
            if name not in commands:
                bad.append(f"{where}: no command {name}")
                continue
            parser = load_command_class(commands[name], name).create_parser("manage.py", name)
            try:
                parser.parse_args(_placeholders_filled(args))
            except Exception as exc:
                bad.append(f"{where}: {exc}")
        for name in re.findall(r"manage\.py ([a-z_]+)", " ".join(inline_code(path))):
            if name not in commands:
                bad.append(f"{path.relative_to(ROOT)}: no command {name}")
    assert not bad, "\n".join(bad)


def test_files_the_command_lines_run_exist():
    missing = []
    for path in DOCS:
        for _n, line in code_lines(path) + [(0, t) for t in inline_code(path)]:
            for script in re.findall(r"\.venv/bin/python ((?:guards|bench)/[\w/]+\.py)", line):
                if not (ROOT / script).is_file():
                    missing.append(f"{path.relative_to(ROOT)}: {script}")
    assert not missing, missing


CITED = re.compile(r"docs/(?:notes/)?[\w-]+\.md")


def test_the_specifications_cited_are_the_repositorys_copies():
    """Docstrings, tests and the README cite docs/…; nothing cites the original brief beside the clone
    (its spec folder), which a clone does not have."""
    cited, stale = set(), []
    for path in [*ROOT.glob("*.md"), *ROOT.glob("[a-z]*/**/*.py"), *ROOT.glob("[a-z]*/**/*.md")]:
        if ".venv" in path.parts or path.is_relative_to(ROOT / "docs"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.name != "test_newcomer.py":
            if "shared/spec" in text:
                stale.append(str(path.relative_to(ROOT)))
            cited |= set(CITED.findall(text))
    assert not stale, stale
    assert {"docs/domain.md", "docs/interchange.md", "docs/pairing.md", "docs/notes/fide_tiebreaks.md"} <= cited
    assert [c for c in sorted(cited) if not (ROOT / c).is_file()] == []


@pytest.mark.parametrize(
    "doc", ["docs/reference.md", "docs/production.md", "docs/development.md", "docs/architecture.md"]
)
def test_the_readme_maps_each_doc(doc):
    assert f"]({doc})" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_serving_outside_production_needs_no_staticfiles_folder(client):
    """`make run` serves the static files from static/ (WhiteNoise's finders): no STATIC_ROOT, so no warning at each
    start about a missing staticfiles/ folder, and the style sheet still answers."""
    from django.conf import settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    assert settings.STATIC_ROOT is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        WhiteNoiseMiddleware(lambda request: None)
    response = client.get("/static/css/site.css")
    assert response.status_code == 200 and b"{" in b"".join(response.streaming_content)


def test_make_test_says_what_it_does_while_it_collects():
    """Issue 37.13: `make test` printed nothing for over two minutes while its processes collected the tests."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/venue/test_lan.py",
            "-k",
            "listings",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout[-2000:]
    assert lines[0] == "coletando os testes em 2 processos (Django, importações; 1 a 2 minutos)…"
    assert sorted(line for line in lines if "coletado" in line) == [
        "gw0: 1 teste coletado; cria o banco de teste e começa",
        "gw1: 1 teste coletado; cria o banco de teste e começa",
    ]
