"""Creating and configuring tournaments."""

import logging
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core import cache
from tournaments.core.errors import ServiceError
from tournaments.core.safetext import has_control_characters, single_line_message
from tournaments.models import Category, OpeningTable, SettingsChange, Tournament, TournamentRole
from tournaments.models.choices import AuditAction, StaffRole, Variant
from tournaments.models.tournament import FROZEN_SETTINGS, LOCKED_SETTINGS
from tournaments.setup.lock import setting_value
from tournaments.setup.openings_data import DEFAULT_TABLE
from tournaments.setup.tiebreak_list import stored_list_is_broken

logger = logging.getLogger(__name__)

DEFAULT_CATEGORIES = [{"code": "ABS", "name": "Absoluto"}]


def frozen_fields(tournament: Tournament) -> tuple[str, ...]:
    """The settings round 1 freezes. A stored tiebreak list the standings cannot use is the exception: the director
    may still replace it (issue 25, item 4), since the standings use the CBJD profile meanwhile."""
    if stored_list_is_broken(tournament):
        return tuple(k for k in FROZEN_SETTINGS if k not in ("tiebreak_profile", "tiebreak_keys"))
    return FROZEN_SETTINGS


def _jsonable(value: object) -> object:
    return value if isinstance(value, (int, float, str, bool, list, dict, type(None))) else str(value)


@transaction.atomic
def tournament_create(
    *,
    user: Actor,
    categories: list[dict[str, Any]] | None = None,
    file_values: Iterable[str] | None = None,
    **fields: Any,
) -> Tournament:
    """Create a tournament with its categories (default: Absoluto); the creator becomes its director.
    ``file_values``: an import's, the values of unplayed rounds (``bye_value``, ``absence_value``) its file scored
    rounds with, kept where the stage's edition fixes another (issue 35.1); the others follow the edition."""
    if Tournament.objects.filter(slug=fields.get("slug")).exists():
        raise ServiceError(_("A tournament with the address “%(slug)s” already exists.") % {"slug": fields.get("slug")})
    if fields.get("variant", Variant.BRAZILIAN_64) == Variant.BRAZILIAN_64 and "opening_table" not in fields:
        fields["opening_table"] = OpeningTable.objects.filter(code=DEFAULT_TABLE).first()
    tournament = Tournament(**fields)
    if file_values is not None:
        tournament._file_values = frozenset(file_values)  # type: ignore[attr-defined]  # read by Tournament.save
    tournament.full_clean()
    tournament.save()
    for position, cat in enumerate(categories if categories is not None else DEFAULT_CATEGORIES):
        Category.objects.create(tournament=tournament, position=position, **cat)
    if user is not None and user.pk:
        TournamentRole.objects.create(tournament=tournament, user=user, role=StaffRole.DIRECTOR)
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.TOURNAMENT_CREATE,
        obj=tournament,
        summary=tournament.name,
        new={k: _jsonable(v) for k, v in fields.items() if k != "opening_table"},
    )
    logger.info("%s: tournament created by %s", tournament.slug, login_of(user) or "a command or an import")
    return tournament


def settings_frozen(tournament: Tournament) -> bool:
    return tournament.rounds.exists()


def _names(keys: list[str]) -> str:
    return ", ".join(str(getattr(Tournament._meta.get_field(k), "verbose_name", k)) for k in keys)


def _refuse_edition_fields(tournament: Tournament, fields: dict[str, Any], changed: dict[str, Any]) -> None:
    """A stage's minimum and readings are its edition's (issue 35.1): not set at the venue, with or without a
    reason."""
    if not (tournament.circuit_stage and fields.get("circuit_stage", True)):
        return
    by_edition = [k for k in changed if k in tournament.edition_fields()]
    if by_edition:
        raise ServiceError(
            _(
                "A stage of the national circuit follows the federation's edition of the regulation "
                "(%(edition)s): %(names)s cannot be set at the venue."
            )
            % {"edition": tournament.edition_code or "—", "names": _names(by_edition)}
        )


