"""PDN (Portable Draughts Notation) reading, game validation and export.

* ``parse_pdn(text)`` -> list of PdnGame (tags, move tokens, result); comments ``{...}``/``;``, variations
  ``(...)``, NAGs ``$n``, move numbers ``12.``/``12...`` and annotation marks ``!?`` are skipped.
* ``validate_game(pdn_text, variant, start_fen=None)`` -> GameCheck: every move checked against the rules,
  with the first illegal move named by number and side and the reason in Portuguese.
* ``export_pdn(games, variant)`` -> PDN text for many games (tags Event, Round, White, Black, Result, FEN when
  not the initial position, GameType 26 for Brazilian 64 or 20 for international 100).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import BLACK, WHITE, Move, Position, Variant, get_variant
from .notation import (
    AmbiguousMove,
    NotationError,
    format_move,
    parse_move,
    start_position,
    validate_placement,
    write_fen,
)

RESULTS_FMJD = {"white": "2-0", "black": "0-2", "draw": "1-1", "both_lost": "0-0", "unknown": "*"}
RESULTS_CHESS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2", "both_lost": "0-0", "unknown": "*"}

_RESULT_ALIASES = {
    "2-0": "white",
    "1-0": "white",
    "w": "white",
    "white": "white",
    "brancas": "white",
    "0-2": "black",
    "0-1": "black",
    "b": "black",
    "black": "black",
    "pretas": "black",
    "1-1": "draw",
    "1/2-1/2": "draw",
    "½-½": "draw",
    "=": "draw",
    "d": "draw",
    "draw": "draw",
    "empate": "draw",
    "0.5-0.5": "draw",
    "0-0": "both_lost",
    "*": "unknown",
    "-": "unknown",  # Dambo, toernooibase: a game unfinished or its result unknown
    "": "unknown",
}


def normalize_result(result: str | None) -> str:
    """'white', 'black', 'draw', 'both_lost' (double forfeit / double loss) or 'unknown'."""
    if result is None:
        return "unknown"
    key = str(result).strip().lower()
    if key not in _RESULT_ALIASES:
        raise ValueError(f"resultado desconhecido: {result!r}")
    return _RESULT_ALIASES[key]


def format_result(result: str | None, style: str = "fmjd") -> str:
    """Result in PDN: FMJD style '2-0', '1-1', '0-2' (default) or chess style '1-0', '1/2-1/2', '0-1'."""
    table = RESULTS_FMJD if style == "fmjd" else RESULTS_CHESS
    return table[normalize_result(result)]


# -- reading ------------------------------------------------------------------------------------------------

MAX_GAME_CHARS = 100_000  # one game record (what an arbiter attaches to one game)
MAX_FILE_CHARS = 5_000_000  # a file of many games
MAX_GAMES = 5_000  # games in one file


class PdnError(ValueError):
    """A PDN text that cannot be read at all (too long, too many games); ``reason`` is in Portuguese."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


_TOKEN_RE = re.compile(
    r"""
    (?P<tag>\[[ \t]*(?P<tname>[A-Za-z0-9_]+)[ \t]*"(?P<tval>(?:[^"\\\n]|\\.){0,2000})"[ \t]*\])
  | (?P<badtag>\[)
  | (?P<comment>\{[^}]*\})
  | (?P<opencomment>\{)
  | (?P<linecomment>;[^\n]*)
  | (?P<escape>^%[^\n]*)
  | (?P<lpar>\()
  | (?P<rpar>\))
  | (?P<nag>\$\d+)
  | (?P<result>(?:1/2-1/2|½-½|2-0|0-2|1-1|1-0|0-1|0-0|\*|(?<![\w-])-)(?![\w/.-]))
  | (?P<number>\d+[ \t]*\.(?:[ \t]*\.{2,3}|\.{1,2})?)
  | (?P<ellipsis>\.{2,})
  | (?P<move>(?:\d+(?:[ \t]*[-x:][ \t]*\d+)+|[a-j](?:10|[1-9])(?:[-x:]?[a-j](?:10|[1-9]))+|[a-j][-x:]?[a-j](?:10|[1-9]))
        (?P<marks>[!?]*[+#]?)(?![\w]))
  | (?P<other>[^\s\[\](){};]+)
""",
    re.VERBOSE | re.MULTILINE,
)


