"""Public pages are cached per tournament; each entry keeps the tournament's version it was built for.

Every write bumps the tournament's version once, when its transaction commits: until then readers see the data
as it was, so the pages cached for it stay current; a page a reader built from the old data while the write was in
progress carries the version it read first, which the bump makes stale. A version is read before the data a page
shows, so no page is kept under a version newer than its data. A rolled-back write bumps nothing. (It bumped twice,
at once and after the commit, until issue 25 item 9: every page of the tournament was then rebuilt twice per saved
result.)

An entry built for an older version is stale: the first request that sees it takes a short lock and rebuilds it,
while the others serve the stale entry for that moment (stale-while-revalidate) instead of all rebuilding the same
page at once after every saved result. A page is looked up in one round trip: the cache's generation, the
tournament's version and the entry, together.

The version also holds, in its high bits, the cache's generation (``resilient_cache.GENERATION_KEY``), incremented
when Redis answers again after an outage, during which writes could not bump the versions. A version missing from
the cache (a new or flushed cache, an evicted key) starts from the clock, so it never equals a version an entry was
built for. While the cache is unreachable the version is the clock's, in steps of OFFLINE_SECONDS.
"""

import time
from typing import Any

from django.core.cache import cache
from django.db import transaction

from tournaments.core.resilient_cache import GENERATION_KEY

LOCK_SECONDS = 30  # the longest a page may take to rebuild before another request tries
OFFLINE_SECONDS = 30


def _key(tournament_id: int) -> str:
    return f"tournament:{tournament_id}:version"


def _current(tournament_id: int, found: dict[str, Any]) -> int:
    number = found.get(_key(tournament_id))
    if number is None and not getattr(cache, "available", True):
        # The cache is unreachable (``ResilientRedisCache``): nothing is cached, and the live pages' version
        # changes every OFFLINE_SECONDS, so phones fetch their page again that often instead of at every poll.
        return int(time.time() // OFFLINE_SECONDS)
    if number is None:
        number = time.time_ns()
        if not cache.add(_key(tournament_id), number, timeout=None):
            number = cache.get(_key(tournament_id), number)
    return (int(found.get(GENERATION_KEY, 0)) << 64) + int(number)


def offline() -> bool:
    """True while the shared cache is unreachable (the versions are then the clock's)."""
    return not getattr(cache, "available", True)


def version(tournament_id: int) -> int:
    """The tournament's current version (an entry built for another one is stale)."""
    return _current(tournament_id, cache.get_many([GENERATION_KEY, _key(tournament_id)]))


def lookup(tournament_id: int, key: str) -> tuple[int, tuple[int, Any] | None]:
    """The tournament's current version and the entry under ``key`` (``(version built for, value)``, or None)."""
    found = cache.get_many([GENERATION_KEY, _key(tournament_id), key])
    return _current(tournament_id, found), found.get(key)


def _incr(tournament_id: int) -> None:
    try:
        cache.incr(_key(tournament_id))
    except ValueError:  # no version yet (or evicted): any new number differs from the entries' ones
        cache.set(_key(tournament_id), time.time_ns(), timeout=None)


def bump(tournament_id: int) -> None:
    """The tournament's pages are stale once the caller's transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: _incr(tournament_id))


def page_key(tournament_id: int, name: str, *parts: Any) -> str:
    return ":".join(["page", str(tournament_id), name, *map(str, parts)])


def rebuild_lock(key: str) -> bool:
    """True for the one request that rebuilds the stale entry under ``key`` (until ``release`` or LOCK_SECONDS)."""
    return cache.add(f"lock:{key}", 1, timeout=LOCK_SECONDS)


def release(key: str) -> None:
    cache.delete(f"lock:{key}")
