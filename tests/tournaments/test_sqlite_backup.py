"""``manage.py sqlite_backup`` (``make backup``): SQLite's online backup, consistent while a write is under way."""

import io
import sqlite3

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

# The command reads settings.DATABASES; no test here opens a connection through the overridden value.
pytestmark = pytest.mark.filterwarnings("ignore:Overriding setting DATABASES")


@pytest.fixture
def live_db(tmp_path, settings):
    """A SQLite database file standing for the server's db.sqlite3, the settings pointing at it."""
    path = tmp_path / "db.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE result (board INTEGER PRIMARY KEY, score TEXT)")
    conn.executemany("INSERT INTO result VALUES (?, ?)", [(1, "2-0"), (2, "1-1")])
    conn.commit()
    conn.close()
    settings.DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}}
    settings.BASE_DIR = tmp_path
    return path


def backup(*args):
    out = io.StringIO()
    call_command("sqlite_backup", *args, stdout=out)
    return out.getvalue().strip()


def rows(path):
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT board, score FROM result ORDER BY board").fetchall()
    finally:
        conn.close()


def test_backup_into_a_new_backups_folder_copies_the_committed_state_while_a_write_is_open(live_db, tmp_path):
    writer = sqlite3.connect(live_db)
    writer.execute("BEGIN IMMEDIATE")  # an arbiter's save under way: not committed
    writer.execute("INSERT INTO result VALUES (3, '0-2')")
    try:
        written = backup()
    finally:
        writer.rollback()
        writer.close()
    copy = tmp_path / "backups" / written.rsplit("/", 1)[-1]
    assert written == str(copy) and copy.name.startswith("damas-") and copy.suffix == ".sqlite3"
    assert rows(copy) == [(1, "2-0"), (2, "1-1")]
    assert sqlite3.connect(copy).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]  # no partial file left beside it


def test_backup_to_a_named_file_and_never_over_an_existing_one(live_db, tmp_path):
    target = tmp_path / "copia.sqlite3"
    assert backup("-o", str(target)) == str(target)
    assert rows(target) == [(1, "2-0"), (2, "1-1")]
    with pytest.raises(CommandError, match="o arquivo já existe"):
        backup("-o", str(target))
    with pytest.raises(CommandError, match="pasta inexistente"):
        backup("-o", str(tmp_path / "nao-existe" / "copia.sqlite3"))


def test_a_missing_database_and_postgresql_are_refused_in_one_line(settings, tmp_path):
    settings.DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(tmp_path / "nada.sqlite3")}}
    with pytest.raises(CommandError, match="banco SQLite não encontrado"):
        backup()
    settings.DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "damas"}}
    with pytest.raises(CommandError, match="no PostgreSQL use pg_dump"):
        backup()
    assert not (tmp_path / "backups").exists()
