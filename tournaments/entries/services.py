"""Players, rating lists, entries, withdrawals, abandonments and announced absences."""

import calendar
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.audit.services import Actor, audit, login_of
from tournaments.categories.services import clean_reason, locked_change, rule_of
from tournaments.core import cache
from tournaments.core.affected import of_players, of_suspension, pages_changed
from tournaments.core.agreement import by_sex
from tournaments.core.errors import ServiceError
from tournaments.core.safetext import has_control_characters, single_line_message
from tournaments.domain.categories import Person, is_member
from tournaments.homologation.suspensions import in_force_from
from tournaments.models import (
    Absence,
    AuditEntry,
    Category,
    Entry,
    Player,
    RatingList,
    RatingListRow,
    Suspension,
    Tournament,
)
from tournaments.models.choices import (
    RATING_MAX,
    RATING_MIN,
    AuditAction,
    EntryStatus,
    StaffRole,
    SuspensionSource,
    WithdrawalKind,
)
from tournaments.models.friendly import fold
from tournaments.models.tournament import RATINGS_LOCKED
from tournaments.registry.ratinglist import RatingListError, RatingRow, line_message, parse_rating_list
from tournaments.registry.selectors import latest_rating_list
from tournaments.registry.services import REGISTRY_FIELDS, as_json
from tournaments.registry.suspensions import same_active, suspension_create

logger = logging.getLogger(__name__)


def eligible_categories(tournament: Tournament, player: Player) -> list[Category]:
    """Categories the player belongs to: sex, and age on 31 December of the tournament's year (from the birth
    date, or the year of birth when only that is known): the categories' own rule, ``domain.categories``."""
    person = Person(id=0, sex=player.sex, birth_date=player.birth_date, birth_year=player.birth_year)
    year = tournament.start_date.year
    return [cat for cat in tournament.categories.all() if is_member(rule_of(cat), person, year)]


def blocking_suspension(player: Player, start: date, end: date) -> Suspension | None:
    """The player's suspension in force on some day from ``start`` to ``end`` (regulation art. 3), if any."""
    return (
        Suspension.objects.filter(player=player, lifted_at__isnull=True, national_pending=False, start_date__lte=end)
        .filter(in_force_from(start))
        .order_by("-end_date")
        .first()
    )


