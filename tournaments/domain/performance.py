"""Performance figures for the homologation workbook.

Per player: games played over the board against rated opponents (forfeited
games, byes and unrated opponents excluded; each game of a micro-match is a
game), the game points scored in them, the average rating of those opponents
(one term per game) and the performance rating ``Ra + dp``.

``dp`` comes from the FIDE Rating Regulations table 8.1(a) (conversion of a
fractional score p into a rating difference dp; the table the FIDE title
regulations use for performances): p is the score as a fraction of the
maximum (game points / (games x win points)), rounded to the nearest
hundredth (half up); 1.00 and 0.00 are undefined in the table and given
+800 / -800 as in the FIDE title regulations (B.01) table.  Ra is not rounded before adding dp; the
performance is rounded half up to an integer.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from tournaments.domain.model import Number, TournamentData
from tournaments.domain.tiebreaks import PlayedRound, TiebreakCalculator, round_half_up

# p (in hundredths, 50..100) -> dp; symmetric below 50.
_DP_TABLE = {
    100: 800,
    99: 677,
    98: 589,
    97: 538,
    96: 501,
    95: 470,
    94: 444,
    93: 422,
    92: 401,
    91: 383,
    90: 366,
    89: 351,
    88: 336,
    87: 322,
    86: 309,
    85: 296,
    84: 284,
    83: 273,
    82: 262,
    81: 251,
    80: 240,
    79: 230,
    78: 220,
    77: 211,
    76: 202,
    75: 193,
    74: 184,
    73: 175,
    72: 166,
    71: 158,
    70: 149,
    69: 141,
    68: 133,
    67: 125,
    66: 117,
    65: 110,
    64: 102,
    63: 95,
    62: 87,
    61: 80,
    60: 72,
    59: 65,
    58: 57,
    57: 50,
    56: 43,
    55: 36,
    54: 29,
    53: 21,
    52: 14,
    51: 7,
    50: 0,
}


def dp_for(fraction: int | Fraction) -> int:
    """Rating difference for a fractional score (0..1), FIDE table 8.1(a)."""
    hundredths = round_half_up(Fraction(fraction) * 100)
    hundredths = max(0, min(100, hundredths))
    if hundredths >= 50:
        return _DP_TABLE[hundredths]
    return -_DP_TABLE[100 - hundredths]


@dataclass(frozen=True)
class Performance:
    id: int
    games: int  # games over the board against rated opponents
    score: Number  # game points scored in them
    percentage: Fraction | None  # score / (games x win)
    average_rating: int | None  # Ra, rounded half up
    performance: int | None  # Ra + dp, rounded half up


def performances(tournament: TournamentData) -> dict[int, Performance]:
    calc = TiebreakCalculator(tournament)
    sc = tournament.scoring
    players = calc.players
    out: dict[int, Performance] = {}
    for pid, recs in calc.records.items():
        games = 0
        score: Number = 0
        rating_sum = 0
        for rec in recs:
            if not isinstance(rec, PlayedRound):
                continue
            opp = players[rec.opponent]
            if opp.rating is None:
                continue
            for g in rec.games:
                if g.over_the_board:
                    games += 1
                    score += sc.game_points(g)
                    rating_sum += opp.rating
        if games == 0:
            out[pid] = Performance(pid, 0, 0, None, None, None)
            continue
        pct = Fraction(score) / (games * Fraction(sc.win))
        ra = Fraction(rating_sum, games)
        out[pid] = Performance(pid, games, score, pct, round_half_up(ra), round_half_up(ra + dp_for(pct)))
    return out
