"""The tournament as every report reads it: one plain, typed, immutable snapshot (no Django here).

A :class:`Snapshot` holds the facts: the settings, the entries (with their players), every round read (its
boards with their games, the pairing-allocated byes, the rounds an imported file kept for one player alone),
the announced absences and the categories. Two builders make the same type:

* :func:`tournaments.standings.snapshot.read_snapshot`: the database, in a fixed number of queries;
* :func:`tournaments.domain.interchange.snapshot_from_interchange`: an interchange file, without a database
  (the federation's verification of a submitted stage).

Everything a report shows is a pure function of it. The rules that turn facts into what a round gave each
entry live here and only here:

* :func:`counted_rounds`: the rounds the standings count (complete rounds 1..R without a gap);
* :func:`board_records`: what a board gave each side;
* :func:`off_board`: a round an entry spent on no board (the one-sided round an imported file kept, a late
  entry, a withdrawal, an announced absence, or not paired) and why;
* :func:`round_records`: every entry's record of every counted round (the standings' input,
  :func:`standings_input`), or of the rounds before the one being paired (:func:`rounds_before`: the pairing's
  history, with each round's colours, :func:`colours_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from functools import cached_property
from operator import attrgetter
from typing import Any, NamedTuple

from tournaments.domain.edition import Edition, current_text
from tournaments.domain.model import (
    RESULTS_BY_CODE,
    ByeValue,
    Format,
    GameResult,
    Number,
    PlayerData,
    RoundKind,
    RoundRecord,
    Scoring,
    TournamentData,
    UnplayedRules,
)
from tournaments.domain.settings_lock import SettingsChange, first_ratings, same_player

PUBLISHED = "published"
DRAFT = "draft"
IMPORTED = "imported"  # the engine recorded for a round whose file does not name the program that paired it


def exact(value: Number | float | str) -> Number:
    """A score as the domain keeps it: ``int`` when whole, else the ``Decimal`` written (never a float)."""
    d = value if isinstance(value, Decimal) else Decimal(str(value))
    return int(d) if d == d.to_integral_value() else d


@dataclass(frozen=True)
class SnapSettings:
    """The tournament's settings the reports read (scores as exact numbers: ``int`` when whole, else ``Decimal``).

    String settings hold the stored choice values (``models.choices``); the words are the presenters' job."""

    name: str = ""
    slug: str = ""
    city: str = ""
    state: str = ""
    venue: str = ""
    chief_arbiter: str = ""
    start_date: date | None = None
    end_date: date | None = None
    time_zone: str = "America/Sao_Paulo"
    variant: str = "brazilian-64"
    format: Format = Format.MICRO_MATCH
    planned_rounds: int = 7
    minutes_per_game: int = 0
    # points per game
    score_win: Number = 2
    score_draw: Number = 1
    score_loss: Number = 0
    score_forfeit_loss: Number | None = None  # a forfeit lost, when not worth a loss (an imported point system)
    score_zero_bye: Number | None = None  # a round not played at zero, when not worth a loss (idem)
    bye_value: ByeValue = ByeValue.WIN
    bye_points: Number | None = None  # per game, when the bye is worth neither a win nor a draw (idem)
    absence_value: str = "zero"  # an announced absence without its own value: zero or draw
    acceleration: str = "none"
    tiebreak_profile: str = "cbjd"
    tiebreak_keys: tuple[str, ...] = ()
    tiebreak_edition: UnplayedRules = UnplayedRules.FIDE2026
    corrected_progressive_cut: int = 1
    corrected_progressive_unplayed: bool = True
    progressive_move: str = "end"
    top3_order: str = "buchholz"
    top3_scope: str = "tie"
    direct_encounter_scope: str = "pair"
    acceleration_order: str = "buchholz"
    provisional_rating: int = 1600
    participant_rule: str = "played"
    spot_tie_rule: str = "committee"
    min_participants: int = 30
    pairing_program_rule: str = "named"
    opening_table: str = ""  # the code of the opening table in use ("" = free openings)
    opening_table_name: str = ""  # its name ("Tabela oficial IDF (64 casas)"; "" when unknown: a submitted file)
    rating_list_name: str = ""
    rating_list_date: date | None = None
    homologation_exported_at: datetime | None = None
    # readings of issue 26 (models.choices values)
    time_unit: str = "game"
    tablita_100: str = "required"
    unrated_in_average: str = "provisional"
    spots_min_entries: int = 0
    double_spot_rule: str = "both"
    # issue 35.1: a stage of the national circuit is judged by ``edition`` (its numbers and readings are the
    # fields above, taken from it by the builders); a club event sets its own and earns no rights
    circuit_stage: bool = True
    edition: Edition = field(default_factory=current_text)

    @property
    def games_per_round(self) -> int:
        return self.format.games_per_round

    @property
    def scoring(self) -> Scoring:
        return Scoring(self.score_win, self.score_draw, self.score_loss, self.score_forfeit_loss)

    @property
    def acceleration_used(self) -> bool:
        return self.acceleration not in ("", "none")

    @property
    def bye_round_points(self) -> Number:
        """Points of the pairing-allocated bye (a round)."""
        if self.bye_points is not None:
            return exact(self.bye_points * self.games_per_round)
        per_game = self.score_win if self.bye_value == ByeValue.WIN else self.score_draw
        return exact(per_game * self.games_per_round)

    def absence_round_points(self, value: str = "") -> Number:
        """Points of an announced absence: its own value (``zero``/``draw``/``win``), else the tournament's."""
        value = value or self.absence_value
        per_game = {"win": self.score_win, "draw": self.score_draw}.get(value, self.zero_points)
        return exact(per_game * self.games_per_round)

    @property
    def zero_points(self) -> Number:
        """Per game, a round not played at zero: a loss, unless an imported point system gives it its own value."""
        return self.score_loss if self.score_zero_bye is None else self.score_zero_bye

    @property
    def unpaired_round_points(self) -> Number:
        """A round in which an entry was not paired and announced nothing: zero, or an imported zero-point bye."""
        return 0 if self.score_zero_bye is None else exact(self.score_zero_bye * self.games_per_round)


