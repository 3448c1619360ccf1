"""The homologation report: the conditions, the deadline, and the standings with the qualification spots.

Read, compute, present: :func:`homologation_check` reads the tournament once (its snapshot,
:func:`tournaments.standings.read_snapshot`, every round, drafts included, with the reasons of a round changed
after it was published) and the suspensions in force, then :func:`homologation_report` computes everything from
them with no query: the overall standings (who is a participant), the rounds' fingerprint chain
(:func:`tournaments.domain.fingerprints.chain_breaks`), the conditions (:mod:`.conditions`), the rights, and the
categories' spots awarded with them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Case, Value, When
from django.utils.translation import gettext as _

from pairing.model import ForbiddenPair
from tournaments.domain.fingerprints import PAIRING, ChainBreak, chain_breaks
from tournaments.domain.qualification import QualificationResult
from tournaments.domain.settings_lock import SettingsChange
from tournaments.domain.snapshot import SnapSettings, Snapshot, counted_rounds
from tournaments.homologation.changes import change_lines
from tournaments.homologation.conditions import (
    Condition,
    PairingChecks,
    Suspended,
    as_played_snapshot,
    check_conditions,
    deadline_for,
    deadline_status,
    engine_name,
    program_words,
    rating_list_used,
    rights_from,
    rounds_and_time_met,
)
from tournaments.homologation.repairing import check_imported_pairings, imported_rounds
from tournaments.homologation.repairing import pairings_checked as pairings_checked_of
from tournaments.homologation.suspensions import suspensions_during
from tournaments.models import Round
from tournaments.models.choices import RoundStatus
from tournaments.rounds.fingerprints import with_reasons
from tournaments.rounds.pairing_bridge import snapshot_state
from tournaments.standings import (
    TournamentStandings,
    gc_paused,
    number,
    overall,
    read_snapshot,
    with_categories,
)

if TYPE_CHECKING:
    from tournaments.models import Tournament


@dataclass(frozen=True)
class HomologationReport:
    snapshot: Snapshot
    conditions: list[Condition]
    standings: TournamentStandings  # every complete round, drafts included (staff), with the spots
    engine: str = ""
    # the rounds changed after their fingerprint was stored (issue 35.4), with their reasons
    chain: tuple[ChainBreak, ...] = ()

    @property
    def settings(self) -> SnapSettings:
        return self.snapshot.settings

    @property
    def deadline(self) -> date:
        return deadline_for(self.settings)

    @property
    def exported_at(self) -> datetime | None:
        return self.settings.homologation_exported_at

    @property
    def rights(self) -> bool:
        return rights_from(self.conditions)

    def condition(self, key: str) -> Condition:
        return next(c for c in self.conditions if c.key == key)

    @property
    def deadline_detail(self) -> str:
        """Met / late by N days / days left, in words."""
        return deadline_status(self.settings)[2]

    @property
    def rating_list(self) -> tuple[str, date | None]:
        """(name, date) of the national rating list used for round 1, or ("", None)."""
        return rating_list_used(self.settings)

    @property
    def settings_changes(self) -> tuple[SettingsChange, ...]:
        """The settings that decide the homologation changed after round 1, oldest first (the verdict judges
        each at its value before its first change)."""
        return self.snapshot.settings_changes

    @property
    def settings_change_lines(self) -> list[str]:
        """The changes in words, for the page."""
        return change_lines(self.settings_changes, self.settings.time_zone)

    @property
    def chain_lines(self) -> list[str]:
        """The rounds changed after they were published, in words, for the page and the workbook."""
        return [chain_text(b) for b in self.chain]

    @property
    def deadline_late(self) -> int:
        """Days the sending is (or was) late: 0 when on time or still in time."""
        return deadline_status(self.settings)[1]

    @property
    def categories(self) -> list[QualificationResult]:
        return [c.qualification for c in self.standings.categories]

    def as_json(self) -> dict[str, Any]:
        """The object of ``homologation_check --format json`` (docs/interchange.md)."""
        return {
            "conditions": [c.as_json() for c in self.conditions if c.decides_rights],
            "rights": self.rights,
            "deadline": self.deadline.isoformat(),
            "categories": categories_json(self.categories),
        }


def categories_json(categories: Iterable[QualificationResult]) -> list[dict[str, object]]:
    """The ``categories`` of ``homologation_check --format json`` (and of ``verify_event``'s, the same shape)."""
    return [
        {
            "code": q.code,
            "entries": q.entries,
            "average": number(q.exact_average) if q.exact_average is not None else None,
            "counted": q.counted,
            "spots": q.spots,
            "qualified": list(q.qualified),
        }
        for q in categories
    ]


def chain_text(brk: ChainBreak) -> str:
    """A round changed after it was published, in words: what, the fingerprints, the program the chain records
    for a relabelled pairing, and the reasons recorded (or that none was)."""
    values = {"n": brk.round, "stored": brk.stored, "now": brk.now}
    if brk.kind == PAIRING:
        text = _("Round %(n)s: pairing changed after it was published (fingerprint published %(stored)s, now %(now)s)")
    else:
        text = _(
            "Round %(n)s: results changed after they were complete (fingerprint published %(stored)s, now %(now)s)"
        )
    text %= values
    if brk.relabelled:
        text += "; " + _("labelled “%(label)s”, the chain records %(recorded)s") % {
            "label": program_words(brk.label),
            "recorded": program_words(brk.recorded),
        }
    if brk.reasons:
        return text + "; " + _("reason recorded: %(reasons)s") % {"reasons": " / ".join(brk.reasons)}
    return text + "; " + _("no reason recorded")


def homologation_report(
    snapshot: Snapshot,
    suspended: Sequence[Suspended] = (),
    today: date | None = None,
    pairing_checks: PairingChecks | None = None,
    chain: Sequence[ChainBreak] | None = None,
) -> HomologationReport:
    """The report as a pure function of the snapshot, the suspensions in force and the imported rounds paired
    again (no query). The settings are judged as the event was played (:func:`as_played_snapshot`). ``chain``: the
    rounds' fingerprint chain already judged (the federation judges a file's as sent, before its players are
    identified in the registry), else judged here from the snapshot (:func:`chain_breaks`, the one rule)."""
    snapshot = as_played_snapshot(snapshot)
    if chain is None:
        chain = chain_breaks(snapshot, (engine_name(),))
    base = overall(snapshot)
    conditions = check_conditions(
        snapshot, base.participation, suspended=suspended, today=today, pairing_checks=pairing_checks, chain=chain
    )
    standings = with_categories(base, rights=rights_from(conditions))
    return HomologationReport(
        snapshot=snapshot, conditions=conditions, standings=standings, engine=engine_name(), chain=tuple(chain)
    )


def suspended_during(tournament: Tournament, changes: Any = None) -> list[Suspended]:
    """The participants' suspensions in force during the tournament, as the registry stood then
    (:func:`tournaments.homologation.suspensions.suspensions_during`: a suspension lifted later still counts; the
    tournament's own abandonments do not). ``changes``: the settings changes already read (the dates as played)."""
    return [Suspended(s.player.name, s.start_date, s.end_date) for s in suspensions_during(tournament, changes)]


def pairings_checked(tournament: Tournament, snapshot: Snapshot) -> PairingChecks | None:
    """The imported rounds paired again from ``snapshot`` (the tournament's, every round), None when every round
    was paired here."""
    imported = imported_rounds(tournament)
    if not imported:
        return None
    from tournaments.rounds.selectors import entries_in_order

    return check_imported_pairings(tournament, entries_in_order(tournament), snapshot, imported)


def homologation_check(tournament: Tournament, today: date | None = None) -> HomologationReport:
    """Read the tournament (every round, drafts included, a changed round with its reasons) and compute the full
    report."""
    with gc_paused():
        snapshot = with_reasons(tournament, read_snapshot(tournament, public=False))
        return homologation_report(
            snapshot,
            suspended_during(tournament, snapshot.settings_changes),
            today,
            pairings_checked(tournament, snapshot),
        )


def rights_of(standings: TournamentStandings, suspended: Sequence[Suspended]) -> bool:
    """Whether the qualification spots are awarded, from overall standings already computed (:func:`overall` of
    the snapshot read, e.g. the public one) and the suspensions in force."""
    return rights_from(
        check_conditions(
            as_played_snapshot(standings.snapshot), standings.participation, suspended=suspended, with_deadline=False
        )
    )


def rights_earned(tournament: Tournament) -> bool:
    """Whether the tournament earns the qualification rights (its staff snapshot read, the conditions computed)."""
    return rights_of(overall(read_snapshot(tournament, public=False)), suspended_during(tournament))


def published_standings(
    tournament: Tournament, snapshot: Snapshot | None = None, category: Any = None
) -> TournamentStandings:
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
        rights, provisional = published_rights(tournament, base)
        return with_categories(base, rights=rights, categories=[code], provisional=provisional)


def published_categories(tournament: Tournament, base: TournamentStandings) -> TournamentStandings:
    """``base`` (public overall standings) with every category's standings and spots (see
    :func:`published_standings`)."""
    rights, provisional = published_rights(tournament, base)
    return with_categories(base, rights=rights, provisional=provisional)


def published_rights(tournament: Tournament, base: TournamentStandings) -> tuple[bool, bool]:
    """(rights, provisional) of the public pages, as the homologation report says (issue 35.6): its verdict (every
    round, drafts included, imported rounds paired again, the facts as played), so a page never shows a spot the
    report denies. While the event runs (fewer complete published rounds than planned) the spots are provisional:
    shown when every condition is met but the rounds still to play, which the planned rounds would meet."""
    report = _report_for_public(tournament, base.snapshot)
    if base.rounds_completed >= tournament.planned_rounds:
        return report.rights, False
    return provisional_rights(report), True


def _report_for_public(tournament: Tournament, public: Snapshot) -> HomologationReport:
    """The homologation report as :func:`homologation_check` computes it, for a public page: from the public
    snapshot already read when the tournament has no round the public does not see (otherwise the staff one is
    read), its imported rounds paired again from the snapshot alone (:func:`snapshot_state`, as the federation
    does), in three queries more: the rounds' status, the suspensions, the forbidden pairs (when a round was
    imported)."""
    rows = list(
        Round.objects.filter(tournament=tournament)
        .annotate(imported=Case(When(explanation={}, then=Value(True)), default=Value(False)))
        .values_list("number", "status", "imported")
    )
    if any(status != RoundStatus.PUBLISHED for _n, status, _i in rows):
        return homologation_check(tournament)
    snapshot = replace(public, public=False)
    imported = {n for n, _s, flag in rows if flag}
    checks = None
    if imported:
        forbidden = [
            ForbiddenPair(players=[a, b], first_round=first, last_round=last)
            for a, b, first, last in tournament.forbidden_pairs.values_list(
                "entry_a__pairing_number", "entry_b__pairing_number", "from_round", "to_round"
            )
            if a and b
        ]
        checks = pairings_checked_of(
            snapshot,
            imported,
            lambda n: snapshot_state(snapshot, n, forbidden=forbidden, initial_colour=tournament.initial_colour),
        )
    with gc_paused():
        return homologation_report(snapshot, suspended_during(tournament, snapshot.settings_changes), None, checks)


def provisional_rights(report: HomologationReport) -> bool:
    """While the event runs: every condition that decides the rights is met, but the rounds and time, which only
    waits for the planned rounds (judged as if they were played like the last complete one)."""
    failing = [c.key for c in report.conditions if c.decides_rights and not c.met]
    if failing != ["rounds_and_time"]:
        return not failing
    played = list(counted_rounds(report.snapshot))
    if not played:
        return False
    planned = report.settings.planned_rounds
    return rounds_and_time_met(report.settings, played + [played[-1]] * max(0, planned - len(played)))
