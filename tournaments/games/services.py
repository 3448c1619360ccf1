"""Game records: an arbiter attaches a game's moves (PDN); they are checked against the rules before saving.

A record that contradicts the result entered for its game is never saved silently (seed 000, rule 16: "Após 20
(vinte) lances sucessivos de Damas, sem captura ou deslocamento de pedra, a partida é declarada empatada"; seed
001, 3.2-3.3): the moves reach the king-move draw but a win is recorded, the record's own result differs, the
final position says who lost, or moves are recorded for a game scored by forfeit. The arbiter sees the conflict
and decides: correct one side, or keep both (``confirm=True``), which the audit log records.
"""

import logging
import re
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

import draughts
from tournaments.audit.services import Actor, audit
from tournaments.core import cache
from tournaments.core.errors import ServiceError
from tournaments.core.safetext import one_line
from tournaments.models import Game, Round, Tournament
from tournaments.models.choices import AuditAction
from tournaments.rounds.scoring import FORFEITS, PLAYED, entry_label, outcome_of

logger = logging.getLogger(__name__)

MAX_PDN = draughts.MAX_GAME_CHARS  # one record, one game (issue 15, item 10)
# Result codes of games played (from that game's White) as the side that won: "white", "black", "draw".
_OUTCOME = {code: {"win": "white", "loss": "black", "draw": "draw"}[outcome_of(code)] for code in PLAYED}
_SHOW = {"white": "1-0", "black": "0-1", "draw": "½-½"}


class RuleConflict(ServiceError):
    """A game record and its result contradict each other; ``conflicts`` lists them (messages for the user)."""

    def __init__(self, conflicts: list[str]) -> None:
        super().__init__([*conflicts, _("Correct the result or the moves, or confirm that both stay as they are.")])
        self.conflicts = conflicts


def check_record(tournament: Tournament, game: Game, pdn: str) -> draughts.GameCheck | None:
    """The draughts check of ``pdn`` for ``game`` (from its drawn opening), or None without moves."""
    if not pdn.strip():
        return None
    return draughts.validate_game(
        pdn,
        tournament.variant,
        start_fen=start_fen_for(game),
        king_rule_per_player=tournament.king_moves_per_player,
    )


def result_conflicts(
    tournament: Tournament, game_number: int, check: draughts.GameCheck | None, result: str | None
) -> list[str]:
    """Where a checked record (``check``) contradicts the result code entered (seen from that game's White).
    Returns messages, empty when they agree (or when there is no record or no result)."""
    if check is None or not check.ok or result is None:
        return []
    where = _("Game %(g)s") % {"g": game_number}
    shown = entry_label(game_number, result, tournament.is_micro_match)  # the product's notation (first player)
    out = []
    if result in FORFEITS:
        if check.moves:
            out.append(
                _("%(where)s: moves are recorded, but the result entered is a forfeit (%(result)s).")
                % {"where": where, "result": shown}
            )
        return out
    entered = _OUTCOME[result]
    limit = 25 if tournament.variant == "international-100" else 20
    if check.draw_by_king_moves and entered != "draw":
        out.append(
            _(
                "%(where)s: the moves reach the king-move draw (rule 16: %(n)s successive king moves without a "
                "capture or a man's move), but the result entered is %(result)s."
            )
            % {"where": where, "n": limit, "result": shown}
        )
    if check.game_over and not check.draw_by_king_moves:
        loser_white = (check.final_fen or "").startswith("W")
        winner = "black" if loser_white else "white"
        if entered != winner:
            out.append(
                _(
                    "%(where)s: in the record's final position %(side)s cannot move (they lost), but the result "
                    "entered is %(result)s."
                )
                % {
                    "where": where,
                    "side": _("White") if loser_white else _("Black"),
                    "result": shown,
                }
            )
    if check.result:
        try:
            written = draughts.normalize_result(check.result)
        except ValueError:
            written = "unknown"
        if written in _SHOW and written != entered:
            out.append(
                _("%(where)s: the record's result (%(pdn)s) differs from the result entered (%(result)s).")
                % {"where": where, "pdn": check.result, "result": shown}
            )
    return out


