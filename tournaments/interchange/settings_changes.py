"""``settings_changes`` of the interchange file (issue 26): the settings that decide the homologation changed after
round 1 was paired, each with the value before and after, when, by whom and why::

    "settings_changes": [{"field": "minutes_per_game", "before": 15, "after": 21,
                          "at": "2026-11-09T10:00:00-03:00", "by": "diretor", "reason": "..."}]

and (issue 35.3) a stage's categories, who is in them and the entries' ratings changed after round 1, and the
categories an imported event defined after the import, whose ``before`` and ``after`` are objects
(docs/interchange.md): ``{"code", "name", "sex", "min_age", "max_age"}`` or null for ``category`` and
``category_after_import``, ``{"player": {"cbjd_id", "name"}, "categories": [codes]}`` for ``entry_categories``,
``{"player": {"cbjd_id", "name"}, "rating": n}`` for ``entry_rating``.

Written by the export (only when there is one), read back by the import (the homologation check then judges the
values before, as for a tournament run here), and read by the federation's verification. Every item is checked:
a known setting, JSON scalars, an ISO-8601 date and time, one-line texts, a reason.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db.models import TextChoices
from django.utils import timezone

from tournaments.core.safetext import has_control_characters
from tournaments.domain.labelled import LabelledEnum
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
from tournaments.models.tournament import (
    CATEGORY_AFTER_IMPORT,
    CATEGORY_CHANGE,
    CHANGE_FIELDS,
    FACT_CHANGES,
    MEMBERSHIP_CHANGE,
    RATING_CHANGE,
)
from tournaments.setup.lock import changes_of

KEY = "settings_changes"
MAX_CHANGES = 1000


# The importer's checker: add(where, message).
Add = Callable[[str, str], None]


def export_changes(tournament: Tournament) -> dict[str, list[dict[str, Any]]]:
    """``{"settings_changes": [...]}``, or ``{}`` when no setting changed after round 1."""
    changes = [c.as_json() for c in changes_of(tournament)]
    return {KEY: changes} if changes else {}


def _scalar(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= 200 and not has_control_characters(value)
    return value is None or isinstance(value, (int, float, bool))


def _text(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) <= limit and not has_control_characters(value)


def _moment(at: Any) -> datetime | None:
    if not isinstance(at, str) or len(at) > 40:
        return None
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return None
    return timezone.make_aware(moment, timezone.get_default_timezone()) if timezone.is_naive(moment) else moment


FACT_SHAPES = {
    CATEGORY_CHANGE: "null ou um objeto com code, name, sex, min_age e max_age",
    CATEGORY_AFTER_IMPORT: "null ou um objeto com code, name, sex, min_age e max_age",
    MEMBERSHIP_CHANGE: "um objeto com player ({cbjd_id, name}) e categories (lista de códigos)",
    RATING_CHANGE: "um objeto com player ({cbjd_id, name}) e rating (número inteiro ou null)",
}


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _category(value: Any) -> bool:
    if value is None:
        return True
    return (
        isinstance(value, dict)
        and set(value) <= {"code", "name", "sex", "min_age", "max_age"}
        and _text(value.get("code"), 10)
        and bool(value.get("code"))
        and _text(value.get("name", ""), 60)
        and value.get("sex", "") in ("", "F", "M")
        and all(value.get(k) is None or _whole(value.get(k), 0, 200) for k in ("min_age", "max_age"))
    )


def _player(value: Any) -> bool:
    if not isinstance(value, dict) or set(value) - {"cbjd_id", "name"}:
        return False
    cbjd_id = value.get("cbjd_id")
    known = cbjd_id is None or _text(cbjd_id, 20) or _whole(cbjd_id, 0, 10**12)
    return known and _text(value.get("name", ""), 200) and bool(cbjd_id or value.get("name"))


def _fact_value(field: str, value: Any) -> bool:
    """A change of a category, of an entry's categories or of an entry's rating has the shape its field says."""
    if field in (CATEGORY_CHANGE, CATEGORY_AFTER_IMPORT):
        return _category(value)
    if not isinstance(value, dict) or not _player(value.get("player")):
        return False
    if field == MEMBERSHIP_CHANGE:
        codes = value.get("categories")
        return set(value) == {"player", "categories"} and (
            isinstance(codes, list) and len(codes) <= 100 and all(_text(c, 10) for c in codes)
        )
    rating = value.get("rating")
    return set(value) == {"player", "rating"} and (rating is None or _whole(rating, 0, 4000))


def _problem(item: Any) -> str:
    """What is wrong with one item ("" when nothing)."""
    if not isinstance(item, dict):
        return "deve ser um objeto com field, before, after, at, by e reason"
    field = item.get("field")
    if field not in CHANGE_FIELDS:
        return f"configuração desconhecida: {field!r} (use uma de: {', '.join(CHANGE_FIELDS)})"
    if field in FACT_CHANGES:
        if not (_fact_value(field, item.get("before")) and _fact_value(field, item.get("after"))):
            return f"“before” e “after” de “{field}”: {FACT_SHAPES[field]}"
    elif not (_scalar(item.get("before")) and _scalar(item.get("after"))):
        return "“before” e “after” devem ser valores simples (texto, número, verdadeiro/falso ou null)"
    if _moment(item.get("at")) is None:
        return f"data e hora inválida em “at”: {item.get('at')!r} (use ISO 8601, por exemplo 2026-11-09T10:00:00-03:00)"
    if not _text(item.get("by", ""), 150):
        return f"usuário inválido em “by”: {item.get('by')!r}"
    reason = item.get("reason")
    if not _text(reason, 300) or not str(reason).strip():
        return "toda alteração depois da 1ª rodada precisa do motivo (“reason”), em uma linha"
    return ""


def read_changes(data: dict[str, Any], add: Add) -> list[dict[str, Any]]:
    """The file's changes as plain dicts ready for :func:`write_changes`; each problem goes to ``add``."""
    items = data.get(KEY)
    if items is None:
        return []
    where = "alterações de configuração"
    if not isinstance(items, list) or len(items) > MAX_CHANGES:
        add(where, f"“{KEY}” deve ser uma lista (até {MAX_CHANGES} itens)")
        return []
    out = []
    for n, item in enumerate(items, start=1):
        problem = _problem(item)
        if problem:
            add(f"{where}, item {n}", problem)
            continue
        out.append(
            {
                "field": item["field"],
                "before": item.get("before"),
                "after": item.get("after"),
                "at": _moment(item["at"]),
                "by": item.get("by", ""),
                "reason": " ".join(item["reason"].split()),
            }
        )
    return out


