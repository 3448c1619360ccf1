"""Growing waits for wrong attempts at a secret (issue 34, items 2 and 3): a player's PIN, a staff password.

Nothing is ever locked for everyone. Each key (an address at a tournament, a login, a known device) has a few
free wrong attempts; after them, each wrong attempt makes the next one under that key wait longer (doubling, up to
a ceiling), and the count is forgotten after a quiet while. An attacker is slowed where they are (their addresses,
the login they guess), and the rightful user, whose own key has no wrong attempts, is not refused.

Counted atomically: ``claim`` takes the keys' rows under a row lock (``SELECT ... FOR UPDATE``; SQLite's
IMMEDIATE transactions serialise writers), counts the attempt, and either refuses it (the key is waiting) or lets
it be checked, counting it wrong in advance; ``succeeded`` gives that back. Forty parallel wrong PINs are
forty attempts, and exactly as many of them are checked as the free attempts allow. In the database, not the
cache: the bounds hold while Redis is down."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import AttemptCounter


def now() -> datetime:
    return timezone.now()


# Every kind of key by its name, as each ``Bound`` registers itself (what staff pages show asks how long a count
# lives).
BOUNDS: dict[str, Bound] = {}
WEEK = 7 * 24 * 3600


@dataclass(frozen=True)
class Bound:
    """How one kind of key waits: ``free`` wrong attempts without waiting, then ``first_wait`` seconds, doubled at
    each further wrong attempt up to ``longest_wait``; forgotten ``forget_after`` seconds after the last one."""

    kind: str
    free: int
    first_wait: float
    longest_wait: float
    forget_after: float

    def __post_init__(self) -> None:
        BOUNDS[self.kind] = self

    def wait(self, failures: int) -> float:
        if failures <= self.free:
            return 0.0
        return float(min(self.first_wait * 2 ** min(failures - self.free - 1, 30), self.longest_wait))


@dataclass(frozen=True)
class Counted:
    """One key an attempt is counted under: ``subject`` (an address, a login) as shown to staff."""

    bound: Bound
    subject: str
    tournament_id: int | None = None

    @property
    def key(self) -> str:
        key = f"{self.bound.kind}:{self.tournament_id or ''}:{self.subject}"
        if len(key) > 200:  # a hostile login of any length: its digest
            key = key[:100] + hashlib.sha256(key.encode()).hexdigest()
        return key


@dataclass(frozen=True)
class Claim:
    """Whether the attempt may be checked, and if not, how many seconds are left to wait."""

    allowed: bool
    wait: int = 0


def _rows(counted: list[Counted], moment: datetime) -> list[tuple[Counted, AttemptCounter]]:
    """The keys' rows, made when missing, locked, in the order of their keys (no two attempts wait for each other
    in opposite orders); a count quiet for longer than its bound's ``forget_after`` starts over."""
    by_key = {c.key: c for c in counted}
    for key in sorted(by_key):
        c = by_key[key]
        _row, created = AttemptCounter.objects.get_or_create(
            key=key,
            defaults={
                "kind": c.bound.kind,
                "subject": c.subject[:160],
                "tournament_id": c.tournament_id,
                "updated_at": moment,
            },
        )
        if created:
            AttemptCounter.objects.filter(updated_at__lt=moment - timedelta(seconds=WEEK)).delete()  # long quiet
    rows = AttemptCounter.objects.select_for_update().filter(key__in=list(by_key)).order_by("key")
    out = []
    for row in rows:
        c = by_key[row.key]
        if row.last_failure_at and row.last_failure_at + timedelta(seconds=c.bound.forget_after) <= moment:
            row.failures, row.refused, row.wait_until = 0, 0, None
        out.append((c, row))
    return out


def claim(counted: Iterable[Counted], *, enforce: bool = True) -> Claim:
    """Count an attempt under every key. Refused while any key is waiting (``enforce``); otherwise counted as a
    wrong attempt now (the wait it sets applies to the next attempt), to be given back by ``succeeded``."""
    counted = list(counted)
    moment = now()
    with transaction.atomic():
        rows = _rows(counted, moment)
        waiting = max(((row.wait_until - moment).total_seconds() for _c, row in rows if row.wait_until), default=0)
        allowed = not enforce or waiting <= 0
        for c, row in rows:
            row.tries += 1
            if allowed:
                row.failures += 1
                row.last_failure_at = moment
                wait = c.bound.wait(row.failures)
                row.wait_until = moment + timedelta(seconds=wait) if wait else None
            else:
                row.refused += 1
            row.updated_at = moment
            row.save()
    return Claim(True) if allowed else Claim(False, max(1, int(waiting + 0.999)))


def succeeded(counted: Iterable[Counted], *, forget: Iterable[Counted] = ()) -> None:
    """The attempt ``claim`` let through was right: its wrong count is given back under ``counted`` (the waits of
    the other wrong attempts there stay), and the keys of ``forget`` start over (a login, after its owner got in)."""
    counted, forget = list(counted), list(forget)
    with transaction.atomic():
        for c, row in _rows(counted, now()):
            row.failures = max(0, row.failures - 1)
            wait = c.bound.wait(row.failures)
            row.wait_until = row.last_failure_at + timedelta(seconds=wait) if wait and row.last_failure_at else None
            row.save(update_fields=["failures", "wait_until"])
        if forget:
            AttemptCounter.objects.filter(key__in=[c.key for c in forget]).delete()


def counters(**filters: Any) -> list[AttemptCounter]:
    """The counts with a wrong attempt not yet forgotten, for staff to see: the most recent first, each with the
    seconds it still waits (``seconds``)."""
    moment = now()
    rows = AttemptCounter.objects.filter(failures__gt=0, **filters).order_by("-updated_at")
    live = [row for row in rows if _live(row, moment)]
    for row in live:
        row.seconds = waiting_seconds(row)  # type: ignore[attr-defined]  # what the pages show
    return live


def _live(row: AttemptCounter, moment: datetime) -> bool:
    bound = BOUNDS.get(row.kind)
    forget = bound.forget_after if bound else WEEK
    return row.last_failure_at is not None and row.last_failure_at + timedelta(seconds=forget) > moment


def waiting_seconds(row: AttemptCounter) -> int:
    if row.wait_until is None:
        return 0
    return max(0, int((row.wait_until - now()).total_seconds() + 0.999))


def reset(**filters: Any) -> int:
    """Forget the counts (staff's reset): their addresses or logins wait no more."""
    return AttemptCounter.objects.filter(**filters).delete()[0]
