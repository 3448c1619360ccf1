"""Template helpers for the public and printed pages: numbers in the active locale, board diagrams, QR codes.

Hot pages (standings, pairings) get their numbers already formatted by the view (``fmt_number``), so these
filters are for the light pages.
"""

import io
import logging
from decimal import Decimal
from fractions import Fraction

from django import template
from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import mark_safe

logger = logging.getLogger(__name__)

register = template.Library()

VARIANTS = {"brazilian-64": "brazilian", "international-100": "international"}


def fmt_number(value, sep=None):
    """A score or tiebreak value for display: whole numbers without decimals, others with up to two decimals,
    with the active locale's decimal separator (``12,5`` in pt-BR). ``None`` gives an en dash."""
    if value.__class__ is int:  # most values of a standings table: no isinstance chain
        return str(value)
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return str(int(value))
        text = format(value.quantize(Decimal("0.01")).normalize(), "f")
    else:
        return escape(str(value))
    if sep is None:
        sep = formats.get_format("DECIMAL_SEPARATOR")
    return text.replace(".", sep)


@register.filter
def num(value):
    return fmt_number(value)


@register.filter
def signed(value, digits=1):
    """A change with its sign and the language's decimal separator: +12,9, −3,0 (a rating's +/-)."""
    if value is None or value == "":
        return ""
    number = float(value)
    text = f"{abs(number):.{int(digits)}f}".replace(".", formats.get_format("DECIMAL_SEPARATOR"))
    return ("+" if number >= 0 else "\u2212") + text


def _fallback_svg(fen, size=8, title=""):
    """A plain diagram when the ``draughts`` package cannot read the FEN: dark squares numbered from Black's side
    (1 at the top right of Black's first row... as printed in the tablita), White at the bottom."""
    white, black, kings = set(), set(), set()
    try:
        body = fen.split(":")
        for part in body[1:]:
            colour, squares = part[0].upper(), part[1:]
            for token in filter(None, squares.split(",")):
                token = token.strip()
                king = token.startswith("K")
                number = int(token.lstrip("K"))
                (white if colour == "W" else black).add(number)
                if king:
                    kings.add(number)
    except (ValueError, IndexError):
        pass
    s = 40
    per_row = size // 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size * s} {size * s}" class="damas-board" '
        f'role="img" aria-label="{escape(title or fen)}"><rect width="{size * s}" height="{size * s}" fill="#f0dab5"/>'
    ]
    for n in range(1, size * size // 2 + 1):
        row = (n - 1) // per_row
        col_index = (n - 1) % per_row
        # Square 1 is on Black's side (top); on each row the dark squares alternate offset.
        x = (per_row - 1 - col_index) * 2 * s + (s if row % 2 == 0 else 0)
        x = size * s - s - x
        y = row * s
        out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="#b0805a"/>')
        out.append(f'<text x="{x + 2}" y="{y + 11}" font-size="10" fill="#f8f0e0">{n}</text>')
        if n in white or n in black:
            fill = "#fbfbf5" if n in white else "#262626"
            out.append(f'<circle cx="{x + s / 2}" cy="{y + s / 2}" r="16" fill="{fill}" stroke="#000"/>')
            if n in kings:
                out.append(
                    f'<circle cx="{x + s / 2}" cy="{y + s / 2}" r="10" fill="none" stroke="#d4a017" stroke-width="3"/>'
                )
    out.append("</svg>")
    return "".join(out)


def board_svg_markup(fen, variant="brazilian-64", title="", numbers=True, last_move=None):
    try:
        from draughts import svg_board

        return svg_board(
            fen,
            VARIANTS.get(variant, variant),
            numbers=numbers,
            coordinates=True,
            title=title or None,
            last_move=last_move,
        )
    except Exception:  # the diagram must never break a page: fall back to a plain drawing, and log why
        logger.warning("diagram of %r (%s) failed; a plain drawing is shown", fen, variant, exc_info=True)
        return _fallback_svg(fen or "", 10 if variant == "international-100" else 8, title)


@register.simple_tag
def board_svg(fen, variant="brazilian-64", title="", numbers=True):
    """Inline SVG diagram of a position (32 or 50 dark squares, White at the bottom, squares numbered)."""
    return mark_safe(board_svg_markup(fen, variant, title, numbers))


@register.simple_tag
def qr_svg(url, scale=6, title=""):
    """Inline SVG QR code (segno, no external request) pointing at ``url``."""
    import segno

    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer,
        kind="svg",
        scale=scale,
        xmldecl=False,
        svgns=True,
        title=title or url,
        svgclass="qr",
        lineclass=None,
        border=2,
    )
    return mark_safe(buffer.getvalue().decode())
