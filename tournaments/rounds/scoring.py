"""Points of a board from its game results (pure: plain strings and numbers in, numbers out).

A game's result is seen from that game's White. In game 1 the board's first player has White, in game 2 the
second player has White (docs/domain.md section 3; docs/interchange.md).
"""

from decimal import Decimal

from tournaments.domain.model import RESULTS_BY_CODE, GameResult

# Everything below is derived from the one table of result codes, ``domain.model.RESULTS_BY_CODE``.
RESULT_CODES = frozenset(RESULTS_BY_CODE)
PLAYED = frozenset(code for code, (white, _black) in RESULTS_BY_CODE.items() if white.over_the_board)
FORFEITS = RESULT_CODES - PLAYED

_LETTER = {
    GameResult.WIN: "w",
    GameResult.FORFEIT_WIN: "w",
    GameResult.DRAW: "d",
    GameResult.LOSS: "l",
    GameResult.FORFEIT_LOSS: "l",
    GameResult.DOUBLE_FORFEIT: "l",
}
# Outcome for (White, Black): "w" win, "d" draw, "l" loss.
_OUTCOME = {code: (_LETTER[white], _LETTER[black]) for code, (white, black) in RESULTS_BY_CODE.items()}
# The same game's code seen from Black (the code whose White and Black results are swapped).
MIRROR = {
    code: next(other for other, pair in RESULTS_BY_CODE.items() if pair == (black, white))
    for code, (white, black) in RESULTS_BY_CODE.items()
}


def white_is_first(game_number):
    return game_number % 2 == 1


def outcomes(game_number, result):
    """(first player's outcome, second player's outcome) of one game."""
    white, black = _OUTCOME[result]
    return (white, black) if white_is_first(game_number) else (black, white)


def board_points(results, scoring):
    """Points of (first, second) for a board; ``results`` maps game number -> code; ``scoring`` has win/draw/loss
    (and ``forfeit_loss`` when a forfeit lost is worth something else).

    Games without a result count nothing (a board still in progress).
    """
    value = {"w": Decimal(scoring["win"]), "d": Decimal(scoring["draw"]), "l": Decimal(scoring["loss"])}
    forfeit_loss = scoring.get("forfeit_loss")  # a forfeit lost, when not worth a loss (an imported point system)
    unplayed = value if forfeit_loss is None else {**value, "l": Decimal(forfeit_loss)}
    first = second = Decimal(0)
    for number, result in results.items():
        if result is None:
            continue
        a, b = outcomes(number, result)
        points = value if result in PLAYED else unplayed
        first += points[a]
        second += points[b]
    return first, second


def is_played(results):
    """A board is a played encounter when at least one of its games was played over the board."""
    return any(r in PLAYED for r in results.values() if r is not None)


def is_complete(results):
    """Every game of the board has its result (a board without games, the bye, is not a played board)."""
    return bool(results) and all(r is not None for r in results.values())


def outcome_of(code):
    """ "win", "draw" or "loss" of the player whose view ``code`` is (forfeits included)."""
    return {"w": "win", "d": "draw", "l": "loss"}[_OUTCOME[code][0]]


# Result entry from the board's point of view (first player - second player), as typed on the results page:
# "2-0" first wins, "1-1" draw, "0-2" second wins, "+" W.O. for the first, "-" W.O. for the second, "x" double W.O.
ENTRY_TOKENS = {
    "first": {"2-0", "2", "1-0", "v"},
    "draw": {"1-1", "1", "=", "e", "1/2", "½-½"},
    "second": {"0-2", "0", "0-1", "d"},
    "first_wo": {"+", "wo1", "+/-", "w.o.1"},
    "second_wo": {"-", "wo2", "-/+", "w.o.2"},
    "double_wo": {"x", "--", "-/-", "wo", "w.o."},
}
# The one notation of a game's result, everywhere (staff and public pages, audit log, exports), always from the
# first player's side: micro-match games 2-0 / 1-1 / 0-2 (the game's points), single games 1-0 / ½-½ / 0-1;
# forfeits +/- (W.O. for the first), -/+ (W.O. for the second), -/- (double W.O.).
ENTRY_LABELS = {
    "first": "2-0",
    "draw": "1-1",
    "second": "0-2",
    "first_wo": "+/-",
    "second_wo": "-/+",
    "double_wo": "-/-",
}
SINGLE_LABELS = {**ENTRY_LABELS, "first": "1-0", "draw": "½-½", "second": "0-1"}
_AS_WHITE = {"first": "1-0", "draw": "1/2", "second": "0-1", "first_wo": "+/-", "second_wo": "-/+", "double_wo": "-/-"}


def parse_entry(game_number, text):
    """A typed token (first player's view) -> the stored code (that game's White's view); '' -> None.

    Raises ValueError for anything else.
    """
    token = (text or "").strip().lower().replace(" ", "")
    if not token:
        return None
    for outcome, tokens in ENTRY_TOKENS.items():
        if token in tokens:
            code = _AS_WHITE[outcome]
            return code if white_is_first(game_number) else MIRROR[code]
    raise ValueError(token)


_OUTCOME_OF = {v: k for k, v in _AS_WHITE.items()}


def side_label(code_from_side, micro=True):
    """A code already seen from one player's side (1-0 = that player won) in the product's notation."""
    if code_from_side is None:
        return ""
    return (ENTRY_LABELS if micro else SINGLE_LABELS)[_OUTCOME_OF[code_from_side]]


def entry_label(game_number, code, micro=True):
    """The stored code (seen from that game's White) shown from the board's first player's side, in the notation
    of the format: ``micro`` 2-0 / 1-1 / 0-2, otherwise 1-0 / ½-½ / 0-1 (parse_entry reads both back)."""
    if code is None:
        return ""
    return side_label(code if white_is_first(game_number) else MIRROR[code], micro)
