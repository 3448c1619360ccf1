"""Reads that need prefetching. Everything here returns model instances with their relations loaded, or plain data."""

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.db.models import FilteredRelation, Prefetch, Q

from tournaments.models import Absence, Board, Entry, Game, OneSidedRound, RatingList, Round, Seat, Tournament
from tournaments.models.choices import ByeValue, OwnAbsenceValue, RoundStatus, SeatSide
from tournaments.rounds.scoring import board_points, is_complete, is_played


@dataclass
class RoundRecord:
    """What happened to one entry in one round, in plain data."""

    round: int
    kind: str  # played, forfeit_win, forfeit_loss, double_forfeit, pab, absent, withdrawn, late, pending
    points: Decimal
    opponent: int | None = None  # pairing number
    colour: str | None = None  # "w" if first (White in game 1), "b" if second
    board: int | None = None
    results: dict[int, str | None] = field(default_factory=dict)  # game number -> code, from that game's White
    opponent_points: Decimal | None = None
    one_sided: bool = False  # kept for this player alone (models.OneSidedRound): on no board, as the file wrote it


# Per entry id, what happened to it round by round.
History = dict[int, list[RoundRecord]]


def scoring_of(tournament: Tournament) -> dict[str, Decimal]:
    scoring = {"win": tournament.score_win, "draw": tournament.score_draw, "loss": tournament.score_loss}
    if tournament.score_forfeit_loss is not None:
        scoring["forfeit_loss"] = tournament.score_forfeit_loss
    return scoring


def bye_points(tournament: Tournament) -> Decimal:
    if tournament.bye_points is not None:  # worth neither a win nor a draw (an imported point system)
        return tournament.bye_points * tournament.games_per_round
    per_game = tournament.score_win if tournament.bye_value == ByeValue.WIN else tournament.score_draw
    return per_game * tournament.games_per_round


def absence_points(tournament: Tournament, value: str = "") -> Decimal:
    """Points of an announced absence: its own value (an imported absence: zero, draw or win), else the
    tournament's setting."""
    value = value or tournament.absence_value
    values: dict[str, Decimal] = {
        OwnAbsenceValue.WIN: tournament.score_win,
        OwnAbsenceValue.DRAW: tournament.score_draw,
    }
    per_game = values.get(value, zero_points(tournament))
    return per_game * tournament.games_per_round


def zero_points(tournament: Tournament) -> Decimal:
    """Per game, a round not played at zero (an announced absence worth zero): a loss, unless an imported point
    system gives it its own value (a TRF's zero-point bye)."""
    return tournament.score_loss if tournament.score_zero_bye is None else tournament.score_zero_bye


def absence_values(tournament: Tournament) -> dict[tuple[int, int], str]:
    """{(entry id, round number): own value ("" = the tournament's setting)} of every announced absence."""
    return {
        (entry_id, number): value
        for entry_id, number, value in Absence.objects.filter(entry__tournament=tournament).values_list(
            "entry_id", "round_number", "value"
        )
    }


def rounds_with_boards(
    tournament: Tournament, published_only: bool = False, upto: int | None = None, number: int | None = None
) -> list[Round]:
    """Rounds (all, up to ``upto``, or just ``number``) with boards, seats (with entries and players) and games:
    a fixed number of queries whatever the number of boards."""
    rounds = Round.objects.filter(tournament=tournament).select_related("opening")
    if published_only:
        rounds = rounds.filter(status=RoundStatus.PUBLISHED)
    if upto is not None:
        rounds = rounds.filter(number__lte=upto)
    if number is not None:
        rounds = rounds.filter(number=number)
    seats = Seat.objects.select_related("entry__player")
    boards = (
        Board.objects.select_related("opening")
        .order_by("number")
        .prefetch_related(
            Prefetch("seats", queryset=seats), Prefetch("games", queryset=Game.objects.order_by("number"))
        )
    )
    return list(
        rounds.order_by("number").prefetch_related(
            Prefetch("boards", queryset=boards),
            Prefetch("seats", queryset=seats.filter(side=SeatSide.BYE), to_attr="bye_seats"),
        )
    )


def board_pair(board: Board) -> tuple[Entry | None, Entry | None]:
    """(first entry, second entry) of a board from its prefetched seats."""
    first = second = None
    for seat in board.seats.all():
        if seat.side == SeatSide.FIRST:
            first = seat.entry
        elif seat.side == SeatSide.SECOND:
            second = seat.entry
    return first, second


