"""The settings that decide the homologation, locked once round 1 is paired (issue 26, point 1).

After round 1 such a setting (``models.tournament.LOCKED_SETTINGS``) changes only with a reason, and each change is
a ``SettingsChange`` row. The homologation check judges the settings **as the event was played**: for every setting
changed after round 1, the value before its first change (the value in force when round 1 was paired). A change
made during the event (fewer rounds for lack of time, say) is therefore judged by the value announced, and the
report lists every change with its reason for the federation to weigh.
"""

from __future__ import annotations

import copy
from datetime import date
from decimal import Decimal
from typing import Any

from tournaments.domain.settings_lock import SettingsChange as SettingsChangeData
from tournaments.domain.settings_lock import first_values
from tournaments.models import OpeningTable, SettingsChange, Tournament
from tournaments.models.tournament import LOCKED_SETTINGS


def setting_value(tournament: Tournament, field: str) -> Any:
    """The setting's value as it is written in the audit log and the interchange file (JSON): the opening
    table by its code, numbers as numbers, choices as their codes."""
    if field == "opening_table":
        table = tournament.opening_table
        return table.code if table is not None else None
    value = getattr(tournament, field)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


Change = SettingsChangeData


def changes_of(tournament: Tournament) -> list[Change]:
    """The tournament's recorded changes, oldest first (one query)."""
    return [
        Change(c.field, c.before, c.after, c.at, c.by, c.reason)
        for c in SettingsChange.objects.filter(tournament=tournament).order_by("at", "id")
    ]


def as_played(tournament: Tournament, changes: list[Change] | None = None) -> Tournament:
    """A copy of ``tournament`` (never saved) whose locked settings are back at the value in force when round 1
    was paired: the ``before`` of the first change of each. The same object when nothing was changed."""
    if changes is None:
        changes = changes_of(tournament)
    first = {k: v for k, v in first_values(changes).items() if k in LOCKED_SETTINGS}
    if not first:
        return tournament
    played = copy.copy(tournament)
    played._state = copy.copy(tournament._state)
    played._state.fields_cache = dict(tournament._state.fields_cache)
    for field, value in first.items():
        if field == "opening_table":
            table = OpeningTable.objects.filter(code=value).first() if value else None
            played.opening_table = table
        elif field in ("start_date", "end_date") and isinstance(value, str):
            setattr(played, field, date.fromisoformat(value))
        else:
            setattr(played, field, value)
    return played