def next_round_number(tournament: Tournament) -> int:
    return (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    player: Player,
    user: Actor,
    categories: Iterable[Category] | None = None,
    declared_adult: bool = False,
    late_entry_round: int | None = None,
) -> Entry:
    """Enter a player: refused when suspended on any day of the tournament; the rating is a snapshot."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    suspension = blocking_suspension(player, tournament.start_date, tournament.end_date)
    if suspension:
        raise ServiceError(suspended_refusal(player, suspension))
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise ServiceError(already_entered(player))
    next_round = next_round_number(tournament)
    if next_round > tournament.planned_rounds:
        raise ServiceError(_("Every round has been paired; no more entries are possible."))
    pairing_number = None
    if next_round > 1:
        late_entry_round = max(late_entry_round or next_round, next_round)
        pairing_number = (tournament.entries.aggregate(n=Max("pairing_number"))["n"] or 0) + 1
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        rating=player.rating,
        fmjd_rating=player.fmjd_rating,
        declared_adult=declared_adult,
        late_entry_round=late_entry_round if (late_entry_round or 0) > 1 else None,
        pairing_number=pairing_number,
    )
    entry.categories.set(categories if categories is not None else eligible_categories(tournament, player))
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ENTRY_CREATE,
        obj=entry,
        summary=player.name,
        new={"player": player.pk, "rating": entry.rating, "late_entry_round": entry.late_entry_round},
    )
    cache.bump(tournament.pk)
    return entry


@transaction.atomic
def entry_update(
    *,
    entry: Entry,
    user: Actor,
    categories: Iterable[Category] | None = None,
    declared_adult: bool | None = None,
    reason: str | None = None,
) -> Entry:
    """Change an entry's categories by hand (or whether the player declared being 21 or older). Once round 1 of a
    stage is published, its categories change only with a ``reason``, recorded and listed in the report (the
    model layer refuses them otherwise, issue 35.3)."""
    reason = clean_reason(reason)
    old = {"categories": sorted(c.code for c in entry.categories.all()), "declared_adult": entry.declared_adult}
    if declared_adult is not None:
        entry.declared_adult = declared_adult
        entry.save(update_fields=["declared_adult"])
    if categories is not None:
        try:
            with locked_change(reason, user):
                entry.categories.set(categories)
        except ValidationError as exc:
            raise ServiceError(exc.messages) from exc
    new = {"categories": sorted(c.code for c in entry.categories.all()), "declared_adult": entry.declared_adult}
    if old != new:
        audit(
            tournament=entry.tournament,
            user=user,
            action=AuditAction.ENTRY_UPDATE,
            obj=entry,
            summary=entry.player.name,
            old=old,
            new=new,
            reason=reason,
        )
        cache.bump(entry.tournament_id)
    return entry


@transaction.atomic
def entry_rating_change(*, entry: Entry, user: Actor, rating: int | None, reason: str | None) -> Entry:
    """Correct an entry's rating. Before round 1 the registry's rating is taken when round 1 is paired (art. 4),
    so there is nothing to correct here; once it is published the rating changes only with a ``reason``:
    recorded and listed in the homologation report, while the spots and the tiebreaks keep reading the rating
    frozen at round 1 (issue 35.3)."""
    reason = clean_reason(reason)
    entry = Entry.objects.select_for_update().select_related("tournament", "player").get(pk=entry.pk)
    if entry.tournament.facts_locked_at is None:
        raise ServiceError(
            _("Round 1 has not been published: the entries take the registry's rating when it is paired.")
        )
    if not reason:
        raise ServiceError(str(RATINGS_LOCKED))
    if rating is not None and not RATING_MIN <= rating <= RATING_MAX:
        raise ServiceError(_("The rating must be between 100 and 3000."))
    old = entry.rating
    if old == rating:
        return entry
    entry.rating = rating
    with locked_change(reason, user):
        entry.save(update_fields=["rating"])
    audit(
        tournament=entry.tournament,
        user=user,
        action=AuditAction.ENTRY_UPDATE,
        obj=entry,
        summary=entry.player.name,
        old={"rating": old},
        new={"rating": rating},
        reason=reason,
    )
    cache.bump(entry.tournament_id)
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry, from_round: int, kind: str, user: Actor, note: str = "") -> Suspension | None:
    """Withdraw from round ``from_round`` on. An abandonment suspends the player at once (see
    :func:`abandonment_suspend`). Returns that suspension, or None.
    """
    entry = Entry.objects.select_for_update().select_related("tournament", "player").get(pk=entry.pk)
    tournament = entry.tournament
    if entry.status == EntryStatus.WITHDRAWN:
        raise ServiceError(_("%(name)s has already withdrawn.") % {"name": entry.player.name})  # "já desistiu"
    if from_round < 1 or from_round > tournament.planned_rounds:
        raise ServiceError(_("Round %(n)s does not exist in this tournament.") % {"n": from_round})
    # Art. 10: "Não abandonar a competição antes do término desta". A player who leaves during the last round
    # (already paired in it) is recorded as withdrawn from it: the board stays as it is, its result is entered
    # as played or forfeited, and an abandonment suspends the player (issue 26, point 3).
    last_round = from_round == tournament.planned_rounds
    if not last_round and entry.seats.filter(round__number__gte=from_round).exists():
        raise ServiceError(
            by_sex(
                entry.player.sex,
                _(
                    "%(name)s is already paired in round %(n)s or later: undo that pairing first, or withdraw "
                    "from the next round."
                ),
                pgettext(
                    "female",
                    "%(name)s is already paired in round %(n)s or later: undo that pairing first, or withdraw "
                    "from the next round.",
                ),
            )
            % {"name": entry.player.name, "n": from_round}
        )
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_from_round = from_round
    entry.withdrawal_kind = kind
    entry.save(update_fields=["status", "withdrawn_from_round", "withdrawal_kind"])
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ENTRY_WITHDRAW,
        obj=entry,
        summary=entry.player.name,
        new={"from_round": from_round, "kind": kind, "note": note},
        reason=note,
    )
    suspension = None
    if kind == WithdrawalKind.ABANDONMENT:
        suspension = abandonment_suspend(entry=entry, user=user)
    cache.bump(tournament.pk)
    return suspension


@transaction.atomic
def entry_classify_withdrawal(*, entry: Entry, kind: str, user: Actor, note: str = "") -> Suspension | None:
    """Give its kind to a withdrawal recorded without one (an imported file that did not say): approved by the
    arbiter, or an abandonment, which suspends the player (art. 10). Until then the homologation check lists it
    for the director to classify (issue 26, point 15)."""
    entry = Entry.objects.select_for_update().select_related("tournament", "player").get(pk=entry.pk)
    if entry.status != EntryStatus.WITHDRAWN:
        raise ServiceError(_("%(name)s has not withdrawn.") % {"name": entry.player.name})
    if entry.withdrawal_kind:
        raise ServiceError(
            _("The withdrawal of %(name)s is already classified (%(kind)s).")
            % {"name": entry.player.name, "kind": entry.get_withdrawal_kind_display()}
        )
    if kind not in WithdrawalKind.values:
        raise ServiceError(_("Choose whether the withdrawal was approved by the arbiter or an abandonment."))
    entry.withdrawal_kind = kind
    entry.save(update_fields=["withdrawal_kind"])
    audit(
        tournament=entry.tournament,
        user=user,
        action=AuditAction.ENTRY_WITHDRAWAL_KIND,
        obj=entry,
        summary=entry.player.name,
        old={"kind": ""},
        new={"kind": kind},
        reason=note,
    )
    suspension = abandonment_suspend(entry=entry, user=user) if kind == WithdrawalKind.ABANDONMENT else None
    cache.bump(entry.tournament_id)
    return suspension


@transaction.atomic
def entry_reinstate(*, entry: Entry, user: Actor) -> Entry:
    """Undo a withdrawal that has not yet taken effect in a paired round."""
    entry = Entry.objects.select_for_update().select_related("tournament", "player").get(pk=entry.pk)
    if entry.status != EntryStatus.WITHDRAWN:
        raise ServiceError(_("%(name)s has not withdrawn.") % {"name": entry.player.name})
    if entry.tournament.rounds.filter(number__gte=entry.withdrawn_from_round).exists():
        raise ServiceError(_("Rounds were paired after the withdrawal; it can no longer be undone."))
    old = {"from_round": entry.withdrawn_from_round, "kind": entry.withdrawal_kind}
    entry.status, entry.withdrawn_from_round, entry.withdrawal_kind = EntryStatus.ACTIVE, None, ""
    entry.save(update_fields=["status", "withdrawn_from_round", "withdrawal_kind"])
    for suspension in Suspension.objects.filter(
        player=entry.player, tournament=entry.tournament, source=SuspensionSource.ABANDONMENT, lifted_at__isnull=True
    ):
        suspension_lift(suspension=suspension, user=user, reason=_("The withdrawal was undone."))
    audit(
        tournament=entry.tournament,
        user=user,
        action=AuditAction.ENTRY_REINSTATE,
        obj=entry,
        summary=entry.player.name,
        old=old,
    )
    cache.bump(entry.tournament_id)
    return entry


def _round1_paired(tournament: Tournament) -> bool:
    return tournament.rounds.filter(number=1).exists()


def refresh_ratings(*, tournament: Tournament, user: Actor) -> list[Entry]:
    """Regulation art. 4: "A primeira rodada tem que ser, obrigatoriamente, emparceirada utilizando-se o rating
    nacional atualizado." Called when round 1 is paired (inside its transaction): every entry takes the
    registry's current rating, except those whose rating of registration the director kept (with a reason);
    the latest rating list is recorded on the tournament. From then on the ratings are frozen: round 1 paired
    again after it was undone keeps the ratings it was first paired with (issue 35.3). Returns the entries
    changed."""
    if tournament.facts_locked_at is not None:
        return []
    changed = []
    for entry in Entry.objects.filter(tournament=tournament).select_related("player"):
        player = entry.player
        if entry.rating_kept_reason or (entry.rating, entry.fmjd_rating) == (player.rating, player.fmjd_rating):
            continue
        old = {"rating": entry.rating, "fmjd_rating": entry.fmjd_rating}
        entry.rating, entry.fmjd_rating = player.rating, player.fmjd_rating
        changed.append(entry)
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.ENTRY_RATING_REFRESH,
            obj=entry,
            summary=player.name,
            old=old,
            new={"rating": entry.rating, "fmjd_rating": entry.fmjd_rating},
        )
    Entry.objects.bulk_update(changed, ["rating", "fmjd_rating"])
    rating_list = latest_rating_list()
    tournament.rating_list_name = rating_list.filename[:200] if rating_list else ""
    tournament.rating_list_date = rating_list.list_date if rating_list else None
    tournament.save(update_fields=["rating_list_name", "rating_list_date"])
    return changed


@transaction.atomic
def entry_keep_rating(*, entry: Entry, user: Actor, reason: str | None) -> Entry:
    """Before round 1: keep the entry's rating of registration instead of the registry's current one, with the
    reason (shown in the homologation report; audited)."""
    reason = " ".join((reason or "").split())
    entry = Entry.objects.select_for_update().select_related("tournament", "player").get(pk=entry.pk)
    if _round1_paired(entry.tournament):
        raise ServiceError(_("Round 1 has been paired: the ratings are frozen."))
    if not reason:
        raise ServiceError(_("Give the reason for keeping the rating of registration."))
    old = entry.rating_kept_reason
    entry.rating_kept_reason = reason[:200]
    entry.save(update_fields=["rating_kept_reason"])
    audit(
        tournament=entry.tournament,
        user=user,
        action=AuditAction.ENTRY_RATING_KEEP,
        obj=entry,
        summary=entry.player.name,
        old={"reason": old} if old else None,
        new={"rating": entry.rating, "registry": entry.player.rating, "reason": entry.rating_kept_reason},
    )
    cache.bump(entry.tournament_id)
    return entry


@transaction.atomic
def entry_take_registry_rating(*, entry: Entry, user: Actor) -> Entry:
    """Before round 1: the entry takes the registry's current rating now (and at round 1)."""
    entry = Entry.objects.select_for_update().select_related("tournament", "player").get(pk=entry.pk)
    if _round1_paired(entry.tournament):
        raise ServiceError(_("Round 1 has been paired: the ratings are frozen."))
    old = {"rating": entry.rating, "fmjd_rating": entry.fmjd_rating, "reason": entry.rating_kept_reason}
    entry.rating, entry.fmjd_rating = entry.player.rating, entry.player.fmjd_rating
    entry.rating_kept_reason = ""
    entry.save(update_fields=["rating", "fmjd_rating", "rating_kept_reason"])
    audit(
        tournament=entry.tournament,
        user=user,
        action=AuditAction.ENTRY_RATING_REFRESH,
        obj=entry,
        summary=entry.player.name,
        old=old,
        new={"rating": entry.rating, "fmjd_rating": entry.fmjd_rating},
    )
    cache.bump(entry.tournament_id)
    return entry


