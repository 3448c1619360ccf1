"""Public pages are cached per tournament under a version number that every write bumps.

A write bumps the version twice: at once (so nothing cached before the write is served again) and after its
transaction commits (so a page a reader cached from the old data while the write was in progress is dropped
too). A rolled-back write only costs a needless cache miss.
"""

from django.core.cache import cache
from django.db import transaction


def _key(tournament_id):
    return f"tournament:{tournament_id}:version"


def version(tournament_id):
    v = cache.get(_key(tournament_id))
    if v is None:
        v = 1
        cache.add(_key(tournament_id), v, timeout=None)
    return v


def _incr(tournament_id):
    try:
        cache.incr(_key(tournament_id))
    except ValueError:
        cache.set(_key(tournament_id), 2, timeout=None)


def bump(tournament_id):
    _incr(tournament_id)
    transaction.on_commit(lambda: _incr(tournament_id))


def page_key(tournament_id, name, *parts):
    return ":".join(["page", str(tournament_id), str(version(tournament_id)), name, *map(str, parts)])