def _locked_changes(tournament: Tournament, changed: dict[str, Any], started: bool) -> list[str]:
    """The changed facts that need a reason. Round 1 paired once locks them for good, also after it is undone
    (issue 35.3): a change made while round 1 is undone needs a reason and is listed like any other. With round 1
    paired the frozen settings are refused (but a broken stored tiebreak list, replaced freely); with round 1
    undone they change only with a reason, like the locked ones. The dates an imported file did not give are no
    fact."""
    if not (started or tournament.facts_locked_at is not None):
        return []
    lockable = (*LOCKED_SETTINGS, *(() if started else FROZEN_SETTINGS), "circuit_stage")
    locked = [k for k in changed if k in lockable]
    if tournament.start_date_unknown:
        locked = [k for k in locked if k not in ("start_date", "end_date")]
    return locked


@transaction.atomic
def tournament_update(*, tournament: Tournament, user: Actor, reason: str | None = None, **fields: Any) -> Tournament:
    """Change settings. Once round 1 is paired, those that change results (``FROZEN_SETTINGS``) are refused, and
    those that decide the homologation (``LOCKED_SETTINGS``) change only with a ``reason``: each such change is a
    ``SettingsChange`` row (before, after, when, who, why) and an audit line, and the homologation check keeps
    judging the value in force when round 1 was paired (issue 26)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    changed = {k: v for k, v in fields.items() if getattr(tournament, k) != v}
    _refuse_edition_fields(tournament, fields, changed)
    started = settings_frozen(tournament)
    frozen = [k for k in changed if k in frozen_fields(tournament)]
    if frozen and started:
        raise ServiceError(
            _(
                "These settings can no longer change because round 1 has been paired (they change results "
                "already computed): %(names)s."
            )
            % {"names": _names(frozen)}
        )
    locked = _locked_changes(tournament, changed, started)
    reason = " ".join(str(reason or "").split())
    if locked and not reason:
        raise ServiceError(
            _(
                "Round 1 has been paired: these settings decide the homologation and change only with a reason, "
                "recorded in the audit log and listed in the homologation report (the check still judges the "
                "value in force when the event was played): %(names)s."
            )
            % {"names": _names(locked)}
        )
    if locked and has_control_characters(reason):
        raise ServiceError(single_line_message())
    if "bye_value" in changed and tournament.bye_points is not None:
        changed["bye_points"] = None  # the director's win or draw replaces the imported file's own bye points
    if tournament.start_date_unknown and "start_date" in fields:
        changed["start_date_unknown"] = False  # an imported file gave no start date: the director just gave it
    old = {k: _jsonable(getattr(tournament, k)) for k in changed}
    before = {k: setting_value(tournament, k) for k in locked}
    for k, v in changed.items():
        setattr(tournament, k, v)
    try:
        tournament.full_clean()
    except ValidationError as exc:
        raise ServiceError(exc.messages) from exc
    # read by Tournament.save (issue 35.3); a broken stored tiebreak list is replaced without one (issue 25.4)
    tournament._change_reason = reason or "lista de desempates gravada inutilizável substituída"  # type: ignore[attr-defined]
    tournament.save()
    if changed:
        now = timezone.now()
        by = user.get_username() if user is not None else ""
        SettingsChange.objects.bulk_create(
            SettingsChange(
                tournament=tournament,
                field=k,
                before=before[k],
                after=setting_value(tournament, k),
                at=now,
                by=by,
                reason=reason[:300],
            )
            for k in locked
        )
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.TOURNAMENT_SETTINGS,
            obj=tournament,
            summary=", ".join(changed),
            old=old,
            new={k: _jsonable(v) for k, v in changed.items()},
            reason=reason if locked else "",
        )
        if locked:
            logger.info("%s: settings %s changed after round 1 by %s: %s", tournament.slug, locked, by, reason)
        cache.bump(tournament.pk)
    return tournament
