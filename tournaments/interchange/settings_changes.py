"""``settings_changes`` of the interchange file (issue 26): the settings that decide the homologation changed after
round 1 was paired, each with the value before and after, when, by whom and why::

    "settings_changes": [{"field": "minutes_per_game", "before": 15, "after": 21,
                          "at": "2026-11-09T10:00:00-03:00", "by": "diretor", "reason": "..."}]

Written by the export (only when there is one), read back by the import (the homologation check then judges the
values before, as for a tournament run here), and read by the federation's verification. Every item is checked:
a known setting, JSON scalars, an ISO-8601 date and time, one-line texts, a reason.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from tournaments.core.safetext import has_control_characters
from tournaments.models import SettingsChange, Tournament
from tournaments.models.choices import (
    AccelerationOrder,
    DirectEncounterScope,
    DoubleSpotRule,
    Tablita100,
    TimeUnit,
    Top3Scope,
    UnratedInAverage,
)
from tournaments.models.tournament import LOCKED_SETTINGS
from tournaments.setup.lock import changes_of

KEY = "settings_changes"
MAX_CHANGES = 1000


def export_changes(tournament: Tournament) -> list[dict[str, Any]]:
    return [c.as_json() for c in changes_of(tournament)]


def _scalar(value: Any) -> bool:
    return value is None or (
        isinstance(value, (str, int, float, bool)) and not (isinstance(value, str) and len(value) > 200)
    )


def _text(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) <= limit and not has_control_characters(value)


def read_changes(data: dict[str, Any], add) -> list[dict[str, Any]]:
    """The file's changes as plain dicts ready for :func:`write_changes`; each problem goes to ``add(where,
    message)`` (the importer's checker)."""
    items = data.get(KEY)
    if items is None:
        return []
    where = "alterações de configuração"
    if not isinstance(items, list) or len(items) > MAX_CHANGES:
        add(where, f"“{KEY}” deve ser uma lista (até {MAX_CHANGES} itens)")
        return []
    out = []
    for n, item in enumerate(items, start=1):
        w = f"{where}, item {n}"
        if not isinstance(item, dict):
            add(w, "deve ser um objeto com field, before, after, at, by e reason")
            continue
        field = item.get("field")
        if field not in LOCKED_SETTINGS:
            add(w, f"configuração desconhecida: {field!r} (use uma de: {', '.join(LOCKED_SETTINGS)})")
            continue
        if not (_scalar(item.get("before")) and _scalar(item.get("after"))):
            add(w, "“before” e “after” devem ser valores simples (texto, número, verdadeiro/falso ou null)")
            continue
        at = item.get("at")
        try:
            moment = datetime.fromisoformat(at) if isinstance(at, str) and len(at) <= 40 else None
        except ValueError:
            moment = None
        if moment is None:
            add(w, f"data e hora inválida em “at”: {at!r} (use ISO 8601, por exemplo 2026-11-09T10:00:00-03:00)")
            continue
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment, timezone.get_default_timezone())
        by, reason = item.get("by", ""), item.get("reason")
        if not isinstance(reason, str):
            reason = ""
        if not _text(by, 150):
            add(w, f"usuário inválido em “by”: {by!r}")
            continue
        if not _text(reason, 300) or not reason.strip():
            add(w, "toda alteração depois da 1ª rodada precisa do motivo (“reason”), em uma linha")
            continue
        out.append(
            {
                "field": field,
                "before": item.get("before"),
                "after": item.get("after"),
                "at": moment,
                "by": by,
                "reason": " ".join(reason.split()),
            }
        )
    return out


def write_changes(tournament: Tournament, changes: list[dict[str, Any]]) -> None:
    SettingsChange.objects.bulk_create(SettingsChange(tournament=tournament, **c) for c in changes)


# The readings of issue 26, optional in the file's ``tournament`` object (absent: the default, the text's reading).
READING_CHOICES = {
    "top3_scope": Top3Scope,
    "direct_encounter_scope": DirectEncounterScope,
    "acceleration_order": AccelerationOrder,
    "time_unit": TimeUnit,
    "tablita_100": Tablita100,
    "unrated_in_average": UnratedInAverage,
    "double_spot_rule": DoubleSpotRule,
}


def _default(key: str) -> Any:
    return getattr(Tournament._meta.get_field(key), "default", None)


def export_readings(tournament: Tournament) -> dict[str, Any]:
    """The readings that differ from their default (a file without them reads as the defaults, so a file written
    before these settings existed exports back to itself)."""
    keys = (*READING_CHOICES, "category_min_entries")
    return {key: getattr(tournament, key) for key in keys if getattr(tournament, key) != _default(key)}


def read_readings(t: dict[str, Any], add) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for key, choices in READING_CHOICES.items():
        value = t.get(key, _default(key))
        if value not in choices.values:
            add("torneio", f"valor inválido em “{key}”: {value!r} (use {', '.join(choices.values)})")
            continue
        fields[key] = value
    minimum = t.get("category_min_entries", 0)
    if not isinstance(minimum, int) or isinstance(minimum, bool) or not 0 <= minimum <= 10000:
        add("torneio", f"valor inválido em “category_min_entries”: {minimum!r}")
    else:
        fields["category_min_entries"] = minimum
    return fields