def add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


ABANDONMENT_MONTHS = 3


def abandonment_suspend(*, entry: Entry, user: Actor, from_file: bool = False) -> Suspension:
    """Regulation art. 10: abandoning the competition "implicará em suspensão automática por 3 meses de todas as
    competições". The suspension is in force at once, for 3 months from the tournament's last day (docs/domain.md
    section 1); a director may lift it with a reason. Call inside the caller's transaction.

    ``from_file``: read from an imported file (issue 25, item 7): it applies to that tournament only and waits for
    the federation, or the director of the event, to confirm it nationally (:func:`suspension_confirm`).

    The last day is the event's as it was played: dates moved after round 1 (with a reason) do not move the
    suspension (issue 35.3, the audit's "the start of an art. 10 suspension")."""
    from tournaments.setup.lock import as_played

    tournament = entry.tournament
    start = as_played(tournament).end_date
    suspension = Suspension.objects.create(
        player=entry.player,
        start_date=start,
        end_date=add_months(start, ABANDONMENT_MONTHS),
        source=SuspensionSource.ABANDONMENT,
        reason=_("Abandonment of %(t)s without the arbiter's approval (regulation art. 10).") % {"t": tournament.name},
        tournament=tournament,
        created_by=login_of(user),
        national_pending=from_file,
    )
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.SUSPENSION_CREATE,
        obj=suspension,
        summary=entry.player.name,
        new={"start": str(suspension.start_date), "end": str(suspension.end_date), "source": suspension.source},
    )
    pages_changed(of_suspension(suspension))
    return suspension


