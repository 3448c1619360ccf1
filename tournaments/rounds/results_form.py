"""What a results page post says: its fields (one per box, or packed in one by the page's script), each board's
version and the values its form showed, and each typed box.

Django refuses a post of more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields (1,000: about 333 micro-match
boards), so the page's script sends only the boards whose boxes differ from what the page showed, packed in one
field (``packed``: a JSON object of field name -> text), with what each of their boxes showed (``b<id>_s<game>``).
Without the script every box is a field of its own, and what they showed is not said. A box not sent is left
alone.
"""

import json
import re
from dataclasses import dataclass, field

from django.http import QueryDict
from django.utils.translation import gettext as _

from tournaments.rounds.scoring import parse_entry

RESULT_FIELD = re.compile(r"^b(?P<board>\d{1,10})_(?:v|(?P<kind>[gs])(?P<game>\d{1,3}))$")
MAX_PACKED = 20_000  # fields in the packed one: 2 games and a version for 6,000 boards
DAMAGED = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


def parse_shown(fields: dict[str, str], board_id: int, game_numbers: list[int]) -> dict[int, str | None] | None:
    """What the board's boxes showed when the page was drawn (codes), from the packed ``b<id>_s<game>`` fields;
    None unless said for every game, and well."""
    shown: dict[int, str | None] = {}
    for n in game_numbers:
        label = fields.get(f"b{board_id}_s{n}")
        if label is None:
            return None
        try:
            shown[n] = parse_entry(n, label)
        except ValueError:
            return None
    return shown


@dataclass
class Posted:
    fields: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def posted_fields(post: QueryDict) -> Posted:
    """The result fields of a post (``b<board id>_v``, ``b<board id>_g<game>``), the packed ones included."""
    out = Posted({key: post.get(key, "") for key in post if key.startswith("b") and "_" in key})
    raw = post.get("packed", "")
    if not raw:
        return out
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    if (
        not isinstance(data, dict)
        or len(data) > MAX_PACKED
        or not all(isinstance(v, str) and len(k) <= 20 and len(v) <= 40 for k, v in data.items())
        or any(DAMAGED.search(k) or DAMAGED.search(v) for k, v in data.items())
    ):
        out.errors.append(_("The form arrived damaged: reload the page and type the results again."))
        return out
    out.fields.update(data)
    return out


MAX_SELECTION = 200  # characters of a "minhas mesas" text


def board_selection(text: str) -> set[int] | None:
    """The boards an arbiter keeps for herself ("minhas mesas"): "1-12", "3, 5, 9-11"; None for all (empty or
    not understood: the page then says so and shows every board)."""
    text = (text or "").strip()[:MAX_SELECTION]
    if not text:
        return None
    chosen: set[int] = set()
    for part in re.split(r"[,;\s]+", text):
        match = re.fullmatch(r"(\d{1,4})(?:-(\d{1,4}))?", part)
        if part and match is None:
            return None
        if match:
            low, high = int(match[1]), int(match[2] or match[1])
            if low > high or high - low > 2000:
                return None
            chosen.update(range(low, high + 1))
    return chosen or None
