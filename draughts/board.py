"""Board geometry, positions and legal-move generation.

Brazilian draughts (8x8, 12 men each) and international draughts (10x10, 20 men each) share one rule set
(domain spec section 8): men move one square diagonally forward and capture forward and backward, capturing
is mandatory and the capture taking the most pieces must be played (kings and men count the same), kings fly
along whole diagonals and may stop on any free square after the last captured piece, a man that only passes
over the promotion row during a capture stays a man, a square may be crossed twice but a piece is jumped only
once, and captured pieces are removed when the capture ends (so they still block the capturing piece).

Squares are numbered 1..N (N = 32 or 50) from Black's side, left to right as seen by White, the way the FEN of
the tablita and the Manoury notation do it: square 1 is b8 (b10), White's men start on the highest numbers.

Internally the board is three Python ints used as bitboards (white pieces, black pieces, kings) on a padded
layout with one ghost square every two rows, so that every diagonal step is a constant shift:
up-left = -(h+1), up-right = -h, down-left = +h, down-right = +(h+1), where h is the number of dark squares a
row (4 or 5).  Ghost squares are never set in VALID, so shifting a man off the side of the board lands on a ghost
and is masked away.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

WHITE = 0
BLACK = 1

# Direction indices: 0 up-left, 1 up-right, 2 down-left, 3 down-right ("up" is towards Black, square 1).
UL, UR, DL, DR = 0, 1, 2, 3


class Variant:
    """Geometry and rule constants of one variant (use the module-level BRAZILIAN and INTERNATIONAL)."""

    def __init__(self, name: str, size: int, gametype: int, king_move_limit: int, label: str):
        self.name = name
        self.label = label
        self.size = size
        self.gametype = gametype
        # 20 successive king moves (64 squares) / 25 (100 squares) without capture or man move: draw.
        self.king_move_limit = king_move_limit
        h = size // 2
        self.h = h
        self.num_squares = size * h
        self.men_per_side = h * (h - 1)
        self.files = "abcdefghijklmnop"[:size]

        n_sq = self.num_squares
        self.num_to_bit = [-1] * (n_sq + 1)
        self.num_to_rx = [(-1, -1)] * (n_sq + 1)  # square -> (row from top, column from White's left)
        self.rx_to_num: dict[tuple[int, int], int] = {}
        maxbit = 0
        for n in range(1, n_sq + 1):
            r, c = divmod(n - 1, h)
            x = 2 * c + 1 if r % 2 == 0 else 2 * c
            p = (r * (size + 1) + x) // 2
            self.num_to_bit[n] = p
            self.num_to_rx[n] = (r, x)
            self.rx_to_num[(r, x)] = n
            maxbit = max(maxbit, p)
        self.nbits = maxbit + 1
        self.bit_to_num = [0] * self.nbits
        valid = 0
        for n in range(1, n_sq + 1):
            self.bit_to_num[self.num_to_bit[n]] = n
            valid |= 1 << self.num_to_bit[n]
        self.VALID = valid
        self.shifts = (-(h + 1), -h, h, h + 1)

        # Neighbour in each direction (bit index or -1), rays (tuple of bit indices out to the edge).
        deltas = ((-1, -1), (-1, 1), (1, -1), (1, 1))
        self.neigh = [[-1, -1, -1, -1] for _ in range(self.nbits)]
        self.rays: list[list[tuple[int, ...]]] = [[(), (), (), ()] for _ in range(self.nbits)]
        # Men jumps: list of (direction, over_bit_index, land_bit_index) per square.
        self.jumps: list[tuple[tuple[int, int, int], ...]] = [() for _ in range(self.nbits)]
        for n in range(1, n_sq + 1):
            p = self.num_to_bit[n]
            r, x = self.num_to_rx[n]
            jl = []
            for d, (dr, dx) in enumerate(deltas):
                ray = []
                rr, xx = r + dr, x + dx
                while 0 <= rr < size and 0 <= xx < size:
                    ray.append(self.num_to_bit[self.rx_to_num[(rr, xx)]])
                    rr += dr
                    xx += dx
                self.rays[p][d] = tuple(ray)
                if ray:
                    self.neigh[p][d] = ray[0]
                if len(ray) >= 2:
                    jl.append((d, ray[0], ray[1]))
            self.jumps[p] = tuple(jl)

        top = 0
        bottom = 0
        for n in range(1, h + 1):
            top |= 1 << self.num_to_bit[n]
            bottom |= 1 << self.num_to_bit[n_sq + 1 - n]
        # White promotes on the top row (squares 1..h), Black on the bottom row.
        self.promo = (top, bottom)
        black_start = 0
        white_start = 0
        for n in range(1, self.men_per_side + 1):
            black_start |= 1 << self.num_to_bit[n]
            white_start |= 1 << self.num_to_bit[n_sq + 1 - n]
        self.start = (white_start, black_start)

    # -- square helpers -------------------------------------------------------------------------------------
    def square_name(self, n: int) -> str:
        """Algebraic name of square n (e.g. 22 -> 'c3' on 64 squares); White's bottom-left corner is a1."""
        r, x = self.num_to_rx[n]
        return f"{self.files[x]}{self.size - r}"

    def square_from_name(self, name: str) -> int:
        """Square number of an algebraic name ('c3' -> 22); raises ValueError if it is not a dark square."""
        name = name.strip().lower()
        if len(name) < 2 or name[0] not in self.files or not name[1:].isdigit():
            raise ValueError(f"casa inválida: {name!r}")
        x = self.files.index(name[0])
        r = self.size - int(name[1:])
        n = self.rx_to_num.get((r, x))
        if n is None:
            raise ValueError(f"casa inválida: {name!r}")
        return n

    def parse_square(self, token: str) -> int:
        """A square given as a number ('22') or an algebraic name ('c3')."""
        token = token.strip()
        if token.isdigit():
            n = int(token)
            if not 1 <= n <= self.num_squares:
                raise ValueError(f"casa inexistente: {n}")
            return n
        return self.square_from_name(token)

    def row_of(self, n: int) -> int:
        """Row of square n counted from the top (Black's side), 0-based."""
        return self.num_to_rx[n][0]

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


