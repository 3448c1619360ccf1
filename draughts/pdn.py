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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import BLACK, WHITE, Move, Position, Variant, get_variant
from .notation import NotationError, format_move, parse_move, start_position, validate_placement, write_fen

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

_TOKEN_RE = re.compile(
    r"""
    (?P<tag>\[\s*(?P<tname>[A-Za-z0-9_]+)\s*"(?P<tval>(?:[^"\\]|\\.)*)"\s*\])
  | (?P<comment>\{[^}]*\}?)
  | (?P<linecomment>;[^\n]*)
  | (?P<escape>^%[^\n]*)
  | (?P<lpar>\()
  | (?P<rpar>\))
  | (?P<nag>\$\d+)
  | (?P<result>(?:1/2-1/2|½-½|2-0|0-2|1-1|1-0|0-1|0-0|\*)(?![\w/.-]))
  | (?P<number>\d+\s*\.(?:\s*\.\.)?)
  | (?P<ellipsis>\.\.\.?)
  | (?P<move>(?:\d+(?:[-x:]\d+)+|[a-j](?:10|[1-9])(?:[-x:]?[a-j](?:10|[1-9]))+|[a-j][-x:]?[a-j](?:10|[1-9]))
        (?P<marks>[!?]*[+#]?)(?![\w]))
  | (?P<other>[^\s\[\](){};]+)
""",
    re.VERBOSE | re.MULTILINE,
)


@dataclass
class MoveToken:
    text: str  # the move as written, without annotation marks
    number: int | None = None  # the move number written before it, if any
    black_marker: bool = False  # written as '12...' (a Black move)


@dataclass
class PdnGame:
    tags: dict = field(default_factory=dict)
    moves: list = field(default_factory=list)  # list[MoveToken]
    result: str | None = None  # the game-termination token, if any
    unknown_tokens: list = field(default_factory=list)  # (index in moves, token) of unreadable tokens

    @property
    def fen(self) -> str | None:
        return self.tags.get("FEN")


def parse_pdn(text: str) -> list[PdnGame]:
    """Splits PDN text into games.  A game ends at its result token or when a new tag section starts."""
    games: list[PdnGame] = []
    cur = PdnGame()
    in_moves = False
    depth = 0
    pending_number: int | None = None
    pending_black = False

    def flush():
        nonlocal cur, in_moves, pending_number, pending_black
        if cur.tags or cur.moves or cur.result or cur.unknown_tokens:
            games.append(cur)
        cur = PdnGame()
        in_moves = False
        pending_number = None
        pending_black = False

    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        if kind in ("comment", "linecomment", "escape", "nag"):
            continue
        if kind == "lpar":
            depth += 1
            continue
        if kind == "rpar":
            depth = max(0, depth - 1)
            continue
        if depth:
            continue
        if kind == "tag":
            if in_moves:
                flush()
            val = re.sub(r"\\(.)", r"\1", m.group("tval"))
            cur.tags[m.group("tname")] = val
            continue
        if kind == "result":
            cur.result = m.group("result")
            flush()
            continue
        in_moves = True
        if kind == "number":
            tok = m.group("number")
            pending_number = int(re.match(r"\d+", tok).group())
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
            cur.moves.append(MoveToken(mv.strip(), pending_number, pending_black))
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
    moves: list = field(default_factory=list)  # list[PlayedMove], the legal moves up to the first error
    positions: list = field(default_factory=list)  # FENs: start, then after each legal move
    error: str | None = None  # Portuguese message naming the first illegal move
    error_ply: int | None = None  # 0-based index of that move in the game
    error_number: int | None = None
    error_side: str | None = None
    error_move: str | None = None
    error_reason: str | None = None
    result: str | None = None  # Result tag or termination token, as written
    tags: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)  # Portuguese notes that do not make the game illegal
    final_fen: str | None = None
    game_over: bool = False  # side to move has no legal move at the end
    draw_by_king_moves: bool = False  # the king-move rule was reached during the game

    def __bool__(self) -> bool:
        return self.ok


def _side_pt(turn: int) -> str:
    return "brancas" if turn == WHITE else "pretas"


