"""The regulation as an edition the federation publishes (issue 35.1), on plain data (no Django here).

An :class:`Edition` is one dated text of the national-circuit regulation: what the text fixes (the minimum of
participants, the rounds and times, micro-matches with the tablita, the programs art. 5 accepts and how this
product stands under it, the art. 10 suspension, the sending deadline, the tiebreak order and its exceptions, the
spots table, the rating method) and the readings the text leaves open, each with its article. A circuit stage is
judged by the edition in force on its start date (:func:`edition_in_force`); nothing of it is a setting of the
event. The federation publishes editions as JSON (:func:`edition_from_json`, :meth:`Edition.as_json`); the ones
the product ships are in ``tournaments/data/editions/`` (:func:`shipped_editions`), so an offline venue has them.
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

EDITIONS_DIR = Path(__file__).resolve().parent.parent / "data" / "editions"


class EditionError(ValueError):
    """An edition's JSON that cannot be read: the message says what and where, in Portuguese."""


class EditionTooNew(EditionError):
    """An edition naming a reading or a condition this version does not know: published for a newer version of the
    product (a venue must be updated before it can be judged by it)."""


# The readings the text leaves open: key -> (article, allowed values, the product's reading). The key is the
# name of the snapshot's setting (``SnapSettings``) the reading decides; the allowed values are the stored codes
# of ``tournaments.models.choices`` (a test checks they agree), or a type for a number or a yes/no.
READINGS: Mapping[str, tuple[str, tuple[str, ...] | type, str | int | bool]] = {
    "participant_rule": ("art. 6", ("played", "present"), "played"),
    "spot_tie_rule": ("art. 6, 13", ("committee", "share"), "committee"),
    "pairing_program_rule": ("art. 5", ("named", "strict"), "named"),
    "time_unit": ("art. 2, 6", ("game", "match"), "game"),
    "tablita_100": ("art. 2, 6", ("required", "free"), "required"),
    "unrated_in_average": ("art. 6", ("provisional", "rated_only"), "provisional"),
    "spots_min_entries": ("art. 6", int, 0),
    "double_spot_rule": ("art. 6", ("both", "pass"), "both"),
    "progressive_move": ("art. 6 a, c", ("end", "second"), "end"),
    "acceleration_order": ("art. 6 a", ("buchholz", "corrected"), "buchholz"),
    "direct_encounter_scope": ("art. 6 b", ("pair", "group"), "pair"),
    "top3_order": ("art. 6 c", ("buchholz", "moved"), "buchholz"),
    "top3_scope": ("art. 6 c", ("tie", "exact"), "tie"),
    "corrected_progressive_cut": ("art. 6", int, 1),
    "corrected_progressive_unplayed": ("art. 6", bool, True),
    "tiebreak_edition": ("art. 6", ("fide2026", "fide2024"), "fide2026"),
}
# The values of the rounds a player scores without a game (issue 35.1): the pairing-allocated bye and the announced
# absence. The text says nothing of them; its art. 13 leaves "todos os casos omissos" to each stage's organising
# committee. An edition either leaves them to the organiser (``ORGANISER``: the stage's own value, chosen before
# round 1 and frozen by it; the shipped editions, faithful to art. 13) or fixes one (``bye_value``: win or draw,
# ``absence_value``: zero or draw, the stored codes of ``tournaments.models.choices``). Key -> (article, allowed
# values); a reading an edition does not name is the organiser's (an edition published before these existed).
ORGANISER = "organiser"
UNPLAYED_ARTICLE = "art. 13"
UNPLAYED_READINGS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "bye_value": (UNPLAYED_ARTICLE, (ORGANISER, "win", "draw")),
    "absence_value": (UNPLAYED_ARTICLE, (ORGANISER, "zero", "draw")),
}
# The keys of the homologation conditions an edition quotes (``tournaments.homologation.conditions``).
CONDITION_KEYS = (
    "participants",
    "rounds_and_time",
    "no_suspended",
    "round1_by_rating",
    "pairing_engine",
    "tiebreaks",
    "birth_dates",
    "deadline",
)


@dataclass(frozen=True)
class Reading:
    """A reading of the text: the setting it decides, its value, the article it reads."""

    key: str
    value: str | int | bool
    article: str


@dataclass(frozen=True)
class Quote:
    """A condition's article and the text's own words (Portuguese, as the federation reads it)."""

    key: str
    article: str
    text: str


@dataclass(frozen=True)
class RoundsAndTime:
    """At least ``rounds`` rounds of at least ``minutes`` minutes per player per game."""

    rounds: int
    minutes: int


