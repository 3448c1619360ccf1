"""Recording that the homologation workbook was exported (sent to the federation)."""

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core import cache
from tournaments.core.errors import ServiceError
from tournaments.models import Game, Round, Tournament
from tournaments.models.choices import AuditAction

logger = logging.getLogger(__name__)


def results_complete(tournament: Tournament) -> bool:
    """Every planned round paired and every game's result in (art. 11: "Enviar os resultados, rodada por
    rodada")."""
    numbers = set(Round.objects.filter(tournament=tournament).values_list("number", flat=True))
    if not set(range(1, tournament.planned_rounds + 1)) <= numbers:
        return False
    return not Game.objects.filter(board__round__tournament=tournament, result__isnull=True).exists()


@transaction.atomic
def homologation_mark_exported(*, tournament: Tournament, user: Actor = None, when: datetime | None = None) -> datetime:
    """Record when the homologation workbook was sent to the federation (art. 11), shown in the report, the
    workbook and the staff pages. Only once the results are complete; the first sending's date stays: sending
    again is audited but does not move it (issue 26, point 4). Returns the date recorded."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not results_complete(locked):
        raise ServiceError(
            _(
                "The sending can be recorded only once the results are complete: every one of the %(n)s planned "
                "rounds paired and every result entered (art. 11: “Enviar os resultados, rodada por rodada”)."
            )
            % {"n": locked.planned_rounds}
        )
    when = when or timezone.now()
    first = locked.homologation_exported_at
    if first is not None:
        tournament.homologation_exported_at = first
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.HOMOLOGATION_RESEND,
            obj=tournament,
            summary=tournament.name,
            old={"exported_at": first.isoformat()},
            new={"resent_at": when.isoformat()},
        )
        logger.info("%s: homologation workbook sent again by %s; first sent %s", tournament.slug, login_of(user), first)
        return first
    Tournament.objects.filter(pk=tournament.pk).update(homologation_exported_at=when)
    tournament.homologation_exported_at = when
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.HOMOLOGATION_EXPORT,
        obj=tournament,
        summary=tournament.name,
        new={"exported_at": when.isoformat()},
    )
    cache.bump(tournament.pk)
    logger.info(
        "%s: homologation workbook recorded as sent at %s by %s", tournament.slug, when.isoformat(), login_of(user)
    )
    return when
