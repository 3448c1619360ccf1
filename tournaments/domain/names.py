"""How a person's name is compared, searched and sorted: one rule for every place a name is matched (issue 37.5).

A name is folded to lower case without accents, apostrophes or repeated spaces, so "Sant'Anna", "Sant’Anna",
"SANT´ANNA" and "santanna" are the same, and "Élton" sorts with "Elton" (the Portuguese order of a dictionary,
not the code points, which put "É" after "Z"). The registry's ``Player.search_name`` keeps this fold; the pages'
search boxes fold the same way in ``static/js/site.js``.
"""

from __future__ import annotations

import unicodedata

# Every character people and programs write for an apostrophe: typewriter, typographic (left and right), the
# modifier letter, grave and acute accents typed alone, the prime.
APOSTROPHES = "'\u2019\u2018\u02bc\u0060\u00b4\u2032"
_DROP = str.maketrans("", "", APOSTROPHES)


def fold(text: object) -> str:
    """Lower case without accents, apostrophes or repeated spaces: "  Márcia  SANT’ANNA " -> "marcia santanna"."""
    plain = str(text or "").translate(_DROP)
    decomposed = unicodedata.normalize("NFKD", plain)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(kept.split())


def name_sort_key(name: object) -> str:
    """The order of names in every list: the fold (accents, case and apostrophes aside)."""
    return fold(name)