@dataclass(frozen=True)
class SpotTier:
    """``spots`` spots for a category whose (unrounded) average is at least ``min_average``, when the event has
    more than ``more_than_participants`` participants (0: whatever its size)."""

    min_average: int
    spots: int
    more_than_participants: int = 0


@dataclass(frozen=True)
class RatingMethod:
    """How the national rating is computed (issue 40): Elo with the expected score's difference capped, K by
    experience and strength, and the games a first rating needs."""

    method: str = "elo"
    expected_score_cap: int = 400
    k_new: int = 40  # below ``new_games`` rated games
    new_games: int = 30
    k: int = 20
    k_top: int = 10  # from ``top_rating`` on
    top_rating: int = 2400
    first_rating_games: int = 9


SEED_SPOTS = (
    SpotTier(2150, 3),
    SpotTier(2100, 3, 120),
    SpotTier(2001, 2),
    SpotTier(1900, 1),
)


@dataclass(frozen=True)
class Edition:
    """One dated text of the regulation. ``in_force_until`` None: in force until a later edition replaces it."""

    code: str
    title: str
    published_on: date
    in_force_from: date
    in_force_until: date | None = None
    source: str = ""
    # what the text fixes
    min_participants: int = 30
    rounds_and_time: tuple[RoundsAndTime, ...] = (RoundsAndTime(7, 21), RoundsAndTime(5, 30))
    micro_match: bool = True  # "em micro-match"
    tablita: bool = True  # "usando a Tablita"
    accepted_programs: tuple[str, ...] = ("Swiss Perfect", "SwissPerfect", "48")
    # how this product's pairing engine stands under art. 5: accepted by the federation in this edition, or not
    product_engine_accepted: bool = True
    product_engine_note: str = ""
    suspension_months: int = 3  # art. 10
    sending_days: int = 2  # art. 6, 11
    tiebreak_order: tuple[str, ...] = ("progressive", "corrected_progressive", "buchholz")
    tiebreak_exceptions: tuple[str, ...] = ("a", "b", "c")
    spots: tuple[SpotTier, ...] = SEED_SPOTS
    spots_top_n: int = 30  # "a média dos 30 maiores ratings"
    rating: RatingMethod = field(default_factory=RatingMethod)
    quotes: tuple[Quote, ...] = ()
    readings: tuple[Reading, ...] = ()
    # the values of unplayed rounds (``UNPLAYED_READINGS``) the edition fixes; one it leaves to the organiser is
    # not here (its JSON may say ``organiser`` or nothing: the same edition)
    unplayed: tuple[Reading, ...] = ()

    def in_force_on(self, day: date) -> bool:
        return self.in_force_from <= day and (self.in_force_until is None or day <= self.in_force_until)

    def reading(self, key: str) -> str | int | bool:
        """The edition's value of a reading (the product's reading when the edition does not name it)."""
        for r in self.readings:
            if r.key == key:
                return r.value
        return READINGS[key][2]

    def reading_article(self, key: str) -> str:
        for r in self.readings:
            if r.key == key:
                return r.article
        return READINGS[key][0]

    def unplayed_reading(self, key: str) -> Reading:
        """The edition's reading of an unplayed round's value (``bye_value``, ``absence_value``): a value it fixes,
        or ``ORGANISER`` (also when it does not name it)."""
        for r in self.unplayed:
            if r.key == key:
                return r
        return Reading(key, ORGANISER, UNPLAYED_READINGS[key][0])

    def fixed_unplayed(self) -> dict[str, str]:
        """The values of unplayed rounds the edition fixes (``bye_value``/``absence_value`` -> value); those it
        leaves to the stage's organiser are not here."""
        return {key: str(r.value) for key in UNPLAYED_READINGS if (r := self.unplayed_reading(key)).value != ORGANISER}

    def quote(self, key: str) -> Quote | None:
        for q in self.quotes:
            if q.key == key:
                return q
        return None

    def settings_values(self) -> dict[str, Any]:
        """The snapshot settings the edition decides (``SnapSettings`` field -> value): its minimum of
        participants and every reading. A circuit stage's settings are these, whatever the event says."""
        values: dict[str, Any] = {key: self.reading(key) for key in READINGS}
        values["min_participants"] = self.min_participants
        return values

    def spots_for(self, average: Any, participants: int) -> int:
        """Spots given by an unrounded ``average`` (anything comparable with an int: a Fraction) in an event of
        ``participants``: the highest tier met."""
        best = 0
        for tier in self.spots:
            if average >= tier.min_average and participants > tier.more_than_participants:
                best = max(best, tier.spots)
        return best

    def time_met(self, rounds: int, minutes: int) -> bool:
        return any(rounds >= rt.rounds and minutes >= rt.minutes for rt in self.rounds_and_time)

    def can_give_spots(self, planned_rounds: int, minutes: int) -> bool:
        """Whether a stage of ``planned_rounds`` rounds of ``minutes`` can ever meet the rounds-and-time
        condition (issue 35.5: said at creation, not only at the end)."""
        return self.time_met(planned_rounds, minutes)

    def program_accepted(self, program: str) -> bool:
        """Whether a program's recorded name is one art. 5 accepts: one of the names, alone or followed by a
        version ("Swiss Perfect 98", "SwissPerfect 2.1"); a name that merely contains one ("Emparceirador
        caseiro 2048") is not."""
        name = " ".join((program or "").lower().split())
        return any(
            re.fullmatch(re.escape(" ".join(p.lower().split())) + r"(?:\s+v?\d[\w.\-]*)*", name)
            for p in self.accepted_programs
        )

    def as_json(self) -> dict[str, Any]:
        """The edition as the federation publishes it (:func:`edition_from_json` reads it back). The values of
        unplayed rounds are written only when it fixes them, so a venue on a version that does not know these
        readings still reads an edition that leaves them to the organiser."""
        return {
            "code": self.code,
            "title": self.title,
            "published_on": self.published_on.isoformat(),
            "in_force_from": self.in_force_from.isoformat(),
            "in_force_until": self.in_force_until.isoformat() if self.in_force_until else None,
            "source": self.source,
            "fixed": {
                "min_participants": self.min_participants,
                "rounds_and_time": [{"rounds": rt.rounds, "minutes": rt.minutes} for rt in self.rounds_and_time],
                "micro_match": self.micro_match,
                "tablita": self.tablita,
                "accepted_programs": list(self.accepted_programs),
                "product_engine_accepted": self.product_engine_accepted,
                "product_engine_note": self.product_engine_note,
                "suspension_months": self.suspension_months,
                "sending_days": self.sending_days,
                "tiebreak_order": list(self.tiebreak_order),
                "tiebreak_exceptions": list(self.tiebreak_exceptions),
                "spots_top_n": self.spots_top_n,
                "spots": [
                    {"min_average": s.min_average, "spots": s.spots, "more_than_participants": s.more_than_participants}
                    for s in self.spots
                ],
                "rating": {
                    "method": self.rating.method,
                    "expected_score_cap": self.rating.expected_score_cap,
                    "k_new": self.rating.k_new,
                    "new_games": self.rating.new_games,
                    "k": self.rating.k,
                    "k_top": self.rating.k_top,
                    "top_rating": self.rating.top_rating,
                    "first_rating_games": self.rating.first_rating_games,
                },
            },
            "quotes": {q.key: {"article": q.article, "text": q.text} for q in self.quotes},
            "readings": {r.key: {"value": r.value, "article": r.article} for r in (*self.readings, *self.unplayed)},
        }


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise EditionError(f"Edição: falta “{key}” em {where}.")
    value = data[key]
    if isinstance(value, bool) and kind is int:
        raise EditionError(f"Edição: “{key}” em {where} deve ser um número inteiro.")
    if not isinstance(value, kind):
        raise EditionError(f"Edição: “{key}” em {where} tem um valor de tipo inválido.")
    return value