def stage_settings(settings: SnapSettings) -> SnapSettings:
    """A circuit stage's settings: its edition's minimum of participants and readings in place of whatever the
    event or its file says (issue 35.1). A club event's are its own."""
    if not settings.circuit_stage:
        return settings
    values = settings.edition.settings_values()
    values["tiebreak_edition"] = UnplayedRules(values["tiebreak_edition"])
    return replace(settings, **values)


class SnapPlayer(NamedTuple):
    """The player of an entry, as the reports show it."""

    name: str
    state: str = ""
    sex: str = ""
    birth_date: date | None = None
    birth_year: int | None = None
    club: str = ""
    cbjd_id: str | None = None
    title: str = ""
    federation: str = ""
    foreign_id: str = ""
    title_as_written: str = ""
    pk: int | None = None
    rated_games: int = 0  # the rated games the registry counts for the player (the rating method's K)


class SnapEntry(NamedTuple):
    """An entry. ``pk``: the entry's id (in a file: the player's id); ``number``: its id in the standings (the
    pairing number; before round 1 the next numbers by rating, :func:`standings_numbers`)."""

    pk: int
    number: int
    pairing_number: int | None
    rating: int | None
    player: SnapPlayer
    fmjd_rating: int | None = None
    withdrawn_from_round: int | None = None
    withdrawal_kind: str = ""
    late_entry_round: int | None = None
    declared_adult: bool = False
    rating_kept_reason: str = ""
    categories: tuple[str, ...] = ()  # category codes
    accelerations: tuple[float, ...] = ()
    # game points given or taken outside the games (a TRF's 299 lines), the reason, the lines as written
    points_adjustment: Number = 0
    points_adjustment_reason: str = ""
    adjustment_lines: tuple[dict[str, Any], ...] = ()

    @property
    def id(self) -> int:
        return self.pk

    def is_out_for_round(self, number: int) -> bool:
        """Withdrawn from round ``number``, or entered after it."""
        if self.withdrawn_from_round and number >= self.withdrawn_from_round:
            return True
        return bool(self.late_entry_round and number < self.late_entry_round)


