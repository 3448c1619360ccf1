"""Helpers shared by the tournament management commands: one-line errors, atomic file writes."""

from pathlib import Path

from django.core.management.base import CommandError

from tournaments.core import files
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
    """Write bytes to ``path`` with no half-written file left; a missing folder is a one-line failure."""
    folder = Path(path).parent if str(Path(path).parent) else Path(".")
    if not folder.is_dir():
        fail(f"pasta inexistente: {folder}")
    files.write_atomically(path, data)
