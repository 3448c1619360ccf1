"""Rating changes (issue 40): the method the regulation's edition names (:class:`~.edition.RatingMethod`), on
plain data. The venue shows each player's change after every round as an estimate; the federation's next list
is computed from the stages it approved with the same functions.

The Elo method (the edition's defaults; docs/domain.md, "Ratings"):

- expected score of a game ``1 / (1 + 10^(-D/400))``, ``D`` the player's rating less the opponent's, capped at
  ± ``expected_score_cap`` (400);
- change = K × (score − expected), summed over the player's rated games, each game of a micro-match a game;
- K = ``k_new`` (40) below ``new_games`` (30) rated games in the registry, ``k_top`` (10) from ``top_rating``
  (2400), ``k`` (20) otherwise;
- a forfeit or a bye is no game; a game against an unrated player does not count for the rated player;
- an unrated player gets a first rating, their performance against rated opponents, once they have played
  ``first_rating_games`` (9) rated games, over one or more stages.

Everything is exact (fractions) until a figure is shown or a list is written: the change shown is rounded to a
tenth, the new rating half up to a whole number. The performance is the workbook's (:mod:`.performance`: FIDE
table 8.1(a), Ra + dp).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from tournaments.domain.edition import RatingMethod
from tournaments.domain.model import GameResult, RoundKind, RoundRecord
from tournaments.domain.performance import dp_for
from tournaments.domain.tiebreaks import round_half_up

# A game's score: halves are exact in binary floating point, so sums of scores are exact too.
GAME_SCORE: Mapping[GameResult, float] = {GameResult.WIN: 1.0, GameResult.DRAW: 0.5, GameResult.LOSS: 0.0}


class RatingMethodError(ValueError):
    """An edition names a rating method this product does not compute."""


def expected_score(rating: int, opponent: int, cap: int = 400) -> float:
    """The expected score of one game: ``1 / (1 + 10^(-D/400))``, ``D = rating - opponent`` within ± ``cap``."""
    difference = max(-cap, min(cap, rating - opponent))
    return _expected_table(cap)[difference + cap]


@cache
def _expected_table(cap: int) -> tuple[float, ...]:
    """The expected score of every whole difference from -cap to +cap (ratings are whole numbers): a season's
    list looks one up per game instead of computing a power (bench/ratings.py)."""
    return tuple(1.0 / (1.0 + float(10.0 ** (-d / 400.0))) for d in range(-cap, cap + 1))


def k_factor(method: RatingMethod, rating: int, rated_games: int) -> int:
    """K for a player of ``rating`` with ``rated_games`` rated games in the registry before the stage."""
    if rated_games < method.new_games:
        return method.k_new
    if rating >= method.top_rating:
        return method.k_top
    return method.k


@dataclass(frozen=True)
class Game:
    """One game over the board, from one player's side. ``opponent``: the opponent's key (an entry's or a
    player's id); ``round`` and ``number``: where it was played (a micro-match's games are 1 and 2)."""

    opponent: int
    score: float  # 1, 0.5 or 0
    round: int = 0
    number: int = 1
    stage: str = ""  # the stage it was played in, when several are rated together


@dataclass(frozen=True)
class Standing:
    """A player as the list in force has them: ``rating`` (None: unrated) and the rated games the registry
    counts (for K), plus the rated games an unrated player has already played towards a first rating."""

    rating: int | None
    rated_games: int = 0


@dataclass(frozen=True)
class GameLine:
    """A game that counted, as a player can check it by hand: the opponent's rating, the expected score, the
    result and the change it made (K × (result − expected))."""

    opponent: int
    opponent_rating: int
    expected: float
    score: float
    change: float
    round: int = 0
    number: int = 1
    stage: str = ""


@dataclass(frozen=True)
class Change:
    """A player's figures over the games rated: ``games`` counted (against rated opponents), their ``score``,
    the ``expected`` score, the ``change`` (0 for an unrated player), the ``performance`` (None without a rated
    game), and for an unrated player the ``first_rating`` once they have enough rated games."""

    id: int
    rating: int | None
    k: int | None
    games: int
    score: float
    expected: float
    change: float
    performance: int | None
    lines: tuple[GameLine, ...] = ()
    first_rating: int | None = None

    @property
    def new_rating(self) -> int | None:
        """The rating the next list gives: the old one plus the change, half up; a first rating; or None."""
        if self.rating is None:
            return self.first_rating
        return round_half_up(Fraction(self.rating) + _exact(self.change))

    @property
    def change_shown(self) -> float:
        """The change as pages and files show it: to a tenth."""
        return round(self.change + 0.0, 1)


def _check(method: RatingMethod) -> None:
    if method.method != "elo":
        raise RatingMethodError(f"Método de rating “{method.method}” desconhecido: este programa calcula o Elo.")


def performance_of(opponent_ratings: Sequence[int], score: float) -> int | None:
    """Ra + dp over rated games (the workbook's performance), None without a game."""
    if not opponent_ratings:
        return None
    games = len(opponent_ratings)
    ra = Fraction(sum(opponent_ratings), games)
    return round_half_up(ra + dp_for(Fraction(score).limit_denominator(2) / games))


def player_change(
    key: int,
    standing: Standing,
    games: Iterable[Game],
    ratings: Mapping[int, int | None],
    method: RatingMethod,
    explain: bool = True,
) -> Change:
    """One player's change over ``games``, the opponents' ratings read from ``ratings`` (the list in force).
    ``explain``: keep a line per game (the player's page); a list computed for everyone needs only the sums."""
    _check(method)
    rating = standing.rating
    counted = [(g, opp) for g in games if (opp := ratings.get(g.opponent)) is not None]
    opponent_ratings = [opp for _g, opp in counted]
    score = sum(g.score for g, _opp in counted)
    performance = performance_of(opponent_ratings, score)
    if rating is None:
        played = standing.rated_games + len(counted)
        first = performance if played >= method.first_rating_games and performance is not None else None
        return Change(key, None, None, len(counted), score, 0.0, 0.0, performance, first_rating=first)
    k = k_factor(method, rating, standing.rated_games)
    cap = method.expected_score_cap
    table = _expected_table(cap)
    expected = [table[max(-cap, min(cap, rating - opp)) + cap] for opp in opponent_ratings]
    expected_total = sum(expected)
    change = k * (score - expected_total)
    lines: tuple[GameLine, ...] = ()
    if explain:
        lines = tuple(
            GameLine(g.opponent, opp, e, g.score, k * (g.score - e), *_where(g))
            for (g, opp), e in zip(counted, expected, strict=True)
        )
    return Change(key, rating, k, len(counted), score, expected_total, change, performance, lines)


def _where(game: Game) -> tuple[int, int, str]:
    return game.round, game.number, game.stage


def changes(
    standings: Mapping[int, Standing],
    games: Mapping[int, Sequence[Game]],
    method: RatingMethod,
    explain: bool = True,
) -> dict[int, Change]:
    """Every player's change over their games, every rating read from ``standings`` (the list in force at the
    start: the ratings do not move between the games or the stages rated together)."""
    ratings = {key: s.rating for key, s in standings.items()}
    return {key: player_change(key, s, games.get(key, ()), ratings, method, explain) for key, s in standings.items()}


@dataclass(frozen=True)
class ListEntry:
    """A player's line on the next list: the rating in force, the new one, the rated games the registry then
    counts, and the change stage by stage."""

    id: int
    rating: int | None
    new_rating: int | None
    rated_games: int
    change: float
    by_stage: tuple[tuple[str, float, int], ...] = field(default=())  # (stage, change, games)
    new_player: bool = False


def next_list(
    standings: Mapping[int, Standing],
    games: Mapping[int, Sequence[Game]],
    method: RatingMethod,
    withdrawn: Iterable[str] = (),
) -> dict[int, ListEntry]:
    """The next rating list from the games of every stage rated in a period (each game carries its stage), all
    rated from the list in force at the period's start. A player with no rated game keeps their line.

    ``withdrawn``: stages an earlier list counted whose approval was withdrawn since (or replaced by a corrected
    version): their changes are taken back, as they were computed, and their games no longer count; the earlier
    list itself is never touched."""
    back = set(withdrawn)
    ratings = {key: s.rating for key, s in standings.items()}
    cap, table = method.expected_score_cap, _expected_table(method.expected_score_cap)
    out: dict[int, ListEntry] = {}
    for key, standing in standings.items():
        played = games.get(key, ())
        counted = [g for g in played if g.stage not in back]
        total = player_change(key, standing, counted, ratings, method, explain=False)
        rating, k = standing.rating, total.k if total.k is not None else None
        stages: list[tuple[str, float, int]] = []
        change, count = 0.0, 0
        if rating is not None and k is not None:
            by_stage: dict[str, list[float]] = {}
            for game in played:
                opp = ratings.get(game.opponent)
                if opp is not None:
                    expected = table[max(-cap, min(cap, rating - opp)) + cap]
                    by_stage.setdefault(game.stage, []).append(k * (game.score - expected))
            for stage, parts in by_stage.items():
                sign = -1 if stage in back else 1
                stages.append((stage, sign * sum(parts), sign * len(parts)))
                change += sign * sum(parts)
                count += sign * len(parts)
        new_rating = total.first_rating if rating is None else round_half_up(_exact(rating + change))
        out[key] = ListEntry(
            id=key,
            rating=rating,
            new_rating=new_rating,
            rated_games=max(0, standing.rated_games + (count if rating is not None else total.games)),
            change=change,
            by_stage=tuple(stages),
            new_player=rating is None and total.first_rating is not None,
        )
    return out


def _exact(value: float) -> Fraction:
    return Fraction(value).limit_denominator(10**9)


def games_of_records(
    records: Mapping[int, Sequence[RoundRecord]], keys: Mapping[int, int], stage: str = ""
) -> dict[int, list[Game]]:
    """The games over the board in each player's round records (``domain.model.RoundRecord``, keyed by player),
    ``keys`` mapping the records' opponent numbers to the players' keys: a forfeit, a bye, an absence is no
    game; each game of a micro-match is one."""
    out: dict[int, list[Game]] = {}
    for key, recs in records.items():
        games: list[Game] = []
        for index, rec in enumerate(recs, start=1):
            opponent = rec.opponent
            if rec.kind is not RoundKind.PLAYED or opponent is None:
                continue
            for number, result in enumerate(rec.games, start=1):
                if result in GAME_SCORE:
                    games.append(Game(keys[opponent], GAME_SCORE[result], index, number, stage))
        out[key] = games
    return out
