"""Standings read from the database: the pure ``tournaments.domain`` arithmetic fed by ``tournament_history``.

Public entry point: :func:`tournament_standings`. It reads the tournament in a constant number of queries
(whatever the number of players and rounds) and returns the overall standings, the standings and
qualification spots of every category, and the tiebreak order (with its reason) of every tie group.

Which rounds count: the complete rounds (every game has a result) from round 1 up to the first incomplete
one; with ``public=True`` only published rounds (drafts are never shown to the public).
"""

from __future__ import annotations

import gc
from collections import namedtuple
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import cast

from django.utils import translation

from tournaments.domain import (
    CBJD,
    RESULTS_BY_CODE,
    AcceleratedProgressive,
    AccelerationOrder,
    ByeValue,
    Candidate,
    DirectEncounterScope,
    Format,
    PlayerData,
    QualificationResult,
    RoundKind,
    RoundRecord,
    Scoring,
    Standings,
    StandingsSettings,
    Top3Order,
    Top3Scope,
    TournamentData,
    UnplayedRules,
    category_standings,
    compute_standings,
    qualification,
)
from tournaments.homologation.conditions import rights_earned
from tournaments.homologation.participants import participation_of_kinds
from tournaments.models import Board, Category, Game, Opening, Round, Seat
from tournaments.models.choices import Acceleration, RoundStatus, WithdrawalKind
from tournaments.selectors import (
    board_shape,
    bye_points,
    entries_in_order,
    one_sided_records,
    scoring_of,
    standings_rows,
    tournament_history,
    unpaired_points,
    unseated_round,
)
from tournaments.setup.tiebreak_list import custom_tiebreaks
from tournaments.standings.readings import order_reason_text

CBJD_COLUMNS = ("direct_encounter", "progressive", "progressive_corrected", "buchholz")


def number(value):
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


def _scalar(value):
    """Tournament scoring values as exact numbers: int when integral, else Decimal."""
    d = Decimal(value)
    return int(d) if d == d.to_integral_value() else d


def standings_settings(tournament) -> StandingsSettings:
    profile: str | tuple[str, ...]
    custom = custom_tiebreaks(tournament)  # None: the CBJD profile (also for a stored list it cannot use)
    profile = CBJD if custom is None else custom
    return StandingsSettings(
        profile=profile,
        corrected_cut=tournament.corrected_progressive_cut,
        corrected_counts_unplayed=tournament.corrected_progressive_unplayed,
        accelerated_progressive=AcceleratedProgressive(tournament.progressive_move),
        top3_order=Top3Order(tournament.top3_order),
        top3_scope=Top3Scope(tournament.top3_scope),
        direct_encounter_scope=DirectEncounterScope(tournament.direct_encounter_scope),
        acceleration_order=AccelerationOrder(tournament.acceleration_order),
    )


def _game_results(results, colour):
    """Per-game results of a board (game number -> code) from the side of ``colour`` ("w": the board's first
    player, who has White in game 1)."""
    out = []
    for game_number in sorted(results):
        code = results[game_number]
        white, black = RESULTS_BY_CODE[code]
        first_is_white = game_number % 2 == 1
        mine_is_white = first_is_white == (colour == "w")
        out.append(white if mine_is_white else black)
    return out


_TEMPLATES: dict[Scoring, dict[tuple, tuple]] = {}  # scoring -> (side, results) -> (kind, points, games)
_PAIRED = frozenset(("played", "forfeit_win", "forfeit_loss", "double_forfeit"))


def domain_record(record, scoring, templates=None) -> RoundRecord:
    """A ``selectors.RoundRecord`` (one entry, one complete round) as the domain's ``RoundRecord``.
    ``templates``: ``_TEMPLATES[scoring]``, when the caller converts many records."""
    kind = record.kind
    if kind in _PAIRED:
        # A board's record depends only on the side and the result codes: classify each combination once.
        if templates is None:
            templates = _TEMPLATES.setdefault(scoring, {})
        # the results as they come (game number -> code, in the order read): the same codes in another order make
        # another key for the same template, never a wrong one
        template = _template(record.colour, tuple(record.results.items()), scoring, templates)
        return RoundRecord(template[0], record.opponent, template[1], template[2])
    if kind == "pab":
        return RoundRecord(RoundKind.BYE, points=_scalar(record.points))
    if kind == "withdrawn":
        return RoundRecord(RoundKind.WITHDRAWN, points=0)
    if kind == "late":
        return RoundRecord(RoundKind.NOT_ENTERED, points=0)
    if kind == "absent":
        return RoundRecord(RoundKind.ABSENT, points=_scalar(record.points))
    raise ValueError(f"round {record.round}: a pending board cannot be in the standings")


