"""Work started at the same instant in several threads (a barrier releases them together), each closing its own
database connection when done: how the tests and benchmarks send parallel attempts."""

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def at_once(count: int, work: Callable[[], T]) -> list[T]:
    """``work()``'s results, run in ``count`` threads released together (in the order they finished)."""
    from django.db import connections

    barrier, results = threading.Barrier(count), []

    def run() -> None:
        try:
            barrier.wait()
            results.append(work())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
