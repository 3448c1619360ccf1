"""Plain input dataclasses for the standings arithmetic (no Django here).

The Django app builds one :class:`TournamentData` from its models and hands it to
:func:`tournaments.domain.standings.compute_standings`.

Units: every score and tiebreak value is in **game points** of the tournament's
scoring (default win 2 / draw 1 / loss 0 per game).  A *round* is the unit of the
FIDE C.07 Article 16 arithmetic: in a micro-match round a win is worth
``2 * win`` and a draw ``2 * draw`` (docs/domain.md section 5).

Scores are kept as given: ``int`` for the usual 2/1/0 scale, ``Decimal`` for a value
with a half (1/0.5/0, as the database stores it; the app passes whole values as ``int``).
Never ``float`` (ties must be exact) and never ``Fraction``: a sum of game points
mixes ``int`` and ``Decimal`` freely, while ``Decimal + Fraction`` raises ``TypeError``.
The one division, a direct-encounter mean, is exact (a ``Fraction``); where such a mean
meets a score, the score is converted to a ``Fraction`` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from tournaments.domain.catalogue import TIEBREAKS
from tournaments.domain.labelled import LabelledEnum, gettext_noop

# A score: game points and every sum or product of them (see the module docstring).
Number = int | Decimal
# A score or an exact mean (direct encounter): what a tiebreak value can be; ``None`` when it has no value.
Exact = int | Decimal | Fraction
TiebreakValue = Exact | None


class Format(LabelledEnum):
    MICRO_MATCH = "micro-match", gettext_noop("Micro-match of 2 games")
    SINGLE_GAME = "single-game", gettext_noop("Single game")

    @property
    def games_per_round(self) -> int:
        return 2 if self is Format.MICRO_MATCH else 1


class ByeValue(LabelledEnum):
    WIN = "win", gettext_noop("Win")
    DRAW = "draw", gettext_noop("Draw")


class UnplayedRules(LabelledEnum):
    """Edition of FIDE C.07 Article 16 used for Buchholz / Sonneborn-Berger."""

    FIDE2026 = "fide2026", gettext_noop("FIDE C.07, 2026 edition")  # dummy capped (16.4.1 / 16.4.2); the default
    FIDE2024 = "fide2024", gettext_noop("FIDE C.07, 2024 edition")  # dummy = own final score, no cap


class RoundKind(StrEnum):
    """What happened to one player in one round.

    ``PLAYED`` means a played encounter: a single game played over the board,
    or a micro-match in which **at least one game was played over the board**
    (the other may be a forfeit; the round is still a played encounter, for
    pairings and for every tiebreak; its forfeited game counts its points but
    is not a game won over the board).
    """

    PLAYED = "played"
    BYE = "bye"  # pairing-allocated bye (PAB)
    FORFEIT_WIN = "forfeit_win"  # every game of the encounter won by forfeit
    FORFEIT_LOSS = "forfeit_loss"  # every game lost by forfeit (the player did not come)
    DOUBLE_FORFEIT = "double_forfeit"  # neither came; a forfeit loss for each
    ABSENT = "absent"  # absence announced before pairing (zero or draw value)
    WITHDRAWN = "withdrawn"  # not paired because withdrawn (zero)
    NOT_ENTERED = "not_entered"  # round before a late entry (zero)

    @property
    def is_played(self) -> bool:
        return self is RoundKind.PLAYED

    @property
    def is_requested_bye(self) -> bool:
        """FIDE 16.1 requested bye (half- or zero-point bye; rounds after withdrawal)."""
        return self in (RoundKind.ABSENT, RoundKind.WITHDRAWN, RoundKind.NOT_ENTERED)

    @property
    def is_forfeit(self) -> bool:
        return self in (RoundKind.FORFEIT_WIN, RoundKind.FORFEIT_LOSS, RoundKind.DOUBLE_FORFEIT)

    @property
    def is_vur(self) -> bool:
        """FIDE 16.1 voluntary unplayed round: a requested bye or a forfeit loss."""
        return self.is_requested_bye or self in (RoundKind.FORFEIT_LOSS, RoundKind.DOUBLE_FORFEIT)


class GameResult(StrEnum):
    """One game's result from the point of view of the player holding the record."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    DOUBLE_FORFEIT = "double_forfeit"

    @property
    def over_the_board(self) -> bool:
        return self in (GameResult.WIN, GameResult.DRAW, GameResult.LOSS)

    @property
    def mirror(self) -> GameResult:
        return _MIRROR[self]

    @property
    def riga_units(self) -> int:
        """2 for a win (forfeit or not), 1 for a draw, 0 otherwise (Riga 4/3/2/1/0)."""
        return 2 if self in (GameResult.WIN, GameResult.FORFEIT_WIN) else 1 if self is GameResult.DRAW else 0


