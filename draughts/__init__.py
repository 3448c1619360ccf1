"""Rules of play for Brazilian (64 squares) and international (100 squares) draughts.

Pure Python, no Django.  Main entry points:

* ``validate_game(pdn_text, variant, start_fen=None)`` -> GameCheck (``ok``, ``moves``, ``positions``,
  ``error`` in Portuguese naming the first illegal move);
* ``export_pdn(games, variant)`` -> PDN text for many games;
* ``svg_board(fen, variant, numbers=False, last_move=None, ...)`` -> SVG string;
* ``load_openings()`` / ``check_opening(opening)`` / ``opening_svg(opening)`` for the tablita;
* ``Position`` (``initial``, ``from_fen``, ``legal_moves``, ``play``, ``fen``), ``parse_move``, ``format_move``,
  ``parse_fen``, ``write_fen``.
"""

from .board import BLACK, BRAZILIAN, INTERNATIONAL, WHITE, Move, Position, Variant, get_variant
from .notation import (
    AmbiguousMove,
    NotationError,
    format_move,
    initial_fen,
    parse_fen,
    parse_move,
    replay,
    validate_placement,
    write_fen,
)
from .pdn import (
    MAX_FILE_CHARS,
    MAX_GAME_CHARS,
    MAX_GAMES,
    GameCheck,
    GameType,
    PdnError,
    PdnGame,
    PlayedMove,
    check_pdn_game,
    decode_pdn,
    export_game,
    export_pdn,
    format_result,
    gametype_tag,
    movetext,
    normalize_result,
    parse_gametype,
    parse_pdn,
    validate_game,
    validate_games,
    validate_moves,
)
from .svg import svg_board
from .tablita import Opening, apply_setup, check_opening, load_openings, opening_svg, replay_opening

__all__ = [
    "BLACK",
    "BRAZILIAN",
    "INTERNATIONAL",
    "WHITE",
    "Move",
    "Position",
    "Variant",
    "get_variant",
    "AmbiguousMove",
    "NotationError",
    "format_move",
    "initial_fen",
    "parse_fen",
    "parse_move",
    "replay",
    "validate_placement",
    "write_fen",
    "MAX_FILE_CHARS",
    "MAX_GAME_CHARS",
    "MAX_GAMES",
    "GameCheck",
    "GameType",
    "PdnError",
    "decode_pdn",
    "gametype_tag",
    "parse_gametype",
    "PdnGame",
    "PlayedMove",
    "export_game",
    "export_pdn",
    "format_result",
    "movetext",
    "normalize_result",
    "parse_pdn",
    "validate_game",
    "validate_games",
    "validate_moves",
    "check_pdn_game",
    "svg_board",
    "Opening",
    "apply_setup",
    "check_opening",
    "load_openings",
    "opening_svg",
    "replay_opening",
]
