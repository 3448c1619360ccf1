"""The custom tiebreak list as a list of selects, one tiebreak each in order (issue 28.15): no JSON to type.

Without JavaScript the page shows the chosen tiebreaks and three empty selects (each save can add three more);
static/js/staff.js adds the buttons to move a tiebreak up or down, remove it and add another. A script that posts
the list as JSON text (``["buchholz", "progressive"]``, as the box used to take) is still read."""

import json
from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from tournaments.core.labels import tiebreak_label
from tournaments.domain import TIEBREAK_KEYS
from tournaments.setup.tiebreak_list import MAX_TEXT

EMPTY_ROWS = 3


def as_keys(value: Any) -> list[str]:
    """The keys a value of the field holds: a list, JSON text (a bound form with errors), or nothing."""
    if isinstance(value, list):
        return [str(v) for v in value]
    if isinstance(value, str) and value.strip():
        try:
            parsed = json.loads(value[:MAX_TEXT])
        except (ValueError, RecursionError):  # shown again after its error: the selects start empty
            return []
        return [str(v) for v in parsed] if isinstance(parsed, list) else []
    return []


class TiebreakListWidget(forms.Widget):
    template = "staff/widgets/tiebreak_list.html"

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        values = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
        values = [v for v in values if v is not None]
        if len(values) == 1 and values[0].strip() and values[0] not in TIEBREAK_KEYS:
            return values[0]  # the JSON text of a script, or anything else typed: the parser checks it
        return [v for v in values if v.strip()]

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        keys = as_keys(value)
        final = self.build_attrs(self.attrs, attrs)
        context = {
            "widget": {
                "name": name,
                "id": final.get("id", f"id_{name}"),
                "disabled": bool(final.get("disabled")),
                "rows": keys + [""] * (0 if final.get("disabled") else EMPTY_ROWS),
                "choices": [(key, tiebreak_label(key)) for key in TIEBREAK_KEYS],
            }
        }
        return SafeString(render_to_string(self.template, context))