def write_changes(tournament: Tournament, changes: list[dict[str, Any]]) -> None:
    SettingsChange.objects.bulk_create(SettingsChange(tournament=tournament, **c) for c in changes)


# The readings of issue 26, optional in the file's ``tournament`` object (absent: the default, the text's reading).
READING_CHOICES: dict[str, type[TextChoices] | type[LabelledEnum]] = {
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


def export_tournament_extras(tournament: Tournament) -> dict[str, Any]:
    """The optional fields of the file's ``tournament`` object: the readings that differ from their default (a
    file without them reads as the defaults, so a file written before these settings existed exports back to
    itself), and what an imported file carried (a start date still to be given, the time control as written,
    the TRF header lines)."""
    keys = (*READING_CHOICES, "spots_min_entries")
    out: dict[str, Any] = {key: getattr(tournament, key) for key in keys if getattr(tournament, key) != _default(key)}
    if tournament.start_date_unknown:
        out["start_date_unknown"] = True
    if not tournament.circuit_stage:
        out["circuit_stage"] = False  # a club event (issue 35.1); absent: a stage, judged by its edition
    if tournament.time_control:
        out["time_control"] = tournament.time_control
    if tournament.trf_header:
        out["trf_header"] = tournament.trf_header
    return out


def read_tournament_extras(t: dict[str, Any], add: Add) -> dict[str, Any]:
    """The readings (absent: the default) and ``start_date_unknown`` of the file's ``tournament`` object."""
    fields: dict[str, Any] = {}
    for key, choices in READING_CHOICES.items():
        value = t.get(key, _default(key))
        if value not in choices.values:
            add("torneio", f"valor inválido em “{key}”: {value!r} (use {', '.join(choices.values)})")
            continue
        fields[key] = value
    minimum = t.get("spots_min_entries", 0)
    if not isinstance(minimum, int) or isinstance(minimum, bool) or not 0 <= minimum <= 10000:
        add("torneio", f"valor inválido em “spots_min_entries”: {minimum!r}")
    else:
        fields["spots_min_entries"] = minimum
    unknown = t.get("start_date_unknown", False)
    if not isinstance(unknown, bool):
        add("torneio", f"valor inválido em “start_date_unknown”: {unknown!r}")
        unknown = False
    fields["start_date_unknown"] = unknown
    stage = t.get("circuit_stage", True)
    if not isinstance(stage, bool):
        add("torneio", f"valor inválido em “circuit_stage”: {stage!r}")
        stage = True
    fields["circuit_stage"] = stage
    return fields
