"""The round pages' reads, with their prefetching, and the pairing's read (the entries and the snapshot). Everything
here returns model instances with their relations loaded, or plain data."""

from decimal import Decimal
from typing import NamedTuple

from django.db.models import Prefetch

from tournaments.domain.model import RoundRecord
from tournaments.domain.snapshot import SnapOneSided, Snapshot, one_sided_record
from tournaments.models import Board, Entry, Game, OneSidedRound, Round, Seat, Tournament
from tournaments.models.choices import RoundStatus, SeatSide
from tournaments.standings.snapshot import read_snapshot, settings_of


def scoring_of(tournament: Tournament) -> dict[str, Decimal]:
    scoring = {"win": tournament.score_win, "draw": tournament.score_draw, "loss": tournament.score_loss}
    if tournament.score_forfeit_loss is not None:
        scoring["forfeit_loss"] = tournament.score_forfeit_loss
    return scoring


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


def pairing_read(tournament: Tournament) -> tuple[list[Entry], Snapshot]:
    """What the pairing reads: the entries with their players (by pairing number) and the tournament's snapshot
    (every round, drafts included), in a fixed number of queries. The history of each entry is the snapshot's
    (``pairing_bridge.build_state``)."""
    return entries_in_order(tournament), read_snapshot(tournament, public=False)


class OneSidedSeat(NamedTuple):
    """A round an imported file gives for one player alone, as the round pages show it: the entry and the opponent
    its line names (with their players; None for a bye), the colour (``"w"``, ``"b"`` or ``""``), the record the
    standings count (``domain.snapshot.one_sided_record``) and the game from the player's side (None without
    one)."""

    entry: Entry
    opponent: Entry | None
    colour: str
    record: RoundRecord
    code: str | None


# A one-sided round's result character -> the game's code from the player's side.
_OWN_CODE = {"1": "1-0", "=": "1/2", "0": "0-1", "+": "+/-", "-": "-/+"}


def round_one_sided(tournament: Tournament, rnd: Round) -> list[OneSidedSeat]:
    """Every round an imported file gives for one player alone in ``rnd`` (a round of :func:`rounds_with_boards`),
    by pairing number: none and no query unless the tournament has such rounds, else two queries whatever their
    number. An entry seated in the round is left out, as the snapshot leaves it out (its seat counts)."""
    if not tournament.has_one_sided_rounds:
        return []
    seated = {seat.entry_id for board in rnd.boards.all() for seat in board.seats.all()}
    seated |= {seat.entry_id for seat in rnd.bye_seats}  # type: ignore[attr-defined]  # rounds_with_boards
    rows = [
        row
        for row in OneSidedRound.objects.filter(round=rnd).values_list("entry_id", "opponent_id", "colour", "result")
        if row[0] not in seated
    ]
    if not rows:
        return []
    wanted = {row[0] for row in rows} | {row[1] for row in rows if row[1] is not None}
    by_id = {e.pk: e for e in Entry.objects.filter(tournament=tournament, pk__in=wanted).select_related("player")}
    settings = settings_of(tournament)
    out = []
    for entry_id, opponent_id, colour, result in rows:
        opponent = by_id.get(opponent_id) if opponent_id is not None else None
        number = opponent.pairing_number if opponent is not None else None
        record = one_sided_record(SnapOneSided(entry_id, number, colour or "", result), settings)
        out.append(OneSidedSeat(by_id[entry_id], opponent, colour or "", record, _OWN_CODE.get(result)))
    out.sort(key=lambda item: (item.entry.pairing_number or 0, item.entry.pk))
    return out


def missing_results(rnd: Round) -> list[int]:
    """Board numbers of the round with a game still without result."""
    return sorted(
        set(Game.objects.filter(board__round=rnd, result__isnull=True).values_list("board__number", flat=True))
    )
