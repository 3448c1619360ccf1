"""Public pages are cached per tournament under a version number that every write bumps.

Bumping is done with ``transaction.on_commit`` so a reader never caches data of a transaction that rolled back.
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


def bump(tournament_id):
    def _do():
        try:
            cache.incr(_key(tournament_id))
        except ValueError:
            cache.set(_key(tournament_id), 2, timeout=None)

    transaction.on_commit(_do)


def page_key(tournament_id, name, *parts):
    return ":".join(["page", str(tournament_id), str(version(tournament_id)), name, *map(str, parts)])
