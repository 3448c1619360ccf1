"""Internal tournament representation used by the Dutch engine.

Points are integers in tenths (1 point = 10), as in TRF files.  Players are
indexed from 0 (``pid``); the TRF / public pairing number is ``pid + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WHITE, BLACK, NOCOLOR = 0, 1, 2
LOSS, DRAW, WIN = 0, 1, 2


def invert(color: int) -> int:
    if color == WHITE:
        return BLACK
    if color == BLACK:
        return WHITE
    return NOCOLOR


class EMatch:
    """One round of one player's history."""

    __slots__ = ("opponent", "color", "score", "played", "participated", "points")

    def __init__(
        self,
        opponent: int,
        color: int = NOCOLOR,
        score: int = LOSS,
        played: bool = False,
        participated: bool = False,
        points: int | None = None,
    ) -> None:
        self.opponent = opponent  # pid; the player's own pid when no opponent
        self.color = color  # WHITE / BLACK / NOCOLOR
        self.score = score  # LOSS / DRAW / WIN
        self.played = played  # a game was actually played
        self.participated = participated  # took part in the pairing (game, forfeit, PAB)
        self.points = points  # tenths; None: derive from the point system


class EPlayer:
    __slots__ = (
        "pid",
        "rank",
        "rating",
        "score",
        "matches",
        "accel",
        "valid",
        "imbalance",
        "pref",
        "repeated",
        "strong",
        "played_games",
        "name",
    )

    def __init__(
        self, pid: int, score: int = 0, rating: int = 0, matches: list[EMatch] | None = None, name: str = ""
    ) -> None:
        self.pid = pid
        self.rank = pid
        self.rating = rating
        self.score = score
        self.matches: list[EMatch] = matches if matches is not None else []
        self.accel: list[int] = []
        self.valid = True
        self.imbalance = 0
        self.pref = NOCOLOR
        self.repeated = NOCOLOR
        self.strong = False
        self.played_games = 0
        self.name = name

    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    def absolute_pref(self) -> bool:
        return self.imbalance > 1 or self.repeated != NOCOLOR


@dataclass
class ForbiddenEntry:
    players: list[int]
    round_start: int  # 0-based round index, inclusive
    round_end: int  # exclusive


@dataclass
class ETournament:
    players: list[EPlayer] = field(default_factory=list)
    by_rank: list[int] = field(default_factory=list)
    played_rounds: int = 0
    expected_rounds: int = 0
    win: int = 10
    draw: int = 5
    loss: int = 0
    zero_bye: int = 0
    forfeit_loss: int = 0
    pab: int = 10
    initial_color: int = NOCOLOR
    forbidden: list[ForbiddenEntry] = field(default_factory=list)
    # micro-match: colour criteria are switched off while pairing
    no_colour_criteria: bool = False

    def points(self, player: EPlayer, m: EMatch) -> int:
        if m.points is not None:
            return m.points
        if m.score == LOSS:
            if m.participated:
                return self.loss if m.played else self.forfeit_loss
            return self.zero_bye
        if m.score == WIN:
            if m.opponent == player.pid and m.participated:
                return self.pab
            return self.win
        return self.draw

    def score_acc(self, p: EPlayer, rounds_back: int = 0) -> int:
        score = p.score
        ri = self.played_rounds
        while rounds_back > 0:
            ri -= 1
            score -= self.points(p, p.matches[ri])
            rounds_back -= 1
        if ri < len(p.accel):
            score += p.accel[ri]
        return score

    def acceleration(self, p: EPlayer) -> int:
        if self.played_rounds >= len(p.accel):
            return 0
        return p.accel[self.played_rounds]

    def eligible_for_bye(self, p: EPlayer) -> bool:
        for m in p.matches:
            if not m.played and (self.points(p, m) >= self.win or (m.participated and m.opponent == p.pid)):
                return False
        return True

    def update_ranks(self) -> None:
        eff = 0
        for pid in self.by_rank:
            p = self.players[pid]
            p.valid = len(p.matches) <= self.played_rounds
            for m in p.matches:
                if m.participated:
                    p.valid = True
            if p.valid:
                p.rank = eff
                eff += 1

    def compute_player_data(self) -> None:
        for p in self.players:
            if not p.valid:
                continue
            white = black = 0
            consecutive = 0
            played = 0
            repeated = NOCOLOR
            for m in p.matches:
                if m.played:
                    played += 1
                    if m.color == WHITE:
                        white += 1
                    else:
                        black += 1
                    if not consecutive or m.color != repeated:
                        consecutive = 1
                    else:
                        consecutive += 1
                    repeated = m.color
            p.played_games = played
            lower = BLACK if white > black else WHITE
            p.imbalance = white - black if lower == BLACK else black - white
            if p.imbalance > 1:
                p.pref = lower
            elif consecutive > 1:
                p.pref = invert(repeated)
            elif p.imbalance > 0:
                p.pref = lower
            elif consecutive:
                p.pref = invert(repeated)
            else:
                p.pref = NOCOLOR
            p.repeated = repeated if consecutive > 1 else NOCOLOR
            p.strong = (not p.absolute_pref()) and p.imbalance > 0

    def resolve_forbidden(self, round_index: int) -> list[set[int]]:
        result: list[set[int]] = [set() for _ in self.players]
        for entry in self.forbidden:
            if round_index < entry.round_start or round_index >= entry.round_end:
                continue
            for a in entry.players:
                if 0 <= a < len(result):
                    result[a].update(x for x in entry.players)
        return result
