"""Points of a board from its game results (pure: plain strings and numbers in, numbers out).

A game's result is seen from that game's White. In game 1 the board's first player has White, in game 2 the
second player has White (domain.md section 3; interchange.md).
"""
from decimal import Decimal

PLAYED = {"1-0", "1/2", "0-1"}
FORFEITS = {"+/-", "-/+", "-/-"}
RESULT_CODES = PLAYED | FORFEITS

# Outcome for (White, Black): "w" win, "d" draw, "l" loss.
_OUTCOME = {
    "1-0": ("w", "l"), "1/2": ("d", "d"), "0-1": ("l", "w"),
    "+/-": ("w", "l"), "-/+": ("l", "w"), "-/-": ("l", "l"),
}


def white_is_first(game_number):
    return game_number % 2 == 1


def outcomes(game_number, result):
    """(first player's outcome, second player's outcome) of one game."""
    white, black = _OUTCOME[result]
    return (white, black) if white_is_first(game_number) else (black, white)


def board_points(results, scoring):
    """Points of (first, second) for a board; ``results`` maps game number -> code; ``scoring`` has win/draw/loss.

    Games without a result count nothing (a board still in progress).
    """
    value = {"w": Decimal(scoring["win"]), "d": Decimal(scoring["draw"]), "l": Decimal(scoring["loss"])}
    first = second = Decimal(0)
    for number, result in results.items():
        if result is None:
            continue
        a, b = outcomes(number, result)
        first += value[a]
        second += value[b]
    return first, second


def is_played(results):
    """A board is a played encounter when at least one of its games was played over the board."""
    return any(r in PLAYED for r in results.values() if r is not None)


def is_complete(results, games_per_round):
    return len([r for r in results.values() if r is not None]) == games_per_round
