"""The round pages' reads, with their prefetching, and the pairing's round history. Everything here returns model
instances with their relations loaded, or plain data."""

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch, Q

from tournaments.models import Absence, Board, Entry, Game, OneSidedRound, Round, Seat, Tournament
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