def entries_in_order(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .prefetch_related("categories")
        .order_by("pairing_number", "id")
    )


class PlayerRow(NamedTuple):
    """A player as the overall standings read it (``Entry.player``'s fields the pages show)."""

    pk: int
    name: str
    state: str


class EntryRow(NamedTuple):
    """An entry as the overall standings read it: a database row, not a model instance (``standings_rows``).
    Answers what the standings and their table read of an ``Entry`` (``pk``, ``player.name``, ...); nothing else."""

    pk: int
    pairing_number: int | None
    rating: int | None
    withdrawn_from_round: int | None
    withdrawal_kind: str
    late_entry_round: int | None
    player: PlayerRow

    @property
    def id(self) -> int:
        return self.pk


# A board as the overall standings read it: (round id, first's entry id, second's entry id, game 1's number and
# result, game 2's number and result); an entry id is None when that seat is empty, a game's number is None when
# the board has no such game (a game's number is 1 or 2: a database constraint).
BoardRow = tuple[int, int | None, int | None, int | None, str | None, int | None, str | None]


@dataclass
class StandingsRows:
    """What the overall standings read from the database, as plain rows (see :func:`standings_rows`)."""

    rounds: list[tuple[int, int, str]]  # (round id, number, status) by number
    incomplete: set[int]  # ids of the rounds with a game still without result
    boards: list[BoardRow]
    byes: list[tuple[int, int]]  # (round id, entry id) of the pairing-allocated byes
    entries: list[EntryRow]  # by pairing number, then id
    absences: dict[int, dict[int, str]]  # entry id -> round number -> own value ("": the tournament's)


def standings_rows(tournament: Tournament, published_only: bool = True) -> StandingsRows:
    """The rounds, boards (each with its two seats and two games), byes, entries (with their players) and
    announced absences of a tournament as plain rows (``values_list``: no model instance), in a fixed number of
    queries whatever the number of players and rounds: on a 1,000-player, 11-round event the model instances
    (and the lean objects built from them) were most of the overall standings page's time. A board is one row
    (its seats and games joined to it: half the rows of reading seats and games apart, and nothing to regroup).
    ``published_only``: only published rounds (the public pages)."""
    rounds = Round.objects.filter(tournament=tournament)
    boards = Board.objects.filter(round__tournament=tournament)
    byes = Seat.objects.filter(round__tournament=tournament, side=SeatSide.BYE)
    if published_only:
        rounds = rounds.filter(status=RoundStatus.PUBLISHED)
        boards = boards.filter(round__status=RoundStatus.PUBLISHED)
        byes = byes.filter(round__status=RoundStatus.PUBLISHED)
    board_rows: list[BoardRow] = list(
        boards.annotate(
            first=FilteredRelation("seats", condition=Q(seats__side=SeatSide.FIRST)),
            second=FilteredRelation("seats", condition=Q(seats__side=SeatSide.SECOND)),
            game1=FilteredRelation("games", condition=Q(games__number=1)),
            game2=FilteredRelation("games", condition=Q(games__number=2)),
        )
        .order_by()
        .values_list(
            "round_id",
            "first__entry_id",
            "second__entry_id",
            "game1__number",
            "game1__result",
            "game2__number",
            "game2__result",
        )
    )
    incomplete = {
        row[0]
        for row in board_rows
        if (row[3] is not None and row[4] is None) or (row[5] is not None and row[6] is None)
    }
    new_entry, new_player = EntryRow._make, PlayerRow._make
    entries = [
        new_entry((*row[:6], new_player(row[6:])))
        for row in Entry.objects.filter(tournament=tournament)
        .order_by("pairing_number", "id")
        .values_list(
            "id",
            "pairing_number",
            "rating",
            "withdrawn_from_round",
            "withdrawal_kind",
            "late_entry_round",
            "player_id",
            "player__name",
            "player__state",
        )
    ]
    absences: dict[int, dict[int, str]] = {}
    for (entry_id, number), value in absence_values(tournament).items():
        absences.setdefault(entry_id, {})[number] = value
    return StandingsRows(
        rounds=list(rounds.order_by("number").values_list("id", "number", "status")),
        incomplete=incomplete,
        boards=board_rows,
        byes=list(byes.order_by().values_list("round_id", "entry_id")),
        entries=entries,
        absences=absences,
    )


