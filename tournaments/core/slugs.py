"""Web addresses (slugs) made from a tournament's name: readable whatever the script (a name in Greek or Cyrillic is
transliterated, not cut down to its digits), and free in this database."""

from __future__ import annotations

import re

from anyascii import anyascii
from django.utils.text import slugify

MAX_BASE = 70  # the slug field holds 80: room for a "-NN" suffix


def readable_slug(name: str, fallback: str) -> str:
    """The slug of ``name`` in Latin letters (``Чемпионат России 2024`` -> ``chempionat-rossii-2024``)."""
    base = slugify(anyascii(name or ""))[:MAX_BASE].strip("-")
    return base or fallback


# The default address of a new tournament is short (issue 28.16, 37.9), as static/js/staff.js writes it (shortSlug):
# the name's words without the small Portuguese ones and the words every event's name has (circuito, nacional,
# damas...: unless nothing else is left), at most SHORT characters cut between words, a year kept at the end.
SMALL_WORDS = frozenset(["a", "o", "as", "os", "e", "de", "da", "do", "das", "dos", "em", "na", "no", "nas", "nos"])
COMMON_WORDS = frozenset(["circuito", "nacional", "damas", "campeonato", "torneio", "cbjd"])
SHORT = 24


def short_slug(name: str, fallback: str) -> str:
    """``Circuito Nacional de Damas - Etapa Recife - Campeonato Aberto 2026`` -> ``etapa-recife-aberto-2026``."""
    words = [w for w in readable_slug(name, "").split("-") if w and w not in SMALL_WORDS]
    if any(w not in COMMON_WORDS and not re.fullmatch(r"(19|20)\d\d", w) for w in words):
        words = [w for w in words if w not in COMMON_WORDS]
    year = words.pop() if len(words) > 1 and re.fullmatch(r"(19|20)\d\d", words[-1]) else ""
    room = SHORT - (len(year) + 1 if year else 0)
    out: list[str] = []
    for word in words:
        if out and len("-".join([*out, word])) > room:
            break
        out.append(word)
    if year:
        out.append(year)
    return "-".join(out)[:80].rstrip("-") or fallback


def free_slug(name: str, fallback: str, short: bool = False) -> str:
    """:func:`readable_slug` of ``name`` (:func:`short_slug` when ``short``), with ``-2``, ``-3``, ... when the
    address is taken."""
    from tournaments.models import Tournament

    base = short_slug(name, fallback) if short else readable_slug(name, fallback)
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug
