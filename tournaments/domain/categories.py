"""Categories: membership and standings per category (docs/domain.md section 6).

A category is defined per tournament: everyone (absoluto), by sex (feminino),
and by age on 31 December of the tournament's year (``max_age`` 17 = sub-18,
``min_age`` for veterans).  A player can be in several categories.  That age is
the tournament's year minus the year of birth, so a year of birth alone (what some
files give, e.g. a TRF's ``1975/00/00``) decides it as a full date does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from tournaments.domain.standings import StandingRow, Standings, format_rank


@dataclass(frozen=True)
class CategoryRule:
    code: str
    name: str = ""
    sex: str | None = None  # "F" or "M"
    max_age: int | None = None
    min_age: int | None = None


@dataclass(frozen=True)
class Person:
    """What membership needs to know about an entry."""

    id: int
    sex: str | None = None
    birth_date: date | None = None
    birth_year: int | None = None  # when only the year is known (the date wins when both are given)

    @property
    def year_of_birth(self) -> int | None:
        return self.birth_date.year if self.birth_date is not None else self.birth_year


def age_on_december_31(birth: date | int, year: int) -> int:
    """Age reached on 31 December of ``year`` (everyone has had the birthday by then): ``birth`` is the birth
    date or the year of birth alone."""
    return year - (birth if isinstance(birth, int) else birth.year)


def is_member(rule: CategoryRule, person: Person, year: int) -> bool:
    """Whether ``person`` belongs to ``rule`` in a tournament of ``year``.

    A sex or age condition that cannot be checked (sex, or both birth date and
    year of birth, missing) excludes the person; a category without conditions
    contains everyone.
    """
    if rule.sex is not None and (person.sex or "").upper() != rule.sex.upper():
        return False
    if rule.max_age is not None or rule.min_age is not None:
        born = person.year_of_birth
        if born is None:
            return False
        age = age_on_december_31(born, year)
        if rule.max_age is not None and age > rule.max_age:
            return False
        if rule.min_age is not None and age < rule.min_age:
            return False
    return True


def members(rule: CategoryRule, people: Iterable[Person], year: int) -> set[int]:
    return {p.id for p in people if is_member(rule, p, year)}


@dataclass(frozen=True)
class CategoryRow:
    position: int  # 1-based within the category
    rank: str  # within the category, shared places as "2-3"
    overall_rank: str
    row: StandingRow


def category_standings(standings: Standings, member_ids: Iterable[int]) -> list[CategoryRow]:
    """The overall order filtered to the members, ranks recomputed.

    Players sharing a place overall share it in the category too, among the
    members who are part of that shared place.
    """
    ids = set(member_ids)
    rows = [r for r in standings.rows if r.id in ids]
    out: list[CategoryRow] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1].place == rows[i].place:
            j += 1
        rank = format_rank(i + 1, j + 1)
        for k in range(i, j + 1):
            out.append(CategoryRow(position=k + 1, rank=rank, overall_rank=rows[k].rank, row=rows[k]))
        i = j + 1
    return out
