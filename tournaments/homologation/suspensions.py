"""Who was under suspension while a tournament was played (art. 3 and 6; issue 26, point 14).

The registry is the source: the national tribunal's suspensions entered by the federation and the art. 10
suspensions of abandonments. A suspension counts for a tournament when it was in force on one of its days as the
registry stood then: lifting it later does not change the verdict of the events it overlapped (it counts unless it
was lifted before the tournament's first day). An art. 10 suspension ends on its end day (exactly 3 months).
Suspensions arising from the tournament itself (its own abandonments) do not count: they start on its last day.
"""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from django.db.models import Q

from tournaments.entries.services import in_force_from
from tournaments.models import Suspension, Tournament


def suspensions_during(tournament: Tournament) -> list[Suspension]:
    """The participants' suspensions in force on some day of the tournament, by player name."""
    start_of_event = datetime.combine(tournament.start_date, time.min, tzinfo=ZoneInfo(tournament.time_zone))
    return list(
        Suspension.objects.filter(player__entries__tournament=tournament, start_date__lte=tournament.end_date)
        .filter(in_force_from(tournament.start_date))
        .filter(Q(lifted_at__isnull=True) | Q(lifted_at__gte=start_of_event))
        .exclude(tournament=tournament)
        .select_related("player")
        .order_by("player__name", "start_date")
        .distinct()
    )
