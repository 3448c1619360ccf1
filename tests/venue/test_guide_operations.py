"""Every operation the director's guide names, on the database `make run` makes (issue 37.1).

docs/guia-do-diretor.md tells the director to back up after every round (`make backup`), to restore the last copy
when the database is damaged (copy it over db.sqlite3, start again), and to carry one tournament to another computer
(`export_tournament`, `import_tournament`), which the federation checks with `verify_event`. The earlier tests of
the backup used a one-table toy database, and the real one failed: its CHECK constraint on the players' codes is
written with REGEXP, which a plain sqlite3 connection does not know. Here the database is migrated and the demo
loaded by the same commands `make run` runs, in a process of its own, as on the venue's laptop.
"""

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SLUG = "circuito-recife-2026"


def manage(db: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env["DATABASE_URL"] = f"sqlite:///{db}"
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    """A venue's database as `make run` leaves it: migrated, the demo loaded."""
    folder = tmp_path_factory.mktemp("venue")
    db = folder / "db.sqlite3"
    manage(db, "migrate", "--noinput")
    manage(db, "demo")
    return db


def test_backup_of_the_real_database_is_a_checked_copy_and_leaves_nothing_else(venue, tmp_path):
    copy = tmp_path / "copia.sqlite3"
    done = manage(venue, "sqlite_backup", "-o", str(copy))
    assert done.stdout.strip() == str(copy) and "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copia.sqlite3"]  # no hidden .parcial beside it
    conn = sqlite3.connect(copy)
    try:
        (schema,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'tournaments_playercode'").fetchone()
        assert "REGEXP" in schema  # the constraint a plain sqlite3 connection could not evaluate
    finally:
        conn.close()
    # The copy is the database: the same standings read through Django.
    assert manage(copy, "standings", SLUG).stdout == manage(venue, "standings", SLUG).stdout


def test_a_backup_that_fails_leaves_no_partial_file_and_says_why_in_portuguese(venue, tmp_path):
    broken = tmp_path / "db.sqlite3"
    shutil.copyfile(venue, broken)
    with broken.open("r+b") as fh:  # a damaged page in the middle of the file
        fh.seek(4096 * 5)
        fh.write(b"\xff" * 4096)
    folder = tmp_path / "copias"
    folder.mkdir()
    done = manage(broken, "sqlite_backup", "-o", str(folder / "c.sqlite3"), check=False)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "cópia" in done.stderr
    assert list(folder.iterdir()) == []


def test_restore_as_the_guide_says_brings_back_the_state_of_the_copy(venue, tmp_path):
    db = tmp_path / "db.sqlite3"
    shutil.copyfile(venue, db)
    before = manage(db, "standings", SLUG).stdout
    (tmp_path / "backups").mkdir()
    copy = tmp_path / "backups" / "damas-1.sqlite3"
    manage(db, "sqlite_backup", "-o", str(copy))
    exported = tmp_path / "etapa.json"
    manage(db, "export_tournament", SLUG, "-o", str(exported))
    # After the copy, something else is written: a second tournament (an import), then the copy goes back.
    slug = manage(db, "import_tournament", str(exported), "--slug", "etapa-copia").stdout.strip()
    assert slug == "etapa-copia"
    assert "etapa-copia" in manage(db, "shell", "-v", "0", "-c", LIST_SLUGS).stdout
    shutil.copyfile(copy, db)
    manage(db, "migrate", "--noinput")  # what `make run` does first
    assert manage(db, "shell", "-v", "0", "-c", LIST_SLUGS).stdout.split() == [SLUG]
    assert manage(db, "standings", SLUG).stdout == before


LIST_SLUGS = "from tournaments.models import Tournament; print(*Tournament.objects.values_list('slug', flat=True))"


def test_export_import_and_verify_of_the_demo(venue, tmp_path):
    db = tmp_path / "db.sqlite3"
    shutil.copyfile(venue, db)
    exported = tmp_path / "etapa.json"
    manage(db, "export_tournament", SLUG, "-o", str(exported))
    verified = manage(db, "verify_event", str(exported))
    assert "Verificação — Circuito Nacional de Damas - Etapa Recife" in verified.stdout
    assert "Participantes: 40" in verified.stdout
    # The same file into another venue's empty database: the same standings there.
    other = tmp_path / "outro.sqlite3"
    manage(other, "migrate", "--noinput")
    assert manage(other, "import_tournament", str(exported)).stdout.strip() == SLUG
    assert manage(other, "standings", SLUG).stdout == manage(db, "standings", SLUG).stdout
    again = tmp_path / "de-novo.json"
    manage(other, "export_tournament", SLUG, "-o", str(again))
    # Verified against that database's registry (it has no rating list), the file it exports reads as the original.
    assert manage(other, "verify_event", str(again)).stdout == manage(other, "verify_event", str(exported)).stdout


OPENS = """
from django.contrib.auth import get_user_model
from django.test import Client
from tournaments.models import TournamentRole
print(*TournamentRole.objects.filter(tournament__slug='etapa-de-outro-local').values_list('user__username', 'role'))
c = Client()
c.force_login(get_user_model().objects.get(username='diretor'))
print(*(c.get(f'/gestao/t/etapa-de-outro-local/{page}', HTTP_HOST='127.0.0.1').status_code for page in ('', 'federacao/')))
"""


def test_an_event_imported_on_the_command_line_has_the_director_named(venue, tmp_path):
    """Issue 35.2: the file holds no logins, so an event imported by `import_tournament` had no director, and since
    the venue's `diretor` is no superuser (issue 37.2) nobody could open its pages (403), nor ask for its stage.
    `--director LOGIN` makes that login its director, as the web import makes the importer; an unknown or disabled
    login stops the import before anything is written."""
    db = tmp_path / "db.sqlite3"
    shutil.copyfile(venue, db)
    exported = tmp_path / "etapa.json"
    manage(db, "export_tournament", SLUG, "-o", str(exported))
    args = ("import_tournament", str(exported), "--slug", "etapa-de-outro-local")
    unknown = manage(db, *args, "--director", "ninguem", check=False)
    assert unknown.returncode == 1 and unknown.stdout == "" and "Traceback" not in unknown.stderr
    assert unknown.stderr.strip() == (
        "CommandError: login “ninguem” não existe neste computador: nada foi importado (o diretor do local é "
        "“diretor”, criado por make run; crie outro login antes de usá-lo em --director)"
    )
    manage(db, "shell", "-v", "0", "-c", DISABLE)
    disabled = manage(db, *args, "--director", "antigo", check=False)
    assert disabled.returncode == 1 and "o login “antigo” está desativado: nada foi importado" in disabled.stderr
    assert manage(db, "shell", "-v", "0", "-c", LIST_SLUGS).stdout.split() == [SLUG]  # nothing imported
    assert manage(db, *args, "--director", "diretor").stdout.strip() == "etapa-de-outro-local"
    assert manage(db, "shell", "-v", "0", "-c", OPENS).stdout.split("\n")[:2] == ["('diretor', 'director')", "200 200"]


DISABLE = (
    "from django.contrib.auth import get_user_model; get_user_model().objects.create_user('antigo', is_active=False)"
)