class SnapOpening(NamedTuple):
    code: str
    moves: str = ""
    pk: int | None = None


class SnapBoard(NamedTuple):
    """A board: its two entries (``pk``; ``None`` when a seat is empty) and its games, ``(number, code)`` by
    number, the code seen from that game's White (``None`` while not entered). The first entry has White in
    game 1."""

    number: int
    first: int | None
    second: int | None
    games: tuple[tuple[int, str | None], ...]
    opening: SnapOpening | None = None
    colourless: bool = False  # a forfeit without colours (an imported file)
    pk: int | None = None

    @property
    def complete(self) -> bool:
        """The board has its games and every one its result."""
        return bool(self.games) and all(code is not None for _n, code in self.games)

    @property
    def results(self) -> dict[int, str | None]:
        return dict(self.games)


class SnapOneSided(NamedTuple):
    """A round an imported file gives for one player alone (its opponent's line says otherwise, or it is a second
    bye): counted for that player as written. ``result``: the TRF character ``1 = 0 + - U``."""

    entry: int  # pk
    opponent: int | None  # the opponent's standings number (None for ``U``)
    colour: str  # "w", "b" or ""
    result: str


_GAMES = attrgetter("games")


@dataclass(frozen=True)
class SnapRound:
    number: int
    status: str = PUBLISHED
    boards: tuple[SnapBoard, ...] = ()
    byes: tuple[int, ...] = ()  # entries (pk) given the pairing-allocated bye
    one_sided: tuple[SnapOneSided, ...] = ()
    opening: SnapOpening | None = None
    engine: str = ""
    manually_edited: bool = False
    paired_at: datetime | None = None
    pk: int | None = None
    # the fingerprints stored when the pairing was published and the results complete (issue 35.4; "" not yet)
    fingerprints: tuple[str, str] = ("", "")
    # the reasons recorded for a change since (pairing, results): the audit log's lines, or an imported file's
    fingerprint_reasons: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    @property
    def is_published(self) -> bool:
        return self.status == PUBLISHED

    @cached_property
    def complete(self) -> bool:
        """Every game of every board has its result (worked out once: the snapshot is immutable). Boards share
        their games' tuple when they have the same games (the database reader builds each distinct one once):
        each distinct tuple is checked once."""
        distinct = {id(games): games for games in map(_GAMES, self.boards)}
        return all(games and all(code is not None for _n, code in games) for games in distinct.values())

    @property
    def pending_games(self) -> int:
        return sum(1 for board in self.boards for _n, code in board.games if code is None)

    def seated(self) -> set[int]:
        """Entries (pk) on a board of the round (both seats filled) or on the bye."""
        out = set(self.byes)
        for board in self.boards:
            if board.first is not None and board.second is not None:
                out.add(board.first)
                out.add(board.second)
        return out


class SnapCategory(NamedTuple):
    code: str
    name: str = ""
    pk: int | None = None


@dataclass(frozen=True)
class Snapshot:
    """Everything the reports read about one tournament. ``rounds``: every round read, by number (for the public,
    the published ones only); ``absences``: (entry pk, round number) -> own value ("" = the tournament's);
    ``entries``: by pairing number."""

    settings: SnapSettings
    entries: tuple[SnapEntry, ...]
    rounds: tuple[SnapRound, ...]
    categories: tuple[SnapCategory, ...] = ()
    absences: Mapping[tuple[int, int], str] = field(default_factory=dict)
    public: bool = False
    # the settings that decide the homologation changed after round 1 (issue 26): judged as they were before
    settings_changes: tuple[SettingsChange, ...] = ()
    # {entry pk: rating as played} of the ratings changed after round 1 (issue 35.3, :func:`played_ratings`): what
    # the spots' averages, the tiebreaks and the check of round 1 read; the entries keep their current rating
    played_ratings: Mapping[int, int | None] = field(default_factory=dict)

    def rating_as_played(self, e: SnapEntry) -> int | None:
        """The entry's rating as the event was played (frozen at round 1)."""
        return self.played_ratings.get(e.pk, e.rating) if self.played_ratings else e.rating

    def entry(self, pk: int) -> SnapEntry:
        for e in self.entries:
            if e.pk == pk:
                return e
        raise KeyError(pk)

    def by_pk(self) -> dict[int, SnapEntry]:
        return {e.pk: e for e in self.entries}

    def by_number(self) -> dict[int, SnapEntry]:
        return {e.number: e for e in self.entries}


