"""A consistent copy of the SQLite database, safe while the server runs (``make backup``; docs/production.md).

SQLite's online backup (Python's ``sqlite3`` module, no ``sqlite3`` program needed) copies the last committed state
even while an arbiter is saving; a plain ``cp`` can copy a half-written file. The copy is written beside its final
name, checked with ``PRAGMA integrity_check`` and only then renamed into place: a failed backup leaves no file at
all, neither one that looks like a good one nor the hidden partial one.

The check evaluates the tables' CHECK constraints, and one of them is written with Django's ``__regex`` lookup
(``REGEXP``, which SQLite leaves to the application): the copy's connection gets the functions Django's own
connections get, so the check reads the constraints exactly as the server does (issue 37.1).
"""

import os
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db.backends.sqlite3._functions import register as register_django_functions  # type: ignore[import-untyped]

from tournaments.interchange.cli import fail


def backup_sqlite(source: Path, target: Path) -> None:
    """Copy the SQLite database ``source`` to ``target`` (a new file) with the online backup, checked."""
    partial = target.with_name(f".{target.name}.parcial")
    partial.unlink(missing_ok=True)
    try:
        check = _copy_and_check(source, partial)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        fail(f"a cópia falhou e nada foi gravado: {exc}")
    except BaseException:  # Ctrl+C, a full disk: no half copy stays behind
        partial.unlink(missing_ok=True)
        raise
    if check != "ok":
        partial.unlink(missing_ok=True)
        fail(f"a cópia não passou na verificação de integridade: {check}")
    os.replace(partial, target)


def _copy_and_check(source: Path, partial: Path) -> str:
    """Copy ``source`` into ``partial`` with the online backup; the copy's ``PRAGMA integrity_check`` answer."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            register_django_functions(dst)  # REGEXP and the rest, for the CHECK constraints
            src.backup(dst)
            (check,) = dst.execute("PRAGMA integrity_check").fetchone()
        finally:
            dst.close()
    finally:
        src.close()
    return str(check)


class Command(BaseCommand):
    help = (
        "Cópia de segurança do banco SQLite (pode rodar com o servidor no ar): grava "
        "backups/damas-AAAAMMDD-HHMMSS.sqlite3, ou o arquivo de -o, verificado; imprime o caminho."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("-o", "--output", metavar="FILE", default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        database = settings.DATABASES["default"]
        if database["ENGINE"] != "django.db.backends.sqlite3":
            fail("sqlite_backup copia só o banco SQLite; no PostgreSQL use pg_dump (docs/production.md)")
        source = Path(database["NAME"])
        if not source.is_file():
            fail(f"banco SQLite não encontrado: {source}")
        if options["output"]:
            target = Path(options["output"])
            if not target.parent.is_dir():
                fail(f"pasta inexistente: {target.parent}")
        else:
            folder = Path(settings.BASE_DIR) / "backups"
            folder.mkdir(exist_ok=True)
            target = folder / f"damas-{datetime.now():%Y%m%d-%H%M%S}.sqlite3"
        if target.exists():
            fail(f"o arquivo já existe, escolha outro nome: {target}")
        backup_sqlite(source, target)
        self.stdout.write(str(target))