# "\r" or "\n" written as text (a backslash and a letter) at the end of a line or right after a tag's "]"
_LITERAL_LINE_END = re.compile(r"(?:(?<=\])[ \t]*(?:\\[rn])+|(?:\\[rn])+(?=[ \t]*(?:\n|$)))", re.MULTILINE)


def _one_line_end(text: str) -> str:
    """LF line ends only; the text "\\r" (a backslash and an r) Dambo and toernooibase write after each tag, a
    line end written out, dropped."""
    return _LITERAL_LINE_END.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


@dataclass
class MoveToken:
    text: str  # the move as read (spaces inside taken out), without annotation marks
    number: int | None = None  # the move number written before it, if any
    black_marker: bool = False  # written as '12...' or '12. ...' (a Black move)
    written: str | None = None  # the move as written, when ``text`` was translated from another notation

    @property
    def shown(self) -> str:
        return self.written if self.written is not None else self.text


@dataclass
class PdnGame:
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[MoveToken] = field(default_factory=list)
    result: str | None = None  # the game-termination token, if any
    unknown_tokens: list[tuple[int, str]] = field(default_factory=list)  # (index in moves, token) unreadable
    errors: list[str] = field(default_factory=list)  # the record's structure (unclosed comment, variation, tag)
    source: str = ""  # the game's own text in the file (line ends as LF): what to store as its record

    @property
    def fen(self) -> str | None:
        return self.tags.get("FEN")


def decode_pdn(data: bytes) -> str:
    """The text of a PDN file as programs write them: UTF-8 (with or without BOM), else Windows-1252 / Latin-1
    (older desktop programs); line ends CRLF, CR or LF all become LF."""
    if data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:
                text = data.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


class _Lines:
    """Line numbers of increasing positions in one text, counted once (linear over the whole text)."""

    def __init__(self, text: str):
        self.text = text
        self.index = 0
        self.line = 1

    def at(self, index: int) -> int:
        if index >= self.index:
            self.line += self.text.count("\n", self.index, index)
        else:
            self.line -= self.text.count("\n", index, self.index)
        self.index = index
        return self.line


def parse_pdn(text: str, *, max_chars: int = MAX_FILE_CHARS, max_games: int = MAX_GAMES) -> list[PdnGame]:
    """Splits PDN text into games.  A game ends at its result token or when a new tag section starts.

    Bounded: a text longer than ``max_chars`` or with more than ``max_games`` games raises PdnError.  A comment
    ``{`` that is never closed ends the reading there (the rest of the text is inside it): the game gets an error
    naming the line, never a silent loss; so does a variation ``(`` never closed or a malformed tag."""
    if len(text) > max_chars:
        raise PdnError(f"o texto PDN tem {len(text)} caracteres; o máximo é {max_chars}")
    text = _one_line_end(text)
    games: list[PdnGame] = []
    lines = _Lines(text)
    cur = PdnGame()
    in_moves = False
    depth = 0
    open_at = 0  # where the outermost open variation started
    pending_number: int | None = None
    pending_black = False

    span = [-1, 0]  # where the current game's text starts and ends

    def flush() -> None:
        nonlocal cur, in_moves, pending_number, pending_black, depth
        if depth:
            cur.errors.append(f"variante aberta com '(' na linha {lines.at(open_at)} não foi fechada")
            depth = 0
        if cur.tags or cur.moves or cur.unknown_tokens or cur.errors:
            cur.source = text[span[0] : span[1]] if span[0] >= 0 else ""
            span[0] = -1
            games.append(cur)
            if len(games) > max_games:
                raise PdnError(f"o arquivo tem mais de {max_games} partidas")
        cur = PdnGame()
        in_moves = False
        pending_number = None
        pending_black = False

    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        if kind == "tag" and in_moves and not depth:
            flush()  # a new tag section: the game before it ends here
        if span[0] < 0:
            span[0] = m.start()
        span[1] = m.end()
        if kind == "opencomment":
            cur.errors.append(
                f"comentário aberto com '{{' na linha {lines.at(m.start())} não foi fechado "
                f"(falta '}}'; o resto do texto ficaria dentro dele)"
            )
            depth = 0
            break
        if kind in ("comment", "linecomment", "escape", "nag"):
            continue
        if kind == "lpar":
            if not depth:
                open_at = m.start()
            depth += 1
            continue
        if kind == "rpar":
            depth = max(0, depth - 1)
            continue
        if depth:
            continue
        if kind == "badtag":
            if cur.errors:
                continue  # the first one is named
            cur.errors.append(f'tag mal formada na linha {lines.at(m.start())} (esperado [Nome "valor"])')
            continue
        if kind == "tag":
            val = re.sub(r"\\(.)", r"\1", m.group("tval"))
            cur.tags[m.group("tname")] = val
            continue
        if kind == "result":
            if not (cur.tags or cur.moves or cur.unknown_tokens or cur.errors):
                continue  # a second terminator after a finished game
            cur.result = m.group("result")
            flush()
            continue
        in_moves = True
        if kind == "number":
            tok = m.group("number")
            pending_number = int(re.match(r"\d+", tok).group())  # type: ignore[union-attr]
            pending_black = tok.count(".") >= 3
            continue
        if kind == "ellipsis":
            pending_black = True
            continue
        if kind == "move":
            mv = m.group("move")
            marks = m.group("marks") or ""
            if marks:
                mv = mv[: len(mv) - len(marks)]
            cur.moves.append(MoveToken(re.sub(r"[ \t]+", "", mv), pending_number, pending_black))
            pending_number = None
            pending_black = False
            continue
        # unreadable token: keep it in the move list so validation reports it at its place
        cur.unknown_tokens.append((len(cur.moves), m.group()))
        cur.moves.append(MoveToken(m.group(), pending_number, pending_black))
        pending_number = None
        pending_black = False
    flush()
    return games


