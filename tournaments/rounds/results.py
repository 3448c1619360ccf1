"""Recording game results, safely when several arbiters type at once.

The board rows are locked (``select_for_update``: a real lock on PostgreSQL, taken in the order of their ids so
two saves never wait on each other crosswise) and their ``version`` compared.

``game_record_result`` (one board) refuses a save made on an older version with the value stored now.
``round_record_results`` (the results page, two arbiters splitting a round's boards) merges instead: on a board
another save changed since the form was opened, a box left as it was shown means "no change"; a typed value is
saved when the box it replaces is still what the form showed (or was empty), and the board is flagged, not saved,
only where a typed value differs from a value stored meanwhile. The other boards are saved, in one transaction
and a fixed number of queries whatever the number of boards.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit_row
from tournaments.core import cache
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.games.services import RuleConflict, audit_kept_conflict, check_record, result_conflicts
from tournaments.models import AuditEntry, Board, Game, Round, Tournament
from tournaments.models.choices import AuditAction
from tournaments.rounds.fingerprints import seal_results
from tournaments.rounds.scoring import RESULT_CODES, entry_label

Results = dict[int, str | None]


def describe(results: Mapping[int, str | None], micro: bool = True) -> str:
    """Each game's result in the product's notation, from the first player's side: "1: 2-0 / 2: …"."""
    return " / ".join(f"{n}: {entry_label(n, results.get(n), micro) or '…'}" for n in sorted(results))


class ReasonRequired(ServiceError):
    """Results already stored would change: the arbiter confirms and gives the reason (the audit log keeps it).
    ``corrections`` lists what would change, as sentences; ``stale`` the boards flagged meanwhile (page saves)."""

    def __init__(self, corrections: list[str], stale: list["StaleBoard"] | None = None) -> None:
        super().__init__(
            [*corrections, _("A correction changes a result already saved: confirm it and give the reason.")]
        )
        self.corrections = corrections
        self.stale = stale or []


def correction_text(board_number: int, game_number: int, old: str | None, new: str | None, micro: bool) -> str:
    return _("Board %(b)s: game %(g)s from %(old)s to %(new)s") % {
        "b": board_number,
        "g": game_number,
        "old": entry_label(game_number, old, micro),
        "new": entry_label(game_number, new, micro) or _("no result"),
    }


@dataclass(frozen=True)
class StaleBoard:
    """A board of a page save left unsaved: another save stored other values while the form was open."""

    board_id: int
    number: int
    stored: Results
    typed: Results

    def message(self, micro: bool) -> str:
        return _(
            "Board %(board)s was not saved: another arbiter saved %(stored)s while you typed %(typed)s. "
            "Check it and save it again."
        ) % {
            "board": self.number,
            "stored": describe(self.stored, micro),
            "typed": describe({**self.stored, **self.typed}, micro),
        }


@dataclass
class PageSave:
    """What a page save did: the numbers of the boards saved, and the boards flagged (not saved)."""

    saved: list[int] = field(default_factory=list)
    stale: list[StaleBoard] = field(default_factory=list)


@dataclass
class _Plan:
    board: Board
    current: Results
    changed: Results
    corrected: list[int]


def _check_values(board: Board, current: Results, results: Mapping[int, str | None]) -> list[str]:
    errors = []
    if not current:
        return [_("Board %(board)s has no games (it is a bye).") % {"board": board.number}]
    for number, code in results.items():
        if number not in current:
            errors.append(_("Board %(board)s has no game %(game)s.") % {"board": board.number, "game": number})
        elif code not in RESULT_CODES and code is not None:
            errors.append(
                _("Invalid result “%(code)s” for game %(game)s of board %(board)s.")
                % {"code": code, "game": number, "board": board.number}
            )
    return errors


def merge(
    current: Results, typed: Mapping[int, str | None], shown: Mapping[int, str | None] | None, up_to_date: bool
) -> tuple[Results, bool]:
    """(the changes to store, whether the board conflicts) for one board of a page save.

    ``current`` is stored now, ``typed`` what the form sends (a game absent = left alone), ``shown`` what the form
    showed (None when the form did not say). On an up-to-date form every typed value stands (an emptied box
    clears). On a form another save overtook: a box as it was shown is no change (with nothing known of what was
    shown, an empty box is no change); a value typed over what is still stored as shown (or over nothing) is
    saved; one that differs from a value stored meanwhile is a conflict."""
    changed: Results = {}
    conflict = False
    for n, code in typed.items():
        stored = current[n]
        if code == stored:
            continue
        if up_to_date:
            changed[n] = code
        elif shown is not None and n in shown:
            if code == shown[n]:
                continue
            if stored == shown[n]:
                changed[n] = code
            else:
                conflict = True
        elif code is None:
            continue
        elif stored is None:
            changed[n] = code
        else:
            conflict = True
    return changed, conflict


