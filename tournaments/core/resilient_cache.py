"""The shared cache (Redis) as an optimisation that may fail: with Redis unreachable the site goes on uncached.

``ResilientRedisCache`` is Django's ``RedisCache`` behind a circuit breaker, one per process and Redis location:

* an operation that fails (Redis down, a timeout, an error answer) opens the breaker: the failure is logged once,
  and for ``RETRY_SECONDS`` no operation goes to Redis at all. Reads answer "not cached" (``get`` its default,
  ``get_many`` nothing, ``add`` False, ``incr`` 0), writes do nothing: the pages are computed from the database
  and every write to the database succeeds, at the cost of a cache miss;
* after ``RETRY_SECONDS`` the next operation tries Redis again (connections time out quickly, see
  ``config.settings.caches_for``). Failing, the breaker stays open for another period without a new log line;
  succeeding, the breaker closes (one log line) and ``GENERATION_KEY`` is incremented first: while this process
  could not reach Redis its writes could not drop the cached pages, so every page cached before is dropped
  (``tournaments.cache`` keeps the generation in every page's version).
"""

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

RETRY_SECONDS = 30.0
GENERATION_KEY = "cache:generation"


class _Breaker:
    """The state of one Redis location in this process (shared by the threads' backend instances)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open_until = 0.0  # monotonic time before which Redis is not tried
        self.down_since: float | None = None  # set while Redis is known unreachable
        self.lost_writes = False  # the generation must be incremented once Redis answers again

    def allows(self) -> bool:
        return time.monotonic() >= self.open_until


_BREAKERS: dict[str, _Breaker] = {}
_BREAKERS_LOCK = threading.Lock()


def breaker_for(location: str) -> _Breaker:
    with _BREAKERS_LOCK:
        return _BREAKERS.setdefault(location, _Breaker())


def reset_breakers() -> None:
    """Forget every location's state (tests)."""
    with _BREAKERS_LOCK:
        _BREAKERS.clear()


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's Redis client, keeping one ``redis.Redis`` per connection pool. Django's makes a new one for every
    operation, and building it (its table of about 170 reply callbacks) was most of the CPU of a cache read: of the
    live pages' version check, a cache read and a 304, about half (issue 34.14, ``bench/live_version.py``). A
    ``redis.Redis`` is safe to share between threads: each command takes a connection from the pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # Django internals, not in the stubs
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class ResilientRedisCache(RedisCache):
    retry_seconds = RETRY_SECONDS

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
        self._location = server if isinstance(server, str) else ",".join(server)
        self.retry_seconds = float(params.get("RETRY_SECONDS", RETRY_SECONDS))

    @property
    def breaker(self) -> _Breaker:
        return breaker_for(self._location)

    @property
    def available(self) -> bool:
        """False while the breaker is open (Redis failed within the last ``retry_seconds``)."""
        return self.breaker.allows()

    def _call(self, name: str, fallback: Any, *args: Any, **kwargs: Any) -> Any:
        breaker = self.breaker
        if not breaker.allows():
            return fallback
        try:
            if breaker.lost_writes:
                self._new_generation()
            # Django's operation by name, or one of this class's own (a name starting with "_")
            result = (getattr(self, name) if name.startswith("_") else getattr(super(), name))(*args, **kwargs)
        except RedisError as exc:
            self._failed(breaker, exc)
            return fallback
        if breaker.down_since is not None:
            self._recovered(breaker)
        return result

    def _new_generation(self) -> None:
        try:
            super().incr(GENERATION_KEY)
        except ValueError:  # no generation yet (a new or flushed Redis): any value differs from "none"
            super().set(GENERATION_KEY, time.time_ns(), None)
        self.breaker.lost_writes = False

    def _failed(self, breaker: _Breaker, exc: RedisError) -> None:
        with breaker.lock:
            breaker.open_until = time.monotonic() + self.retry_seconds
            breaker.lost_writes = True
            first = breaker.down_since is None
            if first:
                breaker.down_since = time.monotonic()
        if first:
            logger.error(
                "cache unreachable (%s: %s): pages are computed without it; next try in %.0f s",
                type(exc).__name__,
                exc,
                self.retry_seconds,
            )
        else:
            logger.debug("cache still unreachable: %s", exc)

    def _recovered(self, breaker: _Breaker) -> None:
        with breaker.lock:
            since, breaker.down_since = breaker.down_since, None
        if since is not None:
            logger.warning(
                "cache reachable again after %.0f s; the pages cached before were dropped", time.monotonic() - since
            )

    # Django's cache API, each operation behind the breaker.
    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return bool(self._call("add", False, key, value, timeout, version))

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._call("get", default, key, default, version)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> None:
        self._call("set", None, key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return bool(self._call("touch", False, key, timeout, version))

    def delete(self, key: Any, version: Any = None) -> bool:
        return bool(self._call("delete", False, key, version))

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._call("get_many", {}, keys, version)

    def has_key(self, key: Any, version: Any = None) -> bool:
        return bool(self._call("has_key", False, key, version))

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        """The new value; 0 (and nothing done) while Redis is unreachable. ValueError for a missing key."""
        return self._call("incr", 0, key, delta, version)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        result = self._call("set_many", None, data, timeout, version)
        return list(data) if result is None else result  # unreachable: every key "failed"

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._call("delete_many", None, keys, version)

    def clear(self) -> None:
        """Delete this site's keys, those under its ``KEY_PREFIX``. Django's ``RedisCache.clear`` empties the whole
        Redis database (FLUSHDB): another site's keys too, or another test process's that shares it."""
        self._call("_delete_own_keys", None)

    def _delete_own_keys(self, batch_size: int = 500) -> None:
        client = self._cache.get_client(None, write=True)
        batch: list[Any] = []
        for key in client.scan_iter(match=f"{self.key_prefix}:*", count=batch_size):
            batch.append(key)
            if len(batch) >= batch_size:
                client.delete(*batch)
                batch = []
        if batch:
            client.delete(*batch)
