"""Drawing the round's opening (tablita): random with a recorded seed, or the code drawn at the venue."""

import csv
import io
import random
import re
import secrets
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core import cache
from tournaments.core.errors import ServiceError
from tournaments.models import Board, Opening, OpeningDraw, OpeningTable, Round, Tournament
from tournaments.models.choices import AuditAction, DrawMethod, OpeningDrawMode, Variant
from tournaments.registry.ratinglist import line_message


def used_openings(tournament: Tournament) -> set[int]:
    round_ids = set(
        Round.objects.filter(tournament=tournament, opening__isnull=False).values_list("opening_id", flat=True)
    )
    board_ids = set(
        Board.objects.filter(round__tournament=tournament, opening__isnull=False).values_list("opening_id", flat=True)
    )
    return round_ids | board_ids


def _candidates(tournament: Tournament) -> list[Opening]:
    if tournament.opening_table_id is None:
        raise ServiceError(_("This tournament has no opening table (free openings)."))
    used = used_openings(tournament)
    return [
        o
        for o in Opening.objects.filter(table_id=tournament.opening_table_id, active=True).order_by("position")
        if o.pk not in used
    ]


def pick(candidates: Sequence[Opening], seed: object) -> Opening:
    """The draw itself: reproducible from the seed (same seed and candidates -> same opening)."""
    return random.Random(str(seed)).choice(candidates)


def _assign(
    rnd: Round, board: Board | None, opening: Opening, method: str, seed: str | None, user: Actor
) -> OpeningDraw:
    target = board or rnd
    old = target.opening.code if target.opening is not None else None
    target.opening = opening
    target.save(update_fields=["opening"])
    draw = OpeningDraw.objects.create(
        round=rnd,
        board=board,
        opening=opening,
        method=method,
        seed=seed or "",
        drawn_by=login_of(user),
    )
    audit(
        tournament=rnd.tournament,
        user=user,
        action=AuditAction.OPENING_DRAW,
        obj=draw,
        summary=_("round %(r)s%(b)s: %(code)s")
        % {"r": rnd.number, "b": f", {_('board')} {board.number}" if board else "", "code": opening.code},
        old={"code": old},
        new={"code": opening.code, "method": method, "seed": seed},
    )
    cache.bump(rnd.tournament_id)
    return draw


def _check_round(rnd: Round) -> None:
    if rnd.boards.filter(games__result__isnull=False).exists():
        raise ServiceError(
            _("Results were already entered in round %(n)s: its opening can no longer change.") % {"n": rnd.number}
        )