def _plan(board: Board, current: Results, changed: Results) -> _Plan:
    return _Plan(board, current, changed, [n for n in sorted(changed) if current[n] is not None])


def _rule_conflicts(
    tournament: Tournament, plans: list[_Plan], games: dict[int, list[Game]]
) -> list[tuple[Board, Game, list[str]]]:
    """(game, conflicts) for each changed game that has recorded moves."""
    kept = []
    for plan in plans:
        for game in games[plan.board.pk]:
            if game.number in plan.changed and game.pdn.strip():
                conflicts = result_conflicts(
                    tournament, game.number, check_record(tournament, game, game.pdn), plan.changed[game.number]
                )
                kept.append((plan.board, game, conflicts))
    return kept


def _write(
    tournament: Tournament, rnd: Round, plans: list[_Plan], games: dict[int, list[Game]], user: Actor, reason: str
) -> None:
    """Store the planned changes: the games, the boards' versions, one audit line per board; the page caches."""
    micro = tournament.is_micro_match
    touched = []
    for plan in plans:
        for game in games[plan.board.pk]:
            if game.number in plan.changed:
                game.result = plan.changed[game.number]
                touched.append(game)
    Game.objects.bulk_update(touched, ["result"], batch_size=500)
    Board.objects.filter(pk__in=[p.board.pk for p in plans]).update(version=F("version") + 1)
    rows = []
    for plan in plans:
        plan.board.version += 1
        new = {**plan.current, **plan.changed}
        rows.append(
            audit_row(
                tournament=tournament,
                user=user,
                action=AuditAction.RESULT_CORRECT if plan.corrected else AuditAction.RESULT_ENTER,
                obj=plan.board,
                summary=_("round %(r)s, board %(b)s") % {"r": rnd.number, "b": plan.board.number},
                old={"games": {str(k): v for k, v in plan.current.items()}},
                new={
                    "games": {str(k): v for k, v in new.items()},
                    "round": rnd.number,
                    "board": plan.board.number,
                    "micro": micro,
                },
                reason=reason if plan.corrected else "",
            )
        )
    AuditEntry.objects.bulk_create(rows, batch_size=500)
    if rnd.is_published:
        seal_results(rnd)  # issue 35.4: the results' fingerprint, once every result is in
    cache.bump(tournament.pk)


def _locked(rnd: Round, ids: Iterable[int]) -> tuple[dict[int, Board], dict[int, list[Game]]]:
    """The boards (locked, in id order) and their games, in two queries."""
    boards = {b.pk: b for b in Board.objects.select_for_update().filter(round=rnd, pk__in=list(ids)).order_by("pk")}
    games: dict[int, list[Game]] = {pk: [] for pk in boards}
    for game in Game.objects.filter(board_id__in=list(boards)).order_by("board_id", "number"):
        games[game.board_id].append(game)
    return boards, games


def _refuse_clearing(next_round_paired: bool, plans: list[_Plan]) -> None:
    if next_round_paired and any(code is None for p in plans for code in p.changed.values()):
        raise ServiceError(_("A result of an earlier round cannot be cleared once the next round is paired."))


