"""Who was under suspension while a tournament was played (art. 3 and 6; issue 26, point 14).

The registry is the source: the national tribunal's suspensions entered by the federation and the art. 10
suspensions of abandonments. A suspension counts for a tournament when it was in force on one of its days as the
registry stood then: lifting it later does not change the verdict of the events it overlapped (it counts unless it
was lifted before the tournament's first day). An art. 10 suspension ends on its end day (exactly 3 months).
Suspensions arising from the tournament itself (its own abandonments) do not count: they start on its last day.
"""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from django.db.models import Q

from tournaments.models import Suspension, Tournament
from tournaments.models.choices import SuspensionSource


def in_force_from(day: date) -> Q:
    """Suspensions still in force on ``day`` or later. A tribunal's suspension includes its end date; an art. 10
    suspension lasts exactly 3 months ("suspensão automática por 3 meses"): it ends on its end date, so a player
    may enter a tournament that starts that day (issue 26, point 16)."""
    return Q(end_date__gt=day) | (Q(end_date=day) & ~Q(source=SuspensionSource.ABANDONMENT))


def suspensions_during(tournament: Tournament) -> list[Suspension]:
    """The participants' suspensions in force on some day of the tournament, by player name."""
    start_of_event = datetime.combine(tournament.start_date, time.min, tzinfo=ZoneInfo(tournament.time_zone))
    return list(
        Suspension.objects.filter(player__entries__tournament=tournament, start_date__lte=tournament.end_date)
        .filter(in_force_from(tournament.start_date))
        .filter(Q(lifted_at__isnull=True) | Q(lifted_at__gte=start_of_event))
        .exclude(tournament=tournament)
        .select_related("player")
        .order_by("player__search_name", "start_date")
        .distinct()
    )