def _template(colour, results, scoring, templates):
    """(kind, points, games) of a board's domain record for the side ``colour``, ``results`` the board's
    (game number, code) pairs: worked out once per combination (``templates``: ``_TEMPLATES[scoring]``)."""
    key = (colour, results)
    template = templates.get(key)
    if template is None:
        r = RoundRecord.from_games(0, _game_results(dict(results), colour), scoring)
        template = templates[key] = (r.kind, r.points, r.games)
    return template


def _round_complete(rnd):
    boards = rnd.boards.all()
    return all(g.result is not None for b in boards for g in b.games.all())


def counted_rounds(rounds, public):
    """The rounds the standings use: complete (and, for the public, published) rounds 1..R without a gap."""
    out = []
    for expected, rnd in enumerate(rounds, start=1):
        if not _may_count(expected, rnd.number, rnd.status, public) or not _round_complete(rnd):
            break
        out.append(rnd)
    return out


def _may_count(expected, number, status, public):
    """The round in position ``expected`` (1-based) counts, if complete: no gap, and published for the public."""
    return number == expected and (not public or status == RoundStatus.PUBLISHED)


def player_ids(entries, provisional):
    """Pairing number per entry id; entries without one (before round 1) get the next numbers by rating."""
    ids = {e.pk: e.pairing_number for e in entries if e.pairing_number is not None}
    missing = sorted(
        (e for e in entries if e.pairing_number is None),
        key=lambda e: (-(e.rating if e.rating is not None else provisional), e.player.name, e.pk),
    )
    nxt = max(ids.values(), default=0)
    for e in missing:
        nxt += 1
        ids[e.pk] = nxt
    return ids


def domain_scoring(tournament) -> Scoring:
    return Scoring(
        _scalar(tournament.score_win),
        _scalar(tournament.score_draw),
        _scalar(tournament.score_loss),
        None if tournament.score_forfeit_loss is None else _scalar(tournament.score_forfeit_loss),
    )


def tournament_data(tournament, entries, rounds, history, ids) -> TournamentData:
    scoring = domain_scoring(tournament)
    players = []
    templates = _TEMPLATES.setdefault(scoring, {})
    for e in entries:
        records = []
        for r in history[e.pk]:
            template = templates.get((r.colour, tuple(r.results.items()))) if r.kind in _PAIRED else None
            if template is None:  # not a board, or a combination not met yet: the general conversion
                records.append(domain_record(r, scoring, templates))
            else:  # domain_record's result, without its call (33,000 records on a 1,000-player event)
                records.append(RoundRecord(template[0], r.opponent, template[1], template[2]))
        players.append(PlayerData(id=ids[e.pk], name=e.player.name, rating=e.rating, rounds=tuple(records)))
    return _tournament_data(tournament, players, len(rounds), scoring)


