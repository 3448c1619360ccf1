"""The standings as a pure function of a :class:`~tournaments.domain.snapshot.Snapshot`.

:func:`standings_of` turns a snapshot into the overall standings, the standings and qualification spots of its
categories and the tiebreak order (with its reason) of every tie group. Which rounds count:
:func:`tournaments.domain.snapshot.counted_rounds`. Whether the spots are awarded is the homologation's answer,
passed in as a plain bool (``rights``): the standings never ask it.

No query: the database read is :func:`tournaments.standings.snapshot.read_snapshot`, and
:func:`tournament_standings` is the two in a row.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from functools import cached_property

from django.utils import translation

from tournaments.domain import (
    CBJD,
    AcceleratedProgressive,
    AccelerationOrder,
    Candidate,
    CategorySpots,
    DirectEncounterScope,
    QualificationResult,
    RoundRecord,
    StandingRow,
    Standings,
    StandingsSettings,
    Top3Order,
    Top3Scope,
    TournamentData,
    award_categories,
    category_qualification,
    category_standings,
    compute_standings,
    participation,
)
from tournaments.domain.participants import Participation
from tournaments.domain.settings_lock import categories_created_late
from tournaments.domain.snapshot import (
    SnapCategory,
    SnapEntry,
    SnapRound,
    SnapSettings,
    Snapshot,
    counted_rounds,
    round_records,
)
from tournaments.domain.snapshot import standings_input as _standings_input
from tournaments.models import Tournament
from tournaments.models.choices import WithdrawalKind
from tournaments.standings.readings import order_reason_text
from tournaments.standings.snapshot import read_snapshot

CBJD_COLUMNS = ("direct_encounter", "progressive", "progressive_corrected", "buchholz")


def number(value: object) -> object:
    """A JSON/spreadsheet-friendly number: int when integral, else float; None stays None."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, (Decimal, Fraction)):
        if value == int(value):
            return int(value)
        return float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def standings_settings(settings: SnapSettings) -> StandingsSettings:
    profile: str | tuple[str, ...] = CBJD if settings.tiebreak_profile == CBJD else tuple(settings.tiebreak_keys)
    return StandingsSettings(
        profile=profile,
        corrected_cut=settings.corrected_progressive_cut,
        corrected_counts_unplayed=settings.corrected_progressive_unplayed,
        accelerated_progressive=AcceleratedProgressive(settings.progressive_move),
        top3_order=Top3Order(settings.top3_order),
        top3_scope=Top3Scope(settings.top3_scope),
        direct_encounter_scope=DirectEncounterScope(settings.direct_encounter_scope),
        acceleration_order=AccelerationOrder(settings.acceleration_order),
    )


@dataclass(frozen=True)
class TieGroup:
    """Players with equal points, the tiebreak order used for them and why (codes; none for the normal order)."""

    points: object
    ids: tuple
    order: tuple
    reasons: tuple[str, ...]  # codes: domain.standings.ORDER_REASONS


@dataclass
class CategoryStandings:
    category: SnapCategory
    rows: list  # of domain CategoryRow
    qualification: QualificationResult
    candidates: tuple[Candidate, ...] = ()  # the category's participants in standings order, as the spots read them

    @property
    def code(self) -> str:
        return self.category.code


