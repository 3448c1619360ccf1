"""Drawing the round's opening (tablita): random with a recorded seed, or the code drawn at the venue."""

import random
import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from .. import cache
from ..models import Board, Opening, OpeningDraw, Round
from ..models.choices import DrawMethod, OpeningDrawMode
from .audit import audit
from .errors import ServiceError


def used_openings(tournament):
    round_ids = set(
        Round.objects.filter(tournament=tournament, opening__isnull=False).values_list("opening_id", flat=True)
    )
    board_ids = set(
        Board.objects.filter(round__tournament=tournament, opening__isnull=False).values_list("opening_id", flat=True)
    )
    return round_ids | board_ids


def _candidates(tournament):
    if tournament.opening_table_id is None:
        raise ServiceError(_("This tournament has no opening table (free openings)."))
    used = used_openings(tournament)
    return [
        o
        for o in Opening.objects.filter(table_id=tournament.opening_table_id, active=True).order_by("position")
        if o.pk not in used
    ]


def pick(candidates, seed):
    """The draw itself: reproducible from the seed (same seed and candidates -> same opening)."""
    return random.Random(str(seed)).choice(candidates)


def _assign(rnd, board, opening, method, seed, user):
    target = board or rnd
    old = target.opening.code if target.opening_id else None
    target.opening = opening
    target.save(update_fields=["opening"])
    draw = OpeningDraw.objects.create(
        round=rnd,
        board=board,
        opening=opening,
        method=method,
        seed=seed or "",
        drawn_by=user if getattr(user, "pk", None) else None,
    )
    audit(
        tournament=rnd.tournament,
        user=user,
        action="opening.draw",
        obj=draw,
        summary=_("round %(r)s%(b)s: %(code)s")
        % {"r": rnd.number, "b": f", {_('board')} {board.number}" if board else "", "code": opening.code},
        old={"code": old},
        new={"code": opening.code, "method": method, "seed": seed},
    )
    cache.bump(rnd.tournament_id)
    return draw


def _check_round(rnd):
    if rnd.boards.filter(games__result__isnull=False).exists():
        raise ServiceError(
            _("Results were already entered in round %(n)s: its opening can no longer change.") % {"n": rnd.number}
        )


@transaction.atomic
def opening_draw(*, round, user, seed=None, board=None):
    """Draw at random among the table's active openings not yet used in this tournament."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    _check_round(rnd)
    tournament = rnd.tournament
    per_board = tournament.opening_draw_mode == OpeningDrawMode.PER_BOARD
    if per_board and board is None:
        draws = [
            opening_draw(round=rnd, user=user, board=b)
            for b in rnd.boards.filter(seats__side="first").order_by("number")
        ]
        return draws
    candidates = _candidates(tournament)
    if not candidates:
        raise ServiceError(_("Every opening of the table has already been used in this tournament."))
    seed = str(seed) if seed not in (None, "") else secrets.token_hex(8)
    return _assign(rnd, board, pick(candidates, seed), DrawMethod.RANDOM, seed, user)


@transaction.atomic
def opening_set_code(*, round, code, user, board=None):
    """Record the code drawn physically at the venue."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    _check_round(rnd)
    tournament = rnd.tournament
    code = (code or "").strip().upper()
    opening = Opening.objects.filter(table_id=tournament.opening_table_id, code__iexact=code).first()
    if opening is None:
        raise ServiceError(
            _("Opening “%(code)s” does not exist in the table %(table)s.")
            % {"code": code, "table": tournament.opening_table or "—"}
        )
    if not opening.active:
        raise ServiceError(_("Opening %(code)s is withdrawn from the table.") % {"code": opening.code})
    current = (board or rnd).opening_id
    if opening.pk in used_openings(tournament) and opening.pk != current:
        raise ServiceError(_("Opening %(code)s was already used in this tournament.") % {"code": opening.code})
    return _assign(rnd, board, opening, DrawMethod.VENUE, "", user)
