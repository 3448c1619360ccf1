"""Helpers shared by the tournament management commands: one-line errors, atomic file writes."""
import os
import tempfile
from pathlib import Path

from django.core.management.base import CommandError

from tournaments.models import Tournament


def one_line(message):
    return " ".join(str(message).split())


def fail(message):
    raise CommandError(one_line(message))


def get_tournament(slug):
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        fail(f"torneio “{slug}” não encontrado")


def error_text(exc):
    """One line from a ServiceError / InterchangeError / other exception."""
    if hasattr(exc, "one_line"):
        return exc.one_line()
    messages = getattr(exc, "messages", None)
    if messages:
        text = messages[0]
        if len(messages) > 1:
            text += f" (e mais {len(messages) - 1})"
        return one_line(text)
    return one_line(exc)


def write_atomically(path, data):
    """Write bytes to ``path`` through a temporary file in the same folder: no half-written file is left."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        fail(f"pasta inexistente: {folder}")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