@dataclass
class TournamentStandings:
    """Everything a standings page, the ``standings`` command or the homologation report needs: the snapshot it
    was computed from, and what was computed. ``entries``: standings number -> entry; ``records``: entry pk ->
    its records of the counted rounds (``counted``)."""

    snapshot: Snapshot
    data: TournamentData
    standings: Standings
    entries: dict[int, SnapEntry]
    counted: tuple[SnapRound, ...]
    records: dict[int, list[RoundRecord]]
    rights: bool = False
    # the spots are provisional: the event is still running (issue 35.6: the public pages say "provisória")
    spots_provisional: bool = False
    categories: list[CategoryStandings] = field(default_factory=list)
    tie_groups: list[TieGroup] = field(default_factory=list)  # best points first

    @cached_property
    def participation(self) -> Participation:
        """Who is a participant (art. 6), keyed by standings number: worked out when first asked (the categories'
        spots and the homologation ask; the overall standings page does not)."""
        return participation_of(self.snapshot, self.records, len(self.counted))

    @property
    def public(self) -> bool:
        return self.snapshot.public

    @property
    def rows(self) -> tuple[StandingRow, ...]:
        return self.standings.rows

    @property
    def rounds_completed(self) -> int:
        return self.standings.rounds_completed

    @property
    def readings(self) -> tuple[str, ...]:
        return self.standings.readings

    def category(self, code: str) -> CategoryStandings:
        for cat in self.categories:
            if cat.code.upper() == str(code).upper():
                return cat
        raise KeyError(code)

    def columns(self) -> tuple[str, ...]:
        """Tiebreak keys to show as columns, in the profile's order (CBJD: direct encounter only when used)."""
        if self.standings.settings.profile == CBJD:
            used = {k for row in self.rows for k in row.order}
            return tuple(k for k in CBJD_COLUMNS if k in used or k != "direct_encounter")
        return tuple(self.standings.settings.profile)

    def cells(self, row: StandingRow) -> list[object]:
        """The row's values for :meth:`columns` (a key not in the row's tiebreak order is left empty: None)."""
        return [number(row.tiebreaks[k]) if k in row.order else None for k in self.columns()]

    def row_json(self, row: StandingRow, rank: str | None = None) -> dict[str, object]:
        """The object of ``standings --format json``: tiebreaks in the order used for the row's tie group."""
        return {
            "rank": rank if rank is not None else row.rank,
            "id": row.id,
            "name": row.name,
            "points": number(row.points),
            "tiebreaks": {k: number(row.tiebreaks[k]) for k in row.order},
            "order_reason": _order_reason_pt(row.order_reasons),
        }

    def as_json(self, category: str | None = None) -> list[dict[str, object]]:
        if category is None:
            return [self.row_json(r) for r in self.rows]
        return [self.row_json(c.row, c.rank) for c in self.category(category).rows]


def _order_reason_pt(codes: Sequence[str]) -> str | None:
    """The reasons in Portuguese (the language of the command's JSON, docs/interchange.md), or None."""
    if not codes:
        return None
    with translation.override("pt-br"):
        return order_reason_text(codes)


def _tie_groups(standings: Standings) -> list[TieGroup]:
    groups: list[tuple[object, list[StandingRow]]] = []
    for row in standings.rows:
        if groups and groups[-1][0] == row.points:
            groups[-1][1].append(row)
        else:
            groups.append((row.points, [row]))
    return [
        TieGroup(points, tuple(r.id for r in rows), rows[0].order, rows[0].order_reasons) for points, rows in groups
    ]


def participation_of(
    snapshot: Snapshot, records: Mapping[int, Sequence[RoundRecord]], rounds_counted: int
) -> Participation:
    """Who is a participant (art. 6), keyed by standings number: from the kinds of each entry's counted rounds."""
    settings = snapshot.settings
    return participation(
        {e.number: [r.kind for r in records[e.pk]] for e in snapshot.entries},
        {e.number: e.withdrawn_from_round for e in snapshot.entries},
        rounds_counted,
        settings.planned_rounds,
        rounds_counted >= settings.planned_rounds,
        settings.participant_rule,
    )


def overall(snapshot: Snapshot) -> TournamentStandings:
    """The overall standings of ``snapshot``: no category, no spot (see :func:`with_categories`)."""
    counted = counted_rounds(snapshot)
    records = round_records(snapshot, counted)
    data = _standings_input(snapshot, records)
    standings = compute_standings(data, standings_settings(snapshot.settings))
    return TournamentStandings(
        snapshot=snapshot,
        data=data,
        standings=standings,
        entries={e.number: e for e in snapshot.entries},
        counted=counted,
        records=records,
        tie_groups=_tie_groups(standings),
    )


