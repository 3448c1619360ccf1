"""Recording game results, safely when several arbiters type at once.

The board row is locked (``select_for_update``: a real lock on PostgreSQL) and its ``version`` checked: a save
made on a form that shows an older version is refused with the value stored now, so no result is lost.
"""

from collections.abc import Iterable

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit
from tournaments.core import cache
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.games.services import RuleConflict, audit_kept_conflict, check_record, result_conflicts
from tournaments.models import Board, Round
from tournaments.rounds.scoring import RESULT_CODES, entry_label


def _current(board: Board) -> dict[int, str | None]:
    return {g.number: g.result for g in board.games.all()}


def describe(results: dict[int, str | None], micro: bool = True) -> str:
    """Each game's result in the product's notation, from the first player's side: "1: 2-0 / 2: …"."""
    return " / ".join(f"{n}: {entry_label(n, results.get(n), micro) or '…'}" for n in sorted(results))


class ReasonRequired(ServiceError):
    """Results already stored would change: the arbiter confirms and gives the reason (the audit log keeps it).
    ``corrections`` lists what would change, as sentences."""

    def __init__(self, corrections: list[str]) -> None:
        super().__init__(
            [*corrections, _("A correction changes a result already saved: confirm it and give the reason.")]
        )
        self.corrections = corrections


def correction_text(board_number: int, game_number: int, old: str | None, new: str | None, micro: bool) -> str:
    return _("Board %(b)s: game %(g)s from %(old)s to %(new)s") % {
        "b": board_number,
        "g": game_number,
        "old": entry_label(game_number, old, micro),
        "new": entry_label(game_number, new, micro) or _("no result"),
    }


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
    board = (
        Board.objects.select_for_update()
        .select_related("round__tournament")
        .get(pk=board.pk if isinstance(board, Board) else board)
    )
    rnd = board.round
    tournament = rnd.tournament
    current = _current(board)
    if expected_version is not None and int(expected_version) != board.version:
        raise ConflictError(
            _(
                "Board %(board)s was changed by another arbiter while you typed. Stored now: %(current)s. "
                "Check and save again."
            )
            % {"board": board.number, "current": describe(current, tournament.is_micro_match)},
            current=current,
        )
    if not current:
        raise ServiceError(_("Board %(board)s has no games (it is a bye).") % {"board": board.number})
    for number, code in results.items():
        if number not in current:
            raise ServiceError(_("Board %(board)s has no game %(game)s.") % {"board": board.number, "game": number})
        if code not in RESULT_CODES and code is not None:
            raise ServiceError(
                _("Invalid result “%(code)s” for game %(game)s of board %(board)s.")
                % {"code": code, "game": number, "board": board.number}
            )
    next_round_exists = tournament.rounds.filter(number__gt=rnd.number).exists()
    changed = {n: code for n, code in results.items() if current[n] != code}
    if not changed:
        return board
    if next_round_exists and any(code is None for code in changed.values()):
        raise ServiceError(_("A result of an earlier round cannot be cleared once the next round is paired."))
    micro = tournament.is_micro_match
    corrected = [n for n in sorted(changed) if current[n] is not None]
    reason = " ".join((reason or "").split())
    if corrected and not reason:
        raise ReasonRequired([correction_text(board.number, n, current[n], changed[n], micro) for n in corrected])
    kept = []
    for game in board.games.all():
        if game.number in changed and game.pdn.strip():
            conflicts = result_conflicts(
                tournament, game.number, check_record(tournament, game, game.pdn), changed[game.number]
            )
            kept.append((game, conflicts))
    found = [c for _game, conflicts in kept for c in conflicts]
    if found and not confirm_conflicts:
        raise RuleConflict([_("Board %(b)s: %(c)s") % {"b": board.number, "c": c} for c in found])
    for game in board.games.all():
        if game.number in changed:
            game.result = changed[game.number]
            game.save(update_fields=["result"])
    Board.objects.filter(pk=board.pk).update(version=F("version") + 1)
    board.refresh_from_db(fields=["version"])
    new = {**current, **changed}
    audit(
        tournament=tournament,
        user=user,
        action="result.correct" if corrected else "result.enter",
        obj=board,
        summary=_("round %(r)s, board %(b)s") % {"r": rnd.number, "b": board.number},
        old={"games": {str(k): v for k, v in current.items()}},
        new={"games": {str(k): v for k, v in new.items()}, "round": rnd.number, "board": board.number, "micro": micro},
        reason=reason if corrected else "",
    )
    for game, conflicts in kept:
        if conflicts:
            game.result = changed[game.number]
            audit_kept_conflict(tournament, user, game, conflicts)
    cache.bump(tournament.pk)
    return board


@transaction.atomic
def round_record_results(
    *,
    round: Round,
    rows: Iterable[tuple[int, int | str | None, dict[int, str | None]]],
    user: Actor,
    confirm_conflicts: bool = False,
    reason: str = "",
) -> int:
    """Save many boards at once (the results page). ``rows``: list of (board_id, expected_version, results).

    All-or-nothing: one conflict or bad value and nothing of the page is saved; the errors name the boards.
    Corrections of results already saved need ``reason`` (else ``ReasonRequired`` lists every one of them).
    """
    errors: list[str] = []
    corrections: list[str] = []
    saved = 0
    rule_conflict = False
    for board_id, expected_version, results in rows:
        try:
            with transaction.atomic():
                board = Board.objects.get(pk=board_id, round=round)
                before = board.version
                board = game_record_result(
                    board=board,
                    results=results,
                    expected_version=expected_version,
                    user=user,
                    confirm_conflicts=confirm_conflicts,
                    reason=reason,
                )
                saved += int(board.version != before)
        except Board.DoesNotExist:
            errors.append(_("Board %(id)s is not in this round.") % {"id": board_id})
        except ReasonRequired as exc:
            corrections.extend(exc.corrections)
        except RuleConflict as exc:
            errors.extend(exc.conflicts)
            rule_conflict = True
        except ServiceError as exc:
            errors.extend(exc.messages)
    if errors:
        raise RuleConflict(errors) if rule_conflict else ServiceError(errors)
    if corrections:
        raise ReasonRequired(corrections)
    return saved