# -- the GameType tag -------------------------------------------------------------------------------------

_GAMETYPE_RE = re.compile(
    r"^\s*(\d+)\s*(?:,\s*([WB])\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([ANS])([0-3])\s*(?:,\s*([01])\s*)?)?$", re.I
)


@dataclass(frozen=True)
class GameType:
    """The PDN GameType tag: ``26`` or in full ``26,W,8,8,A0,0`` (type, starting colour, board width and height,
    notation: A alphanumeric / N numeric / S short, with the corner of the first square seen by the starting
    player: 0 bottom left, 1 bottom right, 2 top left, 3 top right; invert flag)."""

    code: int
    start: str | None = None
    width: int | None = None
    height: int | None = None
    notation: str | None = None
    corner: int | None = None
    invert: int | None = None


def parse_gametype(value: str | None) -> GameType | None:
    m = _GAMETYPE_RE.match(value or "")
    if not m:
        return None
    code, start, width, height, notation, corner, invert = m.groups()
    if start is None:
        return GameType(int(code))
    return GameType(
        int(code),
        start.upper(),
        int(width),
        int(height),
        notation.upper(),
        int(corner),
        int(invert) if invert is not None else None,
    )


def gametype_tag(variant: str | Variant, style: str = "numeric") -> str:
    """The full GameType value the PDN standard gives the variant, with the notation ``style`` writes:
    ``26,W,8,8,A0,0`` (Brazilian, alphanumeric, a1 bottom left), ``26,W,8,8,N2,0`` (Brazilian, numeric from the
    top left, as our FEN), ``20,W,10,10,N2,0`` (international)."""
    v = get_variant(variant)
    notation = "A0" if style.startswith(("alpha", "algebraic")) else "N2"
    return f"{v.gametype},W,{v.size},{v.size},{notation},0"


def _numeric_map(v: Variant, corner: int) -> dict[int, int]:
    """Written square number -> our square number, for a numbering that starts at ``corner`` (rows across)."""
    out = {}
    for n in range(1, v.num_squares + 1):
        i, k = divmod(n - 1, v.h)
        r = i if corner in (2, 3) else v.size - 1 - i
        xs = sorted(x for (rr, x) in v.rx_to_num if rr == r)
        if corner in (1, 3):
            xs.reverse()
        out[n] = v.rx_to_num[(r, xs[k])]
    return out


