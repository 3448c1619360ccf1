"""At the venue: the waits between tries of everything the queue sends to the federation (the submissions, the
stage requests, the rounds' fingerprints): 30 s after a first failure, doubling, at most an hour."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

LONGEST_WAIT = timedelta(hours=1)


def first_wait() -> timedelta:
    """The wait after a first failed try (``FEDERATION_FIRST_WAIT`` seconds, 30 by default)."""
    return timedelta(seconds=settings.FEDERATION_FIRST_WAIT)


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failed try: doubling from :func:`first_wait`, at most an hour."""
    return min(first_wait() * (2 ** max(attempts - 1, 0)), LONGEST_WAIT)
