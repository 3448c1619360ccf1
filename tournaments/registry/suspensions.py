"""National suspensions entered by the federation: a tribunal's decision typed on the staff page
(``/gestao/cadastro/suspensoes/``) by the player's CBJD ID, or read from the "Situação" column of a rating list.

Both are national (they refuse the player's entries in every tournament whose dates they cover) and need the
federation's permission (group "Federação"), as every registry change does. An abandonment's suspension comes from
a tournament (``entries.services``); lifting any suspension is ``entries.services.suspension_lift``.
"""

from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.affected import of_suspension, pages_changed
from tournaments.core.errors import ServiceError
from tournaments.core.safetext import has_control_characters, single_line_message
from tournaments.models import Player, Suspension
from tournaments.models.choices import AuditAction, SuspensionSource

MAX_REASON = 300


@dataclass(frozen=True)
class SuspensionRequest:
    """What the staff page sends: the player's CBJD ID, the period and the reason."""

    cbjd_id: str
    start_date: date
    end_date: date
    reason: str


def _clean_reason(reason: str) -> str:
    if has_control_characters(reason or ""):
        raise ServiceError(single_line_message())
    text = " ".join((reason or "").split())
    if not text:
        raise ServiceError(_("Give the reason for the suspension (the tribunal's decision, its number)."))
    if len(text) > MAX_REASON:
        raise ServiceError(_("The reason is too long (at most %(n)s characters).") % {"n": MAX_REASON})
    return text


def same_active(player: Player, start: date, end: date) -> Suspension | None:
    """The player's suspension in force for the same period, if any (a list imported twice adds nothing)."""
    return Suspension.objects.filter(player=player, lifted_at__isnull=True, start_date=start, end_date=end).first()


@transaction.atomic
def suspension_create(
    *,
    player: Player,
    start_date: date,
    end_date: date,
    reason: str,
    user: Actor,
    source: str = SuspensionSource.TRIBUNAL,
    via: str = "",
) -> Suspension:
    """Suspend ``player`` nationally from ``start_date`` to ``end_date`` (both days included); audited. ``via``
    names where it came from when not typed on the page (a rating list's file name)."""
    reason = _clean_reason(reason)
    if end_date < start_date:
        raise ServiceError(_("The suspension ends before it starts."))
    player = Player.objects.select_for_update().get(pk=player.pk)
    if same_active(player, start_date, end_date):
        raise ServiceError(
            _("%(name)s: a suspension from %(start)s to %(end)s is already recorded.")
            % {"name": player.name, "start": f"{start_date:%d/%m/%Y}", "end": f"{end_date:%d/%m/%Y}"}
        )
    suspension = Suspension.objects.create(
        player=player,
        start_date=start_date,
        end_date=end_date,
        source=source,
        reason=reason,
        created_by=login_of(user),
    )
    audit(
        tournament=None,
        user=user,
        action=AuditAction.SUSPENSION_CREATE,
        obj=suspension,
        summary=f"{player.name} ({player.cbjd_id})",
        new={
            "player": player.cbjd_id,
            "start": start_date.isoformat(),
            "end": end_date.isoformat(),
            "source": source,
            "reason": reason,
            **({"via": via[:200]} if via else {}),
        },
    )
    pages_changed(of_suspension(suspension))  # the rights and spots of every tournament of the player
    return suspension


def suspension_create_by_id(*, details: SuspensionRequest, user: Actor) -> Suspension:
    """The staff page's entry: the player found by CBJD ID (exactly, ignoring case and spaces around it)."""
    cbjd_id = (details.cbjd_id or "").strip()
    if not cbjd_id:
        raise ServiceError(_("Type the player's CBJD ID."))
    player = Player.objects.filter(cbjd_id__iexact=cbjd_id).first()
    if player is None:
        raise ServiceError(_("No player in the registry has the CBJD ID “%(id)s”.") % {"id": cbjd_id[:20]})
    return suspension_create(
        player=player, start_date=details.start_date, end_date=details.end_date, reason=details.reason, user=user
    )