def _alpha_maps(v: Variant, corner: int) -> tuple[dict[str, str], dict[str, str]]:
    """Written square name -> our name, and written column letter -> our letter, for a1 at ``corner``."""
    names = {}
    for n in range(1, v.num_squares + 1):
        r, x = v.num_to_rx[n]
        a = x if corner in (0, 2) else v.size - 1 - x
        q = v.size - r if corner in (0, 1) else r + 1
        names[f"{v.files[a]}{q}"] = v.square_name(n)
    cols = {v.files[a]: v.files[a if corner in (0, 2) else v.size - 1 - a] for a in range(v.size)}
    return names, cols


_ALG_SHORT = re.compile(r"^([a-j])([-x:]?)([a-j](?:10|[1-9]))$")
_ALG_SQUARE = re.compile(r"[a-j](?:10|[1-9])")


def _translator(gt: GameType | None, v: Variant) -> Callable[[str], str] | None:
    """A function rewriting moves written in the notation the GameType tag declares into ours (numeric from the
    top left, alphanumeric with a1 bottom left), or None when no rewriting is needed."""
    if gt is None or gt.notation is None or gt.corner is None or gt.code != v.gametype:
        return None
    if gt.notation == "N" and gt.corner != 2:
        nums = _numeric_map(v, gt.corner)

        def numeric(text: str) -> str:
            if not re.fullmatch(r"\d+(?:[-x:]\d+)+", text):
                return text
            return re.sub(r"\d+", lambda m: str(nums.get(int(m.group()), m.group())), text)

        return numeric
    if gt.notation == "A" and gt.corner != 0:
        names, cols = _alpha_maps(v, gt.corner)

        def alpha(text: str) -> str:
            low = text.lower()
            short = _ALG_SHORT.match(low)
            if short:
                return (
                    cols.get(short.group(1), short.group(1))
                    + short.group(2)
                    + names.get(short.group(3), short.group(3))
                )
            if re.fullmatch(r"[a-j](?:10|[1-9])(?:[-x:]?[a-j](?:10|[1-9]))+", low):
                return _ALG_SQUARE.sub(lambda m: names.get(m.group(), m.group()), low)
            return text

        return alpha
    return None


# -- validation ---------------------------------------------------------------------------------------------


@dataclass
class PlayedMove:
    number: int  # move number (a White move and the Black reply share a number)
    side: str  # 'W' or 'B'
    text: str  # as written in the PDN
    notation: str  # normalised numeric notation ('32-28', '19x30')
    move: Move
    fen_before: str
    fen_after: str


@dataclass
class GameCheck:
    ok: bool
    variant: str
    start_fen: str
    moves: list[PlayedMove] = field(default_factory=list)  # the legal moves up to the first error
    positions: list[str] = field(default_factory=list)  # FENs: start, then after each legal move
    error: str | None = None  # Portuguese message naming the first illegal move
    error_ply: int | None = None  # 0-based index of that move in the game
    error_number: int | None = None
    error_side: str | None = None
    error_move: str | None = None
    error_reason: str | None = None
    result: str | None = None  # Result tag or termination token, as written
    tags: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # Portuguese notes that do not make the game illegal
    final_fen: str | None = None
    game_over: bool = False  # side to move has no legal move at the end
    draw_by_king_moves: bool = False  # the king-move rule was reached during the game

    def __bool__(self) -> bool:
        return self.ok


def _side_pt(turn: int) -> str:
    return "brancas" if turn == WHITE else "pretas"


_LOOKAHEAD_BUDGET = 20_000  # moves tried while settling ambiguous captures in one game


class _Exhausted(Exception):
    pass


def _reach(pos: Position, texts: list[str], j: int, budget: list[int]) -> int:
    """How many of ``texts[j:]`` can be played legally from ``pos``, an ambiguous move tried every way."""
    k = j
    while k < len(texts):
        budget[0] -= 1
        if budget[0] < 0:
            raise _Exhausted
        if not pos.legal_moves():
            return k - j
        try:
            move = parse_move(pos, texts[k])
        except AmbiguousMove as e:
            return k - j + max(1 + _reach(pos.play(c), texts, k + 1, budget) for c in e.candidates)
        except NotationError:
            return k - j
        pos = pos.play(move)
        k += 1
    return k - j