def validate_moves(
    tokens: Iterable[MoveToken | str],
    variant: str | Variant,
    start: Position | str | None = None,
    *,
    king_rule_per_player: bool = True,
) -> GameCheck:
    """Plays move tokens from ``start`` (FEN, Position, or the initial position)."""
    v = get_variant(variant)
    pos = start_position(start, v)
    start_fen = write_fen(pos)
    check = GameCheck(ok=True, variant=v.name, start_fen=start_fen, positions=[start_fen])
    tokens = [MoveToken(t) if isinstance(t, str) else t for t in tokens]
    # a fragment that starts later in a game keeps its own numbering ('23. 32-28 ...')
    number = tokens[0].number if tokens and tokens[0].number else 1
    for ply, tok in enumerate(tokens):
        side = _side_pt(pos.turn)
        if tok.number is not None and tok.number != number and not check.warnings:
            check.warnings.append(
                f"numeração: o lance {tok.text} está marcado como {tok.number}, mas é o lance {number} das {side}"
            )
        legal = pos.legal_moves()
        reason = None
        move = None
        if not legal:
            reason = f"as {side} não têm lances: a partida já terminou"
        else:
            try:
                move = parse_move(pos, tok.text)
            except NotationError as e:
                reason = e.reason
        if reason is not None:
            check.ok = False
            check.error_ply = ply
            check.error_number = number
            check.error_side = "W" if pos.turn == WHITE else "B"
            check.error_move = tok.text
            check.error_reason = reason
            check.error = f"Lance {number} das {side} ({tok.text}) é ilegal: {reason}"
            break
        before = write_fen(pos)
        notation = format_move(pos, move, "numeric", legal)
        if check.draw_by_king_moves is False and pos.is_draw_by_king_moves(king_rule_per_player):
            check.draw_by_king_moves = True
            check.warnings.append(f"regra dos lances de dama: empate já alcançado antes do lance {number} das {side}")
        new = pos.play(move)
        after = write_fen(new)
        check.moves.append(
            PlayedMove(number, "W" if pos.turn == WHITE else "B", tok.text, notation, move, before, after)
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
    numbering of the messages starts from it."""
    games = parse_pdn(pdn_text or "")
    check = check_pdn_game(
        games[0] if games else PdnGame(), variant, start_fen, king_rule_per_player=king_rule_per_player
    )
    if len(games) > 1:
        check.warnings.append(f"o texto contém {len(games)} partidas; só a primeira foi verificada")
    return check


def validate_games(
    pdn_text: str, variant: str | Variant = "brazilian", *, king_rule_per_player: bool = True
) -> list[GameCheck]:
    """Checks every game of a PDN file (each from its own FEN tag or the initial position)."""
    return [
        check_pdn_game(g, variant, None, king_rule_per_player=king_rule_per_player) for g in parse_pdn(pdn_text or "")
    ]


def check_pdn_game(
    game: PdnGame,
    variant: str | Variant = "brazilian",
    start_fen: str | None = None,
    *,
    king_rule_per_player: bool = True,
) -> GameCheck:
    """Checks one parsed game (see validate_game)."""
    v = get_variant(variant)
    fen = start_fen or game.tags.get("FEN")
    try:
        start = start_position(fen or None, v)
        problems = validate_placement(start, full_count=False)
        if problems:
            raise NotationError("; ".join(problems))
    except (NotationError, ValueError) as e:
        return GameCheck(
            ok=False,
            variant=v.name,
            start_fen=fen or "",
            error=f"FEN inválida: {e}",
            tags=game.tags,
            result=game.tags.get("Result") or game.result,
        )
    check = validate_moves(game.moves, v, start, king_rule_per_player=king_rule_per_player)
    check.tags = dict(game.tags)
    check.result = game.tags.get("Result") or game.result
    gt = game.tags.get("GameType")
    if gt:
        code = gt.split(",")[0].strip()
        if code.isdigit() and int(code) in (20, 26) and int(code) != v.gametype:
            check.warnings.append(f"GameType {code} não corresponde à variante {v.label}")
    if check.ok and check.game_over and check.result:
        try:
            res = normalize_result(check.result)
        except ValueError:
            res = "unknown"
        loser_white = check.final_fen.startswith("W")
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
    game: Mapping | Any,
    variant: str | Variant = "brazilian",
    *,
    result_style: str = "fmjd",
    style: str = "numeric",
    check: bool = True,
) -> str:
    """One game as PDN.  ``game`` is a mapping or an object with: event, round, white, black, result, moves
    (move text or list of moves; optional), fen (optional start position), and optionally date, site, tags
    (extra tags as a mapping)."""
    v = get_variant(variant)
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
    tags.append(("GameType", str(v.gametype)))
    extra = _get(game, "tags") or {}
    known = {k for k, _ in tags}
    for k, val in dict(extra).items():
        if k not in known:
            tags.append((k, val))
    moves = _get(game, "moves", default=None)
    if moves is None:
        tokens: list = []
    elif isinstance(moves, str):
        parsed = parse_pdn(moves)
        tokens = [t.text for t in parsed[0].moves] if parsed else []
    else:
        tokens = list(moves)
    body = movetext(tokens, start, v, style=style, result=result, check=check)
    head = "\n".join(f'[{k} "{_pdn_escape(val)}"]' for k, val in tags)
    return f"{head}\n\n{body}\n"


def export_pdn(
    games: Iterable[Mapping | Any],
    variant: str | Variant = "brazilian",
    *,
    result_style: str = "fmjd",
    style: str = "numeric",
    check: bool = True,
) -> str:
    """Many games as one PDN text (games separated by a blank line).  See export_game."""
    return "\n".join(export_game(g, variant, result_style=result_style, style=style, check=check) for g in games)