def played_ratings(entries: Iterable[SnapEntry], changes: Iterable[SettingsChange]) -> dict[int, int | None]:
    """{entry pk: its rating as played} of the entries whose rating changed after round 1: the value before its
    first change (issue 35.3, art. 4: the ratings are frozen when round 1 is paired), in the venue's snapshot and
    in the file's alike. Empty when none changed."""
    played = first_ratings(changes)
    if not played:
        return {}
    out = {}
    for e in entries:
        for key, rating in played:
            if same_player(key, e.player.cbjd_id, e.player.name):
                out[e.pk] = rating
                break
    return out


def standings_numbers(entries: Iterable[tuple[int, int | None, int | None, str]], provisional: int) -> dict[int, int]:
    """The standings number of each entry (``(pk, pairing number, rating, name)``): its pairing number; entries
    without one (before round 1) get the next numbers by rating, then name."""
    entries = list(entries)
    ids = {pk: number for pk, number, _rating, _name in entries if number is not None}
    missing = sorted(
        (e for e in entries if e[1] is None),
        key=lambda e: (-(e[2] if e[2] is not None else provisional), e[3], e[0]),
    )
    nxt = max(ids.values(), default=0)
    for e in missing:
        nxt += 1
        ids[e[0]] = nxt
    return ids


def counted_rounds(snapshot: Snapshot) -> tuple[SnapRound, ...]:
    """The rounds the standings count: complete rounds 1..R without a gap (for the public, published ones: the
    public snapshot reads no draft)."""
    out = []
    for expected, rnd in enumerate(snapshot.rounds, start=1):
        if rnd.number != expected or not rnd.complete or (snapshot.public and not rnd.is_published):
            break
        out.append(rnd)
    return tuple(out)


# (games of a board, scoring) -> the two sides' (kind, points, games): a large event repeats a handful of them.
_Template = tuple[RoundKind, Number | None, tuple[GameResult, ...]]
_SHAPES: dict[tuple[Scoring, tuple[tuple[int, str | None], ...]], tuple[_Template, _Template]] = {}


def _side_games(games: Sequence[tuple[int, str | None]], first: bool) -> list[GameResult]:
    out = []
    for number, code in games:
        if code is None:
            raise ValueError("a board without every result gives no record")
        white, black = RESULTS_BY_CODE[code]
        first_is_white = number % 2 == 1
        out.append(white if first_is_white == first else black)
    return out


def _shape(games: tuple[tuple[int, str | None], ...], scoring: Scoring) -> tuple[_Template, _Template]:
    key = (scoring, games)
    shape = _SHAPES.get(key)
    if shape is None:
        a = RoundRecord.from_games(0, _side_games(games, True), scoring)
        b = RoundRecord.from_games(0, _side_games(games, False), scoring)
        shape = _SHAPES[key] = ((a.kind, a.points, a.games), (b.kind, b.points, b.games))
    return shape


def board_records(board: SnapBoard, numbers: Mapping[int, int], scoring: Scoring) -> tuple[RoundRecord, RoundRecord]:
    """What a complete board gave its first and second entry (``numbers``: entry pk -> standings number)."""
    assert board.first is not None and board.second is not None
    (k1, p1, g1), (k2, p2, g2) = _shape(board.games, scoring)
    return RoundRecord(k1, numbers[board.second], p1, g1), RoundRecord(k2, numbers[board.first], p2, g2)