def _tournament_data(tournament, players, rounds_completed, scoring) -> TournamentData:
    return TournamentData(
        players=tuple(players),
        rounds_completed=rounds_completed,
        planned_rounds=tournament.planned_rounds,
        format=Format(tournament.format),
        scoring=scoring,
        bye_value=ByeValue(tournament.bye_value),
        acceleration_used=tournament.acceleration != Acceleration.NONE,
        unplayed_rules=UnplayedRules(tournament.tiebreak_edition),
        provisional_rating=tournament.provisional_rating,
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
    category: Category
    rows: list  # of domain CategoryRow
    qualification: QualificationResult

    @property
    def code(self):
        return self.category.code


@dataclass
class TournamentStandings:
    """Everything a standings page, the ``standings`` command or the homologation report needs."""

    tournament: object
    public: bool
    data: TournamentData
    standings: Standings
    entries: dict  # pairing number -> Entry (with player and categories loaded)
    categories: list = field(default_factory=list)  # of CategoryStandings
    tie_groups: list = field(default_factory=list)  # of TieGroup, best points first
    rounds: list = field(default_factory=list)  # rounds counted: lean row objects shaped like rounds_with_boards
    history: dict = field(default_factory=dict)  # entry id -> selectors.RoundRecord list (counted rounds)
    rights: bool = False
    participation: object = None  # domain Participation, keyed by pairing number

    @property
    def rows(self):
        return self.standings.rows

    @property
    def rounds_completed(self):
        return self.standings.rounds_completed

    @property
    def readings(self):
        return self.standings.readings

    def category(self, code) -> CategoryStandings:
        for cat in self.categories:
            if cat.code.upper() == str(code).upper():
                return cat
        raise KeyError(code)

    def columns(self):
        """Tiebreak keys to show as columns, in the profile's order (CBJD: direct encounter only when used)."""
        if self.standings.settings.profile == CBJD:
            used = {k for row in self.rows for k in row.order}
            return tuple(k for k in CBJD_COLUMNS if k in used or k != "direct_encounter")
        return tuple(self.standings.settings.profile)

    def cells(self, row):
        """The row's values for :meth:`columns` (a key not in the row's tiebreak order is left empty: None)."""
        return [number(row.tiebreaks[k]) if k in row.order else None for k in self.columns()]

    def row_json(self, row, rank=None) -> dict:
        """The object of ``standings --format json``: tiebreaks in the order used for the row's tie group."""
        return {
            "rank": rank if rank is not None else row.rank,
            "id": row.id,
            "name": row.name,
            "points": number(row.points),
            "tiebreaks": {k: number(row.tiebreaks[k]) for k in row.order},
            "order_reason": _order_reason_pt(row.order_reasons),
        }

    def as_json(self, category=None) -> list:
        if category is None:
            return [self.row_json(r) for r in self.rows]
        return [self.row_json(c.row, c.rank) for c in self.category(category).rows]


def _order_reason_pt(codes):
    """The reasons in Portuguese (the language of the command's JSON, docs/interchange.md), or None."""
    if not codes:
        return None
    with translation.override("pt-br"):
        return order_reason_text(codes)


def _tie_groups(standings):
    groups = []
    for row in standings.rows:
        if groups and groups[-1][0] == row.points:
            groups[-1][1].append(row)
        else:
            groups.append((row.points, [row]))
    return [
        TieGroup(points, tuple(r.id for r in rows), rows[0].order, rows[0].order_reasons) for points, rows in groups
    ]


def tournament_standings(tournament, *, public=True, rights=None) -> TournamentStandings:
    """Standings overall and per category, qualification spots, tie-group reasons.

    ``public``: only published rounds (the public pages); ``False``: every complete round, drafts included
    (staff). ``rights``: whether the qualification spots are awarded; ``None`` asks the homologation check
    (two extra queries). Constant number of queries.
    """
    entries, rounds, history, categories = read_tournament(tournament, public=public)
    return _assemble(tournament, entries, rounds, history, categories, public, rights)


class _Rel(list):
    """A list that answers ``.all()`` like a prefetched related manager."""

    def all(self):
        return self


class _Obj:
    def __init__(self, **kw):
        self.__dict__.update(kw)


_LeanSeat = namedtuple("_LeanSeat", "round_id board_id entry_id entry side")
_LeanGame = namedtuple("_LeanGame", "number result")
_new_tuple = tuple.__new__


class _LeanBoard:
    __slots__ = ("pk", "id", "number", "round_id", "opening_id", "opening", "seats", "games", "colourless")

    def __init__(self, pk, number, round_id, opening_id, opening, colourless=False):
        self.pk = self.id = pk
        self.number, self.round_id, self.opening_id, self.opening = number, round_id, opening_id, opening
        self.seats, self.games = _Rel(), _Rel()
        self.colourless = colourless


def lean_rounds_with_boards(tournament, entries, published_only=False):
    """The rounds in the shape of ``selectors.rounds_with_boards`` (rounds with ``boards`` (each with ``seats``
    and ``games``) and ``bye_seats``), read as plain rows in four queries: several times faster than the
    model prefetch on a large tournament. Seats point at the given ``entries`` (players and categories loaded).
    """
    rounds_qs = Round.objects.filter(tournament=tournament).select_related("opening").order_by("number")
    boards_qs = Board.objects.filter(round__tournament=tournament)
    seats_qs = Seat.objects.filter(round__tournament=tournament)
    games_qs = Game.objects.filter(board__round__tournament=tournament)
    if published_only:
        rounds_qs = rounds_qs.filter(status=RoundStatus.PUBLISHED)
        boards_qs = boards_qs.filter(round__status=RoundStatus.PUBLISHED)
        seats_qs = seats_qs.filter(round__status=RoundStatus.PUBLISHED)
        games_qs = games_qs.filter(board__round__status=RoundStatus.PUBLISHED)
    by_entry = {e.pk: e for e in entries}
    rounds = {}
    for r in rounds_qs:
        rounds[r.pk] = _Obj(
            pk=r.pk,
            id=r.pk,
            number=r.number,
            status=r.status,
            opening=r.opening,
            opening_id=r.opening_id,
            engine=r.engine,
            manually_edited=r.manually_edited,
            boards=_Rel(),
            bye_seats=[],
            is_published=r.status == RoundStatus.PUBLISHED,
        )
    openings = {}
    opening_ids = set(boards_qs.exclude(opening__isnull=True).values_list("opening_id", flat=True))
    if opening_ids:
        openings = {o.pk: o for o in Opening.objects.filter(pk__in=opening_ids)}
    # tens of thousands of rows on a large event: the lists appended to are looked up once, and the seats and
    # games are built with tuple.__new__ (the named tuples' __new__ is one more Python call per row)
    boards = {}
    boards_of = {pk: r.boards for pk, r in rounds.items()}
    for pk, round_id, num, opening_id, colourless in boards_qs.order_by("number").values_list(
        "id", "round_id", "number", "opening_id", "colourless"
    ):
        b = _LeanBoard(pk, num, round_id, opening_id, openings.get(opening_id), colourless)
        boards[pk] = b
        boards_of[round_id].append(b)
    seats_of = {pk: b.seats for pk, b in boards.items()}
    for round_id, board_id, entry_id, side in seats_qs.values_list("round_id", "board_id", "entry_id", "side"):
        seat = _new_tuple(_LeanSeat, (round_id, board_id, entry_id, by_entry[entry_id], side))
        if board_id is None:
            rounds[round_id].bye_seats.append(seat)
        else:
            seats_of[board_id].append(seat)
    games_of = {pk: b.games for pk, b in boards.items()}
    for board_id, num, result in games_qs.order_by("number").values_list("board_id", "number", "result"):
        games_of[board_id].append(_new_tuple(_LeanGame, (num, result)))
    return list(rounds.values())


def read_tournament(tournament, *, public=True, all_rounds=None, entries=None):
    """The database read: (entries, counted rounds, history of the counted rounds, categories)."""
    if entries is None:
        entries = entries_in_order(tournament)
    if all_rounds is None:
        all_rounds = lean_rounds_with_boards(tournament, entries, published_only=public)
    rounds = counted_rounds(all_rounds, public)
    entries, rounds, history = tournament_history(tournament, rounds=rounds, entries=entries)
    return entries, rounds, history, categories_of(tournament)


def categories_of(tournament):
    """The tournament's categories in the order the pages list them."""
    return list(Category.objects.filter(tournament=tournament).order_by("position", "code"))


def standings_from_history(tournament, entries, rounds, history, categories, public=True, rights=None):
    """The standings from data already read (``entries`` and ``history`` as ``selectors.tournament_history``
    returns them for the counted ``rounds``, see :func:`counted_rounds`; ``categories``: the tournament's
    Category rows). No query, except two for the homologation rights when ``rights`` is None."""
    return _assemble(tournament, entries, rounds, history, categories, public, rights)


def _assemble(tournament, entries, rounds, history, categories, public, rights):
    ids = player_ids(entries, tournament.provisional_rating)
    data = tournament_data(tournament, entries, rounds, history, ids)
    if rights is None:
        rights = rights_earned(tournament, entries=entries, history=history, rounds_counted=len(rounds))
    kinds = {e.pk: [r.kind for r in history.get(e.pk, ())] for e in entries}
    return _result(tournament, public, entries, ids, data, kinds, categories, rights, rounds, history)


def _result(tournament, public, entries, ids, data, kinds, categories, rights, rounds, history):
    """The standings of ``data`` with everything around them: participants (``kinds``: entry id -> the kinds of
    its counted rounds), tie groups, and the standings and qualification spots of ``categories``."""
    standings = compute_standings(data, standings_settings(tournament))
    participants = participation_of_kinds(tournament, entries, kinds, data.rounds_completed)
    counted = {ids[pk] for pk in participants.counted}
    result = TournamentStandings(
        tournament=tournament,
        public=public,
        data=data,
        standings=standings,
        entries={ids[e.pk]: e for e in entries},
        tie_groups=_tie_groups(standings),
        rounds=rounds,
        history=history,
        rights=bool(rights),
        participation=type(participants)(
            frozenset(ids[pk] for pk in participants.played),
            frozenset(ids[pk] for pk in participants.to_play),
            frozenset(ids[pk] for pk in participants.excluded),
        ),
    )
    if not categories:
        return result
    abandoned = {ids[e.pk] for e in entries if e.withdrawal_kind == WithdrawalKind.ABANDONMENT}
    # the categories of each entry, read once (a related manager per entry and category costs more than the rest)
    in_category: dict[int, list] = {cat.pk: [] for cat in categories}
    for e in entries:
        for c in e.categories.all():
            if c.pk in in_category:
                in_category[c.pk].append(e)
    for cat in categories:
        members = [e for e in in_category[cat.pk] if ids[e.pk] in counted]
        rows = category_standings(standings, [ids[e.pk] for e in in_category[cat.pk]])
        candidates = [
            Candidate(r.row.id, r.row.place, r.row.points, r.row.tiebreaks, r.row.order, r.row.id in abandoned)
            for r in rows
            if r.row.id in counted
        ]
        qual = qualification(
            cat.code,
            [e.rating for e in members],
            len(counted),
            rights=bool(rights),
            provisional=tournament.provisional_rating,
            candidates=candidates,
            tie_rule=tournament.spot_tie_rule,
        )
        result.categories.append(CategoryStandings(cat, rows, qual))
    return result


_UNSEATED_KINDS = {"late": RoundKind.NOT_ENTERED, "withdrawn": RoundKind.WITHDRAWN, "absent": RoundKind.ABSENT}


@contextmanager
def gc_paused():
    """The cyclic garbage collector paused, then restored as it was (exceptions included). Reference counting
    still frees everything: this only stops the automatic collections, which walk every container object
    allocated since the last one. The overall standings build tens of thousands of records, lists and tuples
    (no reference cycle among them), so on a 1,000-player event a hundred young collections walked them again
    and again, and in a process whose heap is not frozen (gc.freeze, as config/gunicorn.py does) a full
    collection of the whole heap came about every request: a third of the page's time. Process-wide (the
    collector has no per-thread switch): another thread's request goes without automatic cyclic collection for
    those few tens of milliseconds, and a thread that finds it already paused leaves it to the one that paused
    it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def overall_standings(tournament, *, public=True) -> TournamentStandings:
    """The overall standings as the overall standings pages show them (no category, no qualification spot):
    the same rows as :func:`tournament_standings`, read as plain database rows (``selectors.standings_rows``, a
    fixed number of queries) and turned into the domain's records in one pass, without a model instance, a lean
    round object or a ``selectors.RoundRecord`` per player and round (on a 1,000-player, 11-round event those
    were most of the page's time). ``entries`` holds ``selectors.EntryRow`` rows; ``rounds`` and ``history``
    are left empty (what needs them reads :func:`tournament_standings`). Each round is classified by the same
    functions as ``selectors.tournament_history`` (``board_shape``, ``unseated_round``, ``one_sided_records``);
    tests/tournaments/test_standings_rows.py compares the two roads on tournaments with every kind of round.
    Computed with the cyclic garbage collector paused (:func:`gc_paused`)."""
    with gc_paused():
        return _overall_standings(tournament, public)


def _overall_standings(tournament, public):
    rows = standings_rows(tournament, published_only=public)
    counted: dict[int, int] = {}  # round id -> index (round number - 1)
    for expected, (round_id, number, status) in enumerate(rows.rounds, start=1):
        if not _may_count(expected, number, status, public) or round_id in rows.incomplete:
            break
        counted[round_id] = expected - 1
    count = len(counted)
    entries = rows.entries
    scoring = domain_scoring(tournament)
    templates = _TEMPLATES.setdefault(scoring, {})
    plain_scoring = scoring_of(tournament)  # Decimal, as tournament_history classifies boards
    # per entry id, its counted rounds' domain records and kinds (selectors.RoundRecord.kind), filled below
    records: dict[int, list[RoundRecord | None]] = {e.pk: [None] * count for e in entries}
    kinds: dict[int, list[str | None]] = {e.pk: [None] * count for e in entries}
    bye = RoundRecord(RoundKind.BYE, points=_scalar(bye_points(tournament)))
    for round_id, entry_id in rows.byes:  # the pairing-allocated bye
        index = counted.get(round_id)
        if index is not None:
            records[entry_id][index] = bye
            kinds[entry_id][index] = "pab"
    pairing_number = {e.pk: e.pairing_number for e in entries}
    shapes: dict[tuple, tuple] = {}  # a board's games -> what they give each side
    for row in rows.boards:
        index = counted.get(row[0])
        first, second = row[1], row[2]
        if index is None or first is None or second is None:  # not counted, or a seat empty
            continue
        key = row[3:]  # the games' numbers and results
        shape = shapes.get(key)
        if shape is None:
            number1, result1, number2, result2 = key
            results = tuple((n, r) for n, r in ((number1, result1), (number2, result2)) if n is not None)
            _p1, _p2, kind1, kind2 = board_shape(dict(results), plain_scoring)
            if kind1 == "pending":
                raise ValueError(f"round {index + 1}: a pending board cannot be in the standings")
            shape = shapes[key] = (
                kind1,
                kind2,
                _template("w", results, scoring, templates),
                _template("b", results, scoring, templates),
            )
        kind1, kind2, (k1, points1, games1), (k2, points2, games2) = shape
        records[first][index] = RoundRecord(k1, pairing_number[second], points1, games1)
        kinds[first][index] = kind1
        records[second][index] = RoundRecord(k2, pairing_number[first], points2, games2)
        kinds[second][index] = kind2
    one_sided = one_sided_records(tournament, plain_scoring) if tournament.has_one_sided_rounds else {}
    unpaired = unpaired_points(tournament)
    # (kind, points as written: 0.5 and 0.50 are equal Decimals, not the same text) -> the (immutable) record, shared
    unseated: dict[tuple[str, str], RoundRecord] = {}
    ids = player_ids(entries, tournament.provisional_rating)
    players = []
    for e in entries:
        own = records[e.pk]
        own_kinds = kinds[e.pk]
        for index, record in enumerate(own):
            if record is not None:
                continue
            # a round on no board and not the bye
            one = one_sided.get(index + 1, {}).get(e.pk)
            if one is not None:
                own[index] = domain_record(one, scoring, templates)
                own_kinds[index] = one.kind
                continue
            kind, points = unseated_round(
                tournament, index + 1, e.late_entry_round, e.withdrawn_from_round, rows.absences, e.pk, unpaired
            )
            shared = unseated.get((kind, str(points)))
            if shared is None:
                shared = unseated[kind, str(points)] = RoundRecord(
                    _UNSEATED_KINDS[kind], points=_scalar(points) if kind == "absent" else 0
                )
            own[index] = shared
            own_kinds[index] = kind
        rounds = cast("tuple[RoundRecord, ...]", tuple(own))  # every round filled
        players.append(PlayerData(id=ids[e.pk], name=e.player.name, rating=e.rating, rounds=rounds))
    data = _tournament_data(tournament, players, count, scoring)
    return _result(tournament, public, entries, ids, data, kinds, [], False, [], {})