def _day(data: Mapping[str, Any], key: str, *, optional: bool = False) -> date | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise EditionError(f"Edição: “{key}” deve ser uma data AAAA-MM-DD.")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise EditionError(f"Edição: “{key}” deve ser uma data AAAA-MM-DD (recebido “{value[:20]}”).") from None


def _count(data: Mapping[str, Any], key: str, where: str, low: int = 0, high: int = 100_000) -> int:
    value = _need(data, key, int, where)
    if not low <= value <= high:
        raise EditionError(f"Edição: “{key}” em {where} fora do intervalo {low}–{high}.")
    return int(value)


def _text(data: Mapping[str, Any], key: str, where: str, limit: int = 2000, optional: bool = False) -> str:
    if optional and key not in data:
        return ""
    value = _need(data, key, str, where)
    if len(value) > limit:
        raise EditionError(f"Edição: “{key}” em {where} longo demais.")
    return str(value)


def _unplayed_reading(key: str, item: Any) -> Reading:
    article, allowed = UNPLAYED_READINGS[key]
    if not isinstance(item, Mapping) or item.get("value") not in allowed:
        raise EditionError(
            f"Edição: valor inválido para a leitura “{key}” (use {', '.join(allowed)}; “{ORGANISER}”: decidido pela "
            "organização da etapa)."
        )
    return Reading(
        key, str(item["value"]), _text(item, "article", f"leitura “{key}”", 60) if "article" in item else article
    )


def _reading(key: str, item: Any) -> Reading:
    if key not in READINGS:
        raise EditionTooNew(f"Edição: leitura desconhecida “{key[:40]}”.")
    if not isinstance(item, Mapping):
        raise EditionError(f"Edição: a leitura “{key}” deve ter “value” e “article”.")
    article, allowed, _default = READINGS[key]
    value = item.get("value")
    if isinstance(allowed, tuple):
        ok = isinstance(value, str) and value in allowed
    elif allowed is bool:
        ok = isinstance(value, bool)
    else:
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 1000
    if not ok or not isinstance(value, str | int | bool):
        raise EditionError(f"Edição: valor inválido para a leitura “{key}”.")
    return Reading(key, value, _text(item, "article", f"leitura “{key}”", 60) if "article" in item else article)


def _rounds_and_time(fixed: Mapping[str, Any]) -> tuple[RoundsAndTime, ...]:
    out = []
    for item in _need(fixed, "rounds_and_time", list, "“fixed”")[:10]:
        if not isinstance(item, Mapping):
            raise EditionError("Edição: cada item de “rounds_and_time” deve ter “rounds” e “minutes”.")
        out.append(
            RoundsAndTime(
                _count(item, "rounds", "rounds_and_time", 1, 100), _count(item, "minutes", "rounds_and_time", 1, 600)
            )
        )
    if not out:
        raise EditionError("Edição: “rounds_and_time” vazio.")
    return tuple(out)


def _spots(fixed: Mapping[str, Any]) -> tuple[SpotTier, ...]:
    out = []
    for item in _need(fixed, "spots", list, "“fixed”")[:20]:
        if not isinstance(item, Mapping):
            raise EditionError("Edição: cada item de “spots” deve ter “min_average” e “spots”.")
        more = _count(item, "more_than_participants", "spots", 0, 100_000) if "more_than_participants" in item else 0
        out.append(SpotTier(_count(item, "min_average", "spots", 0, 4000), _count(item, "spots", "spots", 0, 20), more))
    return tuple(out)


def _names(fixed: Mapping[str, Any], key: str, limit: int) -> tuple[str, ...]:
    names = _need(fixed, key, list, "“fixed”")
    if len(names) > limit or not all(isinstance(p, str) and 0 < len(p) <= 60 for p in names):
        raise EditionError(f"Edição: “{key}” deve ser uma lista de nomes.")
    return tuple(names)


def _rating(fixed: Mapping[str, Any]) -> RatingMethod:
    data = fixed.get("rating") or {}
    if not isinstance(data, Mapping):
        raise EditionError("Edição: “rating” deve ser um objeto.")
    defaults = RatingMethod()
    numbers = ("expected_score_cap", "k_new", "new_games", "k", "k_top", "top_rating", "first_rating_games")
    return RatingMethod(
        method=_text(data, "method", "rating", 20) if "method" in data else defaults.method,
        **{n: _count(data, n, "rating", 0, 10_000) if n in data else getattr(defaults, n) for n in numbers},
    )


def _quotes_and_readings(
    data: Mapping[str, Any],
) -> tuple[tuple[Quote, ...], tuple[Reading, ...], tuple[Reading, ...]]:
    quotes_data = data.get("quotes") or {}
    readings_data = data.get("readings") or {}
    if not isinstance(quotes_data, Mapping) or not isinstance(readings_data, Mapping):
        raise EditionError("Edição: “quotes” e “readings” devem ser objetos.")
    quotes = []
    for key, item in quotes_data.items():
        if key not in CONDITION_KEYS or not isinstance(item, Mapping):
            raise EditionTooNew(f"Edição: citação desconhecida “{str(key)[:40]}”.")
        quotes.append(Quote(key, _text(item, "article", "quotes", 60), _text(item, "text", "quotes", 1000)))
    readings = [_reading(str(key), item) for key, item in readings_data.items() if key not in UNPLAYED_READINGS]
    unplayed = [_unplayed_reading(key, item) for key, item in readings_data.items() if key in UNPLAYED_READINGS]
    unplayed = [r for r in unplayed if r.value != ORGANISER]
    # by key: the same edition whatever the order its JSON came in (PostgreSQL's jsonb sorts the keys)
    by_key = operator.attrgetter("key")
    return tuple(sorted(quotes, key=by_key)), tuple(sorted(readings, key=by_key)), tuple(sorted(unplayed, key=by_key))