def _settle(pos: Position, texts: list[str], ply: int, amb: AmbiguousMove) -> tuple[Move | None, str]:
    """The branch of an ambiguous move that keeps the rest of the game legal: (move, "") when only one does
    (or, when none does, only one goes furthest), else (None, reason)."""
    rest = len(texts) - ply - 1
    try:
        budget = [_LOOKAHEAD_BUDGET]
        reach = [(c, _reach(pos.play(c), texts, ply + 1, budget)) for c in amb.candidates]
    except _Exhausted:
        return None, f"{amb.reason} (os lances seguintes não puderam decidir)"
    if not rest:
        return None, amb.reason
    full = [c for c, n in reach if n == rest]
    if len(full) == 1:
        return full[0], ""
    if not full:
        best = max(n for _, n in reach)
        leaders = [c for c, n in reach if n == best]
        if len(leaders) == 1 and best > 0:
            return leaders[0], ""
    return None, f"{amb.reason} (os lances seguintes não decidem)"


def validate_moves(
    tokens: Iterable[MoveToken | str],
    variant: str | Variant,
    start: Position | str | None = None,
    *,
    king_rule_per_player: bool = True,
) -> GameCheck:
    """Plays move tokens from ``start`` (FEN, Position, or the initial position).

    A capture written by its two ends that several legal captures fit is settled by the moves that follow: the
    one branch that keeps the game legal is played (with a warning naming it); it stays an error only when the
    following moves do not decide."""
    v = get_variant(variant)
    pos = start_position(start, v)
    start_fen = write_fen(pos)
    check = GameCheck(ok=True, variant=v.name, start_fen=start_fen, positions=[start_fen])
    toks = [MoveToken(t) if isinstance(t, str) else t for t in tokens]
    texts = [t.text for t in toks]
    # a fragment that starts later in a game keeps its own numbering ('23. 32-28 ...')
    number = toks[0].number if toks and toks[0].number else 1
    for ply, tok in enumerate(toks):
        side = _side_pt(pos.turn)
        if tok.number is not None and tok.number != number and not check.warnings:
            check.warnings.append(
                f"numeração: o lance {tok.shown} está marcado como {tok.number}, mas é o lance {number} das {side}"
            )
        legal = pos.legal_moves()
        reason = None
        move = None
        settled = False
        if not legal:
            reason = f"as {side} não têm lances: a partida já terminou"
        else:
            try:
                move = parse_move(pos, tok.text)
            except AmbiguousMove as e:
                move, why = _settle(pos, texts, ply, e)
                reason = why or None
                settled = move is not None
            except NotationError as e:
                reason = e.reason
        if reason is not None or move is None:
            check.ok = False
            check.error_ply = ply
            check.error_number = number
            check.error_side = "W" if pos.turn == WHITE else "B"
            check.error_move = tok.shown
            check.error_reason = reason
            check.error = f"Lance {number} das {side} ({tok.shown}) é ilegal: {reason}"
            break
        before = write_fen(pos)
        notation = format_move(pos, move, "numeric", legal)
        if settled:
            check.warnings.append(
                f"lance {number} das {side} ({tok.shown}): captura ambígua, decidida pelos lances seguintes "
                f"({notation})"
            )
        if check.draw_by_king_moves is False and pos.is_draw_by_king_moves(king_rule_per_player):
            check.draw_by_king_moves = True
            check.warnings.append(f"regra dos lances de dama: empate já alcançado antes do lance {number} das {side}")
        new = pos.play(move)
        after = write_fen(new)
        check.moves.append(
            PlayedMove(number, "W" if pos.turn == WHITE else "B", tok.shown, notation, move, before, after)
        )
        check.positions.append(after)
        if pos.turn == BLACK:
            number += 1
        pos = new
    if not check.draw_by_king_moves and pos.is_draw_by_king_moves(king_rule_per_player):
        check.draw_by_king_moves = True
    check.final_fen = write_fen(pos)
    check.game_over = check.ok and not pos.legal_moves()
    return check