class OffBoard(StrEnum):
    """Why an entry was on no board of a round (and not on the bye)."""

    ONE_SIDED = "one_sided"  # the imported file kept the round for this player alone: counted as written
    LATE = "late"  # not entered yet
    WITHDRAWN = "withdrawn"
    ANNOUNCED = "announced"  # an announced absence (its own value, or the tournament's)
    NOT_PAIRED = "not_paired"  # not paired, nothing announced


_ONE_SIDED_GAME = {
    "1": GameResult.WIN,
    "=": GameResult.DRAW,
    "0": GameResult.LOSS,
    "+": GameResult.FORFEIT_WIN,
    "-": GameResult.FORFEIT_LOSS,
}


def one_sided_record(item: SnapOneSided, settings: SnapSettings) -> RoundRecord:
    """A one-sided round as the player's line writes it: ``U`` the bye, else one game from the player's side."""
    if item.result == "U":
        return RoundRecord(RoundKind.BYE, points=settings.bye_round_points)
    opponent = item.opponent if item.opponent is not None else 0
    return RoundRecord.from_games(opponent, [_ONE_SIDED_GAME[item.result]], settings.scoring)


def off_board(snapshot: Snapshot, rnd: SnapRound, entry: SnapEntry) -> tuple[OffBoard, RoundRecord]:
    """Why ``entry`` was on no board of ``rnd`` (and not on its bye), and the record that round gives it."""
    settings = snapshot.settings
    for item in rnd.one_sided:
        if item.entry == entry.pk:
            return OffBoard.ONE_SIDED, one_sided_record(item, settings)
    return _unseated(snapshot, rnd.number, entry)


def _unseated(snapshot: Snapshot, number: int, entry: SnapEntry) -> tuple[OffBoard, RoundRecord]:
    settings = snapshot.settings
    if entry.late_entry_round and number < entry.late_entry_round:
        return OffBoard.LATE, RoundRecord(RoundKind.NOT_ENTERED, points=0)
    if entry.withdrawn_from_round and number >= entry.withdrawn_from_round:
        return OffBoard.WITHDRAWN, RoundRecord(RoundKind.WITHDRAWN, points=0)
    value = snapshot.absences.get((entry.pk, number))
    if value is not None:
        return OffBoard.ANNOUNCED, RoundRecord(RoundKind.ABSENT, points=settings.absence_round_points(value))
    return OffBoard.NOT_PAIRED, RoundRecord(RoundKind.ABSENT, points=settings.unpaired_round_points)


def round_records(snapshot: Snapshot, rounds: Sequence[SnapRound] | None = None) -> dict[int, list[RoundRecord]]:
    """Per entry (pk), its record of each of ``rounds`` (default: the counted rounds), in order. Every round must
    be complete."""
    if rounds is None:
        rounds = counted_rounds(snapshot)
    filled = _seated_records(snapshot, rounds)
    return {entry.pk: _fill_off_board(snapshot, rounds, entry, filled[entry.pk]) for entry in snapshot.entries}


def _seated_records(snapshot: Snapshot, rounds: Sequence[SnapRound]) -> dict[int, list[RoundRecord | None]]:
    """Per entry (pk), the records its boards and byes of ``rounds`` give it (None where it was on neither)."""
    settings = snapshot.settings
    scoring = settings.scoring
    numbers = {e.pk: e.number for e in snapshot.entries}
    filled: dict[int, list[RoundRecord | None]] = {e.pk: [None] * len(rounds) for e in snapshot.entries}
    bye = RoundRecord(RoundKind.BYE, points=settings.bye_round_points)
    shapes: dict[tuple[tuple[int, str | None], ...], tuple[_Template, _Template]] = {}
    for index, rnd in enumerate(rounds):
        for pk in rnd.byes:
            own = filled.get(pk)
            if own is not None:
                own[index] = bye
        for board in rnd.boards:
            first, second = board.first, board.second
            if first is None or second is None:
                continue
            games = board.games
            shape = shapes.get(games)
            if shape is None:
                if not board.complete:
                    raise ValueError(f"round {rnd.number}: a pending board cannot be in the standings")
                shape = shapes[games] = _shape(games, scoring)
            (k1, p1, g1), (k2, p2, g2) = shape
            filled[first][index] = RoundRecord(k1, numbers[second], p1, g1)
            filled[second][index] = RoundRecord(k2, numbers[first], p2, g2)
    return filled