_MIRROR = {
    GameResult.WIN: GameResult.LOSS,
    GameResult.LOSS: GameResult.WIN,
    GameResult.DRAW: GameResult.DRAW,
    GameResult.FORFEIT_WIN: GameResult.FORFEIT_LOSS,
    GameResult.FORFEIT_LOSS: GameResult.FORFEIT_WIN,
    GameResult.DOUBLE_FORFEIT: GameResult.DOUBLE_FORFEIT,
}

# THE table of result codes: the code stored in the database and the interchange file (seen from that game's
# White) -> (White's result, Black's result). Everything else about the codes (played or forfeit, the code seen
# from Black, the points) is derived from it (``tournaments.rounds.scoring``).
RESULTS_BY_CODE: dict[str, tuple[GameResult, GameResult]] = {
    "1-0": (GameResult.WIN, GameResult.LOSS),
    "0-1": (GameResult.LOSS, GameResult.WIN),
    "1/2": (GameResult.DRAW, GameResult.DRAW),
    "+/-": (GameResult.FORFEIT_WIN, GameResult.FORFEIT_LOSS),
    "-/+": (GameResult.FORFEIT_LOSS, GameResult.FORFEIT_WIN),
    "-/-": (GameResult.DOUBLE_FORFEIT, GameResult.DOUBLE_FORFEIT),
}


@dataclass(frozen=True)
class Scoring:
    """Points per game (docs/domain.md section 2; default 2/1/0)."""

    win: Number = 2
    draw: Number = 1
    loss: Number = 0
    # A game lost by forfeit (or a double forfeit), when not worth a loss: an imported file's point system.
    forfeit_loss: Number | None = None

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "forfeit_loss"):
            value = getattr(self, name)
            if value is None and name == "forfeit_loss":
                continue
            if not isinstance(value, int | Decimal):
                raise TypeError(f"scoring {name} must be an int or a Decimal, not {type(value).__name__}: {value!r}")

    def game_points(self, result: GameResult) -> Number:
        if result in (GameResult.WIN, GameResult.FORFEIT_WIN):
            return self.win
        if result is GameResult.DRAW:
            return self.draw
        if self.forfeit_loss is not None and result in (GameResult.FORFEIT_LOSS, GameResult.DOUBLE_FORFEIT):
            return self.forfeit_loss
        return self.loss