def validate_game(
    pdn_text: str,
    variant: str | Variant = "brazilian",
    start_fen: str | None = None,
    *,
    king_rule_per_player: bool = True,
) -> GameCheck:
    """Checks one game record.

    ``pdn_text``: a PDN game (tags optional) or bare move text ('1. 22-18 11-15 2. ...', or algebraic on 64).
    ``start_fen``: the starting position; when None, the PDN's FEN tag, else the initial position.
    Returns a GameCheck: ``ok`` and ``moves``/``positions`` on success, else ``error`` such as
    "Lance 12 das pretas (14x23) é ilegal: a captura máxima é obrigatória (3 peças)".
    A FEN that cannot be read, or that places pieces illegally, gives ok=False with ``error`` and error_ply
    None; an empty text is a valid game without moves.  When the first move carries a number ('23. ...'), the
    numbering of the messages starts from it.  A record is one game of at most MAX_GAME_CHARS characters with
    its comments closed: anything else is an error, never a partial reading."""
    v = get_variant(variant)
    text = pdn_text or ""
    try:
        games = parse_pdn(text, max_chars=MAX_GAME_CHARS, max_games=50)
    except PdnError as e:
        return GameCheck(ok=False, variant=v.name, start_fen=start_fen or "", error=f"Registro inválido: {e.reason}")
    if len(games) > 1:
        return GameCheck(
            ok=False,
            variant=v.name,
            start_fen=start_fen or "",
            error=f"Registro inválido: o texto contém {len(games)} partidas; um registro é uma partida só",
            tags=dict(games[0].tags),
        )
    return check_pdn_game(games[0] if games else PdnGame(), v, start_fen, king_rule_per_player=king_rule_per_player)


def validate_games(
    pdn_text: str, variant: str | Variant = "brazilian", *, king_rule_per_player: bool = True
) -> list[GameCheck]:
    """Checks every game of a PDN file (each from its own FEN tag or the initial position), each its own record.
    Raises PdnError when the file is over MAX_FILE_CHARS characters or MAX_GAMES games."""
    return [
        check_pdn_game(g, variant, None, king_rule_per_player=king_rule_per_player) for g in parse_pdn(pdn_text or "")
    ]


def _nonstandard_result(text: str, v: Variant) -> bool:
    """'4-6', '1-9': a score (both numbers 10 or less) written like a move but no move on this board (squares on
    no common diagonal), so, at the end of a game, the result some programs write."""
    m = re.fullmatch(r"(\d{1,2})-(\d{1,2})", text)
    if not m:
        return False
    a, b = int(m.group(1)), int(m.group(2))
    if a > 10 or b > 10:
        return False  # '31-30': a (mistyped) move, refused as such
    if a == b:
        return False  # '13-13': a move from and to one square, refused as such
    if not (1 <= a <= v.num_squares and 1 <= b <= v.num_squares):
        return True
    (ra, xa), (rb, xb) = v.num_to_rx[a], v.num_to_rx[b]
    return abs(ra - rb) != abs(xa - xb)


# The PDN standard's GameType numbers of games this program does not play (20 and 26 it does).
OTHER_GAMES = {
    0: "xadrez",
    1: "xadrez chinês",
    21: "damas inglesas (checkers)",
    22: "damas italianas",
    23: "damas americanas (pool checkers)",
    24: "damas espanholas",
    25: "damas russas",
    27: "damas canadenses",
    28: "damas portuguesas",
    29: "damas tchecas",
    30: "damas turcas",
    31: "damas tailandesas",
    40: "damas frísias",
    41: "damas spantsiretti",
}


def _unreadable(game: PdnGame, v: Variant) -> str | None:
    """Why a record cannot be read at all: a broken record, or a game of another variant (named)."""
    if game.errors:
        return f"Registro inválido: {game.errors[0]}"
    other = _other_game(game.tags.get("GameType"))
    if other is not None:
        return (
            f"partida de {other} (GameType {game.tags['GameType'].strip()}), não de {v.label.lower()}: este programa "
            "lê damas brasileiras (64 casas) e internacionais (100 casas)"
        )
    return None


def _other_game(text: str | None) -> str | None:
    """The name of the game a GameType tag declares when this program does not play it, else None."""
    gt = parse_gametype(text)
    if gt is None or gt.code in (20, 26):
        return None
    return OTHER_GAMES.get(gt.code, f"outro jogo (tipo {gt.code})")


