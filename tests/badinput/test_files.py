"""Broken TRF and interchange files through the two command lines, as an operator runs them:

* ``python -m pairing --dutch FILE -p``: exit 3 (invalid input) and one line on standard error naming the line;
* ``python manage.py import_tournament FILE``: a non-zero exit, a one-line reason, and nothing written.

The commands run in subprocesses against a database of their own (a fresh PostgreSQL database when the test run
is on PostgreSQL, else a temporary SQLite file), migrated once for the module.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from testkit import server as S

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"
TABLES = ("tournament", "player", "entry", "round", "board", "seat", "game", "absence", "category", "auditentry")


def pairing(path):
    return subprocess.run(
        [sys.executable, "-m", "pairing", "--dutch", str(path), "-p"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def error_lines(proc):
    return [line for line in proc.stderr.splitlines() if line.strip()]


# ------------------------------------------------------------------------------------------ pairing CLI


def test_pairing_cli_pairs_the_valid_corpus_file():
    proc = pairing(CORPUS / "valid_4_players.trf")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "2"


@pytest.mark.parametrize("name,line", [("trf_truncated.trf", "linha 10"), ("trf_wrong_columns.trf", "linha 7")])
def test_pairing_cli_names_the_bad_line(name, line):
    proc = pairing(CORPUS / name)
    assert proc.returncode == 3, (proc.returncode, proc.stdout, proc.stderr)
    lines = error_lines(proc)
    assert len(lines) == 1, proc.stderr
    assert line in lines[0] and name in lines[0], lines[0]
    assert proc.stdout == ""


def test_pairing_cli_reads_latin1():
    """A Latin-1 TRF (as older desktop programs write them) is read, accents and all, and paired."""
    proc = pairing(CORPUS / "trf_latin1.trf")
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stdout.split("\n")
    assert lines[0] == "2" and len([x for x in lines[1:] if x.strip()]) == 2, proc.stdout
    from pairing import trf

    players = {p.id: p.name for p in trf.read(str(CORPUS / "trf_latin1.trf")).state.players}
    assert players[3] == "João Conceição"


def test_pairing_cli_missing_and_empty_files(tmp_path):
    missing = pairing(tmp_path / "nao-existe.trf")
    assert missing.returncode == 5 and len(error_lines(missing)) == 1, missing.stderr
    empty = tmp_path / "vazio.trf"
    empty.write_bytes(b"")
    proc = pairing(empty)
    assert proc.returncode in (1, 3) and len(error_lines(proc)) == 1, (proc.returncode, proc.stderr)
    garbage = tmp_path / "lixo.trf"
    garbage.write_bytes((CORPUS / "ratings_binary_garbage.csv").read_bytes())
    proc = pairing(garbage)
    assert proc.returncode == 3 and len(error_lines(proc)) == 1, (proc.returncode, proc.stderr)


# ------------------------------------------------------------------------------------- import_tournament


@pytest.fixture(scope="module")
def commands_db():
    folder = S.temp_folder("damas-badinput-")
    db_settings = settings.DATABASES["default"]
    if db_settings["ENGINE"] == "django.db.backends.postgresql":
        database = S.Database.postgres(
            db_settings.get("HOST"), db_settings.get("PORT"), db_settings.get("USER"), db_settings.get("PASSWORD")
        )
    else:
        database = S.Database.sqlite(folder)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST", "REDIS_"))}
    env.update(DATABASE_URL=database.url, DJANGO_SETTINGS_MODULE="config.settings", PYTHONPATH=str(ROOT))
    database.env = env
    try:
        proc = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        yield database
    finally:
        database.drop()
        shutil.rmtree(folder, ignore_errors=True)


def import_tournament(db, path):
    return subprocess.run(
        [sys.executable, "manage.py", "import_tournament", str(path)],
        cwd=ROOT,
        env=db.env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def counts(db):
    return {t: db.query(f"SELECT count(*) FROM tournaments_{t}")[0][0] for t in TABLES}


def assert_refused_cleanly(db, path, fragment=""):
    before = counts(db)
    proc = import_tournament(db, path)
    assert proc.returncode != 0, (proc.stdout, proc.stderr)
    lines = error_lines(proc)
    assert len(lines) == 1, f"not a one-line reason:\n{proc.stderr[-3000:]}"
    assert "Traceback" not in proc.stderr
    assert len(lines[0]) < 400, lines[0]
    assert fragment in lines[0], lines[0]
    assert counts(db) == before, "a refused file wrote something"
    return lines[0]


@pytest.mark.parametrize(
    "name,fragment",
    [
        ("trf_truncated.trf", "linha"),
        ("trf_wrong_columns.trf", "linha 7"),
        ("interchange_truncated.json", "JSON inválido na linha"),
        ("interchange_wrong_types.json", "rodadas"),
        ("interchange_not_an_object.json", "objeto"),
        ("interchange_latin1.json", "UTF-8"),
    ],
)
def test_import_tournament_refuses_with_one_line(commands_db, name, fragment):
    assert_refused_cleanly(commands_db, CORPUS / name, fragment)


def test_import_tournament_wrong_types_counts_every_error(commands_db):
    line = assert_refused_cleanly(commands_db, CORPUS / "interchange_wrong_types.json")
    assert "e mais" in line  # the other errors are counted on the same line


def test_import_tournament_huge_file_full_of_errors(commands_db, tmp_path):
    """20 000 players, each with a bad rating: refused at once for its size (one line), nothing written."""
    data = json.loads((CORPUS / "interchange_wrong_types.json").read_text(encoding="utf-8"))
    data["tournament"]["rounds"] = 3
    data["tournament"]["start_date"] = "2026-11-07"
    data["players"] = [
        {"id": i, "cbjd_id": f"5{i:06d}", "name": f"Jogador {i}", "sex": "M", "rating": "muito", "categories": ["ABS"]}
        for i in range(1, 20001)
    ]
    path = tmp_path / "enorme.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert path.stat().st_size > 2_000_000
    line = assert_refused_cleanly(commands_db, path, "jogadores demais")
    assert "no máximo 5000" in line


def test_import_tournament_latin1_trf_keeps_the_accents(commands_db):
    """A Latin-1 TRF (as Swiss-Manager writes them) is either refused in one line or read with its accents."""
    before = counts(commands_db)
    proc = import_tournament(commands_db, CORPUS / "trf_latin1.trf")
    if proc.returncode != 0:
        assert len(error_lines(proc)) == 1 and counts(commands_db) == before, proc.stderr
        return
    names = [n for (n,) in commands_db.query("SELECT name FROM tournaments_player WHERE name LIKE 'Jo%o Concei%'")]
    assert names == ["João Conceição"], names


def test_import_tournament_missing_file(commands_db, tmp_path):
    assert_refused_cleanly(commands_db, tmp_path / "nao-existe.json", "não foi possível ler")
