"""The settings an event was played under (issue 26, point 1), on plain data.

Once round 1 is paired, a setting that decides the homologation changes only with a reason, and each change is
recorded (:class:`SettingsChange`: the setting, its value before and after, when, by whom, why). The homologation
check judges the event as it "for realizado" (art. 6): every changed setting at its value before its first
change, the value in force when round 1 was paired. :func:`as_played` gives those settings from any frozen
dataclass of settings (the report's snapshot settings); the changes themselves are listed beside the verdict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

S = TypeVar("S")


@dataclass(frozen=True)
class SettingsChange:
    """One recorded change (the ``settings_changes`` items of the interchange file)."""

    field: str
    before: Any
    after: Any
    at: datetime
    by: str
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "before": self.before,
            "after": self.after,
            "at": self.at.isoformat(),
            "by": self.by,
            "reason": self.reason,
        }


def first_values(changes: Iterable[SettingsChange]) -> dict[str, Any]:
    """Per changed setting, its value before its first change (the changes in the order they were made)."""
    first: dict[str, Any] = {}
    for change in sorted(changes, key=lambda c: c.at):
        first.setdefault(change.field, change.before)
    return first


def as_played(settings: S, changes: Iterable[SettingsChange], names: Mapping[str, str] | None = None) -> S:
    """``settings`` (a frozen dataclass) with every changed setting back at its value before its first change.
    ``names`` maps a change's field to the settings' attribute where they differ; a field the settings do not
    hold is left aside. The same object when nothing changed."""
    own = {f.name for f in dataclasses.fields(settings)}  # type: ignore[arg-type]
    values = {}
    for field_name, value in first_values(changes).items():
        name = (names or {}).get(field_name, field_name)
        if name in own:
            current = getattr(settings, name)
            if isinstance(current, date) and isinstance(value, str):
                value = date.fromisoformat(value)  # a date changed after round 1 (issue 35.3)
            values[name] = "" if value is None and isinstance(current, str) else value
    return dataclasses.replace(settings, **values) if values else settings  # type: ignore[type-var]


# The changes of a stage's categories, who is in them and the entries' ratings after round 1 (issue 35.3; the
# fields of ``tournaments.models.tournament``): the ratings are judged as played, a category created after round 1
# earns no spot.
CATEGORY_CHANGE = "category"
MEMBERSHIP_CHANGE = "entry_categories"
RATING_CHANGE = "entry_rating"
CATEGORY_AFTER_IMPORT = "category_after_import"


def player_of(value: Any) -> dict[str, Any]:
    """The player an entry's change names (``{"cbjd_id", "name"}``; empty when the value has none)."""
    player = value.get("player") if isinstance(value, dict) else None
    return player if isinstance(player, dict) else {}


def same_player(key: Mapping[str, Any], cbjd_id: Any, name: str) -> bool:
    """Whether a change's player is this one: by the CBJD ID when the change has one, else by the name."""
    if key.get("cbjd_id"):
        return str(key["cbjd_id"]) == str(cbjd_id or "")
    return bool(key.get("name")) and key.get("name") == name


def first_ratings(changes: Iterable[SettingsChange]) -> list[tuple[dict[str, Any], Any]]:
    """Per player whose rating changed after round 1, (the player, the rating before its first change): the
    rating frozen when round 1 was paired (art. 4), which the spots and the tiebreaks read."""
    first: dict[tuple[Any, Any], tuple[dict[str, Any], Any]] = {}
    for change in sorted(changes, key=lambda c: c.at):
        if change.field != RATING_CHANGE or not isinstance(change.before, dict):
            continue
        player = player_of(change.before)
        first.setdefault((player.get("cbjd_id"), player.get("name")), (player, change.before.get("rating")))
    return list(first.values())


def categories_created_late(changes: Iterable[SettingsChange]) -> frozenset[str]:
    """The codes of the categories created after round 1 (following a later change of code): they earn no spot."""
    late: set[str] = set()
    for change in sorted(changes, key=lambda c: c.at):
        if change.field != CATEGORY_CHANGE:
            continue
        before = change.before if isinstance(change.before, dict) else None
        after = change.after if isinstance(change.after, dict) else None
        if before is None and after is not None:
            late.add(str(after.get("code")))
        elif before is not None and str(before.get("code")) in late:
            late.discard(str(before.get("code")))
            if after is not None:
                late.add(str(after.get("code")))
    return frozenset(late)