def check_pdn_game(
    game: PdnGame,
    variant: str | Variant = "brazilian",
    start_fen: str | None = None,
    *,
    king_rule_per_player: bool = True,
) -> GameCheck:
    """Checks one parsed game (see validate_game).

    The GameType tag's notation field is honoured: moves written numbered from another corner, or alphanumeric
    with a1 elsewhere, are read in that notation (messages show them as written).  A last token written like a
    move that no move on the board can be ('4-6', '1-9') is the game's result, not a move."""
    v = get_variant(variant)
    fen = start_fen or game.tags.get("FEN")
    result = game.tags.get("Result") or game.result
    refusal = _unreadable(game, v)
    if refusal:
        return GameCheck(
            ok=False, variant=v.name, start_fen=fen or "", error=refusal, tags=dict(game.tags), result=result
        )
    try:
        start = start_position(fen or None, v)
        problems = validate_placement(start, full_count=False)
        if problems:
            raise NotationError("; ".join(problems))
    except (NotationError, ValueError) as e:
        return GameCheck(
            ok=False, variant=v.name, start_fen=fen or "", error=f"FEN inválida: {e}", tags=game.tags, result=result
        )
    tokens = list(game.moves)
    notes = []
    if tokens and _nonstandard_result(tokens[-1].text, v):
        written = tokens.pop().text
        notes.append(f"resultado fora do padrão PDN ({written}) lido como resultado, não como lance")
        if game.result is None:
            result = game.tags.get("Result") or written
    gt_text = game.tags.get("GameType")
    gt = parse_gametype(gt_text)
    translate = _translator(gt, v)
    if translate is not None:
        tokens = [MoveToken(translate(t.text), t.number, t.black_marker, t.text) for t in tokens]
    check = validate_moves(tokens, v, start, king_rule_per_player=king_rule_per_player)
    check.warnings[:0] = notes
    check.tags = dict(game.tags)
    check.result = result
    if gt is not None and gt.code in (20, 26) and gt.code != v.gametype:
        check.warnings.append(f"GameType {gt.code} não corresponde à variante {v.label}")
    elif gt is not None and gt.width is not None and (gt.width, gt.height) != (v.size, v.size):
        check.warnings.append(f"GameType {gt_text}: tabuleiro {gt.width}x{gt.height}, mas a variante é {v.label}")
    if check.ok and check.game_over and check.result:
        try:
            res = normalize_result(check.result)
        except ValueError:
            res = "unknown"
        loser_white = (check.final_fen or "").startswith("W")
        expected = "black" if loser_white else "white"
        if res in ("white", "black", "draw") and res != expected:
            check.warnings.append(
                f"resultado {check.result} não corresponde à posição final: "
                f"as {'brancas' if loser_white else 'pretas'} não têm lances"
            )
    if check.ok and game.result and game.tags.get("Result") and game.result != game.tags["Result"]:
        try:
            if normalize_result(game.result) != normalize_result(game.tags["Result"]):
                check.warnings.append(
                    f"o resultado no fim dos lances ({game.result}) difere da tag Result ({game.tags['Result']})"
                )
        except ValueError:
            pass
    return check


# -- writing ------------------------------------------------------------------------------------------------


_TAG_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def _pdn_escape(value: Any) -> str:
    """A tag value: on one line (a line break would start a tag or a move of its own), quotes escaped."""
    text = _TAG_BREAKS.sub(" ", str(value if value is not None else ""))
    return text.replace("\\", "\\\\").replace('"', '\\"')