def may_confirm(user: Actor, suspension: Suspension) -> bool:
    """The federation's staff, or a director of the event where the abandonment happened."""
    from tournaments.accounts.permissions import role_of
    from tournaments.registry.services import can_edit_registry

    if can_edit_registry(user):
        return True
    return suspension.tournament_id is not None and role_of(user, suspension.tournament) == StaffRole.DIRECTOR


@transaction.atomic
def suspension_confirm(*, suspension: Suspension, user: Actor) -> Suspension:
    """Make a suspension read from an imported file national (it then refuses entries everywhere); audited."""
    suspension = (
        Suspension.objects.select_for_update(of=("self",)).select_related("player", "tournament").get(pk=suspension.pk)
    )
    if not may_confirm(user, suspension):
        raise ServiceError(_("Only the federation or the director of the event may confirm this suspension."))
    if not suspension.national_pending:
        raise ServiceError(_("This suspension is already national."))
    suspension.national_pending = False
    suspension.confirmed_at = timezone.now()
    suspension.confirmed_by = login_of(user)
    suspension.save(update_fields=["national_pending", "confirmed_at", "confirmed_by"])
    audit(
        tournament=suspension.tournament,
        user=user,
        action=AuditAction.SUSPENSION_CONFIRM,
        obj=suspension,
        summary=suspension.player.name,
        new={"start": str(suspension.start_date), "end": str(suspension.end_date), "national": True},
    )
    pages_changed(of_suspension(suspension))  # national now: it refuses the player in their other tournaments too
    return suspension


