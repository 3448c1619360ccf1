"""The settings changed after round 1, in words (issue 26, point 1): listed on the homologation page and in the
workbook, beside the verdict that judges each setting at its value before its first change. And (issue 35.3) a
stage's categories, who is in them and the entries' ratings changed after round 1, each with its reason, and the
categories an imported event defined after the import."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import FieldDoesNotExist
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.domain.settings_lock import (
    CATEGORY_AFTER_IMPORT,
    CATEGORY_CHANGE,
    MEMBERSHIP_CHANGE,
    RATING_CHANGE,
    SettingsChange,
    player_of,
)
from tournaments.models import Tournament
from tournaments.models.tournament import ROUND_1_UNDONE


def setting_label(field: str) -> str:
    """The setting's name as the settings page shows it."""
    try:
        return str(getattr(Tournament._meta.get_field(field), "verbose_name", field))
    except FieldDoesNotExist:
        return field


def value_text(field: str, value: Any) -> str:
    """A recorded value in words: a choice by its label, nothing as a dash."""
    if value is None or value == "":
        return "—"
    try:
        choices = dict(getattr(Tournament._meta.get_field(field), "flatchoices", ()))
    except FieldDoesNotExist:
        choices = {}
    return str(choices.get(value, value))


def change_text(change: SettingsChange, time_zone: str) -> str:
    """ "minutes per player per game: 15 → 21, on 09/11/2026 10:00 by diretor; reason: ..." in the active
    language."""
    when = _when(change, time_zone)
    if change.field == ROUND_1_UNDONE:
        return f"rodada 1 desfeita em {when} por {change.by or '—'}, motivo: {change.reason}"
    if change.field in FACT_TEXTS:
        return f"{FACT_TEXTS[change.field](change)}, em {when} por {change.by or '—'}; motivo: {change.reason}"
    return _("%(setting)s: %(before)s → %(after)s, on %(when)s by %(by)s; reason: %(reason)s") % {
        "setting": setting_label(change.field),
        "before": value_text(change.field, change.before),
        "after": value_text(change.field, change.after),
        "when": when,
        "by": change.by or "—",
        "reason": change.reason,
    }


def _when(change: SettingsChange, time_zone: str) -> str:
    return timezone.localtime(change.at, ZoneInfo(time_zone)).strftime("%d/%m/%Y %H:%M")


def change_lines(changes: Iterable[SettingsChange], time_zone: str) -> list[str]:
    """Every change in words, oldest first; the categories an imported event defined after its import in one
    line ("categorias definidas depois da importação: ABS, FEM (em 09/11/2026 10:00)"), where the first of them
    stands."""
    changes = list(changes)
    imported = [c for c in changes if c.field == CATEGORY_AFTER_IMPORT]
    lines = []
    for c in changes:
        if c.field != CATEGORY_AFTER_IMPORT:
            lines.append(change_text(c, time_zone))
        elif c is imported[0]:
            codes = ", ".join(f"{_code(c.after)} ({_when(c, time_zone)})" for c in imported)
            lines.append(f"categorias definidas depois da importação: {codes}; são do local, não do arquivo importado")
    return lines


def _code(definition: Any) -> str:
    return str(definition.get("code")) if isinstance(definition, dict) else "—"


def definition_text(definition: Any) -> str:
    """A category's definition in words: "FEM “Feminino” (sexo F, de 10 a 17 anos)"; a dash when there is none."""
    if not isinstance(definition, dict):
        return "—"
    rule = []
    if definition.get("sex"):
        rule.append(f"sexo {definition['sex']}")
    low, high = definition.get("min_age"), definition.get("max_age")
    if low is not None and high is not None:
        rule.append(f"de {low} a {high} anos")
    elif low is not None:
        rule.append(f"{low} anos ou mais")
    elif high is not None:
        rule.append(f"até {high} anos")
    return f"{_code(definition)} “{definition.get('name') or ''}” ({', '.join(rule) or 'todos'})"


def _category_text(change: SettingsChange) -> str:
    if change.before is None:
        return f"categoria {definition_text(change.after)} criada"
    if change.after is None:
        return f"categoria {definition_text(change.before)} excluída"
    return f"categoria {_code(change.before)}: {definition_text(change.before)} → {definition_text(change.after)}"


def _player_name(change: SettingsChange) -> str:
    player = player_of(change.after) or player_of(change.before)
    name = str(player.get("name") or "—")
    return f"{name} (ID CBJD {player['cbjd_id']})" if player.get("cbjd_id") else name


def _codes(value: Any) -> str:
    codes = value.get("categories") if isinstance(value, dict) else None
    return ", ".join(str(c) for c in codes) if codes else "nenhuma"


def _membership_text(change: SettingsChange) -> str:
    return f"categorias de {_player_name(change)}: {_codes(change.before)} → {_codes(change.after)}"


def _rating(value: Any) -> str:
    rating = value.get("rating") if isinstance(value, dict) else None
    return "sem rating" if rating is None else str(rating)


def _rating_text(change: SettingsChange) -> str:
    return (
        f"rating de {_player_name(change)}: {_rating(change.before)} → {_rating(change.after)} (as vagas e os "
        "desempates contam o rating da 1ª rodada)"
    )


FACT_TEXTS = {CATEGORY_CHANGE: _category_text, MEMBERSHIP_CHANGE: _membership_text, RATING_CHANGE: _rating_text}