BRAZILIAN = Variant("brazilian", 8, 26, 20, "Damas brasileiras (64 casas)")
INTERNATIONAL = Variant("international", 10, 20, 25, "Damas internacionais (100 casas)")

_ALIASES = {
    "brazilian": BRAZILIAN,
    "brasileiras": BRAZILIAN,
    "brasileira": BRAZILIAN,
    "64": BRAZILIAN,
    "d64": BRAZILIAN,
    "draughts64": BRAZILIAN,
    "brazilian-64": BRAZILIAN,
    "8": BRAZILIAN,
    "26": BRAZILIAN,
    "international": INTERNATIONAL,
    "internacional": INTERNATIONAL,
    "internacionais": INTERNATIONAL,
    "100": INTERNATIONAL,
    "d100": INTERNATIONAL,
    "international-100": INTERNATIONAL,
    "draughts100": INTERNATIONAL,
    "standard": INTERNATIONAL,
    "10": INTERNATIONAL,
    "20": INTERNATIONAL,
}


def get_variant(variant: str | int | Variant) -> Variant:
    """Accepts a Variant, 'brazilian'/'international' (and aliases such as '64', '100'), or 64/100."""
    if isinstance(variant, Variant):
        return variant
    key = str(variant).strip().lower()
    try:
        return _ALIASES[key]
    except KeyError:
        raise ValueError(f"variante desconhecida: {variant!r}") from None


class Move:
    """One legal move: ``path`` is the list of squares the piece stands on (start, landing squares..., end),
    ``captures`` the captured squares in capture order.  Squares are numbers 1..N."""

    __slots__ = ("path", "captures", "_capmask")

    def __init__(self, path: tuple[int, ...], captures: tuple[int, ...] = (), capmask: int | None = None):
        self.path = tuple(path)
        self.captures = tuple(captures)
        self._capmask = capmask

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    def key(self) -> tuple[int, int, frozenset[int]]:
        """Identity of the move on the board: start, end and the set of captured squares."""
        return (self.path[0], self.path[-1], frozenset(self.captures))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def short(self) -> str:
        """Numeric notation with start and end only: '32-28', '19x30'."""
        return f"{self.path[0]}{'x' if self.captures else '-'}{self.path[-1]}"

    def __repr__(self) -> str:
        sep = "x" if self.captures else "-"
        return f"<Move {sep.join(map(str, self.path))} captures={list(self.captures)}>"


