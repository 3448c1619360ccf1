"""Ordered standings with the CBJD tiebreak profile or a custom one (docs/domain.md section 5).

Entry point: :func:`compute_standings`.

Ordering: points (game points) first; then, per tie group (players with equal
points), the tiebreak order of the profile, applied to each subgroup still tied
(FIDE C.07 4.2: after a tiebreak splits a group, each part still tied goes on to
the next key).  When the list runs out the players share the place (rank
``"5-6"``) and are listed by pairing number.  Every key is "higher is better";
``None`` (no value: no opponent met) ranks below any number.

CBJD profile (regulation art. 6, docs/domain.md section 5): normal order progressive,
corrected progressive, Buchholz, decided per tie group, with three exceptions:

1. exactly two players tied who met in a played encounter: direct encounter
   first, then the order that applies otherwise (if their encounter was level
   the tie goes on to that order); with ``direct_encounter_scope`` "pair" (the
   default: "quando o desempate for entre dois jogadores") also two players left
   level inside a larger tie after a tiebreak, before the next tiebreak;
2. acceleration used in the tournament: Buchholz first and the progressive
   scores after it (setting ``acceleration_order``: the acceleration distorts
   the corrected progressive score too, which keeps the accelerated rounds after
   the first; "corrected": corrected progressive first, the progressive score
   moved to the end, or to second place with ``accelerated_progressive``);
3. the three highest-rated players (unrated at their provisional rating; equal
   ratings by pairing number) beat every opponent they had ("vencerem todos os
   seus adversários": a forfeit win is a win, a bye is no opponent), played and
   drew the three encounters among themselves ("tenham jogado e empatado entre
   si"), and the tie group holds two or three of them (``top3_scope`` "tie", the
   default; "exact": the group is exactly those three): Buchholz first, then the
   progressive scores moved as in 2 (setting ``top3_order``; ``"moved"``:
   corrected progressive first).  The corrected progressive score cannot come
   first here: for these three it is the progressive score less the same first
   term, so it repeats the progressive order unless a mutual draw fell in the
   rounds it cuts.

When 1 and 2 (or 1 and 3, impossible in practice) apply together the order is
direct encounter followed by the moved order, and the reason names both.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tournaments.domain.model import (
    CBJD,
    TIEBREAK_KEYS,
    AcceleratedProgressive,
    AccelerationOrder,
    DirectEncounterScope,
    Exact,
    Number,
    RoundKind,
    StandingsSettings,
    TiebreakValue,
    Top3Order,
    Top3Scope,
    TournamentData,
)
from tournaments.domain.tiebreaks import PlayedRound, TiebreakCalculator

_WITHDRAWN = RoundKind.WITHDRAWN
NORMAL_ORDER = ("progressive", "progressive_corrected", "buchholz")
ORDER_END = ("progressive_corrected", "buchholz", "progressive")
ORDER_SECOND = ("progressive_corrected", "progressive", "buchholz")
TOP3_ORDER_END = ("buchholz", "progressive_corrected", "progressive")
TOP3_ORDER_SECOND = ("buchholz", "progressive", "progressive_corrected")

# Why a tie group's order differs from the normal one (codes; the presentation words them, with the article).
REASON_DIRECT = "direct_encounter"  # exception b: two tied players who met
REASON_ACCELERATION_END = "acceleration_last"  # exception a: acceleration used, progressive last
REASON_ACCELERATION_SECOND = "acceleration_second"  # ... progressive second
REASON_TOP3_END = "top3_last"  # exception c, progressive moved as in a: last
REASON_TOP3_SECOND = "top3_second"  # ... second
REASON_TOP3_BUCHHOLZ_END = "top3_buchholz_last"  # exception c, Buchholz first, progressive last
REASON_TOP3_BUCHHOLZ_SECOND = "top3_buchholz_second"  # ... progressive second
REASON_ACCELERATION_BUCHHOLZ_END = "acceleration_buchholz_last"  # exception a, Buchholz first, progressive last
REASON_ACCELERATION_BUCHHOLZ_SECOND = "acceleration_buchholz_second"  # ... progressive second
REASON_DIRECT_PAIR = "direct_encounter_pair"  # exception b: two players left level inside a larger tie, who met
ORDER_REASONS = (
    REASON_DIRECT,
    REASON_DIRECT_PAIR,
    REASON_ACCELERATION_BUCHHOLZ_END,
    REASON_ACCELERATION_BUCHHOLZ_SECOND,
    REASON_ACCELERATION_END,
    REASON_ACCELERATION_SECOND,
    REASON_TOP3_END,
    REASON_TOP3_SECOND,
    REASON_TOP3_BUCHHOLZ_END,
    REASON_TOP3_BUCHHOLZ_SECOND,
)


@dataclass(frozen=True, init=False)
class StandingRow:
    """One line of the standings.

    ``tiebreaks``: every key of ``TIEBREAK_KEYS``; the keys of ``order`` first,
    in that order, then the others.  ``order``: the tiebreak order used for the
    player's tie group.  ``order_reasons``: why the CBJD order differs from the
    normal one (codes of ``ORDER_REASONS``, in the order they apply), empty when
    the normal order (or a custom profile) applied.  ``place``: index of the final tie (equal for players sharing a
    place); ``position``: 1-based line number.
    """

    position: int
    rank: str
    id: int
    name: str
    points: Number
    tiebreaks: dict[str, TiebreakValue]
    order: tuple[str, ...]
    order_reasons: tuple[str, ...]
    place: int
    unrated: bool = False
    withdrawn_from: int | None = None

    def __init__(
        self,
        position: int,
        rank: str,
        id: int,
        name: str,
        points: Number,
        tiebreaks: dict[str, TiebreakValue],
        order: tuple[str, ...],
        order_reasons: tuple[str, ...],
        place: int,
        unrated: bool = False,
        withdrawn_from: int | None = None,
    ) -> None:
        # As RoundRecord's (domain.model): the frozen dataclass's generated __init__ sets each field through
        # object.__setattr__, a tenth of the standings' time on a 1,000-player event; still frozen, and equality,
        # hash, repr and dataclasses.replace are the dataclass's.
        d = self.__dict__
        d["position"] = position
        d["rank"] = rank
        d["id"] = id
        d["name"] = name
        d["points"] = points
        d["tiebreaks"] = tiebreaks
        d["order"] = order
        d["order_reasons"] = order_reasons
        d["place"] = place
        d["unrated"] = unrated
        d["withdrawn_from"] = withdrawn_from

    def as_json(self) -> dict[str, object]:
        """The row as plain data (the reasons as codes; ``standings --format json`` words them)."""
        return {
            "rank": self.rank,
            "id": self.id,
            "name": self.name,
            "points": self.points,
            "tiebreaks": dict(self.tiebreaks),
            "order_reasons": list(self.order_reasons),
        }


@dataclass(frozen=True)
class Standings:
    rows: tuple[StandingRow, ...]
    settings: StandingsSettings
    rounds_completed: int
    readings: tuple[str, ...] = field(default=())

    def __iter__(self) -> Iterator[StandingRow]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def row(self, pid: int) -> StandingRow:
        for r in self.rows:
            if r.id == pid:
                return r
        raise KeyError(pid)

    def as_json(self) -> list[dict[str, object]]:
        return [r.as_json() for r in self.rows]


def format_rank(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def _sort_value(v: TiebreakValue) -> tuple[int, Exact]:
    # None ranks below every number; keys are "higher is better"
    return (0, 0) if v is None else (1, v)


def top3_exception_group(calc: TiebreakCalculator) -> frozenset[int] | None:
    """The three highest-rated players if they satisfy CBJD exception 3, else ``None``.

    Art. 6, c): "quando os 3 maiores ratings da competição vencerem todos os seus adversários e tenham jogado e
    empatado entre si". Against the other two the encounter was played over the board and level; against every
    other opponent it was won, over the board or by forfeit. A pairing-allocated bye is no opponent: it does
    not switch the exception off. Any other round without a win (an absence, a forfeit lost, a withdrawal) is
    a round they did not win, so it does.
    """
    t = calc.t
    if len(t.players) < 3 or calc.R == 0:
        return None
    ranked = sorted(t.players, key=lambda p: (-t.rating_of(p), p.id))
    top = [p.id for p in ranked[:3]]
    top_set = set(top)
    for pid in top:
        seen_top = []
        for rec in calc.records[pid]:
            if rec.opponent in top_set:
                if not isinstance(rec, PlayedRound) or rec.outcome != 0:
                    return None
                seen_top.append(rec.opponent)
            elif rec.kind is RoundKind.FORFEIT_WIN or rec.kind is RoundKind.BYE:
                continue
            elif not isinstance(rec, PlayedRound) or rec.outcome <= 0:
                return None
        if sorted(seen_top) != sorted(q for q in top if q != pid):
            return None
    return frozenset(top)


def cbjd_order(
    calc: TiebreakCalculator, group: Sequence[int], top3: frozenset[int] | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Tiebreak order and the reasons it differs from the normal one (codes, none for the normal order) for one
    tie group."""
    second = calc.s.accelerated_progressive == AcceleratedProgressive.SECOND
    moved = ORDER_SECOND if second else ORDER_END
    order: tuple[str, ...] = NORMAL_ORDER
    reasons = []
    if calc.t.acceleration_used:
        if calc.s.acceleration_order == AccelerationOrder.CORRECTED:
            order = moved
            reasons.append(REASON_ACCELERATION_SECOND if second else REASON_ACCELERATION_END)
        else:
            order = TOP3_ORDER_SECOND if second else TOP3_ORDER_END
            reasons.append(REASON_ACCELERATION_BUCHHOLZ_SECOND if second else REASON_ACCELERATION_BUCHHOLZ_END)
    elif top3 is not None and _top3_tie(calc, group, top3):
        if calc.s.top3_order == Top3Order.MOVED:
            order = moved
            reasons.append(REASON_TOP3_SECOND if second else REASON_TOP3_END)
        else:
            order = TOP3_ORDER_SECOND if second else TOP3_ORDER_END
            reasons.append(REASON_TOP3_BUCHHOLZ_SECOND if second else REASON_TOP3_BUCHHOLZ_END)
    if len(group) == 2 and calc.met(group[0], group[1]):
        order = ("direct_encounter",) + order
        reasons.insert(0, REASON_DIRECT)
    return order, tuple(reasons)


