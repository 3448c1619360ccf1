"""Plain data types of the pairing engine's public API (no Django)."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

Number = int | float | str | Decimal

# Round entry kinds -----------------------------------------------------------
GAME = "game"  # a game played (result W/D/L)
FORFEIT_WIN = "forfeit_win"  # opponent did not show ("+")
FORFEIT_LOSS = "forfeit_loss"  # did not show ("-")
PAB = "pab"  # pairing-allocated bye ("U")
HALF_BYE = "half_bye"  # announced half-point bye ("H")
FULL_BYE = "full_bye"  # announced full-point bye ("F")
ZERO_BYE = "zero_bye"  # announced zero-point bye / absence ("Z")
ABSENT = "absent"  # not paired, no entry (blank column), zero points
KINDS = (GAME, FORFEIT_WIN, FORFEIT_LOSS, PAB, HALF_BYE, FULL_BYE, ZERO_BYE, ABSENT)

# Acceleration methods
ACCEL_NONE = "none"
ACCEL_BAKU = "baku"
ACCEL_CLASSIC = "classic"


class PairingError(Exception):
    """Base class of the engine's errors."""


class NoValidPairing(PairingError):
    """No pairing satisfies the absolute criteria (no rematch, bye rules, ...)."""


class InvalidInput(PairingError):
    """The tournament data is inconsistent.  ``line`` is the TRF line number (or None)."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        self.detail = message
        super().__init__(f"linha {line}: {message}" if line else message)


@dataclass
class Scoring:
    """Points per game.  ``bye`` is the pairing-allocated bye (default: a win)."""

    win: Number = 1
    draw: Number = Decimal("0.5")
    loss: Number = 0
    bye: Number | None = None
    zero_bye: Number = 0
    forfeit_loss: Number = 0


@dataclass
class RoundEntry:
    """What happened to one player in one round.

    kind: one of GAME, FORFEIT_WIN, FORFEIT_LOSS, PAB, HALF_BYE, FULL_BYE, ZERO_BYE, ABSENT.
    opponent: pairing number of the opponent (GAME / forfeits), else None.
    color: "w", "b" or None (forfeits keep the scheduled colour).
    result: "W", "D" or "L" for GAME (the player's result); derived for the other kinds.
    points: points scored that round; None = from the scoring (required in micro-match
            mode, where a round is worth 0..2*win game points).
    """

    kind: str
    opponent: int | None = None
    color: str | None = None
    result: str | None = None
    points: Number | None = None


@dataclass
class PlayerState:
    """A player.  ``id`` is the pairing number (1-based, unique)."""

    id: int
    name: str = ""
    rating: int = 0
    fmjd_rating: int = 0
    title: str = ""
    history: list[RoundEntry | None] = field(default_factory=list)  # round 1, 2, ...
    late_entry_round: int | None = None  # first round the player can be paired
    withdrawn_from_round: int | None = None  # not paired from this round on
    accelerations: list[Number] = field(default_factory=list)  # manual virtual points per round


@dataclass
class ForbiddenPair:
    """Players that must not meet (all mutually), in rounds first..last (None = whole event)."""

    players: list[int]
    first_round: int | None = None
    last_round: int | None = None


@dataclass
class TournamentState:
    """Everything the engine needs to pair the next round.

    round_to_pair defaults to the first round with no history for anybody
    present.  ``absences`` maps a pairing number to the kind of announced bye
    in that round (ZERO_BYE, HALF_BYE or FULL_BYE): those players are not paired.
    """

    players: list[PlayerState]
    total_rounds: int
    initial_color: str = "w"  # colour of pairing number 1 ("w"/"b")
    scoring: Scoring = field(default_factory=Scoring)
    micro_match: bool = False  # two games per round; points are game points
    acceleration: str = ACCEL_NONE
    forbidden: list[ForbiddenPair] = field(default_factory=list)
    absences: dict[int, str] = field(default_factory=dict)
    round_to_pair: int | None = None
    name: str = ""
    # the input line of each player (by pairing number) when read from a file, for error messages
    line_of: dict[int, int] = field(default_factory=dict, compare=False)


@dataclass
class Explanation:
    """Why a player got this pairing (for the app)."""

    player: int
    score: str  # pairing score (with virtual points), e.g. "4.5"
    bracket: str | None  # score of the bracket where the player was paired
    opponent: int | None  # None for the bye
    color: str | None  # "w"/"b"/None
    float: str | None  # "down", "up" or None
    float_reason: str  # text
    color_preference: str | None  # "W"/"B"/None
    preference_strength: str | None  # "absolute", "strong", "mild" or None
    preference_granted: bool | None
    color_rule: str  # which rule decided the colours (E.1..E.5)


@dataclass
class Pairing:
    """Result of pair_round: boards in board order, (white, black) pairing numbers."""

    round: int
    boards: list[tuple[int, int]]
    bye: int | None
    explanations: dict[int, Explanation] = field(default_factory=dict)