def board_shape(results: dict[int, str | None], scoring: dict[str, Decimal]) -> tuple[Decimal, Decimal, str, str]:
    """(first's points, second's points, first's kind, second's kind) of a board from its results."""
    p1, p2 = board_points(results, scoring)
    complete = is_complete(results)
    played = is_played(results)
    kinds = []
    for mine, theirs in ((p1, p2), (p2, p1)):
        if not complete:
            kinds.append("pending")
        elif played:
            kinds.append("played")
        elif mine > theirs:
            kinds.append("forfeit_win")
        elif mine < theirs:
            kinds.append("forfeit_loss")
        else:
            kinds.append("double_forfeit")
    return p1, p2, kinds[0], kinds[1]


def tournament_history(
    tournament: Tournament, rounds: list[Round] | None = None, entries: list[Entry] | None = None
) -> tuple[list[Entry], list[Round], History]:
    """Per entry id: the list of RoundRecord for every round given (default: every round, drafts included).

    Returns (entries, rounds, history).
    """
    if rounds is None:
        rounds = rounds_with_boards(tournament)
    if entries is None:
        entries = entries_in_order(tournament)
    scoring = scoring_of(tournament)
    absences: defaultdict[int, dict[int, str]] = defaultdict(dict)
    for (entry_id, number), value in absence_values(tournament).items():
        absences[entry_id][number] = value
    by_id = {e.pk: e for e in entries}
    history: History = {e.pk: [] for e in entries}
    # what a board's results give each side depends only on the results: worked out once per distinct set of codes
    # (a large event repeats a handful of them on thousands of boards)
    shapes: dict[tuple, tuple] = {}
    one_sided = one_sided_records(tournament, scoring) if tournament.has_one_sided_rounds else {}
    unpaired = unpaired_points(tournament)
    for rnd in rounds:
        seen = set()
        for board in rnd.boards.all():
            first, second = board_pair(board)
            if first is None or second is None:
                continue
            results = {g.number: g.result for g in board.games.all()}
            key = tuple(results.items())
            shape = shapes.get(key)
            if shape is None:
                shape = shapes[key] = board_shape(results, scoring)
            p1, p2, kind1, kind2 = shape
            first_pk, second_pk = first.pk, second.pk
            own = history.get(first_pk)
            if own is not None:
                own.append(RoundRecord(rnd.number, kind1, p1, second.pairing_number, "w", board.number, results, p2))
            own = history.get(second_pk)
            if own is not None:
                own.append(RoundRecord(rnd.number, kind2, p2, first.pairing_number, "b", board.number, results, p1))
            seen.add(first_pk)
            seen.add(second_pk)
        for seat in rnd.bye_seats:  # type: ignore[attr-defined]  # the prefetch of rounds_with_boards
            if seat.entry_id in history:
                history[seat.entry_id].append(RoundRecord(rnd.number, "pab", bye_points(tournament)))
            seen.add(seat.entry_id)
        for entry_id, record in one_sided.get(rnd.number, {}).items():
            if entry_id in history and entry_id not in seen:
                history[entry_id].append(record)
                seen.add(entry_id)
        for entry_id, records in history.items():
            if entry_id in seen:
                continue
            entry = by_id[entry_id]
            kind, points = unseated_round(
                tournament, rnd.number, entry.late_entry_round, entry.withdrawn_from_round, absences, entry_id, unpaired
            )
            records.append(RoundRecord(rnd.number, kind, points))
    return entries, rounds, history


def unseated_round(
    tournament: Tournament,
    number: int,
    late_entry_round: int | None,
    withdrawn_from_round: int | None,
    absences: Mapping[int, Mapping[int, str]],
    entry_id: int,
    unpaired: Decimal,
) -> tuple[str, Decimal]:
    """(kind, points) of round ``number`` for an entry on no board, not the bye, without a one-sided round:
    before its late entry, withdrawn, an announced absence (``absences``: entry id -> round number -> own value),
    else unpaired (``unpaired``: zero, or an imported point system's zero-point bye, per round)."""
    if late_entry_round and number < late_entry_round:
        return "late", Decimal(0)
    if withdrawn_from_round and number >= withdrawn_from_round:
        return "withdrawn", Decimal(0)
    own = absences.get(entry_id)
    if own is not None and number in own:
        return "absent", absence_points(tournament, own[number])
    return "absent", unpaired