def _top3_tie(calc: TiebreakCalculator, group: Sequence[int], top3: frozenset[int]) -> bool:
    """Whether exception c) reorders this tie group: exactly the three (``Top3Scope.EXACT``), or a tie between
    two or three of them whoever else is on the same points (``Top3Scope.TIE``, the default)."""
    if calc.s.top3_scope == Top3Scope.EXACT:
        return frozenset(group) == top3
    return len(top3.intersection(group)) >= 2


def _split(
    calc: TiebreakCalculator,
    group: list[int],
    order: Sequence[str],
    values: dict[int, dict[str, TiebreakValue]],
    pairs: bool = False,
) -> list[tuple[list[int], bool]]:
    """Apply ``order`` to ``group`` and every subgroup still tied (C.07 4.2). Each part comes with whether a
    direct encounter between two players left level inside a larger tie decided it (``pairs``: exception b)
    read as "whenever the tie comes down to two players who met", :class:`DirectEncounterScope`)."""
    if len(group) < 2 or not order:
        return [(sorted(group), False)]
    key, rest = order[0], order[1:]
    if key == "direct_encounter":
        parts = calc.de_split(group)
    else:
        buckets: dict[tuple[int, Exact], list[int]] = {}
        for pid in group:
            buckets.setdefault(_sort_value(values[pid][key]), []).append(pid)
        parts = [buckets[k] for k in sorted(buckets, reverse=True)]
    out: list[tuple[list[int], bool]] = []
    for part in parts:
        if pairs and len(parts) > 1 and len(part) == 2 and "direct_encounter" not in rest and calc.met(*part):
            split = calc.de_split(part)
            if len(split) == 2:
                out.extend((p, True) for p in split)
                continue
        out.extend(_split(calc, part, rest, values, pairs))
    return out


