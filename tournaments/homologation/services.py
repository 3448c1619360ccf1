"""Recording that the homologation workbook was exported (sent to the federation)."""

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core import cache
from tournaments.models import Tournament

logger = logging.getLogger(__name__)


@transaction.atomic
def homologation_mark_exported(*, tournament: Tournament, user: Actor = None, when: datetime | None = None) -> datetime:
    """Record when the homologation workbook was exported (shown in the report and the staff pages)."""
    when = when or timezone.now()
    old = Tournament.objects.filter(pk=tournament.pk).values_list("homologation_exported_at", flat=True).first()
    Tournament.objects.filter(pk=tournament.pk).update(homologation_exported_at=when)
    tournament.homologation_exported_at = when
    audit(
        tournament=tournament,
        user=user,
        action="homologation.export",
        obj=tournament,
        summary=tournament.name,
        old={"exported_at": old.isoformat()} if old else None,
        new={"exported_at": when.isoformat()},
    )
    cache.bump(tournament.pk)
    logger.info(
        "%s: homologation workbook recorded as sent at %s by %s", tournament.slug, when.isoformat(), login_of(user)
    )
    return when