# (reason, points) -> the record of a round on no board, shared by every entry it fits (records are immutable)
_OFF_BOARD: dict[tuple[OffBoard, Number | None], RoundRecord] = {}


def _fill_off_board(
    snapshot: Snapshot, rounds: Sequence[SnapRound], entry: SnapEntry, own: list[RoundRecord | None]
) -> list[RoundRecord]:
    """``own`` with every round the entry spent on no board filled by :func:`off_board`."""
    out: list[RoundRecord] = []
    for index, record in enumerate(own):
        if record is None:
            reason, record = off_board(snapshot, rounds[index], entry)
            if reason is not OffBoard.ONE_SIDED:
                record = _OFF_BOARD.setdefault((reason, record.points), record)
        out.append(record)
    return out


def standings_input(snapshot: Snapshot, records: Mapping[int, Sequence[RoundRecord]] | None = None) -> TournamentData:
    """The standings' input (``compute_standings``) of the counted rounds (``records``: :func:`round_records`)."""
    if records is None:
        records = round_records(snapshot)
    # every entry has a record of each counted round (no entry: count the rounds themselves)
    count = len(records[snapshot.entries[0].pk]) if snapshot.entries else len(counted_rounds(snapshot))
    settings = snapshot.settings
    players = tuple(
        PlayerData(
            id=e.number,
            name=e.player.name,
            rating=snapshot.rating_as_played(e),
            rounds=tuple(records[e.pk]),
            adjustment=e.points_adjustment or 0,  # 0 keeps whole-number scores ints
        )
        for e in snapshot.entries
    )
    return TournamentData(
        players=players,
        rounds_completed=count,
        planned_rounds=settings.planned_rounds,
        format=settings.format,
        scoring=settings.scoring,
        bye_value=settings.bye_value,
        acceleration_used=settings.acceleration_used,
        unplayed_rules=settings.tiebreak_edition,
        provisional_rating=settings.provisional_rating,
    )


def rounds_before(snapshot: Snapshot, number: int) -> tuple[SnapRound, ...]:
    """The rounds read before round ``number`` (the history the pairing of round ``number`` reads)."""
    return tuple(rnd for rnd in snapshot.rounds if rnd.number < number)


def colours_of(rounds: Iterable[SnapRound]) -> dict[tuple[int, int], str]:
    """{(entry pk, round number): ``"w"`` or ``"b"``} of every seat of ``rounds``: the first entry of a board has
    White in game 1; a one-sided round has the colour its line gives (none when it gives none)."""
    out: dict[tuple[int, int], str] = {}
    for rnd in rounds:
        number = rnd.number
        for board in rnd.boards:
            if board.first is not None and board.second is not None:
                out[(board.first, number)] = "w"
                out[(board.second, number)] = "b"
        for item in rnd.one_sided:
            if item.colour and (item.entry, number) not in out:
                out[(item.entry, number)] = item.colour
    return out


def opponent_points(record: RoundRecord, scoring: Scoring) -> Number:
    """The points the opponent of a paired round scored, from the record's games (the other side of each)."""
    total: Number = 0
    for game in record.games:
        total += scoring.game_points(game.mirror)
    return total


def partial_points(board: SnapBoard, scoring: Scoring) -> tuple[Number, Number]:
    """The points of a board's first and second entry from the games entered so far (all of them when complete)."""
    first: Number = 0
    second: Number = 0
    for number, code in board.games:
        if code is None:
            continue
        white, black = RESULTS_BY_CODE[code]
        mine, theirs = (white, black) if number % 2 == 1 else (black, white)
        first += scoring.game_points(mine)
        second += scoring.game_points(theirs)
    return first, second
