"""Opening tables (tablita): loading and checking. The official tables are the 64-square ones; a table for 100
squares (there is no official one) uses the same columns and is checked with ``variant="international"``.

The CSV is the project's ``tournaments/data/draughts64_drawing_tables.csv`` (columns: table, category, code,
fen, side_to_move, kind ('moves' or 'setup'), moves, raw, excluded_for_brazilian).  ``moves`` openings are move
sequences in short algebraic notation ('1. ab4 ba5 2. ba3 ab6'); ``setup`` openings are displacements from the
initial position written in ``raw`` ('a1-a5 a7-h4': the white man of a1 is put on a5, the black man of a7 on
h4), White to move.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .board import BLACK, BRAZILIAN, WHITE, Position, Variant, get_variant
from .notation import NotationError, parse_fen, replay, validate_placement, write_fen

DEFAULT_CSV = Path(__file__).resolve().parent.parent / "tournaments" / "data" / "draughts64_drawing_tables.csv"


@dataclass(frozen=True)
class Opening:
    table: str
    category: str
    code: str
    fen: str
    side_to_move: str
    kind: str
    moves: str
    raw: str
    excluded_for_brazilian: bool

    @property
    def key(self) -> tuple[str, str]:
        return (self.table, self.code)

    def position(self, variant: str | Variant = BRAZILIAN) -> Position:
        """The opening's position from its FEN (64 squares unless ``variant`` says otherwise)."""
        return parse_fen(self.fen, get_variant(variant))


def load_openings(path: str | os.PathLike[str] | None = None) -> list[Opening]:
    """Every row of the tablita CSV, in file order."""
    p = Path(path) if path else DEFAULT_CSV
    with open(p, newline="", encoding="utf-8") as fh:
        return [
            Opening(
                table=r["table"].strip(),
                category=r["category"].strip(),
                code=r["code"].strip(),
                fen=r["fen"].strip(),
                side_to_move=r["side_to_move"].strip().upper(),
                kind=r["kind"].strip().lower(),
                moves=(r.get("moves") or "").strip(),
                raw=(r.get("raw") or "").strip(),
                excluded_for_brazilian=(r.get("excluded_for_brazilian") or "").strip().lower()
                in ("yes", "sim", "true", "1", "y"),
            )
            for r in csv.DictReader(fh)
        ]


def apply_setup(raw: str, side_to_move: str = "W", variant: str | Variant = BRAZILIAN) -> Position:
    """The position of a 'setup' opening.  ``raw`` holds White's displacement then Black's, e.g. 'a1-a5 a7-h4'
    (the white man of a1 is put on a5, the black man of a7 on h4); a run of dashes ('---', '-----') means that
    side's men stay put.  Both displacements are made at once from the initial position, so 'b2-h6 h6-a5' (the
    black man leaves h6, the white one arrives there) is fine."""
    v = get_variant(variant)
    pos = Position.initial(v)
    pieces = pos.pieces()
    items = raw.split()
    if not 1 <= len(items) <= 2:
        raise NotationError(f"montagem inválida: {raw!r}")
    lifted: list[tuple[str, int]] = []
    for color, item in zip("wb", items):
        if set(item) == {"-"}:
            continue
        if item.count("-") != 1:
            raise NotationError(f"deslocamento inválido: {item!r}")
        a, b = item.split("-")
        try:
            sa, sb = v.square_from_name(a), v.square_from_name(b)
        except ValueError as e:
            raise NotationError(str(e)) from None
        if pieces.get(sa) != color:
            raise NotationError(f"não há pedra {'branca' if color == 'w' else 'preta'} em {a}")
        lifted.append((pieces.pop(sa), sb))
    for piece, sb in lifted:
        if sb in pieces:
            raise NotationError(f"a casa {v.square_name(sb)} está ocupada")
        pieces[sb] = piece
    return Position.from_pieces(
        v,
        [s for s, p in pieces.items() if p == "w"],
        [],
        [s for s, p in pieces.items() if p == "b"],
        [],
        BLACK if side_to_move.upper() == "B" else WHITE,
    )


def replay_opening(opening: Opening, variant: str | Variant = BRAZILIAN) -> Position:
    """Plays a 'moves' opening from the initial position (raises NotationError if a move is illegal under
    the variant's rules, Brazilian by default)."""
    return replay(opening.moves or opening.raw, get_variant(variant))


def check_opening(opening: Opening, variant: str | Variant = BRAZILIAN) -> list[str]:
    """Problems (Portuguese) with one row: the FEN must be readable and legally placed, its side to move must
    match the column, a 'moves' opening must replay to the FEN and side to move (an opening excluded for
    Brazilian rules may instead break the majority rule: 7 of the 16 excluded do), and a 'setup' must produce
    the FEN from its displacements."""
    problems: list[str] = []
    try:
        pos = opening.position(variant)
    except (NotationError, ValueError) as e:
        return [f"FEN ilegível: {e}"]
    side = "W" if pos.turn == WHITE else "B"
    if side != opening.side_to_move:
        problems.append(f"a FEN indica {side} a jogar, a coluna side_to_move indica {opening.side_to_move}")
    problems += validate_placement(pos, full_count=(opening.kind == "setup"))
    if opening.kind == "moves":
        try:
            got = replay_opening(opening, variant)
        except NotationError as e:
            if not opening.excluded_for_brazilian:
                problems.append(f"lances ilegais: {e.reason}")
        else:
            if (got.white, got.black, got.kings) != (pos.white, pos.black, pos.kings):
                problems.append(f"os lances levam a {write_fen(got)}, não à FEN da tabela")
            elif got.turn != pos.turn:
                problems.append(f"os lances deixam {'W' if got.turn == WHITE else 'B'} a jogar, a FEN indica {side}")
    elif opening.kind == "setup":
        try:
            got = apply_setup(opening.raw, opening.side_to_move, variant)
        except NotationError as e:
            problems.append(f"montagem ilegível: {e.reason}")
        else:
            if got != pos:
                problems.append(f"a montagem leva a {write_fen(got)}, não à FEN da tabela")
        if pos.kings:
            problems.append("há damas numa posição de abertura")
    else:
        problems.append(f"tipo desconhecido: {opening.kind!r}")
    return problems


def opening_svg(opening: Opening, variant: str | Variant = BRAZILIAN, **kwargs: Any) -> str:
    """Board diagram of an opening (see svg.svg_board for the keyword arguments)."""
    from .svg import svg_board

    kwargs.setdefault("title", f"{opening.table} {opening.code}")
    return svg_board(opening.fen, get_variant(variant), **kwargs)


__all__ = [
    "DEFAULT_CSV",
    "Opening",
    "load_openings",
    "apply_setup",
    "replay_opening",
    "check_opening",
    "opening_svg",
    "BLACK",
    "WHITE",
]
