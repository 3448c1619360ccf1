"""Qualification spots per category [vagas] (docs/domain.md section 6; regulation art. 6).

* average = mean of the 30 highest ratings of the category's entries, unrated
  entries at their provisional rating; with fewer than 30 entries, all of them
  (``counted`` says how many, ``note`` says so in pt-BR);
* spots: 3 if average >= 2150, or participants > 120 and average >= 2100;
  else 2 if average >= 2001; else 1 if average >= 1900; else 0.  The average is
  never rounded: comparisons are exact (2000.5 gives 1);
* ``participants`` is the number of participants of the **tournament** (the
  "evento tiver mais de 120 participantes" of the regulation), not of the category;
* the spots go to the best-placed entries of the category (its standings
  order); ``qualified`` is empty unless the tournament earned the rights;
* with :class:`Candidate` rows (:func:`award_spots`): a player who abandoned the
  tournament (art. 10) takes no spot, the next one does; when the last spot
  falls between two players on equal points, the tiebreak order decides and a
  note says which tiebreak; when they share the place (every tiebreak equal),
  never the pairing number: the setting :class:`SpotTieRule` decides (default:
  the spot is left to the organising committee, art. 13). Notes are codes with
  their data (:class:`SpotNote`); the presentation words them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from tournaments.domain.labelled import LabelledEnum, gettext_noop
from tournaments.domain.model import Exact, Number, TiebreakValue

TOP_N = 30


class DoubleSpotRule(LabelledEnum):
    """A player who qualifies in two categories (art. 6: "Oferecerá por categoria"; the text names no limit)."""

    # takes the spot of each category, and the report says so (default: the text's reading)
    BOTH = "both", gettext_noop("Takes the spot of each category (said in the report)")
    # keeps the first category's spot (the order the categories are listed in); the next eligible player of every
    # later category takes the other
    PASS = "pass", gettext_noop("Keeps the first category's spot; the next eligible player takes the other")


class UnratedInAverage(LabelledEnum):
    """Unrated players in "a média dos 30 maiores ratings" (art. 6)."""

    # at the provisional rating, and the report says how many (default, domain.md)
    PROVISIONAL = "provisional", gettext_noop("At the provisional rating (how many is said beside the average)")
    RATED_ONLY = "rated_only", gettext_noop("Rated players only")  # only players with a rating on the list


class SpotTieRule(LabelledEnum):
    # the tied players' spot(s) are left to the organising committee (art. 13)
    COMMITTEE = "committee", gettext_noop("Left to the organising committee (art. 13)")
    SHARE = "share", gettext_noop("Every tied player takes a spot")


@dataclass(frozen=True)
class Candidate:
    """A category member in standings order, as the spots need it."""

    id: int
    place: int  # equal for players sharing a place
    points: Number | None = None
    tiebreaks: Mapping[str, TiebreakValue] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    abandoned: bool = False


@dataclass(frozen=True)
class SpotNote:
    """How a spot was given, as a code with its data.

    ``abandoned``: ``ids`` abandoned (art. 10) and take no spot; the spots pass to the next placed.
    ``tiebreak``: the last spot went to ``ids[0]`` ahead of ``ids[1]`` on equal points, by tiebreak ``key``
    (``values``: theirs, in that order).
    ``tie_committee``: ``ids`` share the place of the last ``spots`` spot(s); the organising committee decides.
    ``tie_shared``: ``ids`` share that place and every one of them takes a spot (``spots`` were left).
    """

    code: str
    ids: tuple[int, ...]
    key: str | None = None
    values: tuple[TiebreakValue, ...] = ()
    spots: int = 0


def award_spots(
    spots: int, candidates: Sequence[Candidate], tie_rule: SpotTieRule | str = SpotTieRule.COMMITTEE
) -> tuple[tuple[int, ...], tuple[SpotNote, ...]]:
    """(qualified ids best first, notes) for ``spots`` spots among ``candidates`` (standings order)."""
    eligible = [c for c in candidates if not c.abandoned]
    if spots <= 0 or not eligible:
        return (), ()
    qualified = eligible[:spots]
    last = qualified[-1]
    notes = []
    last_index = next(i for i, c in enumerate(candidates) if c.id == last.id)
    passed = tuple(c.id for c in candidates[:last_index] if c.abandoned)
    if passed:
        notes.append(SpotNote("abandoned", passed))
    if len(eligible) > spots:
        following = eligible[spots]
        if following.place == last.place:
            group = tuple(c.id for c in eligible if c.place == last.place)
            above = [c for c in qualified if c.place != last.place]
            left = spots - len(above)
            if SpotTieRule(tie_rule) is SpotTieRule.SHARE:
                qualified = above + [c for c in eligible if c.place == last.place]
                notes.append(SpotNote("tie_shared", group, spots=left))
            else:
                qualified = above
                notes.append(SpotNote("tie_committee", group, spots=left))
        elif following.points == last.points:
            key = next(
                (k for k in last.order if last.tiebreaks.get(k) != following.tiebreaks.get(k)),
                None,
            )
            values = (last.tiebreaks.get(key), following.tiebreaks.get(key)) if key else ()
            notes.append(SpotNote("tiebreak", (last.id, following.id), key, values))
    return tuple(c.id for c in qualified), tuple(notes)


@dataclass(frozen=True)
class QualificationResult:
    """``unrated``: how many of the ``counted`` ratings are provisional ratings of unrated players (0 with
    ``rated_only``: they are left out, and ``counted`` counts rated players only); ``below_minimum``: the category
    has fewer entries than the tournament's minimum for a category to earn spots (its ``spots`` are then 0 and
    ``spots_by_average`` says what the average alone would give)."""

    code: str
    entries: int
    average: Decimal | None  # unrounded mean (28 significant digits), None without entries
    counted: int
    spots: int
    qualified: tuple[int, ...] = ()
    note: str | None = None
    exact_average: Fraction | None = field(default=None, compare=False)
    notes: tuple[SpotNote, ...] = ()
    unrated: int = 0
    rated_only: bool = False
    below_minimum: bool = False
    spots_by_average: int = 0
    created_late: bool = False  # created after round 1 (issue 35.3): no spot, whatever its average

    def as_json(self) -> dict[str, object]:
        """The ``categories[]`` object of ``homologation_check --format json``."""
        return {
            "code": self.code,
            "entries": self.entries,
            "average": self.average,
            "counted": self.counted,
            "spots": self.spots,
            "qualified": list(self.qualified),
        }


def spots_for_average(average: Exact, participants: int) -> int:
    """Spots given by an (unrounded) average; ``participants`` of the tournament."""
    a = Fraction(average)
    if a >= 2150 or (participants > 120 and a >= 2100):
        return 3
    if a >= 2001:
        return 2
    if a >= 1900:
        return 1
    return 0


def top_average(
    ratings: Iterable[int | None], provisional: int = 1600, top: int = TOP_N
) -> tuple[Fraction | None, int]:
    """(exact mean, count) of the ``top`` highest ratings; ``None`` = unrated at ``provisional``."""
    values = sorted((provisional if r is None else r for r in ratings), reverse=True)[:top]
    if not values:
        return None, 0
    return Fraction(sum(values), len(values)), len(values)


def top_average_with_unrated(
    ratings: Iterable[int | None], provisional: int = 1600, rated_only: bool = False, top: int = TOP_N
) -> tuple[Fraction | None, int, int]:
    """(exact mean, count, unrated among them) of the ``top`` highest ratings: unrated players (``None``) at
    ``provisional``, or left out with ``rated_only``."""
    values = sorted(
        ((provisional, True) if r is None else (r, False) for r in ratings if not (rated_only and r is None)),
        key=lambda v: (-v[0], v[1]),
    )[:top]
    if not values:
        return None, 0, 0
    return Fraction(sum(v for v, _u in values), len(values)), len(values), sum(1 for _v, u in values if u)


def _as_decimal(f: Fraction) -> Decimal:
    return Decimal(f.numerator) / Decimal(f.denominator)


def category_qualification(
    code: str,
    ratings: Sequence[int | None],
    participants: int,
    ranked_ids: Sequence[int] = (),
    rights: bool = False,
    provisional: int = 1600,
    candidates: Sequence[Candidate] | None = None,
    tie_rule: SpotTieRule | str = SpotTieRule.COMMITTEE,
    unrated_rule: UnratedInAverage | str = UnratedInAverage.PROVISIONAL,
    min_entries: int = 0,
    created_late: bool = False,
) -> QualificationResult:
    """Spots of one category.

    ``ratings``: the rating of every participant of the category (``None`` = unrated);
    ``ranked_ids``: the category's entries in standings order (best first), e.g.
    ``[r.row.id for r in category_standings(...)]``, or ``candidates`` (with
    places, tiebreaks and abandonments: see :func:`award_spots`); ``rights``: the
    tournament meets every homologation condition; ``unrated_rule``: unrated players at the provisional
    rating or left out of the average; ``min_entries``: a category with fewer entries earns no spot (0: any
    size, as the text says nothing); ``created_late``: the category was created after round 1 and earns no spot
    (its note says so and what the average alone would give).
    """
    rated_only = UnratedInAverage(unrated_rule) is UnratedInAverage.RATED_ONLY
    exact, counted, unrated = top_average_with_unrated(ratings, provisional, rated_only)
    entries = len(ratings)
    note = None
    if entries < TOP_N:
        note = f"Categoria com menos de {TOP_N} participantes: média de todos os {entries} ratings."
    if exact is None:
        return QualificationResult(code, entries, None, 0, 0, (), note, None, rated_only=rated_only)
    by_average = spots_for_average(exact, participants)
    below = entries < min_entries
    spots = 0 if below or created_late else by_average
    if created_late:
        late = f"Categoria criada depois da 1ª rodada: não tem vaga (pela média seriam {by_average})."
        note = f"{note} {late}" if note else late
    notes: tuple[SpotNote, ...] = ()
    if not rights:
        qualified: tuple[int, ...] = ()
    elif candidates is not None:
        qualified, notes = award_spots(spots, candidates, tie_rule)
    else:
        qualified = tuple(ranked_ids[:spots])
    return QualificationResult(
        code,
        entries,
        _as_decimal(exact),
        counted,
        spots,
        qualified,
        note,
        exact,
        notes,
        unrated=unrated,
        rated_only=rated_only,
        below_minimum=below,
        spots_by_average=by_average,
        created_late=created_late,
    )


@dataclass(frozen=True)
class CategorySpots:
    """One category's spots as :func:`award_categories` needs them: its code, how many spots it earned, and its
    members in standings order (:class:`Candidate` rows)."""

    code: str
    spots: int
    candidates: Sequence[Candidate]


def award_categories(
    categories: Sequence[CategorySpots],
    tie_rule: SpotTieRule | str = SpotTieRule.COMMITTEE,
    double_rule: DoubleSpotRule | str = DoubleSpotRule.BOTH,
) -> dict[str, tuple[tuple[int, ...], tuple[SpotNote, ...]]]:
    """(qualified ids, notes) per category code, the categories taken in the order given (the first is the one
    a player keeps under :attr:`DoubleSpotRule.PASS`).

    ``BOTH``: each category's spots as :func:`award_spots` gives them; a player qualified in more than one
    category gets a note ``double`` (``ids``: that player alone) in every category after the first.
    ``PASS``: a player already qualified in an earlier category is passed over, as an abandoning player is, and
    the next eligible player takes the spot; a note ``passed_on`` names who was passed over."""
    rule = DoubleSpotRule(double_rule)
    taken: set[int] = set()
    out: dict[str, tuple[tuple[int, ...], tuple[SpotNote, ...]]] = {}
    for cat in categories:
        if rule is DoubleSpotRule.PASS:
            pool = [
                Candidate(c.id, c.place, c.points, c.tiebreaks, c.order, c.abandoned or c.id in taken)
                for c in cat.candidates
            ]
            qualified, notes = award_spots(cat.spots, pool, tie_rule)
            split: list[SpotNote] = []
            for note in notes:
                if note.code != "abandoned":
                    split.append(note)
                    continue
                own = tuple(i for i in note.ids if i not in taken)
                passed = tuple(i for i in note.ids if i in taken)
                if own:
                    split.append(SpotNote("abandoned", own))
                if passed:
                    split.append(SpotNote("passed_on", passed))
            notes = tuple(split)
        else:
            qualified, notes = award_spots(cat.spots, cat.candidates, tie_rule)
            doubles = tuple(i for i in qualified if i in taken)
            notes = notes + tuple(SpotNote("double", (i,)) for i in doubles)
        taken.update(qualified)
        out[cat.code] = (qualified, notes)
    return out