def with_categories(
    result: TournamentStandings, *, rights: bool, categories: Iterable[str] | None = None, provisional: bool = False
) -> TournamentStandings:
    """``result`` with the standings and qualification spots of its snapshot's categories (``categories``: the
    codes to compute, default every one), the spots awarded when ``rights`` (the homologation's answer)."""
    snapshot = result.snapshot
    if categories is None:
        wanted = list(snapshot.categories)
    else:
        codes = {str(c).lower() for c in categories}
        wanted = [c for c in snapshot.categories if c.code.lower() in codes]
    out = replace(result, rights=rights, spots_provisional=rights and provisional, categories=[])
    if "participation" in result.__dict__:  # already worked out: the same
        out.participation = result.participation
    # every category, in the order they are listed: a player qualified in two of them is said, or passes the
    # later spot on (setting double_spot_rule, art. 6 "Oferecerá por categoria"), whichever categories are shown
    every = [_category(out, cat) for cat in snapshot.categories]
    if rights:
        every = _across_categories(every, snapshot.settings)
    shown = {c.code for c in wanted}
    out.categories.extend(c for c in every if c.category.code in shown)
    return out


def _across_categories(categories: list[CategoryStandings], settings: SnapSettings) -> list[CategoryStandings]:
    """The spots awarded category after category (:func:`tournaments.domain.qualification.award_categories`)."""
    awarded = award_categories(
        [CategorySpots(c.qualification.code, c.qualification.spots, c.candidates) for c in categories],
        settings.spot_tie_rule,
        settings.double_spot_rule,
    )
    return [
        replace(
            c,
            qualification=replace(
                c.qualification,
                qualified=awarded[c.qualification.code][0],
                notes=awarded[c.qualification.code][1],
            ),
        )
        for c in categories
    ]


def standings_of(
    snapshot: Snapshot, *, rights: bool = False, categories: Iterable[str] | None = None
) -> TournamentStandings:
    """The standings of ``snapshot``: overall, and per category (``categories``: the codes to compute, default
    every category; ``()`` none) with the qualification spots, awarded when ``rights`` (the homologation's
    answer)."""
    return with_categories(overall(snapshot), rights=rights, categories=categories)


def _category(result: TournamentStandings, cat: SnapCategory) -> CategoryStandings:
    settings = result.snapshot.settings
    counted = result.participation.counted
    in_category = [e for e in result.snapshot.entries if cat.code in e.categories]
    rows = category_standings(result.standings, [e.number for e in in_category])
    candidates = [
        Candidate(
            r.row.id,
            r.row.place,
            r.row.points,
            r.row.tiebreaks,
            r.row.order,
            result.entries[r.row.id].withdrawal_kind == WithdrawalKind.ABANDONMENT,
        )
        for r in rows
        if r.row.id in counted
    ]
    qual = category_qualification(
        cat.code,
        [result.snapshot.rating_as_played(e) for e in in_category if e.number in counted],
        len(counted),
        rights=result.rights,
        provisional=settings.provisional_rating,
        candidates=candidates,
        tie_rule=settings.spot_tie_rule,
        unrated_rule=settings.unrated_in_average,
        min_entries=settings.spots_min_entries,
        created_late=cat.code in categories_created_late(result.snapshot.settings_changes),
    )
    return CategoryStandings(cat, rows, qual, tuple(candidates))


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused, then restored as it was (exceptions included). Reference counting
    still frees everything: this only stops the automatic collections, which walk every container object
    allocated since the last one. The standings build tens of thousands of records, lists and tuples (no
    reference cycle among them), so on a 1,000-player event a hundred young collections walked them again and
    again, and in a process whose heap is not frozen (gc.freeze, as config/gunicorn.py does) a full collection of
    the whole heap came about every request: a third of the page's time. Process-wide (the collector has no
    per-thread switch): another thread's request goes without automatic cyclic collection for those few tens of
    milliseconds, and a thread that finds it already paused leaves it to the one that paused it.

    It pays (issue 39.10, ``bench/shortcuts.py``, 1,000 players x 11 rounds, CPU, load 18 on 2 cores):
    ``compute_standings`` 0.033 s paused against 0.036 s running (11 % saved) in a heap holding the app, 8 % in a
    frozen one (a gunicorn worker's); the database rows read before it add to the objects the collector walks."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def tournament_standings(
    tournament: Tournament, *, public: bool = True, rights: bool = False, categories: Iterable[str] | None = None
) -> TournamentStandings:
    """:func:`read_snapshot` then :func:`standings_of` (the cyclic garbage collector paused: :func:`gc_paused`)."""
    with gc_paused():
        return standings_of(read_snapshot(tournament, public=public), rights=rights, categories=categories)
