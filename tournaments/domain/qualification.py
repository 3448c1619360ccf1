"""Qualification spots per category [vagas] (domain.md section 6; regulation art. 6).

* average = mean of the 30 highest ratings of the category's entries, unrated
  entries at their provisional rating; with fewer than 30 entries, all of them
  (``counted`` says how many, ``note`` says so in pt-BR);
* spots: 3 if average >= 2150, or participants > 120 and average >= 2100;
  else 2 if average >= 2001; else 1 if average >= 1900; else 0.  The average is
  never rounded: comparisons are exact (2000.5 gives 1);
* ``participants`` is the number of participants of the **tournament** (the
  "evento tiver mais de 120 participantes" of the regulation), not of the category;
* the spots go to the best-placed entries of the category (its standings
  order); ``qualified`` is empty unless the tournament earned the rights.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

TOP_N = 30


@dataclass(frozen=True)
class QualificationResult:
    code: str
    entries: int
    average: Decimal | None  # unrounded mean (28 significant digits), None without entries
    counted: int
    spots: int
    qualified: tuple[int, ...] = ()
    note: str | None = None
    exact_average: Fraction | None = field(default=None, compare=False)

    def as_json(self) -> dict:
        """The ``categories[]`` object of ``homologation_check --format json``."""
        return {
            "code": self.code,
            "entries": self.entries,
            "average": self.average,
            "counted": self.counted,
            "spots": self.spots,
            "qualified": list(self.qualified),
        }


def spots_for_average(average, participants: int) -> int:
    """Spots given by an (unrounded) average; ``participants`` of the tournament."""
    a = Fraction(average)
    if a >= 2150 or (participants > 120 and a >= 2100):
        return 3
    if a >= 2001:
        return 2
    if a >= 1900:
        return 1
    return 0


def top_average(ratings: Iterable[int | None], provisional: int = 1600, top: int = TOP_N):
    """(exact mean, count) of the ``top`` highest ratings; ``None`` = unrated at ``provisional``."""
    values = sorted((provisional if r is None else r for r in ratings), reverse=True)[:top]
    if not values:
        return None, 0
    return Fraction(sum(values), len(values)), len(values)


def _as_decimal(f: Fraction) -> Decimal:
    return Decimal(f.numerator) / Decimal(f.denominator)


def qualification(
    code: str,
    ratings: Sequence[int | None],
    participants: int,
    ranked_ids: Sequence[int] = (),
    rights: bool = False,
    provisional: int = 1600,
) -> QualificationResult:
    """Spots of one category.

    ``ratings``: the rating of every entry of the category (``None`` = unrated);
    ``ranked_ids``: the category's entries in standings order (best first), e.g.
    ``[r.row.id for r in category_standings(...)]``; ``rights``: the tournament
    meets every homologation condition.
    """
    exact, counted = top_average(ratings, provisional)
    entries = len(ratings)
    note = None
    if entries < TOP_N:
        note = f"Categoria com menos de {TOP_N} inscritos: média de todos os {entries} ratings."
    if exact is None:
        return QualificationResult(code, 0, None, 0, 0, (), note, None)
    spots = spots_for_average(exact, participants)
    qualified = tuple(ranked_ids[:spots]) if rights else ()
    return QualificationResult(code, entries, _as_decimal(exact), counted, spots, qualified, note, exact)