@transaction.atomic
def suspension_lift(*, suspension: Suspension, user: Actor, reason: str | None) -> Suspension:
    """Lift a suspension (it no longer refuses entries), with a reason; audited."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ServiceError(_("Give the reason for lifting the suspension."))
    if has_control_characters(reason):
        raise ServiceError(single_line_message())
    suspension = Suspension.objects.select_for_update().select_related("player").get(pk=suspension.pk)
    if suspension.lifted_at is not None:
        raise ServiceError(_("This suspension has already been lifted."))
    suspension.lifted_at = timezone.now()
    suspension.lifted_by = login_of(user)
    suspension.lift_reason = reason[:300]
    suspension.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    audit(
        tournament=suspension.tournament,
        user=user,
        action=AuditAction.SUSPENSION_LIFT,
        obj=suspension,
        summary=suspension.player.name,
        old={"start": str(suspension.start_date), "end": str(suspension.end_date), "active": True},
        new={"active": False, "reason": suspension.lift_reason},
    )
    pages_changed(of_suspension(suspension))  # every tournament of the player, not only the one it came from
    return suspension


@transaction.atomic
def absence_announce(*, entry: Entry, round_number: int, user: Actor, reason: str = "") -> Absence:
    """Announce before pairing that the entry will miss a round: not paired, scores the absence value."""
    tournament = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
    if tournament.rounds.filter(number=round_number).exists():
        raise ServiceError(
            _("Round %(n)s is already paired: undo its pairing to announce an absence.") % {"n": round_number}
        )
    if not 1 <= round_number <= tournament.planned_rounds:
        raise ServiceError(_("Round %(n)s does not exist in this tournament.") % {"n": round_number})
    try:
        with transaction.atomic():
            absence = Absence.objects.create(entry=entry, round_number=round_number, reason=reason)
    except IntegrityError:
        raise ServiceError(_("This absence is already recorded.")) from None
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ABSENCE_CREATE,
        obj=absence,
        summary=f"{entry.player.name}: {round_number}",
        new={"round": round_number, "reason": reason},
    )
    cache.bump(tournament.pk)
    return absence


@transaction.atomic
def absence_cancel(*, absence: Absence, user: Actor) -> None:
    tournament = absence.entry.tournament
    if tournament.rounds.filter(number=absence.round_number).exists():
        raise ServiceError(
            _("Round %(n)s is already paired: the absence can no longer be cancelled.") % {"n": absence.round_number}
        )
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ABSENCE_DELETE,
        obj=absence,
        summary=f"{absence.entry.player.name}: {absence.round_number}",
    )
    absence.delete()
    cache.bump(tournament.pk)


@dataclass
class RatingListReport:
    """What a rating list import did: players created and updated, suspensions read from its "Situação" column
    (the players' names), and the standings it could not read (line, text), which the page lists."""

    created: int = 0
    updated: int = 0
    suspended: list[str] = field(default_factory=list)
    unread: list[tuple[int, str]] = field(default_factory=list)


def rating_list_import(*, data: bytes, filename: str, user: Actor, list_date: date | None = None) -> tuple[int, int]:
    """(created, updated) of ``rating_list_import_report``."""
    report = rating_list_import_report(data=data, filename=filename, user=user, list_date=list_date)
    return report.created, report.updated


def _list_row_update(player: Player, row: RatingRow) -> tuple[Player, dict, dict] | None:
    """Update a registry player from a list's line: (player, old values, new values), or None when nothing
    changed. What the line leaves blank (birth date, sex, state, club, a column the list lacks) is kept."""
    values: dict[str, Any] = {"name": row.name, "rating": row.rating}
    if row.rated_games is not None:
        values["rated_games"] = row.rated_games
    for name in ("birth_date", "sex", "state", "club"):
        value = getattr(row, name)
        if value:
            values[name] = value
    changed = {k: v for k, v in values.items() if getattr(player, k) != v}
    if not changed:
        return None
    old = {k: as_json(getattr(player, k)) for k in changed}
    for k, v in changed.items():
        setattr(player, k, v)
    player.save()
    return player, old, {k: as_json(v) for k, v in changed.items()}


@transaction.atomic
def rating_list_import_report(
    *, data: bytes, filename: str, user: Actor, list_date: date | None = None
) -> RatingListReport:
    """Create or update players by CBJD ID from a CSV/XLSX rating list. All-or-nothing.

    A "Situação" of "Suspenso até dd/mm/aaaa (reason)" suspends the player nationally from the list's date to
    that day (registry.suspensions; once: importing the list again adds nothing); one it cannot read is reported. The list is recorded with ``list_date`` (the date the federation published it;
    default today): a tournament whose round 1 is paired afterwards says it used this list. Tournaments whose
    round 1 is paired keep their frozen ratings; the others take the new ratings when round 1 is paired.
    """
    try:
        rows = parse_rating_list(data, filename)
    except RatingListError as exc:
        raise ServiceError([line_message(line, msg) for line, msg in exc.errors[:50]]) from exc
    existing = {p.cbjd_id: p for p in Player.objects.filter(cbjd_id__in=[r.cbjd_id for r in rows])}
    existing_games = {cbjd: p.rated_games for cbjd, p in existing.items()}
    created = updated = 0
    errors = []
    changes: list[
        tuple[Player, dict | None, dict]
    ] = []  # (player, old, new): every registry change is audited, field by field
    for row in rows:
        player = existing.get(row.cbjd_id)
        if player is None:
            if not row.sex:
                errors.append(line_message(row.line, _("sex missing for a new player")))
                continue
            player = Player.objects.create(
                cbjd_id=row.cbjd_id,
                name=row.name,
                rating=row.rating,
                birth_date=row.birth_date,
                sex=row.sex,
                state=row.state,
                club=row.club,
                rated_games=row.rated_games or 0,
            )
            new = {k: as_json(getattr(player, k)) for k in REGISTRY_FIELDS if getattr(player, k) not in (None, "")}
            changes.append((player, None, new))
            created += 1
        else:
            change = _list_row_update(player, row)
            if change is not None:
                changes.append(change)
            updated += 1
    if errors:
        raise ServiceError(errors[:50])
    rating_list = RatingList.objects.create(
        filename=(filename or "")[:200],
        list_date=list_date or timezone.localdate(),
        imported_by=login_of(user),
        created=created,
        updated=updated,
    )
    # the list as it was, for verifying a stage against the list in force on its date (issue 29)
    RatingListRow.objects.bulk_create(
        [
            RatingListRow(
                rating_list=rating_list,
                cbjd_id=row.cbjd_id,
                rating=row.rating,
                rated_games=row.rated_games if row.rated_games is not None else existing_games.get(row.cbjd_id, 0),
            )
            for row in rows
        ],
        batch_size=1000,
        ignore_conflicts=True,
    )
    who = login_of(user)
    AuditEntry.objects.bulk_create(
        [
            AuditEntry(
                user=who,
                username=who.get_username() if who else "",
                action=AuditAction.PLAYER_UPDATE if old else AuditAction.PLAYER_CREATE,
                object_type="player",
                object_id=str(player.pk),
                summary=(_("rating list %(file)s") % {"file": filename})[:300],
                old=old,
                new=new,
            )
            for player, old, new in changes
        ],
        batch_size=500,
    )
    audit(
        tournament=None,
        user=user,
        action=AuditAction.RATINGLIST_IMPORT,
        summary=f"{filename}: {created} new, {updated} updated",
        new={"created": created, "updated": updated},
    )
    pages_changed(of_players(player.pk for player, old, _new in changes if old))  # names, clubs on their pages
    logger.info("rating list %s imported by %s: %s new players, %s updated", filename, login_of(user), created, updated)
    report = RatingListReport(created, updated)
    _read_standings(rows, list_date or timezone.localdate(), filename, user, report)
    return report


def _read_standings(rows: list[RatingRow], day: date, filename: str, user: Actor, report: RatingListReport) -> None:
    """The "Situação" column: a suspension read from it is stored (from the list's date, once); any standing other
    than active that is not one goes into ``report.unread``."""
    players = {p.cbjd_id: p for p in Player.objects.filter(cbjd_id__in=[r.cbjd_id for r in rows if r.situation])}
    for row in rows:
        if not row.situation:
            continue
        if row.suspended_until is None:
            report.unread.append((row.line, row.situation))
        elif row.suspended_until < day:
            report.unread.append((row.line, _("%(text)s (already over on the list's date)") % {"text": row.situation}))
        elif not same_active(players[row.cbjd_id], day, row.suspended_until):
            suspension_create(
                player=players[row.cbjd_id],
                start_date=day,
                end_date=row.suspended_until,
                reason=row.suspension_reason or _("rating list %(file)s") % {"file": filename},
                user=user,
                source=SuspensionSource.RATING_LIST,
                via=filename,
            )
            report.suspended.append(players[row.cbjd_id].name)


def player_search(query: str | None, limit: int = 20) -> QuerySet[Player]:
    """Players whose name has every typed word, ignoring accents and case ("joao araujo" finds João Araújo), or
    whose CBJD ID is the text typed. The same on SQLite and PostgreSQL: it compares the folded copy of the
    name kept in ``Player.search_name``."""
    query = (query or "").strip()
    words = fold(query).split()
    if not words:
        return Player.objects.none()
    by_name = Q()
    for word in words:
        by_name &= Q(search_name__contains=word)
    return Player.objects.filter(by_name | Q(cbjd_id__iexact=query)).order_by("search_name", "pk")[:limit]


@transaction.atomic
def entry_delete(*, entry: Entry, user: Actor) -> None:
    """Delete an entry made by mistake. Only while the player has not been paired in any round (an entry that has
    played stays: record a withdrawal instead). Audited."""
    entry = Entry.objects.select_for_update().select_related("tournament", "player").get(pk=entry.pk)
    seat = entry.seats.select_related("round").order_by("round__number").first()
    if seat is not None:
        raise ServiceError(
            by_sex(
                entry.player.sex,
                _(
                    "%(name)s is paired in round %(n)s: an entry that has been paired cannot be deleted. Undo "
                    "that round's pairing first, or record a withdrawal."
                ),
                pgettext(
                    "female",
                    "%(name)s is paired in round %(n)s: an entry that has been paired cannot be deleted. Undo "
                    "that round's pairing first, or record a withdrawal.",
                ),
            )
            % {"name": entry.player.name, "n": seat.round.number}
        )
    tournament = entry.tournament
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ENTRY_DELETE,
        obj=entry,
        summary=entry.player.name,
        old={
            "player": entry.player_id,
            "rating": entry.rating,
            "pairing_number": entry.pairing_number,
            "late_entry_round": entry.late_entry_round,
        },
    )
    entry.delete()
    cache.bump(tournament.pk)


