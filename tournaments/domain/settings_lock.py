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
