"""The homologation report: the conditions, the deadline, and the standings with the qualification spots.

Public entry point: :func:`homologation_check`. It reads the tournament once and hands the same rows to the
conditions and to the public standings function.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.homologation.conditions import (
    check_conditions,
    deadline_for,
    deadline_status,
    engine_name,
    rating_list_used,
    rights_from,
    round_rows_from,
)
from tournaments.selectors import entries_in_order
from tournaments.standings.selectors import lean_rounds_with_boards, number, read_tournament, standings_from_history


@dataclass
class HomologationReport:
    tournament: object
    conditions: list
    deadline: object
    standings: object = None  # tournaments.standings.selectors.TournamentStandings (staff view), when asked for
    exported_at: object = None
    engine: str = ""
    notes: list = field(default_factory=list)
    all_rounds: list = field(default_factory=list)

    @property
    def rights(self):
        return rights_from(self.conditions)

    def condition(self, key):
        return next(c for c in self.conditions if c.key == key)

    @property
    def deadline_detail(self):
        """Met / late by N days / days left, in words."""
        return deadline_status(self.tournament)[2]

    @property
    def rating_list(self):
        """(name, date) of the national rating list used for round 1, or ("", None)."""
        return rating_list_used(self.tournament)

    @property
    def categories(self):
        return [c.qualification for c in self.standings.categories] if self.standings is not None else []

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


def homologation_check(tournament, with_standings=True):
    """The full check: conditions, rights, deadline and (staff) standings with the qualification spots.

    ``report.all_rounds`` holds every round (drafts included) with boards, seats and games loaded.
    """
    entries = entries_in_order(tournament)
    if not with_standings:
        return HomologationReport(
            tournament=tournament,
            conditions=check_conditions(tournament, entries),
            deadline=deadline_for(tournament),
            exported_at=tournament.homologation_exported_at,
            engine=engine_name(),
        )
    all_rounds = lean_rounds_with_boards(tournament, entries)
    entries, rounds, history, categories = read_tournament(
        tournament, public=False, all_rounds=all_rounds, entries=entries
    )
    conditions = check_conditions(
        tournament, entries, round_rows_from(all_rounds), history=history, rounds_counted=len(rounds)
    )
    rights = rights_from(conditions)
    standings = standings_from_history(tournament, entries, rounds, history, categories, public=False, rights=rights)
    return HomologationReport(
        tournament=tournament,
        conditions=conditions,
        deadline=deadline_for(tournament),
        standings=standings,
        exported_at=tournament.homologation_exported_at,
        engine=engine_name(),
        all_rounds=all_rounds,
    )
