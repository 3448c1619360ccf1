"""Tiebreak values (docs/domain.md section 5; FIDE C.07 Articles 6, 7, 8, 9, 10, 14, 16).

Everything is computed once per tournament by :class:`TiebreakCalculator` from
plain :class:`~tournaments.domain.model.TournamentData`.

Readings taken here (each documented where it is computed):

* A *round* is the Article 16 unit.  In a micro-match round a draw is worth
  ``2 * draw`` game points and a win ``2 * win``.
* A micro-match with at least one game played over the board is a played
  encounter: its opponent counts in Buchholz, SB, ARO and direct encounter with
  the encounter's full score (a forfeited game inside it counts its points).
* Article 16 categories of an unplayed round:
  1 bye; 2 forfeit win; 3 requested bye (absence, withdrawal, late entry)
  followed by at least one round that is not a VUR; 4 forfeit loss (double
  forfeit included); 5 requested bye followed only by VURs, or in the last
  round computed.
* "Last round" and "number of rounds" (16.4.2 cap) are the rounds computed so
  far by default (TEC TieBreakServer reading); the cap can use the planned
  rounds (``StandingsSettings.dummy_cap_rounds``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from decimal import Decimal
from fractions import Fraction
from itertools import accumulate
from operator import itemgetter
from typing import Final, Literal, NamedTuple, cast

from tournaments.domain.model import (
    ByeValue,
    DummyCapRounds,
    Exact,
    GameResult,
    Number,
    PlayerData,
    RoundKind,
    RoundRecord,
    StandingsSettings,
    TiebreakValue,
    TournamentData,
    UnplayedRules,
)

_PLAYED: Final = RoundKind.PLAYED
_REQUESTED = frozenset(k for k in RoundKind if k.is_requested_bye)
_VUR = frozenset(k for k in RoundKind if k.is_vur)
_NEEDS_OPPONENT = frozenset(k for k in RoundKind if k.is_played or k.is_forfeit)
_OTB = frozenset(g for g in GameResult if g.over_the_board)
_MIRROR = {g: g.mirror for g in GameResult}
_RIGA = {g: g.riga_units for g in GameResult}
_FIRST = itemgetter(0)
_new_tuple = tuple.__new__


def round_half_up(value: Exact) -> int:
    """Nearest integer, .5 rounds up (FIDE 10.1)."""
    f = Fraction(value)
    return int((f + Fraction(1, 2)).__floor__())


def _mean(values: Sequence[Number]) -> int | Fraction:
    """Exact mean: a Fraction, an int when whole; for Decimal scores too (Decimal division would round)."""
    mean = Fraction(sum(values)) / len(values)
    return int(mean) if mean.denominator == 1 else mean


def _exact(value: Exact) -> int | Fraction:
    """``value`` where it meets an exact mean: a Decimal score as the equal Fraction (Decimal + Fraction
    raises TypeError), an int or a Fraction as it is."""
    return Fraction(value) if isinstance(value, Decimal) else value


class PlayedRound(NamedTuple):
    """A round played over the board (at least one game), as the calculator keeps it: points resolved."""

    kind: Literal[RoundKind.PLAYED]
    opponent: int
    points: Number
    games: tuple[GameResult, ...]
    outcome: int  # +1 / 0 / -1: encounter won / level / lost, both sides' points compared


class UnplayedRound(NamedTuple):
    """Any other round (bye, forfeit, absence, withdrawal, late entry): points resolved."""

    kind: RoundKind
    opponent: int | None  # the scheduled opponent of a forfeit round, else None
    points: Number
    games: tuple[GameResult, ...]


Round = PlayedRound | UnplayedRound


class Contribution(NamedTuple):
    """One round's term in Buchholz / Sonneborn-Berger for a player."""

    round: int  # 1-based
    opponent: int | None  # pairing number (None for a dummy without scheduled opponent)
    value: Number  # opponent's adjusted score, or the dummy's score
    points: Number  # the player's own points that round
    dummy: bool  # own unplayed round (Article 16.4)
    vur: bool  # voluntary unplayed round (16.1)


class _Classified(NamedTuple):
    """A record's kind and games as the calculator reads them (see ``TiebreakCalculator._classify``)."""

    kind: RoundKind
    games: tuple[GameResult, ...]
    points: Number  # the games' points, for the side holding the record
    outcome: int  # of a played encounter: +1 / 0 / -1
    otb: bool  # a game was played over the board


