"""Writes of the reporting feature. Each public function owns its transaction.

A player's report never touches a game: ``reports_approve`` (the arbiter) writes results through
``game_record_result``, the service a typed result goes through, with its audit line and its version check.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.audit.services import Actor, audit
from tournaments.core import cache as page_versions
from tournaments.core import throttle
from tournaments.core.errors import ServiceError
from tournaments.core.throttle import Bound, Counted
from tournaments.models import (
    Board,
    Entry,
    PlayerCode,
    ReportingConfig,
    ResultReport,
    Round,
    Seat,
    Tournament,
)
from tournaments.models.choices import AuditAction
from tournaments.models.reporting import PIN_ALPHABET, PIN_LENGTH
from tournaments.reporting.selectors import CONFIRMED, ONE, current_round, reporting_enabled, round_report_states
from tournaments.rounds.results import game_record_result
from tournaments.rounds.scoring import white_is_first

# What a player may report for a game, from that game's White: the games played. Forfeits, absences and
# penalties are the arbiter's to record.
PLAYER_RESULTS = ("1-0", "1/2", "0-1")

# Guessing codes (issue 34.2): each address at a tournament has PIN_BOUND.free wrong codes, then waits before its
# next try, longer after each wrong one (2 s, 4 s, 8 s... up to 5 minutes), forgotten after an hour without a wrong
# code. Nothing is locked for the whole tournament: another phone, and the QR link of a card, still sign in at once.
# The arbiter sees the counts on the reporting page and may clear them (``code_failures_reset``).
PIN_BOUND = Bound("pin-address", free=5, first_wait=2, longest_wait=300, forget_after=3600)


def _new_pin() -> str:
    return "".join(secrets.choice(PIN_ALPHABET) for _ in range(PIN_LENGTH))


def _create_code(entry: Entry) -> PlayerCode:
    for _attempt in range(20):  # a PIN already taken in the tournament: draw another
        try:
            with transaction.atomic():
                return PlayerCode.objects.create(
                    entry=entry, tournament_id=entry.tournament_id, pin=_new_pin(), token=secrets.token_urlsafe(32)
                )
        except IntegrityError:
            continue
    raise ServiceError(_("Could not draw a free code; try again."))


@transaction.atomic
def codes_issue(*, tournament: Tournament, user: Actor) -> int:
    """Give a private code to every entry of the tournament that has none; the number given."""
    missing = Entry.objects.filter(tournament=tournament, player_code__isnull=True).select_for_update(of=("self",))
    made = [_create_code(entry) for entry in missing]
    if made:
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.REPORTING_CODES,
            summary=ngettext("%(n)d player code issued", "%(n)d player codes issued", len(made)) % {"n": len(made)},
        )
    return len(made)


@transaction.atomic
def code_reissue(*, entry: Entry, user: Actor) -> PlayerCode:
    """A new code for the entry: the old PIN and QR stop working, and so does every phone signed in with them."""
    code = PlayerCode.objects.select_for_update().filter(entry=entry).first()
    if code is None:
        code = _create_code(entry)
    else:
        for _attempt in range(20):
            pin = _new_pin()
            if not PlayerCode.objects.filter(tournament_id=entry.tournament_id, pin=pin).exists():
                break
        code.pin, code.token, code.generation = pin, secrets.token_urlsafe(32), code.generation + 1
        code.save()
    audit(
        tournament=entry.tournament,
        user=user,
        action=AuditAction.REPORTING_REISSUE,
        obj=entry,
        summary=_("New code for %(name)s") % {"name": entry.player.name},
    )
    return code


@transaction.atomic
def reporting_set_enabled(*, tournament: Tournament, enabled: bool, user: Actor) -> None:
    config, _created = ReportingConfig.objects.get_or_create(tournament=tournament)
    if config.enabled != enabled:
        config.enabled = enabled
        config.save()
        page_versions.bump(tournament.pk)  # the printed slips carry the reporting QR codes, or not
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.REPORTING_ENABLED if enabled else AuditAction.REPORTING_DISABLED,
            summary=_("Players may report their results") if enabled else _("Reporting by players turned off"),
        )


class TooManyAttempts(ServiceError):
    """Refused unread: this address waits ``wait`` more seconds."""

    def __init__(self, message: str, wait: int) -> None:
        super().__init__(message)
        self.wait = wait


def _by_address(tournament: Tournament, address: str) -> Counted:
    return Counted(PIN_BOUND, address, tournament.pk)


def code_sign_in(*, tournament: Tournament, pin: str = "", token: str = "", address: str) -> PlayerCode:
    """The code a player typed (``pin``) or scanned (``token``), or ServiceError. Wrong codes are counted per
    address at the tournament, atomically; after a few, that address waits before its next typed code
    (TooManyAttempts says how long). A card's QR link (a long random token nobody guesses) is never made to
    wait."""
    if not reporting_enabled(tournament):
        raise ServiceError(_("The arbiter has turned off result reporting by players in this tournament."))
    counted = [_by_address(tournament, address)]
    claim = throttle.claim(counted, enforce=not token)
    if not claim.allowed:
        raise TooManyAttempts(
            ngettext(
                "Too many wrong codes from this connection. Try again in %(n)d second, scan the QR of your card or "
                "ask the arbiter.",
                "Too many wrong codes from this connection. Try again in %(n)d seconds, scan the QR of your card or "
                "ask the arbiter.",
                claim.wait,
            )
            % {"n": claim.wait},
            claim.wait,
        )
    normal = "".join(pin.split()).upper().replace("-", "")
    code = None
    if token and len(token) <= 64:
        code = PlayerCode.objects.select_related("entry__player").filter(tournament=tournament, token=token).first()
    elif normal and len(normal) == PIN_LENGTH:
        code = PlayerCode.objects.select_related("entry__player").filter(tournament=tournament, pin=normal).first()
    if code is None:
        raise ServiceError(_("Unknown code. Check the code on your card (6 letters and digits)."))
    throttle.succeeded(counted)
    return code


def code_failures(tournament: Tournament) -> list[Any]:
    """The addresses with wrong codes at this tournament (not yet forgotten), for the reporting page."""
    return throttle.counters(kind=PIN_BOUND.kind, tournament=tournament)


@transaction.atomic
def code_failures_reset(*, tournament: Tournament, user: Actor, address: str = "") -> int:
    """The arbiter clears the wrong codes of one address (or of every address) at the tournament: its phones
    try again at once. Audited."""
    filters: dict[str, Any] = {"kind": PIN_BOUND.kind, "tournament": tournament}
    if address:
        filters["subject"] = address
    cleared = throttle.reset(**filters)
    if cleared:
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.REPORTING_ATTEMPTS,
            summary=_("Wrong codes cleared: %(what)s") % {"what": address or _("every address")},
        )
    return cleared


def _check_results(tournament: Tournament, results: dict[int, str]) -> dict[str, str]:
    games = (1, 2) if tournament.is_micro_match else (1,)
    if set(results) != set(games) or any(code not in PLAYER_RESULTS for code in results.values()):
        raise ServiceError(_("Give the result of every game of the board."))
    return {str(number): results[number] for number in games}


@transaction.atomic
def report_submit(*, entry: Entry, board: Board, results: dict[int, str]) -> ResultReport:
    """The entry's report of its board's games (each result seen from that game's White). Refused unless the
    board is the entry's in the current round, reporting is on, and the arbiter has not recorded the board."""
    tournament = entry.tournament
    if not reporting_enabled(tournament):
        raise ServiceError(_("The arbiter has turned off result reporting by players in this tournament."))
    board = Board.objects.select_for_update().select_related("round").get(pk=board.pk)
    rnd = current_round(tournament)
    if rnd is None or board.round_id != rnd.pk:
        raise ServiceError(_("This board is not in the current round."))
    if not Seat.objects.filter(board=board, entry=entry).exists():
        raise ServiceError(_("This code is not one of this board's players."))
    if board.games.filter(result__isnull=False).exists():
        raise ServiceError(_("The arbiter has already recorded this board's result; ask the arbiter to change it."))
    stored = _check_results(tournament, results)
    report, _created = ResultReport.objects.update_or_create(board=board, entry=entry, defaults={"results": stored})
    return report


def player_view_to_codes(i_am_first: bool, outcomes: dict[int, str]) -> dict[int, str]:
    """A player's "won / draw / lost" per game (``W``, ``D``, ``L``) as each game's White sees it."""
    codes = {}
    for number, outcome in outcomes.items():
        white_me = white_is_first(number) == i_am_first
        if outcome == "D":
            codes[number] = "1/2"
        elif outcome in ("W", "L"):
            codes[number] = "1-0" if (outcome == "W") == white_me else "0-1"
        else:
            raise ServiceError(_("Give the result of every game of the board."))
    return codes


@transaction.atomic
def reports_approve(*, rnd: Round, user: Actor, board_ids: list[int] | None = None) -> list[int]:
    """Write the reported results: every confirmed board of the round (``board_ids`` None), or the boards named
    (confirmed, or reported by one player: the arbiter confirms it). Boards in conflict, without a report, or
    already recorded are left as they are. All or nothing; the numbers of the boards written."""
    states = round_report_states(rnd)
    wanted = set(states) if board_ids is None else set(board_ids)
    written = []
    boards = {b.pk: b for b in Board.objects.filter(round=rnd, pk__in=wanted).order_by("number")}
    for board_id in sorted(boards, key=lambda pk: boards[pk].number):
        state = states.get(board_id)
        if state is None:
            continue
        if state.state == CONFIRMED:
            games = state.agreed
        elif state.state == ONE and board_ids is not None:
            games = state.reports[0][1]
        else:
            continue
        board = boards[board_id]
        game_record_result(board=board, results=dict(games or {}), expected_version=board.version, user=user)
        written.append(board.number)
    if written:
        audit(
            tournament=rnd.tournament,
            user=user,
            action=AuditAction.REPORTING_APPROVE,
            obj=rnd,
            summary=ngettext(
                "Round %(round)d: %(n)d board approved from the players' reports (%(boards)s)",
                "Round %(round)d: %(n)d boards approved from the players' reports (%(boards)s)",
                len(written),
            )
            % {"round": rnd.number, "n": len(written), "boards": ", ".join(map(str, written))},
        )
    return written