def audit_kept_conflict(tournament: Tournament, user: Actor, game: Game, conflicts: list[str]) -> None:
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.GAME_CONFLICT_KEPT,
        obj=game,
        summary=_("round %(r)s, board %(b)s, game %(g)s")
        % {"r": game.board.round.number, "b": game.board.number, "g": game.number},
        new={"result": game.result, "conflicts": conflicts},
    )


def _store_record(tournament: Tournament, user: Actor, game: Game, pdn: str, conflicts: list[str]) -> None:
    """Save a checked record on its game, audited (with the arbiter's decision on any conflict it kept)."""
    old = game.pdn
    game.pdn = pdn
    game.save(update_fields=["pdn"])
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.GAME_PDN,
        obj=game,
        summary=_("round %(r)s, board %(b)s, game %(g)s")
        % {"r": game.board.round.number, "b": game.board.number, "g": game.number},
        old={"pdn": old[:2000]},
        new={"pdn": pdn[:2000]},
    )
    if conflicts:
        audit_kept_conflict(tournament, user, game, conflicts)


def start_fen_for(game: Game) -> str | None:
    opening = game.board.opening or game.board.round.opening
    return opening.fen if opening else None


@transaction.atomic
def game_attach_pdn(*, game: Game, pdn: str | None, user: Actor, confirm: bool = False) -> Game:
    """Check the moves from the board's drawn opening (or the initial position) and store them; the first
    illegal move is named by number and side, and nothing is stored. A record that contradicts the game's result
    is refused with :class:`RuleConflict` unless ``confirm`` (then the audit log records the conflict kept)."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("board__round__tournament", "board__opening", "board__round__opening")
        .get(pk=game.pk)
    )
    tournament = game.board.round.tournament
    pdn = (pdn or "").strip()
    if len(pdn) > MAX_PDN:
        raise ServiceError(_("The game record is too long."))
    check = check_record(tournament, game, pdn)
    if check is not None and not check.ok:
        raise ServiceError(str(check.error))  # set whenever the check fails
    conflicts = result_conflicts(tournament, game.number, check, game.result)
    if conflicts and not confirm:
        raise RuleConflict(conflicts)
    _store_record(tournament, user, game, pdn, conflicts)
    cache.bump(tournament.pk)
    return game


RESULT_PDN = {"1-0": "2-0", "0-1": "0-2", "1/2": "1-1", "+/-": "2-0", "-/+": "0-2", "-/-": "0-0"}


def tournament_pdn(tournament: Tournament, rounds: list[Round]) -> str:
    """Every game with recorded moves, as one PDN file (rounds prefetched by ``rounds_with_boards``)."""
    from tournaments.rounds.selectors import board_pair

    games: list[dict[str, Any]] = []
    for rnd in rounds:
        for board in rnd.boards.all():
            first, second = board_pair(board)
            if first is None or second is None:
                continue
            opening = board.opening or rnd.opening
            for game in board.games.all():
                if not game.pdn.strip():
                    continue
                white, black = (first, second) if game.number == 1 else (second, first)
                games.append(
                    {
                        "event": one_line(tournament.name),  # a tag value never spans lines
                        "site": one_line(tournament.city),
                        "round": f"{rnd.number}.{board.number}.{game.number}",
                        "date": tournament.start_date.strftime("%Y.%m.%d"),
                        "white": one_line(white.player.name),
                        "black": one_line(black.player.name),
                        "result": RESULT_PDN.get(game.result or "", "*"),
                        "moves": game.pdn,
                        "fen": opening.fen if opening else None,
                    }
                )
    return "\n".join(_export_one(item, tournament.variant) for item in games)


def _export_one(item: dict[str, Any], variant: str) -> str:
    """One game as PDN; a stored record that no longer reads (kept from before the records were bounded and
    checked) is written without its moves and says so in a tag, instead of failing the whole file."""
    try:
        return draughts.export_game(item, variant)
    except ValueError as exc:  # NotationError, PdnError
        reason = getattr(exc, "reason", str(exc))
        logger.warning("PDN export, game %s: the stored record no longer reads (%s)", item.get("round"), reason)
        return draughts.export_game(
            {**item, "moves": [], "tags": {"Annotator": f"registro ilegível: {reason}"}}, variant
        )


_ROUND_TAG = re.compile(r"^\s*(\d{1,3})\s*\.\s*(\d{1,4})(?:\s*\.\s*(\d))?\s*$")
_PLAIN_ROUND = re.compile(r"^\s*(\d{1,3})\s*$")


class PdnImport(list):
    """The games a PDN file's records were saved to (a list), and ``unplaced``: the records whose Round tag is a
    plain round number and whose White and Black name no game of that round (pt-BR, one line each)."""

    def __init__(self, games: list[Game], unplaced: list[str]):
        super().__init__(games)
        self.unplaced = unplaced


def _round_games(tournament: Tournament, number: int) -> list[tuple[Game, Any, Any]]:
    """(game, White's entry, Black's entry) of every game of a round: for a file that names the round only."""
    from tournaments.rounds.selectors import board_pair

    out = []
    games = (
        Game.objects.select_related("board__round")
        .prefetch_related("board__seats__entry__player")
        .filter(board__round__tournament=tournament, board__round__number=number)
        .order_by("board__number", "number")
    )
    for game in games:
        first, second = board_pair(game.board)
        white, black = (first, second) if game.number == 1 else (second, first)
        out.append((game, white, black))
    return out


def _placed_by_names(
    record: Any, candidates: list[tuple[Game, Any, Any]], seen: dict[int, int]
) -> tuple[int, int, int] | None:
    """(round, board, game) of the one game of the round whose White and Black the record's tags name."""
    white, black = record.tags.get("White", "").strip(), record.tags.get("Black", "").strip()
    if not white or not black:
        return None
    found = [
        g
        for g, w, b in candidates
        if w is not None and b is not None and _same_name(white, w.player.name) and _same_name(black, b.player.name)
    ]
    free = [g for g in found if g.pk not in seen] or found
    if len(free) != 1:
        return None
    g = free[0]
    return g.board.round.number, g.board.number, g.number