class TournamentError(ValueError):
    pass


def _given(p: PlayerData, index: int, points: Number) -> Number:
    """Points given with a record: a score like any other (tournaments.domain.model), never a float or Fraction."""
    if not isinstance(points, int | Decimal):
        raise TournamentError(
            f"player {p.id} round {index + 1}: points must be an int or a Decimal, not {type(points).__name__}"
        )
    return points


class TiebreakCalculator:
    """Per-player figures for one tournament.

    Attributes (all dicts keyed by pairing number): ``records`` (rounds 1..R as
    :class:`PlayedRound` / :class:`UnplayedRound`, points resolved), ``score``,
    ``adjusted`` (16.3), ``contributions`` (Buchholz terms), and the tiebreak
    values in :meth:`values`.
    """

    def __init__(self, tournament: TournamentData, settings: StandingsSettings = StandingsSettings()) -> None:
        self.t = tournament
        self.s = settings
        self.R = tournament.rounds_completed
        if self.R < 0:
            raise TournamentError("rounds_completed must be >= 0")
        self.players: dict[int, PlayerData] = {}
        for p in tournament.players:
            if p.id in self.players:
                raise TournamentError(f"duplicate pairing number {p.id}")
            self.players[p.id] = p
        self.round_win = tournament.round_win
        self.round_draw = tournament.round_draw
        self._gp = {g: tournament.scoring.game_points(g) for g in GameResult}
        self._classified: dict[tuple[object, tuple[object, ...]], _Classified] = {}
        self._riga: dict[tuple[GameResult, ...], int] = {}
        self._rating_cache: dict[int, int] | None = None
        self.records: dict[int, list[Round]] = {}
        players = self.players
        classified = self._classified
        normalise = self._normalise
        for p in tournament.players:
            if len(p.rounds) < self.R:
                raise TournamentError(f"player {p.id} has {len(p.rounds)} round records, {self.R} rounds completed")
            recs: list[Round] = []
            for i, rec in enumerate(p.rounds[: self.R]):
                # the usual record, a played encounter against a known opponent with its points as an int (or
                # derived), built here; anything else (and the first record of each kind and games) by _normalise
                games = rec.games
                known = classified.get((rec.kind, games)) if games.__class__ is tuple else None
                if known is not None and known.otb and known.kind is _PLAYED and rec.opponent in players:
                    points = rec.points
                    if points is None:
                        points = known.points
                    if points.__class__ is int or points.__class__ is Decimal:  # what _given accepts
                        recs.append(
                            _new_tuple(PlayedRound, (_PLAYED, rec.opponent, points, known.games, known.outcome))
                        )
                        continue
                recs.append(normalise(p, i, rec))
            self.records[p.id] = recs
        self._compute_base()

    # ------------------------------------------------------------------ input
    def _classify(self, kind: RoundKind | str, games: tuple[GameResult | str, ...]) -> _Classified:
        """What a record's kind and games give whoever holds it: the kind and games as enums, the games' points,
        the encounter's outcome and whether a game was played over the board. The same pairs recur on every
        board, so :meth:`_normalise` asks once per distinct pair (``ValueError`` on an unknown code)."""
        rk = kind if kind.__class__ is RoundKind else RoundKind(kind)
        results = cast(tuple[GameResult, ...], games)
        for g in games:
            if g.__class__ is not GameResult:
                results = tuple(GameResult(g) for g in games)
                break
        gp = self._gp
        otb = not _OTB.isdisjoint(results)
        outcome = self._outcome(results) if rk is _PLAYED and otb else 0
        return _Classified(rk, results, sum(gp[g] for g in results), outcome, otb)

    def _normalise(self, p: PlayerData, index: int, rec: RoundRecord) -> Round:
        games = rec.games if rec.games.__class__ is tuple else tuple(rec.games)
        key = (rec.kind, games)
        known = self._classified.get(key)
        if known is None:
            known = self._classified[key] = self._classify(rec.kind, games)
        kind, games, games_points, outcome, otb = known
        opponent = rec.opponent
        if kind in _NEEDS_OPPONENT:
            if opponent is None:
                raise TournamentError(f"player {p.id} round {index + 1}: {kind.value} needs an opponent")
            if opponent not in self.players:
                raise TournamentError(f"player {p.id} round {index + 1}: unknown opponent {opponent}")
            if kind is _PLAYED:
                if not otb:
                    raise TournamentError(
                        f"player {p.id} round {index + 1}: a played round needs a game played over the board"
                    )
                played = rec.points
                if played is None:
                    played = games_points
                elif played.__class__ is not int:  # an int is the usual case: checked without a call
                    played = _given(p, index, played)
                return _new_tuple(PlayedRound, (_PLAYED, opponent, played, games, outcome))
        points = rec.points
        if points is not None:
            points = _given(p, index, points)
        elif games:
            points = games_points
        elif kind is RoundKind.FORFEIT_WIN:
            points = self.round_win
        elif kind in (RoundKind.FORFEIT_LOSS, RoundKind.DOUBLE_FORFEIT):
            points = self.t.scoring.game_points(GameResult.FORFEIT_LOSS) * self.t.games_per_round
        elif kind is RoundKind.BYE:
            points = self.round_win if self.t.bye_value == ByeValue.WIN else self.round_draw
        else:
            points = 0
        return UnplayedRound(kind, opponent, points, games)

    # ------------------------------------------------------------ base values
    def _compute_base(self) -> None:
        R = self.R
        rd = self.round_draw
        score: dict[int, Number] = {}
        adjusted: dict[int, Number] = {}
        category: dict[int, list[int | None]] = {}
        self.score, self.adjusted, self.category = score, adjusted, category
        # players with a round not played over the board (the others have no category and no VUR term)
        self.unplayed: set[int] = set()
        # points given or taken outside the games (PlayerData.adjustment): in the score, not in any round
        for pid, recs in self.records.items():
            own = score[pid] = sum([r.points for r in recs], self.players[pid].adjustment)
            cats: list[int | None] = [None] * R
            category[pid] = cats
            if [r.kind for r in recs].count(_PLAYED) == R:  # every round played: the usual case, nothing below
                adjusted[pid] = own
                continue
            self.unplayed.add(pid)
            # a requested bye is category 5 when every later round is a VUR
            later_all_vur = True
            for i in range(R - 1, -1, -1):
                k = recs[i].kind
                if k is _PLAYED:
                    later_all_vur = False
                    continue
                if k is RoundKind.BYE:
                    cats[i] = 1
                elif k is RoundKind.FORFEIT_WIN:
                    cats[i] = 2
                elif k in _REQUESTED:
                    cats[i] = 5 if later_all_vur else 3
                else:  # forfeit loss, double forfeit
                    cats[i] = 4
                later_all_vur = later_all_vur and k in _VUR
            # without a category-5 round the terms are the score's, in the same order: the same sum
            adjusted[pid] = (
                sum((rd if cats[i] == 5 else recs[i].points for i in range(R)), self.players[pid].adjustment)
                if 5 in cats
                else own
            )

        if self.s.dummy_cap_rounds == DummyCapRounds.PLANNED:
            cap_rounds = max(self.t.planned_rounds, R)
        else:
            cap_rounds = R
        self.draw_cap = rd * cap_rounds
        capped = self.t.unplayed_rules == UnplayedRules.FIDE2026

        # the Buchholz terms, and the encounters over the board: pid -> opponent -> list of own encounter points
        self.contributions: dict[int, list[Contribution]] = {}
        self.encounters: dict[int, dict[int, list[Number]]] = {}
        unplayed = self.unplayed
        for pid, recs in self.records.items():
            own = score[pid]
            contribs: list[Contribution] = []
            enc: dict[int, list[Number]] = {}
            for i, rec in enumerate(recs):
                if rec.__class__ is PlayedRound:
                    opponent = rec.opponent
                    # Contribution(...) without the named tuple's __new__ call (one per player and round)
                    contribs.append(
                        _new_tuple(Contribution, (i + 1, opponent, adjusted[opponent], rec.points, False, False))
                    )
                    met = enc.get(opponent)
                    if met is None:
                        enc[opponent] = [rec.points]
                    else:
                        met.append(rec.points)
                    continue
                value = own
                if capped:
                    cat = category[pid][i]
                    if cat in (2, 4) and rec.opponent is not None:
                        value = min(own, adjusted[rec.opponent])  # 16.4.1
                    else:
                        value = min(own, self.draw_cap)  # 16.4.2
                contribs.append(Contribution(i + 1, rec.opponent, value, rec.points, True, rec.kind in _VUR))
            self.contributions[pid] = contribs
            self.encounters[pid] = enc
        # the players with a voluntary unplayed round among their terms (Buchholz cut 1 cuts such a term first)
        self._vur: set[int] = {pid for pid in unplayed if any(c.vur for c in self.contributions[pid])}

    # ---------------------------------------------------------------- helpers
    def _outcome(self, games: tuple[GameResult, ...]) -> int:
        """+1 won, 0 level, -1 lost, comparing both sides' points of the encounter."""
        gp = self._gp
        theirs = sum(gp[_MIRROR[g]] for g in games)
        own = sum(gp[g] for g in games)
        return (own > theirs) - (own < theirs)

    def running_scores(self, pid: int, count_unplayed: bool = True) -> list[Number]:
        out: list[Number] = []
        total: Number = 0
        gp = self._gp
        for rec in self.records[pid]:
            if count_unplayed:
                total += rec.points
            elif rec.kind is RoundKind.PLAYED:
                total += sum(gp[g] for g in rec.games if g in _OTB)
            out.append(total)
        return out

    # ----------------------------------------------------------- the values
    def progressive(self, pid: int) -> Number:
        """Sum of the running scores after rounds 1..R; unplayed points as awarded (C.07 7.5)."""
        return sum(self.running_scores(pid))

    def progressive_corrected(self, pid: int) -> Number:
        """Progressive without its first N terms (default N = 1); optionally OTB points only."""
        return sum(self.running_scores(pid, self.s.corrected_counts_unplayed)[self.s.corrected_cut :])

    def buchholz(self, pid: int) -> Number:
        return sum(c.value for c in self.contributions[pid])

    def buchholz_cut(self, pid: int, low: int = 1, high: int = 0) -> Number:
        """Buchholz less ``low`` least significant values (16.5: the lowest VUR
        contribution is cut first while there is one) and then ``high`` highest."""
        values = [(c.value, c.vur) for c in self.contributions[pid]]
        for _ in range(low):
            if not values:
                break
            vurs = [v for v in values if v[1]]
            victim = min(vurs) if vurs else min(values)
            values.remove(victim)
        for _ in range(high):
            if not values:
                break
            values.remove(max(values, key=lambda v: v[0]))
        return sum(v[0] for v in values)

    def truncated_solkoff(self, pid: int) -> Number:
        """FMJD: Buchholz less the weakest opponent (the lowest term, no VUR rule)."""
        vals = [c.value for c in self.contributions[pid]]
        return sum(vals) - min(vals) if vals else 0

    def sonneborn_berger(self, pid: int) -> Number:
        """Sum of opponent's adjusted score (or dummy) times own points that round (9.1 + 16)."""
        return sum(c.value * c.points for c in self.contributions[pid])

    def matches_won(self, pid: int) -> int:
        """Played encounters (micro-matches or games) won; unplayed rounds do not count."""
        return sum(1 for rec in self.records[pid] if isinstance(rec, PlayedRound) and rec.outcome > 0)

    def games_won(self, pid: int) -> int:
        """Games won over the board (forfeit wins do not count; FIDE 7.2 WON)."""
        return sum(1 for rec in self.records[pid] for g in rec.games if g is GameResult.WIN)

    def match_points(self, pid: int) -> int:
        """2 / 1 / 0 per round: played encounters by their result, unplayed rounds by
        the points awarded compared with a draw's points of a round."""
        total = 0
        for rec in self.records[pid]:
            if isinstance(rec, PlayedRound):
                total += 1 + rec.outcome
            else:
                total += 2 if rec.points > self.round_draw else 1 if rec.points == self.round_draw else 0
        return total

    def opponents_rating(self, pid: int) -> int | None:
        """Average rating of opponents met over the board, unrated at their provisional
        rating, rounded half up (FIDE 10.1); ``None`` with no played encounter."""
        ratings = [
            self.t.rating_of(self.players[rec.opponent]) for rec in self.records[pid] if isinstance(rec, PlayedRound)
        ]
        if not ratings:
            return None
        return round_half_up(Fraction(sum(ratings), len(ratings)))

    def riga(self, pid: int) -> Number:
        """Sum over played encounters of the opponent's final score times 4/3/2/1/0
        (2 per game won, 1 per game drawn; 2/1/0 in a single-game round)."""
        return sum(
            self.score[rec.opponent] * sum(_RIGA[g] for g in rec.games)
            for rec in self.records[pid]
            if isinstance(rec, PlayedRound)
        )

    # ------------------------------------------------------ direct encounter
    def met(self, a: int, b: int) -> bool:
        return b in self.encounters[a]

    def de_points(self, pid: int, group: Collection[int]) -> Exact | None:
        """Points scored against the other members of ``group`` (distinct players) in played encounters
        (the mean when two met more than once, C.07 6.1.2); ``None`` if none met.

        A score (int or Decimal) when each pair met once; with a mean, exact: a Fraction
        (an int when the means are whole and the rest is too).
        """
        members = group if isinstance(group, set | frozenset) else set(group)
        once: Number = 0  # the points of the encounters met once
        means: int | Fraction = 0  # the exact means of those met more than once
        met = repeated = False
        # the player's encounters (at most one per round) rather than the whole group: a score group of a large
        # open has hundreds of players; sums are exact, so the order of the terms does not matter
        for other, pts in self.encounters[pid].items():
            if other == pid or other not in members:
                continue
            met = True
            if len(pts) == 1:
                once += pts[0]
            else:
                repeated = True
                means += _mean(pts)
        if not met:
            return None
        return _exact(once) + means if repeated else once

    def de_split(self, group: Sequence[int]) -> list[list[int]]:
        """Split a tied group by direct encounter (C.07 Article 6).

        Returns ordered subgroups (still tied within each).  If every pair met
        (6.2) the separate standings decide and sub-ties are re-examined on
        their own; otherwise (6.3) a player is ranked next only when alone at
        the top whatever the missing encounters' results (own missing
        encounters lost, every rival's won), then Article 6 is reapplied to the
        players left.
        """
        group = list(group)
        if len(group) < 2:
            return [group]
        # exact: a mean (Fraction) can meet a Decimal score here, and the best cases add a win's points
        members = set(group)
        scores = {p: _exact(self.de_points(p, members) or 0) for p in group}
        missing = {p: sum(1 for q in group if q != p and not self.met(p, q)) for p in group}
        if not any(missing.values()):
            levels: dict[int | Fraction, list[int]] = {}
            for p in group:
                levels.setdefault(scores[p], []).append(p)
            if len(levels) == 1:
                return [group]
            out: list[list[int]] = []
            for level in sorted(levels, reverse=True):
                sub = levels[level]
                out.extend(self.de_split(sub) if len(sub) > 1 else [sub])
            return out
        remaining = list(group)
        out = []
        win = _exact(self.round_win)
        while len(remaining) > 1:
            best = {p: scores[p] + win * missing[p] for p in remaining}
            winner = next((c for c in remaining if all(scores[c] > best[r] for r in remaining if r != c)), None)
            if winner is None:
                break
            out.append([winner])
            remaining.remove(winner)
        if len(remaining) == 1:
            out.append(remaining)
        elif remaining:
            out.extend(self.de_split(remaining) if len(remaining) < len(group) else [remaining])
        return out

    # -------------------------------------------------------------- summary
    def values_by_methods(self, pid: int, score_group: Collection[int]) -> dict[str, TiebreakValue]:
        """:meth:`values` from the method of each key (the readable definitions): what the tests and
        ``bench/shortcuts.py`` compare :meth:`values` with."""
        return {
            "progressive": self.progressive(pid),
            "progressive_corrected": self.progressive_corrected(pid),
            "buchholz": self.buchholz(pid),
            "buchholz_cut1": self.buchholz_cut(pid, 1, 0),
            "buchholz_median": self.buchholz_cut(pid, 1, 1),
            "direct_encounter": self.de_points(pid, score_group) if len(score_group) > 1 else None,
            "sonneborn_berger": self.sonneborn_berger(pid),
            "matches_won": self.matches_won(pid),
            "games_won": self.games_won(pid),
            "match_points": self.match_points(pid),
            "opponents_rating": self.opponents_rating(pid),
            "truncated_solkoff": self.truncated_solkoff(pid),
            "riga": self.riga(pid),
        }

    def values(self, pid: int, score_group: Collection[int]) -> dict[str, TiebreakValue]:
        """Every tiebreak value of a player, keyed as in docs/interchange.md.

        ``direct_encounter`` is relative to the player's score group (the players
        with the same points): points scored against them, ``None`` if the player
        met none of them.

        The same arithmetic as the methods of each key (:meth:`progressive`, :meth:`buchholz_cut`, ...), term
        for term and in the same order, so the values are the same numbers of the same types; done here in one
        pass over the player's rounds and one over the Buchholz terms, since the standings ask it for every
        player (``tests/tournaments/domain/test_domain_fast_values.py`` compares the two on random events).

        It pays (issue 39.10, ``bench/shortcuts.py``, 1,000 players x 11 rounds, CPU, load 18 on 2 cores): every
        player's values in 0.010 s against 0.023 s by the methods, a quarter of ``compute_standings`` (0.036 s).
        A new tiebreak goes in both places (docs/architecture.md, "Adding a tiebreak").
        """
        recs = self.records[pid]
        contribs = self.contributions[pid]
        s = self.s
        running: list[Number] = list(accumulate([rec.points for rec in recs], initial=0))  # 0, then the totals
        del running[0]
        if s.corrected_counts_unplayed:
            corrected = sum(running[s.corrected_cut :])
        else:
            corrected = sum(self.running_scores(pid, False)[s.corrected_cut :])

        terms = [c.value for c in contribs]
        buchholz = sum(terms)
        if pid in self._vur:
            pairs = [(c.value, c.vur) for c in contribs]
            vurs = [v for v in pairs if v[1]]  # buchholz_cut(pid, 1, 0): the lowest VUR term while there is one
            pairs.remove(min(vurs))
            cut1 = sum(v[0] for v in pairs)
            if pairs:  # buchholz_cut(pid, 1, 1): then the highest
                pairs.remove(max(pairs, key=_FIRST))
            median = sum(v[0] for v in pairs)
        else:  # no VUR term: the same terms removed (the first lowest, then the first highest), the rest summed
            rest = terms.copy()
            if rest:
                rest.remove(min(rest))
            cut1 = sum(rest)
            if rest:
                rest.remove(max(rest))
            median = sum(rest)

        matches_won = games_won = match_points = 0
        rating_total = rated = 0
        riga: Number = 0
        rd = self.round_draw
        score = self.score
        rating = self._ratings
        riga_units = self._riga
        win = GameResult.WIN
        for rec in recs:
            if rec.__class__ is PlayedRound:
                outcome = rec.outcome
                if outcome > 0:
                    matches_won += 1
                match_points += 1 + outcome
                rating_total += rating[rec.opponent]
                rated += 1
                units = riga_units.get(rec.games)
                riga += score[rec.opponent] * (self._riga_units(rec.games) if units is None else units)
            else:
                match_points += 2 if rec.points > rd else 1 if rec.points == rd else 0
            games_won += rec.games.count(win)
        if not rated:
            opponents_rating = None
        elif rating_total.__class__ is int:
            # round_half_up(Fraction(total, n)) = floor(total / n + 1/2), in integers
            opponents_rating = (2 * rating_total + rated) // (2 * rated)
        else:  # pragma: no cover - ratings are ints
            opponents_rating = round_half_up(Fraction(rating_total, rated))
        return {
            "progressive": sum(running),
            "progressive_corrected": corrected,
            "buchholz": buchholz,
            "buchholz_cut1": cut1,
            "buchholz_median": median,
            "direct_encounter": self.de_points(pid, score_group) if len(score_group) > 1 else None,
            "sonneborn_berger": sum([c.value * c.points for c in contribs]),
            "matches_won": matches_won,
            "games_won": games_won,
            "match_points": match_points,
            "opponents_rating": opponents_rating,
            "truncated_solkoff": buchholz - min(terms) if terms else 0,
            "riga": riga,
        }

    def _riga_units(self, games: tuple[GameResult, ...]) -> int:
        units = self._riga.get(games)
        if units is None:
            units = self._riga[games] = sum(_RIGA[g] for g in games)
        return units

    @property
    def _ratings(self) -> dict[int, int]:
        """Rating of every player as the averages take it (unrated at the provisional rating), read once."""
        if self._rating_cache is None:
            self._rating_cache = {pid: self.t.rating_of(p) for pid, p in self.players.items()}
        return self._rating_cache