def _readings(settings: StandingsSettings, tournament: TournamentData) -> tuple[str, ...]:
    cut = settings.corrected_cut
    corrected = (
        f"Escore acumulado corrigido: escore acumulado sem as {cut} primeiras rodadas"
        if cut != 1
        else "Escore acumulado corrigido: escore acumulado sem a 1ª rodada"
    )
    corrected += (
        "; pontos obtidos sem jogar contam."
        if settings.corrected_counts_unplayed
        else "; pontos obtidos sem jogar (BYE, W.O.) não contam."
    )
    edition = "2026 (com limites)" if tournament.unplayed_rules == "fide2026" else "2024 (sem limites)"
    return (
        corrected,
        f"Milésimos: rodadas não jogadas pelo Regulamento de Desempate FIDE (C.07), art. 16, edição {edition}.",
    )


def compute_standings(tournament: TournamentData, settings: StandingsSettings = StandingsSettings()) -> Standings:
    """The ordered standings of ``tournament`` after ``rounds_completed`` rounds."""
    calc = TiebreakCalculator(tournament, settings)
    by_points: dict[Number, list[int]] = {}
    for p in tournament.players:
        by_points.setdefault(calc.score[p.id], []).append(p.id)
    top3 = top3_exception_group(calc) if settings.profile == CBJD else None

    rows: list[StandingRow] = []
    position = 0
    place = 0
    for pts in sorted(by_points, reverse=True):
        group = sorted(by_points[pts])
        members = frozenset(group)
        values = {pid: calc.values(pid, members) for pid in group}
        if settings.profile == CBJD:
            order, reasons = cbjd_order(calc, group, top3)
        else:
            order, reasons = tuple(settings.profile), ()
        keys = tuple(order) + tuple(k for k in TIEBREAK_KEYS if k not in order)  # the order's keys, then the others
        pairs = settings.profile == CBJD and settings.direct_encounter_scope == DirectEncounterScope.PAIR
        for part, by_pair in _split(calc, group, order, values, pairs):
            part_reasons = reasons + (REASON_DIRECT_PAIR,) if by_pair else reasons
            first = position + 1
            last = position + len(part)
            rank = format_rank(first, last)
            place += 1
            for pid in part:
                position += 1
                p = calc.players[pid]
                vals = values[pid]
                ordered = {k: vals[k] for k in keys}
                withdrawn_from = None
                if pid in calc.unplayed:  # a withdrawal is a round not played
                    for i, rec in enumerate(calc.records[pid]):
                        if rec.kind is _WITHDRAWN:
                            withdrawn_from = i + 1
                            break
                rows.append(
                    StandingRow(
                        position=position,
                        rank=rank,
                        id=pid,
                        name=p.name,
                        points=pts,
                        tiebreaks=ordered,
                        order=tuple(order),
                        order_reasons=part_reasons,
                        place=place,
                        unrated=p.unrated,
                        withdrawn_from=withdrawn_from,
                    )
                )
    return Standings(
        rows=tuple(rows),
        settings=settings,
        rounds_completed=calc.R,
        readings=_readings(settings, tournament),
    )