@transaction.atomic
def game_record_result(
    *,
    board: Board | int,
    results: dict[int, str | None],
    expected_version: int | str | None,
    user: Actor,
    confirm_conflicts: bool = False,
    reason: str = "",
) -> Board:
    """Save the results of a board's games. ``results`` maps game number -> code (or None to clear).

    Raises ConflictError when ``expected_version`` is not the stored version (another save came first), and
    ``games.RuleConflict`` when a result contradicts the game's recorded moves (the king-move draw, the record's
    own result, its final position) unless ``confirm_conflicts`` (the conflict is then audited), and
    ``ReasonRequired`` when a result already saved would change and no ``reason`` is given.
    """
    board_id = board.pk if isinstance(board, Board) else board
    rnd = Round.objects.select_related("tournament").get(boards__pk=board_id)
    boards, games = _locked(rnd, [board_id])
    locked = boards[board_id]
    tournament = rnd.tournament
    current = {g.number: g.result for g in games[board_id]}
    if expected_version is not None and int(expected_version) != locked.version:
        raise ConflictError(
            _(
                "Board %(board)s was changed by another arbiter while you typed. Stored now: %(current)s. "
                "Check and save again."
            )
            % {"board": locked.number, "current": describe(current, tournament.is_micro_match)},
            current=current,
        )
    errors = _check_values(locked, current, results)
    if errors:
        raise ServiceError(errors[0])
    changed, _conflict = merge(current, results, None, up_to_date=True)
    if not changed:
        return locked
    plan = _plan(locked, current, changed)
    _refuse_clearing(tournament.rounds.filter(number__gt=rnd.number).exists(), [plan])
    reason = " ".join((reason or "").split())
    if plan.corrected and not reason:
        raise ReasonRequired(
            [
                correction_text(locked.number, n, current[n], changed[n], tournament.is_micro_match)
                for n in plan.corrected
            ]
        )
    _save_checked(tournament, rnd, [plan], games, user, confirm_conflicts, reason)
    return locked


def _save_checked(
    tournament: Tournament,
    rnd: Round,
    plans: list[_Plan],
    games: dict[int, list[Game]],
    user: Actor,
    confirm_conflicts: bool,
    reason: str,
) -> None:
    kept = _rule_conflicts(tournament, plans, games)
    found = [
        _("Board %(b)s: %(c)s") % {"b": board.number, "c": c} for board, _game, conflicts in kept for c in conflicts
    ]
    if found and not confirm_conflicts:
        raise RuleConflict(found)
    _write(tournament, rnd, plans, games, user, reason)
    for board, game, conflicts in kept:
        if conflicts:
            game.board = board
            game.board.round = rnd
            audit_kept_conflict(tournament, user, game, conflicts)


@transaction.atomic
def round_record_results(
    *,
    round: Round,
    rows: Iterable[tuple[Any, ...]],
    user: Actor,
    confirm_conflicts: bool = False,
    reason: str = "",
) -> PageSave:
    """Save many boards at once (the results page). ``rows``: (board_id, expected_version, typed[, shown]):
    ``typed`` maps the games the form sends to their codes (a game absent is left alone), ``shown`` what the form
    showed for them, when it says.

    A bad value, a board not in the round, a result against the recorded moves (unless ``confirm_conflicts``) or
    a correction without ``reason`` (``ReasonRequired`` lists every one) saves nothing. A board another save
    changed meanwhile is merged (see ``merge``); one where a typed value differs from a value stored meanwhile is
    flagged in ``PageSave.stale`` and the others are saved.
    """
    rnd = Round.objects.select_related("tournament").get(pk=round.pk)
    tournament = rnd.tournament
    micro = tournament.is_micro_match
    rows = list(rows)
    boards, games = _locked(rnd, [row[0] for row in rows])
    errors: list[str] = []
    plans: list[_Plan] = []
    outcome = PageSave()
    for row in rows:
        board_id, expected_version, typed = row[0], row[1], row[2]
        shown = row[3] if len(row) > 3 else None
        board = boards.get(board_id)
        if board is None:
            errors.append(_("Board %(id)s is not in this round.") % {"id": board_id})
            continue
        current = {g.number: g.result for g in games[board_id]}
        problems = _check_values(board, current, typed)
        if problems:
            errors.extend(problems)
            continue
        up_to_date = expected_version is not None and int(expected_version) == board.version
        changed, conflict = merge(current, typed, shown, up_to_date or expected_version is None)
        if conflict:
            outcome.stale.append(StaleBoard(board_id, board.number, current, dict(typed)))
        elif changed:
            plans.append(_plan(board, current, changed))
    if errors:
        raise ServiceError(errors)
    if not plans:
        return outcome
    _refuse_clearing(tournament.rounds.filter(number__gt=rnd.number).exists(), plans)
    reason = " ".join((reason or "").split())
    corrections = [
        correction_text(p.board.number, n, p.current[n], p.changed[n], micro) for p in plans for n in p.corrected
    ]
    if corrections and not reason:
        raise ReasonRequired(corrections, outcome.stale)
    _save_checked(tournament, rnd, plans, games, user, confirm_conflicts, reason)
    outcome.saved = sorted(p.board.number for p in plans)
    return outcome
