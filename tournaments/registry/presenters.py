"""The registry's history as sentences: who changed which field of a player, when, from what to what."""

from dataclasses import dataclass
from datetime import date

from django.core.exceptions import FieldDoesNotExist
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Player
from tournaments.models.choices import AuditAction, Sex, Title

ACTIONS = {
    AuditAction.PLAYER_CREATE: gettext_lazy("Registered"),
    AuditAction.PLAYER_UPDATE: gettext_lazy("Changed"),
}


def field_label(name):
    try:
        return capfirst(str(Player._meta.get_field(name).verbose_name))
    except FieldDoesNotExist:  # a field that no longer exists keeps its code
        return name


def show_value(name, value):
    if value in (None, ""):
        return "—"
    if name == "birth_date":
        try:
            return date.fromisoformat(str(value)).strftime("%d/%m/%Y")
        except ValueError:
            return str(value)
    if name == "sex":
        return str(dict(Sex.choices).get(value, value))
    if name == "title":
        return str(dict(Title.choices).get(value, value))
    return str(value)


@dataclass
class HistoryRow:
    when: str
    who: str
    what: str
    source: str
    changes: list  # of (label, before, after)


def history_rows(audit_entries):
    rows = []
    for a in audit_entries:
        old, new = a.old or {}, a.new or {}
        keys = list(new) + [k for k in old if k not in new]
        changes = [(field_label(k), show_value(k, old.get(k)), show_value(k, new.get(k))) for k in keys]
        rows.append(
            HistoryRow(
                when=timezone.localtime(a.created_at).strftime("%d/%m/%Y %H:%M"),
                who=a.username or _("system"),
                what=str(ACTIONS.get(a.action, a.action)),
                source=a.summary if a.summary.startswith(_("rating list")) else "",
                changes=changes,
            )
        )
    return rows