def unpaired_points(tournament: Tournament) -> Decimal:
    """Points of a round in which an entry was not paired and announced nothing: zero, or an imported point
    system's zero-point bye."""
    return Decimal(0) if tournament.score_zero_bye is None else tournament.score_zero_bye * tournament.games_per_round


# A one-sided round's result character -> (kind, the game's code from White's view when the player is White, and
# when the player is Black or has no colour).
_ONE_SIDED = {
    "1": ("played", "1-0", "0-1"),
    "=": ("played", "1/2", "1/2"),
    "0": ("played", "0-1", "1-0"),
    "+": ("forfeit_win", "+/-", "-/+"),
    "-": ("forfeit_loss", "-/+", "+/-"),
}


def one_sided_records(
    tournament: Tournament, scoring: dict[str, Decimal], number: int | None = None
) -> dict[int, dict[int, RoundRecord]]:
    """{round number: {entry id: record}} of the rounds an imported file gives for one player alone
    (``models.OneSidedRound``; of round ``number`` only when given): each counted as that player's line says,
    whatever the opponent's says."""
    out: defaultdict[int, dict[int, RoundRecord]] = defaultdict(dict)
    rows = OneSidedRound.objects.filter(round__tournament=tournament)
    if number is not None:
        rows = rows.filter(round__number=number)
    for rnum, entry_id, opponent, colour, result in rows.values_list(
        "round__number", "entry_id", "opponent__pairing_number", "colour", "result"
    ):
        if result == "U":
            out[rnum][entry_id] = RoundRecord(rnum, "pab", bye_points(tournament), one_sided=True)
            continue
        kind, as_white, as_black = _ONE_SIDED[result]
        results: dict[int, str | None] = {1: as_white if colour == "w" else as_black}
        mine, theirs = board_points(results, scoring) if colour == "w" else board_points(results, scoring)[::-1]
        out[rnum][entry_id] = RoundRecord(rnum, kind, mine, opponent, colour or None, None, results, theirs, True)
    return out


def round_one_sided(tournament: Tournament, rnd: Round) -> list[tuple[Entry, RoundRecord, Entry | None]]:
    """(entry with its player, record, opponent with its player or None) of every round an imported file gives for
    one player alone in ``rnd`` (a round of :func:`rounds_with_boards`), by pairing number: none and no query
    unless the tournament has such rounds, else two queries whatever their number. An entry seated in the round
    is left out, as :func:`tournament_history` leaves it out (its seat counts)."""
    if not tournament.has_one_sided_rounds:
        return []
    seated = {seat.entry_id for board in rnd.boards.all() for seat in board.seats.all()}
    seated |= {seat.entry_id for seat in rnd.bye_seats}  # type: ignore[attr-defined]  # rounds_with_boards
    records = {
        entry_id: record
        for entry_id, record in one_sided_records(tournament, scoring_of(tournament), rnd.number)
        .get(rnd.number, {})
        .items()
        if entry_id not in seated
    }
    if not records:
        return []
    numbers = {r.opponent for r in records.values() if r.opponent is not None}
    entries = Entry.objects.filter(tournament=tournament).filter(Q(pk__in=records) | Q(pairing_number__in=numbers))
    by_id, by_number = {}, {}
    for entry in entries.select_related("player"):
        by_id[entry.pk] = entry
        if entry.pairing_number is not None:
            by_number[entry.pairing_number] = entry
    out = [
        (by_id[entry_id], record, by_number.get(record.opponent) if record.opponent is not None else None)
        for entry_id, record in records.items()
    ]
    out.sort(key=lambda item: (item[0].pairing_number or 0, item[0].pk))
    return out


def missing_results(rnd: Round) -> list[int]:
    """Board numbers of the round with a game still without result."""
    return sorted(
        set(Game.objects.filter(board__round=rnd, result__isnull=True).values_list("board__number", flat=True))
    )


def latest_rating_list() -> RatingList | None:
    """The national rating list imported last into the registry, or None."""
    return RatingList.objects.order_by("-imported_at", "-id").first()


def rating_differences(tournament: Tournament) -> list[Entry]:
    """Before round 1: the entries whose rating differs from the registry's current one (they take it when round
    1 is paired, unless the director kept the rating of registration), with their players."""
    return [
        e
        for e in Entry.objects.filter(tournament=tournament).select_related("player").order_by("player__name")
        if (e.rating, e.fmjd_rating) != (e.player.rating, e.player.fmjd_rating)
    ]
