"""Strings from a file another program or server wrote (an interchange file, a submitted stage), made safe to show:
one line, no control character, bounded."""

from __future__ import annotations

import re
from typing import Any

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def clean(value: Any, limit: int = 80) -> str:
    text = " ".join(_CONTROL.sub(" ", "" if value is None else str(value)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