def already_entered(player: Player) -> str:
    return by_sex(
        player.sex,
        _("%(name)s is already entered in this tournament."),
        pgettext("female", "%(name)s is already entered in this tournament."),
    ) % {"name": player.name}


def suspended_refusal(player: Player, suspension: Suspension, named: bool = True) -> str:
    """Why a suspended player cannot be entered; ``named=False`` leaves the name out, for a line that already
    starts with it (the pasted list's report)."""
    values = {
        "name": player.name,
        "end": suspension.end_date.strftime("%d/%m/%Y"),
        "source": suspension.get_source_display(),
        "reason": f": {suspension.reason}" if suspension.reason else "",
    }
    if named:
        return (
            by_sex(
                player.sex,
                _("%(name)s is suspended until %(end)s (%(source)s%(reason)s) and cannot be entered."),
                pgettext("female", "%(name)s is suspended until %(end)s (%(source)s%(reason)s) and cannot be entered."),
            )
            % values
        )
    return (
        by_sex(
            player.sex,
            _("suspended until %(end)s (%(source)s%(reason)s): cannot be entered"),
            pgettext("female", "suspended until %(end)s (%(source)s%(reason)s): cannot be entered"),
        )
        % values
    )


def entry_refusal(tournament: Tournament, player: Player, entered_ids: set[int], named: bool = True) -> str:
    """Why ``player`` cannot be entered now (suspended, already entered), or "" when they can; ``named=False``
    without the player's name (see :func:`suspended_refusal`)."""
    if player.pk in entered_ids:
        if not named:
            return by_sex(player.sex, _("already entered"), pgettext("female", "already entered"))
        return already_entered(player)
    suspension = blocking_suspension(player, tournament.start_date, tournament.end_date)
    if suspension:
        return suspended_refusal(player, suspension, named)
    return ""