@transaction.atomic
def opening_draw(
    *, round: Round, user: Actor, seed: object = None, board: Board | None = None
) -> OpeningDraw | list[OpeningDraw]:
    """Draw at random among the table's active openings not yet used in this tournament."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    _check_round(rnd)
    tournament = rnd.tournament
    per_board = tournament.opening_draw_mode == OpeningDrawMode.PER_BOARD
    if per_board and board is None:
        return [_draw(rnd, b, user) for b in rnd.boards.filter(seats__side="first").order_by("number")]
    return _draw(rnd, board, user, seed)


def _draw(rnd: Round, board: Board | None, user: Actor, seed: object = None) -> OpeningDraw:
    candidates = _candidates(rnd.tournament)
    if not candidates:
        raise ServiceError(_("Every opening of the table has already been used in this tournament."))
    seed = str(seed) if seed not in (None, "") else secrets.token_hex(8)
    return _assign(rnd, board, pick(candidates, seed), DrawMethod.RANDOM, seed, user)


@transaction.atomic
def opening_set_code(*, round: Round, code: str | None, user: Actor, board: Board | None = None) -> OpeningDraw:
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


MAX_TABLE_BYTES = 2 * 1024 * 1024
MAX_TABLE_ROWS = 5000
TABLE_COLUMNS = ("table", "code", "fen", "side_to_move", "kind")  # required; category, moves, raw optional
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _decode(data: bytes) -> str | None:
    for encoding in ("utf-8-sig", "latin-1"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None  # pragma: no cover - latin-1 decodes every byte


@transaction.atomic
def opening_table_import(*, data: bytes, filename: str, variant: str, user: Actor) -> list[OpeningTable]:
    """Load an opening table from a CSV with the columns of the official tables (table, category, code, fen,
    side_to_move, kind, moves, raw, excluded_for_brazilian). Meant for 100 squares, where no official table
    exists (docs/domain.md section 4). Every row is checked against the rules of the variant (FEN, side to move, the
    moves or the set-up reaching the FEN); all-or-nothing, and a table code already stored is refused. Returns
    the tables created."""
    from draughts import Opening as DraughtsOpening
    from draughts import check_opening

    if len(data) > MAX_TABLE_BYTES:
        raise ServiceError(_("The file is too large (at most 2 MB)."))
    if variant not in Variant.values:
        raise ServiceError(_("Unknown variant."))
    rules = "international" if variant == Variant.INTERNATIONAL_100 else "brazilian"
    text = _decode(data)
    try:
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
    except csv.Error:  # binary bytes, a NUL, a line break where no field is open: not a CSV
        raise ServiceError(_("The file is not a readable CSV text file.")) from None
    header = [(h or "").strip().lower() for h in (rows[0].keys() if rows else [])]
    missing = [c for c in TABLE_COLUMNS if c not in header]
    if not rows or missing:
        raise ServiceError(
            _("The file must be a CSV with the columns %(cols)s (missing: %(missing)s).")
            % {"cols": ", ".join(TABLE_COLUMNS), "missing": ", ".join(missing) or "—"}
        )
    if len(rows) > MAX_TABLE_ROWS:
        raise ServiceError(_("Too many rows (at most %(n)s).") % {"n": MAX_TABLE_ROWS})
    errors: list[str] = []
    parsed: list[DraughtsOpening] = []
    seen: set[tuple[str, str]] = set()
    for line, raw in enumerate(rows, start=2):
        if len(errors) >= 50:
            break
        r = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items() if isinstance(v, str)}
        values = [r.get(k, "") for k in ("table", "code", "fen", "side_to_move", "kind", "moves", "raw", "category")]
        if any(_CONTROL.search(v) for v in values):
            errors.append(line_message(line, _("control characters are not allowed")))
            continue
        table, code = r.get("table", ""), r.get("code", "").upper()
        if not table or not code or len(table) > 20 or len(code) > 20:
            errors.append(line_message(line, _("table and code are required (at most 20 characters each)")))
            continue
        if (table, code) in seen:
            errors.append(
                line_message(line, _("code %(code)s repeated in table %(table)s") % {"code": code, "table": table})
            )
            continue
        seen.add((table, code))
        opening = DraughtsOpening(
            table=table,
            category=r.get("category", ""),
            code=code,
            fen=r.get("fen", "")[:200],
            side_to_move=r.get("side_to_move", "").upper(),
            kind=r.get("kind", "").lower(),
            moves=r.get("moves", "")[:200],
            raw=r.get("raw", "")[:200],
            excluded_for_brazilian=r.get("excluded_for_brazilian", "").lower() in ("yes", "sim", "true", "1"),
        )
        problems = check_opening(opening, rules)
        if problems:
            errors.append(line_message(line, f"{code}: " + "; ".join(problems)))
            continue
        parsed.append(opening)
    existing = set(OpeningTable.objects.filter(code__in={o.table for o in parsed}).values_list("code", flat=True))
    if existing:
        errors.append(_("A table with the code %(codes)s already exists.") % {"codes": ", ".join(sorted(existing))})
    if errors:
        raise ServiceError(errors[:50])
    tables = {}
    for code in dict.fromkeys(o.table for o in parsed):
        tables[code] = OpeningTable.objects.create(code=code, name=code, variant=variant)
    Opening.objects.bulk_create(
        [
            Opening(
                table=tables[o.table],
                code=o.code,
                category=int(o.category) if o.category.isdigit() else None,
                fen=o.fen,
                side_to_move=o.side_to_move,
                kind=o.kind,
                moves=o.moves,
                raw=o.raw,
                excluded_for_brazilian=o.excluded_for_brazilian,
                active=True,
                position=position,
            )
            for position, o in enumerate(parsed)
        ]
    )
    audit(
        tournament=None,
        user=user,
        action=AuditAction.OPENINGTABLE_IMPORT,
        summary=f"{filename}: {', '.join(tables)}",
        new={"tables": list(tables), "openings": len(parsed), "variant": variant},
    )
    return list(tables.values())