class Position:
    """An immutable position: who is to move, the pieces, and the count of successive king moves (plies)
    without capture or man move, used by the king-move draw rule."""

    __slots__ = ("variant", "white", "black", "kings", "turn", "king_moves")

    def __init__(self, variant: Variant, white: int, black: int, kings: int, turn: int = WHITE, king_moves: int = 0):
        self.variant = variant
        self.white = white
        self.black = black
        self.kings = kings
        self.turn = turn
        self.king_moves = king_moves

    # -- construction ---------------------------------------------------------------------------------------
    @classmethod
    def initial(cls, variant: str | Variant = BRAZILIAN) -> Position:
        v = get_variant(variant)
        return cls(v, v.start[0], v.start[1], 0, WHITE, 0)

    @classmethod
    def from_pieces(
        cls,
        variant: str | Variant,
        white_men: Iterable[int] = (),
        white_kings: Iterable[int] = (),
        black_men: Iterable[int] = (),
        black_kings: Iterable[int] = (),
        turn: int = WHITE,
    ) -> Position:
        v = get_variant(variant)
        nb = v.num_to_bit
        w = b = k = 0
        for s in white_men:
            w |= 1 << nb[s]
        for s in white_kings:
            w |= 1 << nb[s]
            k |= 1 << nb[s]
        for s in black_men:
            b |= 1 << nb[s]
        for s in black_kings:
            b |= 1 << nb[s]
            k |= 1 << nb[s]
        if w & b:
            raise ValueError("casa ocupada por peças das duas cores")
        return cls(v, w, b, k, turn, 0)

    @classmethod
    def from_fen(cls, fen: str, variant: str | Variant = BRAZILIAN) -> Position:
        from .notation import parse_fen

        return parse_fen(fen, variant)

    def fen(self) -> str:
        from .notation import write_fen

        return write_fen(self)

    # -- inspection -----------------------------------------------------------------------------------------
    def _squares(self, mask: int) -> list[int]:
        b2n = self.variant.bit_to_num
        out = []
        while mask:
            low = mask & -mask
            out.append(b2n[low.bit_length() - 1])
            mask ^= low
        out.sort()
        return out

    def white_men(self) -> list[int]:
        return self._squares(self.white & ~self.kings)

    def white_kings(self) -> list[int]:
        return self._squares(self.white & self.kings)

    def black_men(self) -> list[int]:
        return self._squares(self.black & ~self.kings)

    def black_kings(self) -> list[int]:
        return self._squares(self.black & self.kings)

    def piece_at(self, n: int) -> str:
        """'w', 'W' (white king), 'b', 'B' or '' for square n."""
        bit = 1 << self.variant.num_to_bit[n]
        if self.white & bit:
            return "W" if self.kings & bit else "w"
        if self.black & bit:
            return "B" if self.kings & bit else "b"
        return ""

    def pieces(self) -> dict[int, str]:
        out = {}
        for n in range(1, self.variant.num_squares + 1):
            p = self.piece_at(n)
            if p:
                out[n] = p
        return out

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.variant is other.variant
            and self.white == other.white
            and self.black == other.black
            and self.kings == other.kings
            and self.turn == other.turn
        )

    def __hash__(self) -> int:
        return hash((self.variant.name, self.white, self.black, self.kings, self.turn))

    def __repr__(self) -> str:
        return f"<Position {self.variant.name} {self.fen()}>"

    def ascii(self) -> str:
        v = self.variant
        lines = []
        for r in range(v.size):
            row = []
            for x in range(v.size):
                n = v.rx_to_num.get((r, x))
                row.append("." if n is None else (self.piece_at(n) or "_"))
            lines.append(" ".join(row))
        return "\n".join(lines)

    # -- move generation ------------------------------------------------------------------------------------
    def _capture_sequences(self, dedupe: bool = True) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
        """All maximal capture sequences as (path bits, captured bits, captured mask), longest only."""
        v = self.variant
        if self.turn == WHITE:
            own, enemy = self.white, self.black
        else:
            own, enemy = self.black, self.white
        kings = self.kings
        occ_all = self.white | self.black
        jumps = v.jumps
        rays = v.rays
        results: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        best = [1]

        def finish(path: list[int], caps: list[int], capmask: int) -> None:
            """A capture sequence ended: keep it if it takes at least as many pieces as the best so far."""
            n = len(caps)
            if n > best[0]:
                best[0] = n
                results.clear()
            if n == best[0]:
                results.append((tuple(path), tuple(caps), capmask))

        def man(p: int, occ: int, capmask: int, path: list[int], caps: list[int]) -> None:
            found = False
            for _d, over, land in jumps[p]:
                ob = 1 << over
                if enemy & ob and not capmask & ob and not occ & (1 << land):
                    found = True
                    path.append(land)
                    caps.append(over)
                    man(land, occ, capmask | ob, path, caps)
                    path.pop()
                    caps.pop()
            if not found and caps:
                finish(path, caps, capmask)

        def king(p: int, occ: int, capmask: int, path: list[int], caps: list[int]) -> None:
            found = False
            for ray in rays[p]:
                i = 0
                ln = len(ray)
                while i < ln and not occ & (1 << ray[i]):
                    i += 1
                if i >= ln - 1:
                    continue
                over = ray[i]
                ob = 1 << over
                if not enemy & ob or capmask & ob:
                    continue
                j = i + 1
                caps.append(over)
                nm = capmask | ob
                while j < ln and not occ & (1 << ray[j]):
                    found = True
                    path.append(ray[j])
                    king(ray[j], occ, nm, path, caps)
                    path.pop()
                    j += 1
                caps.pop()
            if not found and caps:
                finish(path, caps, capmask)

        m = own
        while m:
            low = m & -m
            m ^= low
            p = low.bit_length() - 1
            occ = occ_all ^ low  # the moving piece has left its square
            if kings & low:
                king(p, occ, 0, [p], [])
            else:
                man(p, occ, 0, [p], [])
        if dedupe and len(results) > 1:
            seen = set()
            out = []
            for r in results:
                k = (r[0][0], r[0][-1], r[2])
                if k not in seen:
                    seen.add(k)
                    out.append(r)
            results = out
        return results

    def _has_capture(self) -> bool:
        v = self.variant
        h = v.h
        if self.turn == WHITE:
            own, enemy = self.white, self.black
        else:
            own, enemy = self.black, self.white
        empty = v.VALID & ~(self.white | self.black)
        men = own & ~self.kings
        if men:
            if (((men >> (h + 1)) & enemy) >> (h + 1)) & empty:
                return True
            if (((men >> h) & enemy) >> h) & empty:
                return True
            if (((men << h) & enemy) << h) & empty:
                return True
            if (((men << (h + 1)) & enemy) << (h + 1)) & empty:
                return True
        ks = own & self.kings
        if ks:
            occ = self.white | self.black
            rays = v.rays
            while ks:
                low = ks & -ks
                ks ^= low
                for ray in rays[low.bit_length() - 1]:
                    ln = len(ray)
                    i = 0
                    while i < ln and not occ & (1 << ray[i]):
                        i += 1
                    if i < ln - 1 and enemy & (1 << ray[i]) and not occ & (1 << ray[i + 1]):
                        return True
        return False

    def _simple_moves(self) -> list[tuple[int, int]]:
        """Non-capturing moves as (from bit, to bit)."""
        v = self.variant
        h = v.h
        occ = self.white | self.black
        empty = v.VALID & ~occ
        out = []
        if self.turn == WHITE:
            own = self.white
            men = own & ~self.kings
            t = (men >> (h + 1)) & empty
            while t:
                low = t & -t
                t ^= low
                q = low.bit_length() - 1
                out.append((q + h + 1, q))
            t = (men >> h) & empty
            while t:
                low = t & -t
                t ^= low
                q = low.bit_length() - 1
                out.append((q + h, q))
        else:
            own = self.black
            men = own & ~self.kings
            t = (men << h) & empty
            while t:
                low = t & -t
                t ^= low
                q = low.bit_length() - 1
                out.append((q - h, q))
            t = (men << (h + 1)) & empty
            while t:
                low = t & -t
                t ^= low
                q = low.bit_length() - 1
                out.append((q - h - 1, q))
        ks = own & self.kings
        if ks:
            rays = v.rays
            while ks:
                low = ks & -ks
                ks ^= low
                p = low.bit_length() - 1
                for ray in rays[p]:
                    for q in ray:
                        if occ & (1 << q):
                            break
                        out.append((p, q))
        return out

    def legal_moves(self) -> list[Move]:
        """All legal moves (captures of maximal size if any capture exists).  Moves with the same start, end and
        captured set are given once."""
        b2n = self.variant.bit_to_num
        if self._has_capture():
            return [
                Move(tuple(b2n[q] for q in path), tuple(b2n[q] for q in caps), cm)
                for path, caps, cm in self._capture_sequences()
            ]
        return [Move((b2n[f], b2n[t]), (), 0) for f, t in self._simple_moves()]

    def capture_paths(self) -> list[Move]:
        """Every maximal capture path, without merging paths that take the same pieces to the same square
        (used to match PDN moves written with intermediate squares)."""
        b2n = self.variant.bit_to_num
        if not self._has_capture():
            return []
        return [
            Move(tuple(b2n[q] for q in path), tuple(b2n[q] for q in caps), cm)
            for path, caps, cm in self._capture_sequences(dedupe=False)
        ]

    def max_capture(self) -> int:
        """Number of pieces the mandatory capture takes (0 when there is no capture)."""
        if not self._has_capture():
            return 0
        seqs = self._capture_sequences()
        return len(seqs[0][1]) if seqs else 0

    def play(self, move: Move) -> Position:
        """The position after ``move`` (which must be legal; use legal_moves() or notation.parse_move)."""
        v = self.variant
        nb = v.num_to_bit
        fb = 1 << nb[move.path[0]]
        tb = 1 << nb[move.path[-1]]
        cm = move._capmask
        if cm is None:
            cm = 0
            for c in move.captures:
                cm |= 1 << nb[c]
            move._capmask = cm
        return self._apply(fb, tb, cm)

    def _apply(self, fb: int, tb: int, cm: int) -> Position:
        w, b, k = self.white, self.black, self.kings
        is_king = k & fb
        if self.turn == WHITE:
            w = (w & ~fb) | tb
            b &= ~cm
            promo = self.variant.promo[0]
        else:
            b = (b & ~fb) | tb
            w &= ~cm
            promo = self.variant.promo[1]
        k &= ~cm
        if is_king:
            k = (k & ~fb) | tb
            km = 0 if cm else self.king_moves + 1
        else:
            if tb & promo:
                k |= tb
            km = 0
        return Position(self.variant, w, b, k, 1 - self.turn, km)

    def is_draw_by_king_moves(self, per_player: bool = True) -> bool:
        """King-move rule: 20 (64 squares) / 25 (100 squares) successive king moves without capture or man move.
        ``per_player=True`` (default) counts moves of each player, as the FMJD reading of the rule does (40/50
        plies); ``per_player=False`` counts every ply ('lance') as one move (20/25 plies)."""
        limit = self.variant.king_move_limit * (2 if per_player else 1)
        return self.king_moves >= limit

    def is_game_over(self) -> bool:
        return not self.legal_moves()

    # -- convenience ----------------------------------------------------------------------------------------
    def random_playout(self, rng: random.Random, max_plies: int = 200) -> Iterator[Position]:
        """Yields successive positions of a random game from here (for tests and benchmarks)."""
        pos = self
        for _ in range(max_plies):
            moves = pos.legal_moves()
            if not moves or pos.is_draw_by_king_moves():
                return
            pos = pos.play(rng.choice(moves))
            yield pos
