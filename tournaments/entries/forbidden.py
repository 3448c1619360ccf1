"""Forbidden pairs (two entries the pairing must not put on one board, for the whole event or rounds from..to): the
writes, each in one transaction with its audit line (issue 39.8: they were written by the view)."""

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit
from tournaments.core.errors import ServiceError
from tournaments.models import ForbiddenPair, Tournament
from tournaments.models.choices import AuditAction


@transaction.atomic
def forbidden_pair_create(
    *,
    tournament: Tournament,
    user: Actor,
    number_a: int,
    number_b: int,
    from_round: int | None = None,
    to_round: int | None = None,
    reason: str = "",
) -> ForbiddenPair:
    """The entries of pairing numbers ``number_a`` and ``number_b`` may not meet (in rounds from..to, when given)."""
    entries = {e.pairing_number: e for e in tournament.entries.filter(pairing_number__in=[number_a, number_b])}
    a, b = entries.get(number_a), entries.get(number_b)
    if a is None or b is None or a == b:
        raise ServiceError(_("Give the pairing numbers of two different players of this tournament."))
    if from_round and to_round and to_round < from_round:
        raise ServiceError(_("The last round comes before the first."), code="rounds")
    pair = ForbiddenPair.objects.create(
        tournament=tournament, entry_a=a, entry_b=b, from_round=from_round, to_round=to_round, reason=reason
    )
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.FORBIDDEN_CREATE,
        obj=pair,
        summary=f"{a} x {b}",
        new={"from": from_round, "to": to_round},
    )
    return pair


@transaction.atomic
def forbidden_pair_remove(*, pair: ForbiddenPair, user: Actor) -> None:
    audit(
        tournament=pair.tournament,
        user=user,
        action=AuditAction.FORBIDDEN_REMOVE,
        obj=pair,
        summary=f"{pair.entry_a} x {pair.entry_b}",
    )
    pair.delete()
