"""FEN and move notation.

FEN: ``W:W17,21,22:B1,2,K3`` (side to move, then the white and the black pieces, ``K`` before a king's square).
Read also: ranges (``W31-50``), algebraic squares on 64 squares (``Wa1,c3``), trailing ``.`` and extra fields
such as ``:H0:F1`` (ignored).

Moves:
* numeric: ``32-28``, ``19x30``, ``19x30x39`` (intermediate squares only where needed to disambiguate), ``:``
  accepted for ``x``;
* algebraic (64 squares): long ``c3-d4``, ``c3:e5``, ``c3xe5:g7``, and the short form of the tablita ``cd4``
  (the man on column c that goes to d4; for captures ``bd6`` = from column b to d6).

Algebraic squares: a1 is White's bottom-left corner (a dark square); square 1 is b8, 4 is h8, 29 is a1, 32 g1.
"""

from __future__ import annotations

import re

from .board import BLACK, WHITE, Move, Position, Variant, get_variant


class NotationError(ValueError):
    """A move or FEN that cannot be read; ``reason`` is a Portuguese explanation."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class AmbiguousMove(NotationError):
    """The text fits several legal moves (``candidates``); the moves that follow in a game may settle it."""

    def __init__(self, reason: str, candidates: list[Move]):
        super().__init__(reason)
        self.candidates = candidates


# -- FEN ------------------------------------------------------------------------------------------------------


def _parse_square_list(text: str, v: Variant) -> tuple[list[int], list[int]]:
    men: list[int] = []
    kings: list[int] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        king = False
        if item[0] in "Kk":
            king = True
            item = item[1:]
        if "-" in item and item.replace("-", "").isdigit():
            a, b = item.split("-", 1)
            squares = list(range(int(a), int(b) + 1))
            for s in squares:
                if not 1 <= s <= v.num_squares:
                    raise NotationError(f"casa inexistente na FEN: {s}")
        else:
            try:
                squares = [v.parse_square(item)]
            except ValueError as e:
                raise NotationError(f"FEN inválida: {e}") from None
        (kings if king else men).extend(squares)
    return men, kings


def parse_fen(fen: str, variant: str | Variant = "brazilian") -> Position:
    """Reads a FEN.  Raises NotationError (a ValueError) with the reason in Portuguese."""
    v = get_variant(variant)
    text = fen.strip().strip('"').rstrip(".").strip()
    if not text:
        raise NotationError("FEN vazia")
    fields = text.split(":")
    side = fields[0].strip().upper()
    if side not in ("W", "B"):
        raise NotationError(f"FEN inválida: lado a jogar deve ser W ou B, não {fields[0]!r}")
    wm, wk, bm, bk = [], [], [], []
    for field in fields[1:]:
        field = field.strip()
        if not field:
            continue
        color = field[0].upper()
        if color == "W":
            m, k = _parse_square_list(field[1:], v)
            wm += m
            wk += k
        elif color == "B":
            m, k = _parse_square_list(field[1:], v)
            bm += m
            bk += k
        # other fields (H.., F..) are ignored
    all_sq = wm + wk + bm + bk
    if len(set(all_sq)) != len(all_sq):
        raise NotationError("FEN inválida: casa repetida")
    return Position.from_pieces(v, wm, wk, bm, bk, WHITE if side == "W" else BLACK)


def write_fen(pos: Position) -> str:
    """FEN with squares in increasing order, kings prefixed with K: ``W:W17,21,K30:B1,2``."""

    def side(men: list[int], kings: list[int]) -> str:
        items = [(s, str(s)) for s in men] + [(s, f"K{s}") for s in kings]
        items.sort()
        return ",".join(t for _, t in items)

    return (
        f"{'W' if pos.turn == WHITE else 'B'}:W{side(pos.white_men(), pos.white_kings())}"
        f":B{side(pos.black_men(), pos.black_kings())}"
    )


def initial_fen(variant: str | Variant = "brazilian") -> str:
    return write_fen(Position.initial(variant))


def validate_placement(pos: Position, *, full_count: bool = True) -> list[str]:
    """Problems (in Portuguese) with a position set up on the board: men on their own promotion row, more
    pieces than a side has, and (with ``full_count``) not exactly the starting number of pieces."""
    v = pos.variant
    problems = []
    top_row = set(range(1, v.h + 1))
    bottom_row = set(range(v.num_squares - v.h + 1, v.num_squares + 1))
    for s in pos.white_men():
        if s in top_row:
            problems.append(f"pedra branca na casa {s}, na linha de coroação das brancas")
    for s in pos.black_men():
        if s in bottom_row:
            problems.append(f"pedra preta na casa {s}, na linha de coroação das pretas")
    nw = len(pos.white_men()) + len(pos.white_kings())
    nb = len(pos.black_men()) + len(pos.black_kings())
    for name, count in (("brancas", nw), ("pretas", nb)):
        if count > v.men_per_side or (full_count and count != v.men_per_side):
            problems.append(f"{count} peças {name} (esperado {v.men_per_side})")
    return problems


# -- moves ----------------------------------------------------------------------------------------------------

_NUMERIC_RE = re.compile(r"^\d+(?:[-x:]\d+)+$")
_ALG_LONG_RE = re.compile(r"^[a-j](?:10|[1-9])(?:[-x:]?[a-j](?:10|[1-9]))+$")
_ALG_SHORT_RE = re.compile(r"^([a-j])[-x:]?([a-j](?:10|[1-9]))$")
_ALG_SQUARE_RE = re.compile(r"[a-j](?:10|[1-9])")

MOVE_TOKEN_RE = re.compile(
    r"\d+(?:[-x:]\d+)+|[a-j](?:10|[1-9])(?:[-x:]?[a-j](?:10|[1-9]))+|[a-j][-x:]?[a-j](?:10|[1-9])"
)


def _trajectory(v: Variant, path: tuple[int, ...]) -> list[int]:
    """Every square the piece passes over or stops on, in order (including jumped squares)."""
    out = [path[0]]
    for a, b in zip(path, path[1:]):
        ra, xa = v.num_to_rx[a]
        rb, xb = v.num_to_rx[b]
        dr = 1 if rb > ra else -1
        dx = 1 if xb > xa else -1
        r, x = ra + dr, xa + dx
        while (r, x) != (rb + dr, xb + dx):
            out.append(v.rx_to_num[(r, x)])
            r += dr
            x += dx
    return out


def _is_subsequence(needles: list[int], hay: list[int]) -> bool:
    it = iter(hay)
    return all(any(n == h for h in it) for n in needles)


def _explain_illegal(pos: Position, start: int, end: int, is_capture_written: bool) -> str:
    v = pos.variant
    color = "brancas" if pos.turn == WHITE else "pretas"
    own = pos.white if pos.turn == WHITE else pos.black
    other = pos.black if pos.turn == WHITE else pos.white
    sb = 1 << v.num_to_bit[start]
    eb = 1 << v.num_to_bit[end]
    if not own & sb:
        if other & sb:
            return f"a peça na casa {start} não é das {color}"
        return f"não há peça das {color} na casa {start}"
    maxcap = pos.max_capture()
    if maxcap:
        if not is_capture_written:
            return f"a captura é obrigatória ({maxcap} peça{'s' if maxcap > 1 else ''})"
        return f"a captura máxima é obrigatória ({maxcap} peça{'s' if maxcap > 1 else ''})"
    if (pos.white | pos.black) & eb:
        return f"a casa {end} está ocupada"
    if is_capture_written:
        return "não há captura possível"
    if not pos.kings & sb:
        return "a pedra só anda uma casa na diagonal, para a frente"
    return "a dama só anda em diagonal, por casas livres"


def parse_move(pos: Position, text: str) -> Move:
    """Finds the legal move written as ``text`` (numeric or algebraic) in ``pos``.

    Raises NotationError whose ``reason`` says, in Portuguese, why the move is illegal or unreadable."""
    v = pos.variant
    raw = text
    text = text.strip().rstrip("!?+#*").strip().lower()
    legal = pos.legal_moves()
    short = _ALG_SHORT_RE.match(text)
    if short and not _NUMERIC_RE.match(text):
        col, dest_name = short.group(1), short.group(2)
        try:
            dest = v.square_from_name(dest_name)
        except ValueError as e:
            raise NotationError(str(e)) from None
        if col not in v.files:
            raise NotationError(f"coluna inválida: {col}")
        xcol = v.files.index(col)
        cands = [m for m in legal if m.end == dest and v.num_to_rx[m.start][1] == xcol]
        if len(cands) == 1:
            return cands[0]
        if len(cands) > 1:
            raise AmbiguousMove(f"lance ambíguo: {len(cands)} lances da coluna {col} chegam a {dest_name}", cands)
        # explain
        own = pos.white if pos.turn == WHITE else pos.black
        starts = [n for n in range(1, v.num_squares + 1) if v.num_to_rx[n][1] == xcol and own & (1 << v.num_to_bit[n])]
        color = "brancas" if pos.turn == WHITE else "pretas"
        if not starts:
            raise NotationError(f"não há peça das {color} na coluna {col}")
        # choose the nearest piece of that column as the presumed mover for the explanation
        rd, _ = v.num_to_rx[dest]
        starts.sort(key=lambda n: abs(v.num_to_rx[n][0] - rd))
        raise NotationError(_explain_illegal(pos, starts[0], dest, abs(v.num_to_rx[starts[0]][0] - rd) > 1))
    if _NUMERIC_RE.match(text):
        parts = re.split(r"[-x:]", text)
        try:
            squares = [int(p) for p in parts]
        except ValueError:
            raise NotationError(f"notação não reconhecida: {raw!r}") from None
        for s in squares:
            if not 1 <= s <= v.num_squares:
                raise NotationError(f"casa inexistente: {s}")
        written_capture = "x" in text or ":" in text
    elif _ALG_LONG_RE.match(text):
        try:
            squares = [v.square_from_name(s) for s in _ALG_SQUARE_RE.findall(text)]
        except ValueError as e:
            raise NotationError(str(e)) from None
        written_capture = "x" in text or ":" in text
    else:
        raise NotationError(f"notação não reconhecida: {raw!r}")
    start, end = squares[0], squares[-1]
    mids = squares[1:-1]
    cands = [m for m in legal if m.start == start and m.end == end]
    if len(cands) == 1 and not mids:
        return cands[0]
    if cands:
        paths = [m for m in pos.capture_paths() if m.start == start and m.end == end] or cands
        if mids:
            # FMJD: intermediate squares are landing squares (the turning square, or the square right behind a
            # captured piece when the capture goes on straight); as a fallback any square passed over, in order.
            landed = [m for m in paths if _is_subsequence(mids, list(m.path[1:-1]))]
            if len({m.key() for m in landed}) != 1:
                passed = [m for m in paths if _is_subsequence(mids, _trajectory(v, m.path)[1:-1])]
                if len({m.key() for m in passed}) == 1 or not landed:
                    landed = passed
            paths = landed
        keys = {m.key() for m in paths}
        if len(keys) == 1:
            k = next(iter(keys))
            return next(m for m in cands if m.key() == k)
        if not keys:
            raise NotationError("as casas intermediárias não correspondem a nenhuma captura legal")
        distinct = [
            next(m for m in cands if m.key() == k) for k in sorted(keys, key=lambda k: (k[0], k[1], sorted(k[2])))
        ]
        raise AmbiguousMove("lance ambíguo: indique as casas intermediárias da captura", distinct)
    raise NotationError(_explain_illegal(pos, start, end, written_capture or len(squares) > 2))


def _disambiguated_path(v: Variant, move: Move) -> list[int]:
    """Intermediate squares per FMJD PDN: where the direction changes, else the square right behind the
    captured piece."""
    out = [move.path[0]]
    path = move.path
    for i in range(1, len(path) - 1):
        a, b, c = path[i - 1], path[i], path[i + 1]
        ra, xa = v.num_to_rx[a]
        rb, xb = v.num_to_rx[b]
        rc, xc = v.num_to_rx[c]
        d1 = ((rb > ra) - (rb < ra), (xb > xa) - (xb < xa))
        d2 = ((rc > rb) - (rc < rb), (xc > xb) - (xc < xb))
        if d1 != d2:
            out.append(b)
        else:
            cr, cx = v.num_to_rx[move.captures[i - 1]]
            out.append(v.rx_to_num[(cr + d1[0], cx + d1[1])])
    out.append(path[-1])
    return out


def format_move(pos: Position, move: Move, style: str = "numeric", legal: list[Move] | None = None) -> str:
    """Writes ``move`` (legal in ``pos``).

    style: ``numeric`` ('32-28', '19x30', with intermediate squares only when start and end are ambiguous),
    ``numeric-full`` (every landing square), ``algebraic`` ('c3-d4', 'c3:e5'), ``alphanumeric`` (the PDN
    standard's GameType 26 notation: 'c3-d4', 'c3xe5', capture separator ``x``), ``algebraic-short`` (the
    tablita's 'cd4'; falls back to the long form when the short one is ambiguous)."""
    v = pos.variant
    if legal is None:
        legal = pos.legal_moves()
    same = [m for m in legal if m.start == move.start and m.end == move.end]
    if style == "numeric-full":
        squares = list(move.path)
    elif len(same) > 1 and move.captures:
        squares = _disambiguated_path(v, move)
    else:
        squares = [move.start, move.end]
    if style in ("numeric", "numeric-full"):
        return ("x" if move.captures else "-").join(map(str, squares))
    if style == "algebraic-short":
        xcol = v.num_to_rx[move.start][1]
        cands = [m for m in legal if m.end == move.end and v.num_to_rx[m.start][1] == xcol]
        if len(cands) == 1:
            return v.files[xcol] + v.square_name(move.end)
        style = "algebraic"
    if style == "algebraic":
        return (":" if move.captures else "-").join(v.square_name(s) for s in squares)
    if style == "alphanumeric":
        return ("x" if move.captures else "-").join(v.square_name(s) for s in squares)
    raise ValueError(f"estilo desconhecido: {style}")


def start_position(start: Position | str | None, v: Variant) -> Position:
    """The position a game starts from: the initial one (None), a FEN string, or a Position as given."""
    if start is None:
        return Position.initial(v)
    if isinstance(start, str):
        return parse_fen(start, v)
    return start


def replay(
    moves: str | list[str], variant: str | Variant = "brazilian", start: Position | str | None = None
) -> Position:
    """Plays a sequence of moves (a move text like '1. ab4 ba5 2. ba3' or a list of move strings) and returns
    the final position.  Raises NotationError on the first illegal move."""
    v = get_variant(variant)
    pos = start_position(start, v)
    if isinstance(moves, str):
        tokens = MOVE_TOKEN_RE.findall(re.sub(r"\b\d+\.(?:\.\.)?", " ", moves.lower()))
    else:
        tokens = list(moves)
    for tok in tokens:
        pos = pos.play(parse_move(pos, tok))
    return pos