@transaction.atomic
def entries_register_many(
    *, tournament: Tournament, players: Iterable[Player], user: Actor, late_entry_round: int | None = None
) -> list[Entry]:
    """Enter several players at once, all or nothing: when any of them cannot be entered (suspended, already
    entered), nobody is, and every refusal is reported."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    players = list({p.pk: p for p in players}.values())
    if not players:
        raise ServiceError(_("Choose at least one player."))
    entered = set(tournament.entries.values_list("player_id", flat=True))
    refusals = [r for r in (entry_refusal(tournament, p, entered) for p in players) if r]
    if refusals:
        raise ServiceError([_("Nobody was entered.")] + refusals)
    return [
        entry_register(tournament=tournament, player=p, user=user, late_entry_round=late_entry_round)
        for p in sorted(players, key=lambda p: p.search_name)
    ]


def missed_rounds_note(tournament: Tournament, first_round: int | None) -> str:
    """What a late entry from ``first_round`` scores in the rounds before it (docs/domain.md: 0 points each)."""
    if not first_round or first_round <= 1:
        return _("Plays from round 1: no round missed.")
    if first_round == 2:
        return _("Round 1 missed: 0 points (a late entry scores nothing in the rounds it missed).")
    return _(
        "Rounds 1 to %(last)s missed: 0 points each, 0 in all (a late entry scores nothing in the rounds it missed)."
    ) % {"last": first_round - 1}
