"""The settings changed after round 1, in words (issue 26, point 1): listed on the homologation page and in the
workbook, beside the verdict that judges each setting at its value before its first change."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import FieldDoesNotExist
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.domain.settings_lock import SettingsChange
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
    when = timezone.localtime(change.at, ZoneInfo(time_zone)).strftime("%d/%m/%Y %H:%M")
    if change.field == ROUND_1_UNDONE:
        return f"rodada 1 desfeita em {when} por {change.by or '—'}, motivo: {change.reason}"
    return _("%(setting)s: %(before)s → %(after)s, on %(when)s by %(by)s; reason: %(reason)s") % {
        "setting": setting_label(change.field),
        "before": value_text(change.field, change.before),
        "after": value_text(change.field, change.after),
        "when": when,
        "by": change.by or "—",
        "reason": change.reason,
    }