@dataclass(frozen=True, init=False)
class RoundRecord:
    """One player's round.

    ``points``: game points scored that round.  ``None`` derives it: from
    ``games`` for played / forfeit rounds, from the bye value for a bye, 0 for
    absences, withdrawals and late-entry rounds (pass ``points`` explicitly for
    an absence given the draw value).
    ``opponent``: pairing number of the (scheduled) opponent, for played and
    forfeit rounds; ``None`` otherwise.
    ``games``: per-game results from this player's point of view (two for a
    micro-match, one for a single game); may be empty for all-forfeit rounds.
    """

    kind: RoundKind
    opponent: int | None = None
    points: Number | None = None
    games: tuple[GameResult, ...] = ()

    def __init__(
        self,
        kind: RoundKind,
        opponent: int | None = None,
        points: Number | None = None,
        games: tuple[GameResult, ...] = (),
    ) -> None:
        # The generated __init__ of a frozen dataclass sets each field through object.__setattr__: the standings
        # of a large event build tens of thousands of records, and this is 2-3 times cheaper. Still frozen
        # (assignment raises), and equality, hash, repr and dataclasses.replace are the dataclass's.
        d = self.__dict__
        d["kind"] = kind
        d["opponent"] = opponent
        d["points"] = points
        d["games"] = games

    @classmethod
    def from_games(cls, opponent: int, games: Sequence[GameResult], scoring: Scoring = Scoring()) -> RoundRecord:
        """A paired round from its per-game results.

        At least one game over the board makes it ``PLAYED``; otherwise it is a
        forfeit round: double forfeit if every game is a double forfeit, else
        forfeit win if this side scored more than the other, forfeit loss
        otherwise (so a level all-forfeit micro-match, one game lost by each
        side's absence, is a forfeit loss, a voluntary unplayed round, for both).
        """
        games = tuple(GameResult(g) for g in games)
        if not games:
            raise ValueError("a paired round needs at least one game result")
        own = sum(scoring.game_points(g) for g in games)
        if any(g.over_the_board for g in games):
            kind = RoundKind.PLAYED
        elif all(g is GameResult.DOUBLE_FORFEIT for g in games):
            kind = RoundKind.DOUBLE_FORFEIT
        else:
            theirs = sum(scoring.game_points(g.mirror) for g in games if g is not GameResult.DOUBLE_FORFEIT)
            kind = RoundKind.FORFEIT_WIN if own > theirs else RoundKind.FORFEIT_LOSS
        return cls(kind=kind, opponent=opponent, points=own, games=games)


@dataclass(frozen=True)
class PlayerData:
    """An entry of the tournament.

    ``rating``: rating at registration, ``None`` = unrated (then
    ``provisional_rating``, or the tournament's, is used for averages and
    for the CBJD "three highest ratings" exception).
    ``rounds``: one record per round, round 1 first; at least
    ``TournamentData.rounds_completed`` of them (extra ones are ignored).
    ``adjustment``: game points given (positive) or taken (negative) outside the games, a bonus or a penalty
    (a TRF's 299 lines): counted in the score (and so in the opponents' Buchholz), not in any round's.
    """

    id: int
    name: str
    rating: int | None = None
    rounds: tuple[RoundRecord, ...] = ()
    provisional_rating: int | None = None
    adjustment: Number = 0

    @property
    def unrated(self) -> bool:
        return self.rating is None


@dataclass(frozen=True)
class TournamentData:
    """Everything the standings need about a tournament."""

    players: tuple[PlayerData, ...]
    rounds_completed: int
    planned_rounds: int
    format: Format = Format.MICRO_MATCH
    scoring: Scoring = Scoring()
    bye_value: ByeValue = ByeValue.WIN
    acceleration_used: bool = False
    unplayed_rules: UnplayedRules = UnplayedRules.FIDE2026
    provisional_rating: int = 1600

    @property
    def games_per_round(self) -> int:
        return Format(self.format).games_per_round

    @property
    def round_win(self) -> Number:
        return self.scoring.win * self.games_per_round

    @property
    def round_draw(self) -> Number:
        return self.scoring.draw * self.games_per_round

    def rating_of(self, player: PlayerData) -> int:
        if player.rating is not None:
            return player.rating
        if player.provisional_rating is not None:
            return player.provisional_rating
        return self.provisional_rating


CBJD = "cbjd"

TIEBREAK_KEYS: tuple[str, ...] = tuple(t.key for t in TIEBREAKS)  # the catalogue's order


class AcceleratedProgressive(LabelledEnum):
    """Where CBJD exceptions 2 and 3 move the progressive score."""

    END = "end", gettext_noop("Moves to the end")  # corrected progressive, Buchholz, progressive (default)
    SECOND = "second", gettext_noop("Moves to second place")  # corrected progressive, progressive, Buchholz


