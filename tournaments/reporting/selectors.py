"""Reads of the reporting feature: a player's board in the current round, and each board's report state."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Board, Entry, Game, ReportingConfig, ResultReport, Round, Seat, Tournament
from tournaments.models.choices import RoundStatus, SeatSide

NONE, ONE, CONFIRMED, CONFLICT, APPROVED = "none", "one", "confirmed", "conflict", "approved"
# The board's results are stored and differ from a player's report: the arbiter typed them (a conflict settled from
# the slip, or a report corrected), not an approval of what the players said (issue 37.9).
TYPED = "typed"


def reporting_enabled(tournament: Tournament) -> bool:
    config = ReportingConfig.objects.filter(tournament=tournament).values_list("enabled", flat=True).first()
    return True if config is None else bool(config)


def current_round(tournament: Tournament) -> Round | None:
    """The round the players are playing: the tournament's last published round."""
    return Round.objects.filter(tournament=tournament, status=RoundStatus.PUBLISHED).order_by("-number").first()


@dataclass(frozen=True)
class MyBoard:
    round: Round
    board: Board
    me: Entry
    opponent: Entry
    i_am_first: bool
    games: dict[int, str | None]  # the stored results (the arbiter's), game number -> code or None
    mine: dict[int, str] | None  # my report
    theirs: dict[int, str] | None  # the opponent's report

    @property
    def approved(self) -> bool:
        return bool(self.games) and all(code is not None for code in self.games.values())


def my_board(entry: Entry) -> MyBoard | None:
    """The entry's board in the current round (None when it has none: a bye, not paired, no round yet)."""
    rnd = current_round(entry.tournament)
    if rnd is None:
        return None
    seat = Seat.objects.filter(round=rnd, entry=entry, board__isnull=False).select_related("board").first()
    if seat is None or seat.board is None:
        return None
    other = Seat.objects.select_related("entry__player").exclude(pk=seat.pk).get(board=seat.board)
    games = dict(Game.objects.filter(board=seat.board).values_list("number", "result"))
    reports = {r.entry_id: _codes(r.results) for r in ResultReport.objects.filter(board=seat.board)}
    return MyBoard(
        round=rnd,
        board=seat.board,
        me=entry,
        opponent=other.entry,
        i_am_first=seat.side == SeatSide.FIRST,
        games=games,
        mine=reports.get(entry.pk),
        theirs=reports.get(other.entry_id),
    )


def _codes(results: dict) -> dict[int, str]:
    return {int(number): str(code) for number, code in results.items()}


@dataclass(frozen=True)
class BoardReports:
    state: str  # NONE, ONE, CONFIRMED, CONFLICT, APPROVED or TYPED
    reports: tuple[tuple[int, dict[int, str]], ...]  # (entry id, games) of each report, in the order made

    @property
    def agreed(self) -> dict[int, str] | None:
        """The games both players reported alike (a confirmed board), else None."""
        return self.reports[0][1] if self.state == CONFIRMED else None


def round_report_states(rnd: Round) -> dict[int, BoardReports]:
    """Board id -> its report state, for every board of the round that has a report (two queries)."""
    stored: dict[int, dict[int, str | None]] = {}
    for board_id, number, result in Game.objects.filter(board__round=rnd).values_list("board_id", "number", "result"):
        stored.setdefault(board_id, {})[number] = result
    by_board: dict[int, list[tuple[int, dict[int, str]]]] = {}
    for report in ResultReport.objects.filter(board__round=rnd).order_by("reported_at", "pk"):
        by_board.setdefault(report.board_id, []).append((report.entry_id, _codes(report.results)))
    states = {}
    for board_id, reports in by_board.items():
        results = stored.get(board_id, {})
        if results and all(r is not None for r in results.values()):
            state = APPROVED if all(games == results for _entry, games in reports) else TYPED
        elif len(reports) == 1:
            state = ONE
        else:
            state = CONFIRMED if reports[0][1] == reports[1][1] else CONFLICT
        states[board_id] = BoardReports(state=state, reports=tuple(reports))
    return states