def _same_name(written: str, name: str) -> bool:
    """A PDN name tag against a player's name: case, spacing and "Last, First" order aside."""

    def norm(text: object) -> str:
        return " ".join(str(text).casefold().split())

    if "," in written:
        last, first = written.split(",", 1)
        if norm(f"{first} {last}") == norm(name):
            return True
    return norm(written) == norm(name)


def _locate(
    where: str,
    record: Any,
    tournament: Tournament,
    by_round: dict[int, list[tuple[Game, Any, Any]]],
    seen: dict[int, int],
    errors: list[str],
    unplaced: list[str],
) -> tuple[int, int, int] | None:
    """(round, board, game) a record's Round tag names: "round.board.game", or a plain round and the game of it whose
    players the White and Black tags name (else the record is listed in ``unplaced``); a tag that is neither is an
    error."""
    tag = record.tags.get("Round", "")
    m = _ROUND_TAG.match(tag)
    if m:
        return int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
    plain = _PLAIN_ROUND.match(tag)
    if not plain:
        errors.append(
            f"{where}: a tag Round “{one_line(tag)[:40]}” não indica rodada.mesa.jogo (por exemplo 3.2.1) nem a rodada"
        )
        return None
    rnum = int(plain.group(1))
    if rnum not in by_round:
        by_round[rnum] = _round_games(tournament, rnum)
    placed = _placed_by_names(record, by_round[rnum], seen)
    if placed is None:
        names = " × ".join(one_line(record.tags.get(t, "?"))[:60] or "?" for t in ("White", "Black"))
        unplaced.append(f"{where} (rodada {rnum}, {names}): nenhum jogo dessa rodada tem esses jogadores")
    return placed


