"""The one database read of the reports: a tournament as a :class:`~tournaments.domain.snapshot.Snapshot`.

:func:`read_snapshot` reads everything the standings, the homologation conditions, the workbook, the cross table
and the exports need, as plain rows (``values_list``: no model instance), in a fixed number of queries whatever
the number of players and rounds (eight; one more when a board has an opening drawn for it, one more when the
tournament has rounds an imported file kept for one player alone), each compiled once (:func:`_rows`). A board
is one row: its two seats and two games are joined to it.

The same snapshot is built from an interchange file by :func:`tournaments.domain.interchange.snapshot_from_interchange`.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Callable, Iterable
from decimal import Decimal
from types import MappingProxyType
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Case, CharField, FilteredRelation, Q, QuerySet, TextField, Value, When
from django.db.models.functions import Cast, Coalesce, Concat

from tournaments.domain.model import ByeValue, Format, Number, UnplayedRules
from tournaments.domain.snapshot import (
    SnapBoard,
    SnapCategory,
    SnapEntry,
    SnapOneSided,
    SnapOpening,
    SnapPlayer,
    SnapRound,
    SnapSettings,
    Snapshot,
    exact,
    played_ratings,
    stage_settings,
    standings_numbers,
)
from tournaments.models import Absence, Board, Category, Entry, OneSidedRound, Opening, Round, Seat, Tournament
from tournaments.models.choices import RoundStatus, SeatSide, TiebreakProfile
from tournaments.models.editions import edition_by_code
from tournaments.setup.lock import changes_of
from tournaments.setup.tiebreak_list import custom_tiebreaks

_T = TypeVar("_T", bound=tuple)


def _exact_or_none(value: Decimal | None) -> Number | None:
    return None if value is None else exact(value)


def settings_of(tournament: Tournament) -> SnapSettings:
    """The tournament's settings as the snapshot holds them (no query, but one for the opening table's code when
    the tournament uses a table and has not loaded it)."""
    t = tournament
    custom = custom_tiebreaks(t)  # None: the CBJD profile (chosen, empty, or a stored list it cannot use)
    edition = edition_by_code(t.edition_code)
    settings = SnapSettings(
        name=t.name,
        slug=t.slug,
        city=t.city,
        state=t.state,
        venue=t.venue,
        chief_arbiter=t.chief_arbiter,
        start_date=t.start_date,
        end_date=t.end_date,
        time_zone=t.time_zone,
        variant=t.variant,
        format=Format(t.format),
        planned_rounds=t.planned_rounds,
        minutes_per_game=t.minutes_per_game,
        score_win=exact(t.score_win),
        score_draw=exact(t.score_draw),
        score_loss=exact(t.score_loss),
        score_forfeit_loss=_exact_or_none(t.score_forfeit_loss),
        score_zero_bye=_exact_or_none(t.score_zero_bye),
        bye_value=ByeValue(t.bye_value),
        bye_points=_exact_or_none(t.bye_points),
        absence_value=t.absence_value,
        acceleration=t.acceleration,
        tiebreak_profile=TiebreakProfile.CBJD if custom is None else TiebreakProfile.CUSTOM,
        tiebreak_keys=custom or (),
        tiebreak_edition=UnplayedRules(t.tiebreak_edition),
        corrected_progressive_cut=t.corrected_progressive_cut,
        corrected_progressive_unplayed=t.corrected_progressive_unplayed,
        progressive_move=t.progressive_move,
        top3_order=t.top3_order,
        top3_scope=t.top3_scope,
        direct_encounter_scope=t.direct_encounter_scope,
        acceleration_order=t.acceleration_order,
        provisional_rating=t.provisional_rating,
        participant_rule=t.participant_rule,
        spot_tie_rule=t.spot_tie_rule,
        min_participants=t.min_participants,
        pairing_program_rule=t.pairing_program_rule,
        opening_table=t.opening_table.code if t.opening_table is not None else "",
        opening_table_name=t.opening_table.name if t.opening_table is not None else "",
        rating_list_name=t.rating_list_name,
        rating_list_date=t.rating_list_date,
        homologation_exported_at=t.homologation_exported_at,
        time_unit=t.time_unit,
        tablita_100=t.tablita_100,
        unrated_in_average=t.unrated_in_average,
        spots_min_entries=t.spots_min_entries,
        double_spot_rule=t.double_spot_rule,
        circuit_stage=t.circuit_stage,
        edition=edition,
    )
    return stage_settings(settings)  # a stage's numbers and readings are its edition's (issue 35.1)


# The entries' JSON lists are read as their text, decoded only when not empty (almost never): without Django's
# converter of a JSON column, called for every entry.
def _as_text(name: str) -> Cast:
    return Cast(name, output_field=TextField())


def _json_tuple(text: str | None) -> tuple[Any, ...]:
    if not text or text in ("[]", "null"):
        return ()
    return tuple(json.loads(text) or ())


def _maker(cls: type[_T]) -> Callable[[Iterable[Any]], _T]:
    """``cls._make`` without its Python frame and length check (the rows have the named tuple's fields): called
    for every board and entry read."""
    return functools.partial(tuple.__new__, cls)


def _opening(pk: int | None, code: str, moves: str | None) -> SnapOpening | None:
    return None if pk is None else SnapOpening(code, moves or "", pk)


def read_snapshot(tournament: Tournament, *, public: bool) -> Snapshot:
    """The tournament's snapshot: for the public (``public=True``) the published rounds only, else every round,
    drafts included. A fixed number of queries (:func:`_rows`: each compiled once)."""
    t = tournament
    entry_rows = _rows(_entries_query, t.pk, public)
    numbers = standings_numbers(((r[0], r[1], r[2], r[10]) for r in entry_rows), t.provisional_rating)
    categories, categories_of = _categories(t.pk, public)
    entries = _entries(entry_rows, numbers, categories_of)
    boards_of = _boards(t.pk, public)
    byes_of: dict[int, list[int]] = {}
    for round_id, entry_id in _rows(_byes_query, t.pk, public):
        byes_of.setdefault(round_id, []).append(entry_id)
    one_sided_of = _one_sided(t, numbers) if t.has_one_sided_rounds else {}
    rounds = _rounds(_rows(_rounds_query, t.pk, public), boards_of, byes_of, one_sided_of)
    absences = {(entry_id, number): value for entry_id, number, value in _rows(_absences_query, t.pk, public)}
    changes = tuple(changes_of(t))
    return Snapshot(
        settings=settings_of(t),
        entries=tuple(entries),
        rounds=rounds,
        categories=categories,
        absences=MappingProxyType(absences),
        public=public,
        settings_changes=changes,
        played_ratings=played_ratings(entries, changes),  # frozen at round 1 (issue 35.3)
    )


# The queries of :func:`read_snapshot`, each a function of the tournament's id and the reading (public: the
# published rounds only), compiled once per database and reading by :func:`_rows`.
_Query = Callable[[int, bool], QuerySet[Any, tuple[Any, ...]]]
_COMPILED: dict[tuple[str, _Query, bool], tuple[str, tuple[Any, ...], tuple[tuple[int, list[Any], Any], ...]]] = {}
_ANY_TOURNAMENT = -424_242  # stands for the tournament's id in the compiled SQL's parameters
_IMMUTABLE = (bool, int, float, str, Decimal, datetime.date, datetime.time, datetime.timedelta, type(None))


def _rows(query: _Query, tournament_id: int, public: bool, *, convert: bool = True) -> list[tuple[Any, ...]]:
    """The rows of ``query(tournament_id, public)``, as its ``values_list`` gives them (Django's converters: a
    date, a Decimal, a bool on SQLite), without building and compiling the query again: its SQL, with the
    tournament's id as a parameter, and its columns' converters are kept per database and reading. Each column's
    converters run once per distinct value (the rows share the immutable result): compiling the eight queries
    and converting every value were a sixth of the public standings' read on 1,000 entries and 5,500 boards.
    ``convert=False``: the values as the database driver gives them (the caller converts)."""
    key = (connection.alias, query, public)
    compiled = _COMPILED.get(key)
    if compiled is None:
        compiler = query(_ANY_TOURNAMENT, public).query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        columns = [s[0] for s in compiler.select[: compiler.col_count]]
        converters = tuple((pos, convs, expr) for pos, (convs, expr) in compiler.get_converters(columns).items())
        compiled = _COMPILED[key] = (sql, tuple(params), converters)
    sql, params, converters = compiled
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id if p == _ANY_TOURNAMENT else p for p in params])
        rows = cursor.fetchall()
    if not converters or not rows or not convert:
        return rows
    columns = list(zip(*rows, strict=True))
    for pos, convs, expression in converters:
        columns[pos] = _converted(columns[pos], convs, expression)
    return list(zip(*columns, strict=True))


def _converted(values: Iterable[Any], convs: list[Any], expression: Any) -> list[Any]:
    """``values`` through Django's converters of their column, each distinct value once."""
    done: dict[Any, Any] = {}
    out = []
    for raw in values:
        try:
            value = done[raw]
        except KeyError:
            value = raw
            for convert in convs:
                value = convert(value, expression, connection)
            if isinstance(value, _IMMUTABLE):
                done[raw] = value
        except TypeError:  # not hashable
            value = raw
            for convert in convs:
                value = convert(value, expression, connection)
        out.append(value)
    return out


def _entries_query(tournament_id: int, public: bool) -> QuerySet[Entry, tuple[Any, ...]]:
    return (
        Entry.objects.filter(tournament_id=tournament_id).order_by("pairing_number", "id").values_list(*_ENTRY_FIELDS)
    )


def _byes_query(tournament_id: int, public: bool) -> QuerySet[Seat, tuple[Any, ...]]:
    byes = Seat.objects.filter(round__tournament_id=tournament_id, side=SeatSide.BYE)
    if public:
        byes = byes.filter(round__status=RoundStatus.PUBLISHED)
    return byes.order_by("entry__pairing_number", "entry_id").values_list("round_id", "entry_id")


def _rounds_query(tournament_id: int, public: bool) -> QuerySet[Round, tuple[Any, ...]]:
    rounds = Round.objects.filter(tournament_id=tournament_id)
    if public:
        rounds = rounds.filter(status=RoundStatus.PUBLISHED)
    return rounds.order_by("number").values_list(
        "id",
        "number",
        "status",
        "engine",
        "manually_edited",
        "paired_at",
        "opening_id",
        "opening__code",
        "opening__moves",
        "pairing_fingerprint",
        "results_fingerprint",
        "fingerprint_reasons",
    )


def _absences_query(tournament_id: int, public: bool) -> QuerySet[Absence, tuple[Any, ...]]:
    return Absence.objects.filter(entry__tournament_id=tournament_id).values_list("entry_id", "round_number", "value")


# an entry's row: its own fields (0-9), its player's (10 to -4: SnapPlayer's, in order), then the adjustment (-3 on)
_ENTRY_FIELDS = (
    "id",
    "pairing_number",
    "rating",
    "fmjd_rating",
    "withdrawn_from_round",
    "withdrawal_kind",
    "late_entry_round",
    "declared_adult",
    "rating_kept_reason",
    _as_text("accelerations"),
    "player__name",
    "player__state",
    "player__sex",
    "player__birth_date",
    "player__birth_year",
    "player__club",
    "player__cbjd_id",
    "player__title",
    "player__federation",
    "player__foreign_id",
    "player__title_as_written",
    "player_id",
    "player__rated_games",
    "points_adjustment",
    "points_adjustment_reason",
    _as_text("adjustment_lines"),
)


def _categories(tournament_id: int, public: bool) -> tuple[tuple[SnapCategory, ...], dict[int, list[str]]]:
    """The tournament's categories, and each entry's category codes in the categories' order (two queries)."""
    categories = tuple(
        SnapCategory(code, name, pk) for pk, code, name in _rows(_categories_query, tournament_id, public)
    )
    codes = {c.pk: c.code for c in categories}
    position = {c.pk: i for i, c in enumerate(categories)}
    categories_of: dict[int, list[str]] = {}
    for entry_id, category_id in sorted(
        _rows(_entry_categories_query, tournament_id, public), key=lambda r: position[r[1]]
    ):
        categories_of.setdefault(entry_id, []).append(codes[category_id])
    return categories, categories_of


def _categories_query(tournament_id: int, public: bool) -> QuerySet[Category, tuple[Any, ...]]:
    return (
        Category.objects.filter(tournament_id=tournament_id)
        .order_by("position", "code")
        .values_list("id", "code", "name")
    )


def _entry_categories_query(tournament_id: int, public: bool) -> QuerySet[Any, tuple[Any, ...]]:
    """(entry, category) of the tournament's entries, in no order (:func:`_categories` orders them)."""
    return (
        Entry.categories.through.objects.filter(entry__tournament_id=tournament_id)
        .order_by()
        .values_list("entry_id", "category_id")
    )


def _entries(entry_rows: list[tuple], numbers: dict[int, int], categories_of: dict[int, list[str]]) -> list[SnapEntry]:
    """The entries by pairing number (before round 1: the numbers given by rating)."""
    new_player, new_entry = _maker(SnapPlayer), _maker(SnapEntry)
    entries = [
        new_entry(
            (
                r[0],
                numbers[r[0]],
                r[1],
                r[2],
                new_player(r[10:-3]),
                r[3],
                r[4],
                r[5],
                r[6],
                r[7],
                r[8],
                tuple(categories_of.get(r[0], ())),
                _json_tuple(r[9]),
                r[-3],
                r[-2],
                _json_tuple(r[-1]),
            )
        )
        for r in entry_rows
    ]
    entries.sort(key=lambda e: e.number)
    return entries


def _game(number: int) -> Case:
    """Game ``number`` of a board (its filtered relation) as text: "" when the board has no such game, "?" while
    its result is not entered, else the result (a code of ``GameResult``: neither "|" nor "?")."""
    game = f"game{number}"
    return Case(
        When(**{f"{game}__number__isnull": True}, then=Value("")),
        default=Coalesce(f"{game}__result", Value("?")),
        output_field=CharField(),
    )


# a board's games in one column, "game 1|game 2" (see _game): one value to read and to look up per board, not four
_GAMES = Concat(_game(1), Value("|"), _game(2), output_field=CharField())


def _boards_query(tournament_id: int, public: bool) -> QuerySet[Board, tuple[Any, ...]]:
    """A board with its two seats and two games, one row (four filtered relations): reading seats and games apart
    was slower on SQLite (three queries, 27,500 rows instead of 5,500 on 1,000 players and 11 rounds). The opening
    drawn for a board (rare) is read apart, by :func:`_openings`."""
    boards = Board.objects.filter(round__tournament_id=tournament_id)
    if public:
        boards = boards.filter(round__status=RoundStatus.PUBLISHED)
    return (
        boards.annotate(
            first=FilteredRelation("seats", condition=Q(seats__side=SeatSide.FIRST)),
            second=FilteredRelation("seats", condition=Q(seats__side=SeatSide.SECOND)),
            game1=FilteredRelation("games", condition=Q(games__number=1)),
            game2=FilteredRelation("games", condition=Q(games__number=2)),
        )
        .order_by("round_id", "number")
        .values_list(
            "round_id", "id", "number", "opening_id", "colourless", "first__entry_id", "second__entry_id", _GAMES
        )
    )


def _openings(ids: set[int]) -> dict[int, SnapOpening]:
    """The openings drawn for boards, by id (one query, when a board has one)."""
    return {
        pk: SnapOpening(code, moves or "", pk)
        for pk, code, moves in Opening.objects.filter(pk__in=ids).values_list("id", "code", "moves")
    }


def _boards(tournament_id: int, public: bool) -> dict[int, list[SnapBoard]]:
    """The boards of the tournament (for the public, of its published rounds) by round id, in board order, each
    one row: (round, id, number, opening, colourless, first, second, games)."""
    rows = _rows(_boards_query, tournament_id, public, convert=False)  # colourless: 0 or 1 on SQLite
    drawn = {row[3] for row in rows if row[3] is not None}
    openings = _openings(drawn) if drawn else {}
    boards_of: dict[int, list[SnapBoard]] = {}
    new_board = _maker(SnapBoard)
    round_id: int | None = None
    boards: list[SnapBoard] = []
    # the few distinct sets of games, built once (and equal by identity): ((1, result), (2, result)), a game
    # left out when the board has none, its result None while not entered
    shared_games: dict[str, tuple[tuple[int, str | None], ...]] = {}
    for row in rows:
        games = shared_games.get(row[7])
        if games is None:
            one, two = row[7].split("|")
            games = shared_games[row[7]] = tuple(
                (n, None if result == "?" else result) for n, result in ((1, one), (2, two)) if result
            )
        if row[0] != round_id:  # the rows come round by round
            round_id = row[0]
            boards = boards_of[row[0]] = []
        opening = None if row[3] is None else openings[row[3]]
        boards.append(new_board((row[2], row[5], row[6], games, opening, row[4] == 1, row[1])))
    return boards_of


def _one_sided(t: Tournament, numbers: dict[int, int]) -> dict[int, list[SnapOneSided]]:
    """The rounds an imported file kept for one player alone, by round id (one query)."""
    one_sided_of: dict[int, list[SnapOneSided]] = {}
    for round_id, entry_id, opponent_id, colour, result in (
        OneSidedRound.objects.filter(round__tournament=t)
        .order_by("entry__pairing_number", "entry_id")
        .values_list("round_id", "entry_id", "opponent_id", "colour", "result")
    ):
        opponent = None if opponent_id is None else numbers.get(opponent_id)
        one_sided_of.setdefault(round_id, []).append(SnapOneSided(entry_id, opponent, colour or "", result))
    return one_sided_of


def _rounds(
    rows: list[tuple[Any, ...]],
    boards_of: dict[int, list[SnapBoard]],
    byes_of: dict[int, list[int]],
    one_sided_of: dict[int, list[SnapOneSided]],
) -> tuple[SnapRound, ...]:
    return tuple(
        SnapRound(
            number=number,
            status=status,
            boards=tuple(boards_of.get(pk, ())),
            byes=tuple(byes_of.get(pk, ())),
            one_sided=tuple(one_sided_of.get(pk, ())),
            opening=_opening(opening_id, code, moves),
            engine=engine,
            manually_edited=edited,
            paired_at=paired_at,
            pk=pk,
            fingerprints=(pairing_print, results_print),
            fingerprint_reasons=(tuple(reasons.get("pairing") or ()), tuple(reasons.get("results") or ())),
        )
        for (
            pk,
            number,
            status,
            engine,
            edited,
            paired_at,
            opening_id,
            code,
            moves,
            pairing_print,
            results_print,
            reasons,
        ) in rows
    )
