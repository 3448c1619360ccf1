"""Who was under suspension while a tournament was played (art. 3 and 6; issue 26, point 14).

The registry is the source: the national tribunal's suspensions entered by the federation and the art. 10
suspensions of abandonments. Whether one counts for the tournament is the rule the federation's verification
applies too (:func:`tournaments.domain.suspensions.counts_for_event`: in force on one of its days as the registry
stood then; an art. 10 suspension ends on its end day). Suspensions arising from the tournament itself (its own
abandonments) do not count.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from django.db.models import Q

from tournaments.domain.settings_lock import SettingsChange
from tournaments.domain.suspensions import counts_for_event
from tournaments.models import Suspension, Tournament
from tournaments.models.choices import SuspensionSource


def in_force_from(day: date) -> Q:
    """Suspensions still in force on ``day`` or later. A tribunal's suspension includes its end date; an art. 10
    suspension lasts exactly 3 months ("suspensão automática por 3 meses"): it ends on its end date, so a player
    may enter a tournament that starts that day (issue 26, point 16)."""
    return Q(end_date__gt=day) | (Q(end_date=day) & ~Q(source=SuspensionSource.ABANDONMENT))


def suspensions_during(tournament: Tournament, changes: Iterable[SettingsChange] | None = None) -> list[Suspension]:
    """The participants' suspensions that count for the tournament, by player name. The days are the event's as
    it was played: dates moved after round 1 do not move the check (issue 35.3)."""
    from tournaments.setup.lock import as_played

    tournament = as_played(tournament, None if changes is None else list(changes))
    candidates = (
        Suspension.objects.filter(player__entries__tournament=tournament, start_date__lte=tournament.end_date)
        .filter(end_date__gte=tournament.start_date)
        .exclude(tournament=tournament)
        .select_related("player")
        .order_by("player__search_name", "start_date")
        .distinct()
    )
    return [
        s
        for s in candidates
        if counts_for_event(
            s.start_date,
            s.end_date,
            abandonment=s.source == SuspensionSource.ABANDONMENT,
            lifted_at=s.lifted_at,
            event_start=tournament.start_date,
            event_end=tournament.end_date,
            time_zone=tournament.time_zone,
        )
    ]