@transaction.atomic
def games_import_pdn(*, tournament: Tournament, text: str | None, user: Actor, confirm: bool = False) -> PdnImport:
    """Every game of a PDN file, each its own record, attached to the game its Round tag names: "round.board.game"
    as the export writes it ("round.board" for game 1), or a plain round number (as Dambo and other programs write
    it), the game of that round whose players the White and Black tags name; a record of a plain round no game of
    it matches is listed in ``unplaced`` (the others are saved). The White/Black tags, when given, must be that
    game's players. All-or-nothing: each record is checked from the board's opening like a record typed on the game's
    page, a record that contradicts the result entered is refused unless ``confirm`` (then audited), and nothing
    is saved unless every game of the file is. Messages are file diagnostics in pt-BR. Returns the games saved."""
    from tournaments.rounds.selectors import board_pair

    try:
        records = draughts.parse_pdn(text or "", max_chars=draughts.MAX_FILE_CHARS)
    except draughts.PdnError as exc:
        raise ServiceError([f"Arquivo PDN: {exc.reason}"]) from None
    if not records:
        raise ServiceError(["Arquivo PDN: nenhuma partida no arquivo"])
    errors: list[str] = []
    unplaced: list[str] = []
    plan: list[tuple[Game, str, list[str]]] = []
    seen: dict[int, int] = {}
    by_round: dict[int, list[tuple[Game, Any, Any]]] = {}
    for i, record in enumerate(records, start=1):
        where = f"Partida {i} do arquivo"
        place = _locate(where, record, tournament, by_round, seen, errors, unplaced)
        if place is None:
            continue
        rnd, board, number = place
        where = f"{where} (rodada {rnd}, mesa {board}, jogo {number})"
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("board__round", "board__opening", "board__round__opening")
            .prefetch_related("board__seats__entry__player")
            .filter(board__round__tournament=tournament, board__round__number=rnd, board__number=board, number=number)
            .first()
        )
        if game is None:
            errors.append(f"{where}: não existe neste torneio")
            continue
        if game.pk in seen:
            errors.append(f"{where}: o mesmo jogo já está na partida {seen[game.pk]} do arquivo")
            continue
        seen[game.pk] = i
        first, second = board_pair(game.board)
        white, black = (first, second) if game.number == 1 else (second, first)
        for tag, seat in (("White", white), ("Black", black)):
            written = record.tags.get(tag, "").strip()
            if seat is not None and written not in ("", "?") and not _same_name(written, seat.player.name):
                errors.append(f"{where}: {tag} “{one_line(written)[:60]}” não é {seat.player.name}")
        if len(record.source) > MAX_PDN:
            errors.append(f"{where}: registro longo demais ({len(record.source)} caracteres; máximo {MAX_PDN})")
            continue
        check = draughts.check_pdn_game(
            record, tournament.variant, start_fen_for(game), king_rule_per_player=tournament.king_moves_per_player
        )
        if not check.ok:
            errors.append(f"{where}: {check.error}")
            continue
        conflicts = result_conflicts(tournament, game.number, check, game.result)
        if conflicts and not confirm:
            errors += [f"{where}: {c}" for c in conflicts]
            continue
        plan.append((game, record.source.strip(), conflicts))
    if errors or (unplaced and not plan):
        errors = errors or ["Arquivo PDN: nenhuma partida pôde ser colocada num jogo do torneio", *unplaced]
        raise ServiceError(errors[:50])
    for game, pdn, conflicts in plan:
        _store_record(tournament, user, game, pdn, conflicts)
    cache.bump(tournament.pk)
    return PdnImport([game for game, _pdn, _c in plan], unplaced)