def movetext(
    moves: Iterable[str | Move],
    start: Position | str | None = None,
    variant: str | Variant = "brazilian",
    *,
    style: str = "numeric",
    result: str | None = None,
    width: int = 79,
    check: bool = True,
) -> str:
    """Numbered move text.  ``moves`` may be strings in any accepted notation or Move objects.  With
    ``check`` (default) the moves are replayed and rewritten in ``style`` ('numeric', 'algebraic',
    'algebraic-short'); raises NotationError on an illegal move."""
    v = get_variant(variant)
    pos = start_position(start, v)
    words: list[str] = []
    number = 1
    first = True
    for mv in moves:
        if check:
            move = mv if isinstance(mv, Move) else parse_move(pos, mv)
            text = format_move(pos, move, style)
        else:
            text = mv if isinstance(mv, str) else mv.short()
            move = None
        if pos.turn == WHITE:
            words.append(f"{number}.")
        elif first:
            words.append(f"{number}...")
        words.append(text)
        first = False
        if move is not None:
            pos = pos.play(move)
        else:
            pos = Position(pos.variant, pos.white, pos.black, pos.kings, 1 - pos.turn, 0)
        if pos.turn == WHITE:
            number += 1
    if result is not None:
        words.append(result)
    lines: list[str] = []
    line = ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    if line:
        lines.append(line)
    return "\n".join(lines)


def _get(game: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        if isinstance(game, Mapping):
            if name in game and game[name] is not None:
                return game[name]
        elif getattr(game, name, None) is not None:
            return getattr(game, name)
    return default


def export_game(
    game: Mapping[str, Any] | Any,
    variant: str | Variant = "brazilian",
    *,
    result_style: str = "fmjd",
    style: str | None = None,
    check: bool = True,
) -> str:
    """One game as PDN.  ``style``: the move notation; by default the one the PDN standard's GameType entry names
    for the variant: alphanumeric on 64 squares ('c3-d4', 'c3xe5'; GameType "26,W,8,8,A0,0"), numeric on 100
    ("20,W,10,10,N2,0"); ``numeric`` on 64 writes GameType "26,W,8,8,N2,0".  ``game`` is a mapping or an object with: event, round, white, black, result, moves
    (move text or list of moves; optional), fen (optional start position), and optionally date, site, tags
    (extra tags as a mapping)."""
    v = get_variant(variant)
    if style is None:
        style = "alphanumeric" if v.size == 8 else "numeric"
    result = format_result(_get(game, "result", default="*"), result_style)
    fen = _get(game, "fen", "start_fen")
    start = start_position(fen or None, v)
    tags: list[tuple[str, Any]] = [
        ("Event", _get(game, "event", default="?")),
    ]
    if _get(game, "site") is not None:
        tags.append(("Site", _get(game, "site")))
    if _get(game, "date") is not None:
        tags.append(("Date", _get(game, "date")))
    tags += [
        ("Round", _get(game, "round", default="?")),
        ("White", _get(game, "white", default="?")),
        ("Black", _get(game, "black", default="?")),
        ("Result", result),
    ]
    if start != Position.initial(v):
        tags.append(("FEN", write_fen(start)))
    tags.append(("GameType", gametype_tag(v, style)))
    extra = _get(game, "tags") or {}
    known = {k for k, _ in tags}
    for k, val in dict(extra).items():
        if k not in known:
            tags.append((k, val))
    moves = _get(game, "moves", default=None)
    if moves is None:
        tokens: list[Any] = []
    elif isinstance(moves, str):
        # a stored record: read as validate_game reads it (its GameType notation, settled captures)
        parsed = parse_pdn(moves, max_chars=MAX_GAME_CHARS, max_games=50)
        if len(parsed) > 1:
            raise PdnError(f"o registro contém {len(parsed)} partidas; um registro é uma partida só")
        record = parsed[0] if parsed else PdnGame()
        if record.errors:
            raise PdnError(record.errors[0])
        if check:
            checked = check_pdn_game(record, v, write_fen(start))
            if not checked.ok:
                raise NotationError(checked.error or "registro inválido")
            tokens = [played.move for played in checked.moves]
        else:
            tokens = [t.text for t in record.moves]
    else:
        tokens = list(moves)
    body = movetext(tokens, start, v, style=style, result=result, check=check)
    head = "\n".join(f'[{k} "{_pdn_escape(val)}"]' for k, val in tags)
    return f"{head}\n\n{body}\n"


def export_pdn(
    games: Iterable[Mapping[str, Any] | Any],
    variant: str | Variant = "brazilian",
    *,
    result_style: str = "fmjd",
    style: str | None = None,
    check: bool = True,
) -> str:
    """Many games as one PDN text (games separated by a blank line).  See export_game."""
    return "\n".join(export_game(g, variant, result_style=result_style, style=style, check=check) for g in games)
