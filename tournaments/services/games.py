"""Game records: an arbiter attaches a game's moves (PDN); they are checked against the rules before saving."""

from django.db import transaction
from django.utils.translation import gettext as _

import draughts

from .. import cache
from ..models import Game
from ..safetext import one_line
from .audit import audit
from .errors import ServiceError

MAX_PDN = 100_000


def start_fen_for(game):
    opening = game.board.opening or game.board.round.opening
    return opening.fen if opening else None


@transaction.atomic
def game_attach_pdn(*, game, pdn, user):
    """Check the moves from the board's drawn opening (or the initial position) and store them; the first
    illegal move is named by number and side, and nothing is stored."""
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("board__round__tournament", "board__opening", "board__round__opening")
        .get(pk=game.pk)
    )
    tournament = game.board.round.tournament
    pdn = (pdn or "").strip()
    if len(pdn) > MAX_PDN:
        raise ServiceError(_("The game record is too long."))
    if pdn:
        check = draughts.validate_game(
            pdn,
            tournament.variant,
            start_fen=start_fen_for(game),
            king_rule_per_player=tournament.king_moves_per_player,
        )
        if not check.ok:
            raise ServiceError(check.error)
    old = game.pdn
    game.pdn = pdn
    game.save(update_fields=["pdn"])
    audit(
        tournament=tournament,
        user=user,
        action="game.pdn",
        obj=game,
        summary=_("round %(r)s, board %(b)s, game %(g)s")
        % {"r": game.board.round.number, "b": game.board.number, "g": game.number},
        old={"pdn": old[:2000]},
        new={"pdn": pdn[:2000]},
    )
    cache.bump(tournament.pk)
    return game


RESULT_PDN = {"1-0": "2-0", "0-1": "0-2", "1/2": "1-1", "+/-": "2-0", "-/+": "0-2", "-/-": "0-0"}


def tournament_pdn(tournament, rounds):
    """Every game with recorded moves, as one PDN file (rounds prefetched by ``rounds_with_boards``)."""
    from ..selectors import board_pair

    games = []
    for rnd in rounds:
        for board in rnd.boards.all():
            first, second = board_pair(board)
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
                        "result": RESULT_PDN.get(game.result, "*"),
                        "moves": game.pdn,
                        "fen": opening.fen if opening else None,
                    }
                )
    return draughts.export_pdn(games, tournament.variant) if games else ""
