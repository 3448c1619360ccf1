"""The homologation report: the conditions, the deadline, and the standings with the qualification spots.

Read, compute, present: :func:`homologation_check` reads the tournament once (its snapshot,
:func:`tournaments.standings.read_snapshot`, every round, drafts included) and the suspensions in force, then
:func:`homologation_report` computes everything from them with no query: the overall standings (who is a
participant), the conditions (:mod:`.conditions`), the rights, and the categories' spots awarded with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from tournaments.domain.snapshot import Snapshot
from tournaments.homologation.conditions import (
    Condition,
    Suspended,
    check_conditions,
    deadline_for,
    deadline_status,
    engine_name,
    rating_list_used,
    rights_from,
)
from tournaments.models import Suspension
from tournaments.standings import (
    TournamentStandings,
    gc_paused,
    number,
    overall,
    read_snapshot,
    with_categories,
)


@dataclass(frozen=True)
class HomologationReport:
    snapshot: Snapshot
    conditions: list[Condition]
    standings: TournamentStandings  # every complete round, drafts included (staff), with the spots
    engine: str = ""

    @property
    def settings(self):
        return self.snapshot.settings

    @property
    def deadline(self):
        return deadline_for(self.settings)

    @property
    def exported_at(self):
        return self.settings.homologation_exported_at

    @property
    def rights(self):
        return rights_from(self.conditions)

    def condition(self, key):
        return next(c for c in self.conditions if c.key == key)

    @property
    def deadline_detail(self):
        """Met / late by N days / days left, in words."""
        return deadline_status(self.settings)[2]

    @property
    def rating_list(self):
        """(name, date) of the national rating list used for round 1, or ("", None)."""
        return rating_list_used(self.settings)

    @property
    def categories(self):
        return [c.qualification for c in self.standings.categories]

    def as_json(self):
        """The object of ``homologation_check --format json`` (docs/interchange.md)."""
        cats = []
        for q in self.categories:
            cats.append(
                {
                    "code": q.code,
                    "entries": q.entries,
                    "average": number(q.exact_average) if q.exact_average is not None else None,
                    "counted": q.counted,
                    "spots": q.spots,
                    "qualified": list(q.qualified),
                }
            )
        return {
            "conditions": [c.as_json() for c in self.conditions if c.decides_rights],
            "rights": self.rights,
            "deadline": self.deadline.isoformat(),
            "categories": cats,
        }


def homologation_report(
    snapshot: Snapshot, suspended: Sequence[Suspended] = (), today: date | None = None
) -> HomologationReport:
    """The report as a pure function of the snapshot and the suspensions in force (no query)."""
    base = overall(snapshot)
    conditions = check_conditions(snapshot, base.participation, suspended=suspended, today=today)
    standings = with_categories(base, rights=rights_from(conditions))
    return HomologationReport(snapshot=snapshot, conditions=conditions, standings=standings, engine=engine_name())


def suspended_during(tournament) -> list[Suspended]:
    """The participants' suspensions in force during the tournament (one query). Suspensions arising from this very
    tournament (an abandonment) do not count: they start on its last day as a consequence of it. Lifted
    suspensions do not count either."""
    rows = (
        Suspension.objects.filter(
            player__entries__tournament=tournament,
            lifted_at__isnull=True,
            start_date__lte=tournament.end_date,
            end_date__gte=tournament.start_date,
        )
        .exclude(tournament=tournament)
        .order_by("player__name", "start_date", "id")
        .values_list("id", "player__name", "start_date", "end_date")
        .distinct()
    )
    return [Suspended(name, start, end) for _pk, name, start, end in rows]


def homologation_check(tournament, today: date | None = None) -> HomologationReport:
    """Read the tournament (every round, drafts included) and compute the full report."""
    with gc_paused():
        return homologation_report(read_snapshot(tournament, public=False), suspended_during(tournament), today)


def rights_of(standings: TournamentStandings, suspended: Sequence[Suspended]) -> bool:
    """Whether the qualification spots are awarded, from overall standings already computed (:func:`overall` of
    the snapshot read, e.g. the public one) and the suspensions in force."""
    return rights_from(
        check_conditions(standings.snapshot, standings.participation, suspended=suspended, with_deadline=False)
    )


def rights_earned(tournament) -> bool:
    """Whether the tournament earns the qualification rights (its staff snapshot read, the conditions computed)."""
    return rights_of(overall(read_snapshot(tournament, public=False)), suspended_during(tournament))


def published_standings(tournament, snapshot: Snapshot | None = None, category=None) -> TournamentStandings:
    """The public standings: the overall standings of the published rounds (``snapshot``, the public one, read
    when not given) and, for a ``category`` (a code), that category's standings with its spots, awarded when the
    published rounds earn the rights (one more query: the suspensions)."""
    with gc_paused():
        if snapshot is None:
            snapshot = read_snapshot(tournament, public=True)
        base = overall(snapshot)
        if category is None:
            return base
        code = getattr(category, "code", category)
        return with_categories(base, rights=rights_of(base, suspended_during(tournament)), categories=[code])


def published_categories(tournament, base: TournamentStandings) -> TournamentStandings:
    """``base`` (public overall standings) with every category's standings and spots (see
    :func:`published_standings`)."""
    return with_categories(base, rights=rights_of(base, suspended_during(tournament)))
