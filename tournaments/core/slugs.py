"""Web addresses (slugs) made from a tournament's name: readable whatever the script (a name in Greek or Cyrillic is
transliterated, not cut down to its digits), and free in this database."""

from __future__ import annotations

from anyascii import anyascii
from django.utils.text import slugify

MAX_BASE = 70  # the slug field holds 80: room for a "-NN" suffix


def readable_slug(name: str, fallback: str) -> str:
    """The slug of ``name`` in Latin letters (``Чемпионат России 2024`` -> ``chempionat-rossii-2024``)."""
    base = slugify(anyascii(name or ""))[:MAX_BASE].strip("-")
    return base or fallback


def free_slug(name: str, fallback: str) -> str:
    """:func:`readable_slug` of ``name``, with ``-2``, ``-3``, ... when the address is taken."""
    from tournaments.models import Tournament

    base = readable_slug(name, fallback)
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug
