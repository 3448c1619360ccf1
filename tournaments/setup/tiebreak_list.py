"""The custom tiebreak list (issue 25, item 4): one place that reads it, for the form, the model and every report.

A director types it as JSON (``["buchholz", "progressive"]``). The form and the model refuse anything else with a
Portuguese message; a list already stored that the standings cannot use (from before these checks, or written
around them) is never trusted by a page: the reports fall back to the CBJD profile and the staff pages say so."""

import json
import math
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournaments.domain import TIEBREAK_KEYS
from tournaments.models.choices import TiebreakProfile

MAX_TEXT = 1000  # far above the 13 names of the catalogue written out, far below a parser's recursion limit


class _NotFinite(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _NotFinite(name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(text)
    return value


def _invalid_json() -> ValidationError:
    return ValidationError(
        _("The tiebreak list is not valid JSON: write the names in quotes, separated by commas, between [ and ]."),
        code="tiebreak_list",
    )


def parse_tiebreak_text(text: str | None) -> list[str]:
    """What the director typed, as a list of tiebreak keys (empty for an empty box); ValidationError otherwise."""
    text = (text or "").strip()
    if not text:
        return []
    if len(text) > MAX_TEXT:
        raise ValidationError(
            _("The tiebreak list is too long (at most %(n)s characters).") % {"n": MAX_TEXT}, code="tiebreak_list_long"
        )
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except (ValueError, RecursionError):  # JSONDecodeError and _NotFinite are ValueErrors
        raise _invalid_json() from None
    tiebreak_keys_validator(value)
    return value


def tiebreak_list_problem(value: Any) -> str | None:
    """Why ``value`` is not a usable custom list (a Portuguese sentence), or None when it is."""
    if not isinstance(value, list):
        return _("The tiebreak list must be a list, between [ and ].")
    seen: set[str] = set()
    for key in value:
        if not isinstance(key, str):
            return _('Each tiebreak is a name in quotes (for example "buchholz").')
        if key not in TIEBREAK_KEYS:
            return _("Unknown tiebreak: “%(key)s”. Use these names: %(keys)s.") % {
                "key": key[:40],
                "keys": ", ".join(TIEBREAK_KEYS),
            }
        if key in seen:
            return _("The tiebreak “%(key)s” appears twice.") % {"key": key}
        seen.add(key)
    return None


def tiebreak_keys_validator(value: Any) -> None:
    """The model field's validator (and the form's): a list of distinct keys of the catalogue."""
    problem = tiebreak_list_problem(value)
    if problem:
        raise ValidationError(problem, code="tiebreak_list")


def empty_custom_list_error(profile: str, keys: Any) -> ValidationError | None:
    """A custom profile needs its list."""
    if profile == TiebreakProfile.CUSTOM and keys == []:
        return ValidationError(
            _('Write the tiebreak list (for example ["buchholz", "progressive"]) or choose the CBJD profile.'),
            code="custom_list_empty",
        )
    return None


def stored_list_is_broken(tournament: Any) -> bool:
    """A stored list the reports cannot use (they use the CBJD profile instead)."""
    return tournament.tiebreak_profile == TiebreakProfile.CUSTOM and bool(
        tiebreak_list_problem(tournament.tiebreak_keys)
    )


def custom_tiebreaks(tournament: Any) -> tuple[str, ...] | None:
    """The custom order the reports use, or None for the CBJD profile (chosen, empty, or a broken stored list)."""
    if tournament.tiebreak_profile != TiebreakProfile.CUSTOM or not tournament.tiebreak_keys:
        return None
    if tiebreak_list_problem(tournament.tiebreak_keys):
        return None
    return tuple(tournament.tiebreak_keys)


def broken_list_warning(tournament: Any) -> str | None:
    """The staff's warning about a broken stored list (None when there is none)."""
    problem = tiebreak_list_problem(tournament.tiebreak_keys)
    if tournament.tiebreak_profile != TiebreakProfile.CUSTOM or problem is None:
        return None
    return _(
        "The saved custom tiebreak list is invalid (%(problem)s): the standings use the CBJD profile until it is "
        "corrected in the settings."
    ) % {"problem": problem.rstrip(".")}
