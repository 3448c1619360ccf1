"""A small, self-contained SVG board diagram (no external CSS, fonts or images)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from xml.sax.saxutils import escape

from .board import Move, Position, Variant, get_variant
from .notation import parse_fen

LIGHT = "#f0dab5"
DARK = "#b0805a"
HIGHLIGHT = "#e3c04a"
WHITE_FILL, WHITE_EDGE = "#fbfbf5", "#3a3a3a"
BLACK_FILL, BLACK_EDGE = "#262626", "#000000"
CROWN = "#d4a017"


def _last_move_squares(last_move: Move | str | Iterable[int] | None, v: Variant) -> list[int]:
    if last_move is None:
        return []
    if isinstance(last_move, Move):
        return list(last_move.path)
    if isinstance(last_move, str):
        text = last_move.strip().lower()
        if re.fullmatch(r"\d+(?:[-x:]\d+)+", text):
            squares = [int(s) for s in re.split(r"[-x:]", text)]
        else:
            squares = [v.square_from_name(s) for s in re.findall(r"[a-j](?:10|[1-9])", text)]
    else:
        squares = [int(s) for s in last_move]
    for s in squares:
        if not 1 <= s <= v.num_squares:
            raise ValueError(f"casa inexistente: {s}")
    return squares


def svg_board(
    fen: str | Position,
    variant: str | Variant = "brazilian",
    *,
    square: int = 40,
    numbers: bool = False,
    coordinates: bool = False,
    last_move: Move | str | Iterable[int] | None = None,
    flip: bool = False,
    title: str | None = None,
    css_class: str = "damas-board",
    responsive: bool = False,
) -> str:
    """An SVG diagram of the position: 32 or 50 dark squares, White at the bottom (``flip=True`` puts Black at
    the bottom), kings drawn with a golden ring and crown mark.

    numbers: print each dark square's number (1-32 / 1-50) in its corner.
    coordinates: letters and ranks around the board (a-h / a-j, 1-8 / 1-10).
    last_move: a Move, a move string ('22-18', '19x10x3', 'c3-d4') or squares; its squares are highlighted.
    square: side of one square in user units (the SVG scales through its viewBox).
    responsive: leave out width/height so that CSS sizes the board (the viewBox keeps its proportions).
    """
    v = get_variant(variant)
    pos = fen if isinstance(fen, Position) else parse_fen(fen, v)
    if pos.variant is not v:
        v = pos.variant
    size = v.size
    s = square
    margin = round(s * 0.5) if coordinates else 0
    total = size * s + 2 * margin
    hl = set(_last_move_squares(last_move, v))
    label = title or f"Diagrama: {pos.fen()}"
    dims = "" if responsive else f' width="{total}" height="{total}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {total} {total}"{dims} '
        f'class="{escape(css_class)}" role="img" aria-label="{escape(label, {chr(34): "&quot;"})}">',
        f"<title>{escape(label)}</title>",
        f'<rect x="{margin}" y="{margin}" width="{size * s}" height="{size * s}" fill="{LIGHT}"/>',
    ]

    def xy(n: int) -> tuple[int, int]:
        r, x = v.num_to_rx[n]
        if flip:
            r, x = size - 1 - r, size - 1 - x
        return margin + x * s, margin + r * s

    # dark squares
    cells = []
    for n in range(1, v.num_squares + 1):
        x0, y0 = xy(n)
        fill = HIGHLIGHT if n in hl else DARK
        cells.append(f'<rect x="{x0}" y="{y0}" width="{s}" height="{s}" fill="{fill}"/>')
    out.append("".join(cells))
    if numbers:
        fs = max(6, round(s * 0.26))
        nums = []
        for n in range(1, v.num_squares + 1):
            x0, y0 = xy(n)
            nums.append(
                f'<text x="{x0 + 2}" y="{y0 + fs}" font-size="{fs}" fill="#f8f0e0" font-family="sans-serif">{n}</text>'
            )
        out.append("".join(nums))
    if coordinates:
        fs = max(6, round(s * 0.3))
        coords = []
        for i in range(size):
            col = v.files[size - 1 - i] if flip else v.files[i]
            rank = (i + 1) if flip else (size - i)
            cx = margin + i * s + s / 2
            cy = margin + i * s + s / 2
            coords.append(
                f'<text x="{cx:g}" y="{total - margin / 2 + fs / 3:g}" font-size="{fs}" '
                f'text-anchor="middle" font-family="sans-serif" fill="#333">{col}</text>'
            )
            coords.append(
                f'<text x="{margin / 2:g}" y="{cy + fs / 3:g}" font-size="{fs}" '
                f'text-anchor="middle" font-family="sans-serif" fill="#333">{rank}</text>'
            )
        out.append("".join(coords))
    # pieces
    rad = s * 0.4
    pieces = []
    for n, p in sorted(pos.pieces().items()):
        x0, y0 = xy(n)
        cx, cy = x0 + s / 2, y0 + s / 2
        white = p in "wW"
        fill, edge = (WHITE_FILL, WHITE_EDGE) if white else (BLACK_FILL, BLACK_EDGE)
        pieces.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{rad:g}" fill="{fill}" stroke="{edge}" '
            f'stroke-width="{max(1, s / 20):g}"/>'
        )
        pieces.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{rad * 0.7:g}" fill="none" stroke="{edge}" '
            f'stroke-opacity="0.35" stroke-width="{max(0.5, s / 40):g}"/>'
        )
        if p in "WB":
            # king: golden ring and a small crown
            w = rad * 0.9
            hgt = rad * 0.55
            bx, by = cx - w / 2, cy + hgt / 2
            pts = [
                (bx, by),
                (bx, by - hgt),
                (bx + w * 0.25, by - hgt * 0.45),
                (cx, by - hgt * 1.1),
                (bx + w * 0.75, by - hgt * 0.45),
                (bx + w, by - hgt),
                (bx + w, by),
            ]
            pieces.append(
                f'<circle cx="{cx:g}" cy="{cy:g}" r="{rad * 0.78:g}" fill="none" stroke="{CROWN}" '
                f'stroke-width="{max(1, s / 16):g}"/>'
            )
            pieces.append('<polygon points="' + " ".join(f"{a:.1f},{b:.1f}" for a, b in pts) + f'" fill="{CROWN}"/>')
    out.append("".join(pieces))
    out.append("</svg>")
    return "\n".join(out)