def _period(data: Mapping[str, Any]) -> tuple[date, date, date | None]:
    published_on = _day(data, "published_on")
    in_force_from = _day(data, "in_force_from")
    in_force_until = _day(data, "in_force_until", optional=True)
    assert published_on is not None and in_force_from is not None
    if in_force_until is not None and in_force_until < in_force_from:
        raise EditionError("Edição: “in_force_until” antes de “in_force_from”.")
    return published_on, in_force_from, in_force_until


def edition_from_json(data: Any) -> Edition:
    """An edition from its published JSON (a dict). Hostile input raises :class:`EditionError`, never a partial
    edition."""
    if not isinstance(data, Mapping):
        raise EditionError("Edição: o arquivo deve ser um objeto JSON.")
    code = _text(data, "code", "a edição", 60)
    if not re.fullmatch(r"[a-z0-9][a-z0-9\-]{0,59}", code):
        raise EditionError("Edição: “code” deve ter letras minúsculas, algarismos e hífens.")
    fixed = _need(data, "fixed", Mapping, "a edição")
    where = "“fixed”"
    published_on, in_force_from, in_force_until = _period(data)
    quotes, readings, unplayed = _quotes_and_readings(data)
    return Edition(
        code=code,
        title=_text(data, "title", "a edição", 200),
        published_on=published_on,
        in_force_from=in_force_from,
        in_force_until=in_force_until,
        source=_text(data, "source", "a edição", 1000, optional=True),
        min_participants=_count(fixed, "min_participants", where, 1, 10_000),
        rounds_and_time=_rounds_and_time(fixed),
        micro_match=bool(_need(fixed, "micro_match", bool, where)),
        tablita=bool(_need(fixed, "tablita", bool, where)),
        accepted_programs=_names(fixed, "accepted_programs", 20),
        product_engine_accepted=bool(_need(fixed, "product_engine_accepted", bool, where)),
        product_engine_note=_text(fixed, "product_engine_note", where, 1000, optional=True),
        suspension_months=_count(fixed, "suspension_months", where, 0, 120),
        sending_days=_count(fixed, "sending_days", where, 0, 365),
        tiebreak_order=_names(fixed, "tiebreak_order", 20),
        tiebreak_exceptions=_names(fixed, "tiebreak_exceptions", 20),
        spots=_spots(fixed),
        spots_top_n=_count(fixed, "spots_top_n", where, 1, 1000),
        rating=_rating(fixed),
        quotes=quotes,
        readings=readings,
        unplayed=unplayed,
    )


def edition_in_force(editions: Iterable[Edition], day: date | None) -> Edition | None:
    """The edition in force on ``day`` (a stage's start date): of those whose period holds it, the one in force
    from the latest date (then the latest published). None when none is."""
    if day is None:
        return None
    holding = [e for e in editions if e.in_force_on(day)]
    if not holding:
        return None
    return max(holding, key=lambda e: (e.in_force_from, e.published_on, e.code))


def shipped_editions(directory: Path = EDITIONS_DIR) -> tuple[Edition, ...]:
    """The editions the product ships (``tournaments/data/editions/*.json``), oldest first."""
    editions = [edition_from_json(json.loads(p.read_text(encoding="utf-8"))) for p in sorted(directory.glob("*.json"))]
    return tuple(sorted(editions, key=lambda e: (e.in_force_from, e.code)))


CURRENT_TEXT = "cbjd-circuito-nacional"


@functools.cache
def shipped_by_code() -> dict[str, Edition]:
    return {e.code: e for e in shipped_editions()}


def shipped_edition(code: str) -> Edition | None:
    return shipped_by_code().get(code)


def current_text() -> Edition:
    """The edition of the regulation's current text, shipped with the product."""
    return shipped_by_code()[CURRENT_TEXT]


def with_readings(edition: Edition, **values: str | int | bool) -> Edition:
    """A copy of ``edition`` with some readings changed (tests, and a federation drafting its next edition); the
    values of unplayed rounds too (``bye_value="draw"``)."""
    unplayed = {k: str(values.pop(k)) for k in list(values) if k in UNPLAYED_READINGS}
    kept = tuple(r for r in edition.readings if r.key not in values)
    added = tuple(Reading(k, v, READINGS[k][0]) for k, v in values.items())
    kept_unplayed = tuple(r for r in edition.unplayed if r.key not in unplayed)
    added_unplayed = tuple(Reading(k, v, UNPLAYED_READINGS[k][0]) for k, v in unplayed.items() if v != ORGANISER)
    return replace(
        edition,
        readings=kept + added,
        unplayed=tuple(sorted(kept_unplayed + added_unplayed, key=lambda r: r.key)),
    )
