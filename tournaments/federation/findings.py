"""What the federation's verification and its checks share (issue 29, 36): the registry as of the event's dates,
a finding, and the stage being verified (the file's players, names and dates, and the registry)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from tournaments.domain.edition import Edition

LISTED = 8  # names or boards listed in one finding before "e mais N"


@dataclass(frozen=True)
class RegistryPlayer:
    cbjd_id: str
    name: str
    rating: int | None
    sex: str = ""
    birth_date: date | None = None
    club: str = ""


@dataclass(frozen=True)
class SuspensionPeriod:
    """A suspension of the registry. ``abandonment``: an art. 10 one; ``lifted_at``: when it was lifted (it still
    counts for the events it overlapped); ``origin``: the event (its stage identifier, else its slug) whose approval gave it, "" for the
    tribunal's."""

    cbjd_id: str
    start: date
    end: date
    reason: str = ""
    abandonment: bool = False
    lifted_at: datetime | None = None
    origin: str = ""


@dataclass(frozen=True)
class Registry:
    """The federation's registry as it stood on a date: the national list in force then (its name and date) and
    the suspensions of the registry (lifted ones included: what counts is decided for each event)."""

    list_date: date | None
    list_name: str
    players: Mapping[str, RegistryPlayer]
    suspensions: Sequence[SuspensionPeriod] = ()


@dataclass(frozen=True)
class Finding:
    code: str
    article: str
    message: str
    blocking: bool = True
    # what a page needs to act on it, beside the words (registry_match: {"matches": {player id: [[cbjd_id, name]]}})
    data: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def as_json(self) -> dict[str, str]:
        return {"code": self.code, "article": self.article, "message": self.message}


def listed(items: Sequence[str]) -> str:
    text = ", ".join(items[:LISTED])
    return text + (f" e mais {len(items) - LISTED}" if len(items) > LISTED else "")


def parse_date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None


def normalised(name: Any) -> str:
    """A name as the registry match compares it: no accents, no case, no apostrophes (' and ’), no dots, single
    spaces."""
    text = unicodedata.normalize("NFKD", str(name or ""))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    for mark in ("'", "’", "‘", "`", "´", "."):
        text = text.replace(mark, " " if mark == "." else "")
    return " ".join(text.split())


@dataclass
class Stage:
    """What the checks read: the file, its players' names and dates, and the registry."""

    data: Mapping[str, Any]
    registry: Registry
    players: list[Mapping[str, Any]]
    names: dict[int, str]
    slug: str
    start: date | None
    end: date | None
    # player id -> the registry's CBJD ID the officer said he is (a player entered without his ID, issue 36.3)
    identified: dict[int, str] = field(default_factory=dict)
    # the regulation's edition in force on the start date (issue 35), None when none is
    edition: Edition | None = None

    @property
    def when(self) -> str:
        return f" de {self.registry.list_date:%d/%m/%Y}" if self.registry.list_date else ""

    def cbjd_id(self, p: Mapping[str, Any]) -> str:
        return self.identified.get(p["id"]) or str(p.get("cbjd_id") or "")

    def listed_on(self, p: Mapping[str, Any]) -> RegistryPlayer | None:
        return self.registry.players.get(self.cbjd_id(p))