class Top3Order(LabelledEnum):
    """CBJD exception 3 (regulation art. 6, c): the order for the three highest ratings tied after drawing
    among themselves.

    The corrected progressive score is the progressive score less its first term(s); for these three (equal
    totals, every round won or drawn) it ranks them exactly as the progressive score unless one of their
    draws fell in the rounds cut, so moving only the progressive score would change nothing.
    """

    # Buchholz first, then the progressive scores as moved (default)
    BUCHHOLZ = (
        "buchholz",
        gettext_noop("Buchholz first (the corrected progressive score moves with the progressive score)"),
    )
    # as exception 2: corrected progressive first
    MOVED = "moved", gettext_noop("As in exception a) (only the progressive score moves)")


class Top3Scope(LabelledEnum):
    """CBJD exception 3 (art. 6, c): which tie groups it reorders once the three highest ratings "vencerem todos
    os seus adversários e tenham jogado e empatado entre si" (a bye is no opponent: it does not switch it off)."""

    # any tie group holding two or three of them, other players on the same points included (default)
    TIE = "tie", gettext_noop("A tie between two or three of them, other players on the same points included")
    # only a tie group that is exactly those three
    EXACT = "exact", gettext_noop("Only a tie of exactly those three players")


class DirectEncounterScope(LabelledEnum):
    """CBJD exception 2 (art. 6, b): "quando o desempate for entre dois jogadores, passando o confronto direto a
    ser o primeiro critério de desempate"."""

    # whenever two players are left level, also inside a larger tie after a tiebreak (default)
    PAIR = "pair", gettext_noop("Whenever two players are left level, also inside a larger tie after a tiebreak")
    # only when the score group itself is exactly two players
    GROUP = "group", gettext_noop("Only when exactly two players are on the same points")


class AccelerationOrder(LabelledEnum):
    """CBJD exception 1 (art. 6, a): which criterion comes first when the acceleration was used. The
    acceleration distorts the corrected progressive score too (it keeps the running scores of the accelerated
    rounds after the first), so by default Buchholz comes first."""

    # Buchholz, then the progressive scores as moved (default)
    BUCHHOLZ = "buchholz", gettext_noop("Buchholz first (the acceleration distorts both progressive scores)")
    # corrected progressive first (the progressive score moved only)
    CORRECTED = "corrected", gettext_noop("Corrected progressive score first (only the progressive score moves)")


class DummyCapRounds(StrEnum):
    """ "Number of rounds in the tournament" in the 16.4.2 cap."""

    COMPLETED = "completed"  # rounds computed so far (TEC TieBreakServer reading; default)
    PLANNED = "planned"  # announced rounds


@dataclass(frozen=True)
class StandingsSettings:
    """Readings of the regulation that are settings (docs/domain.md section 5).

    ``profile``: ``"cbjd"`` or a sequence of tiebreak keys (custom profile).
    ``corrected_cut``: corrected progressive drops the running scores after
    the first N rounds (default 1, the "cut 1" reading).
    ``corrected_counts_unplayed``: whether points won without play (bye,
    forfeit wins, forfeited games, absences with draw value) count in the
    corrected progressive (default True).
    """

    profile: str | tuple[str, ...] = CBJD
    corrected_cut: int = 1
    corrected_counts_unplayed: bool = True
    accelerated_progressive: AcceleratedProgressive = AcceleratedProgressive.END
    top3_order: Top3Order = Top3Order.BUCHHOLZ
    top3_scope: Top3Scope = Top3Scope.TIE
    direct_encounter_scope: DirectEncounterScope = DirectEncounterScope.PAIR
    acceleration_order: AccelerationOrder = AccelerationOrder.BUCHHOLZ
    dummy_cap_rounds: DummyCapRounds = DummyCapRounds.COMPLETED

    def __post_init__(self) -> None:
        if self.profile != CBJD:
            keys = tuple(self.profile)
            unknown = [k for k in keys if k not in TIEBREAK_KEYS]
            if unknown:
                raise ValueError(f"unknown tiebreak keys: {unknown}")
            object.__setattr__(self, "profile", keys)
        if self.corrected_cut < 0:
            raise ValueError("corrected_cut must be >= 0")
