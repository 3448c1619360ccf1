"""The page's script writes a Greek or Cyrillic name's web address as the server does (issue 27.17): its table of
Latin letters (static/js/staff.js) is anyascii's, and it has every Greek and Cyrillic letter (the browser test
types names; this checks the whole table without a browser)."""

import json
import re
import unicodedata
from pathlib import Path

from anyascii import anyascii

from tournaments.core.slugs import readable_slug

STAFF_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "staff.js"


def table():
    text = STAFF_JS.read_text(encoding="utf-8")
    found = re.search(r"var LATIN = (\{.*?\});", text)
    assert found, "staff.js has no LATIN table"
    return json.loads(found.group(1))


def needs_table(ch):
    """A letter whose decomposition does not give anyascii's Latin letters: the script must look it up."""
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return not (base.isascii() and base == anyascii(ch).lower())


def test_the_table_is_anyascii_and_holds_every_greek_and_cyrillic_letter():
    latin = table()
    assert {k: v for k, v in latin.items() if v != anyascii(k).lower()} == {}
    letters = [
        chr(cp)
        for lo, hi in ((0x0370, 0x03FF), (0x0400, 0x04FF))
        for cp in range(lo, hi + 1)
        if unicodedata.category(chr(cp)).startswith("L")
    ]
    missing = [ch for ch in letters if len(ch.lower()) == 1 and needs_table(ch.lower()) and ch.lower() not in latin]
    assert missing == []
    assert readable_slug("Чемпионат России по шашкам 2024", "") == "chempionat-rossii-po-shashkam-2024"


def generated():
    """The table as staff.js holds it (Latin-1 and Latin Extended-A letters without a plain decomposition, Greek,
    Cyrillic), lowercase keys."""
    out = {}
    for lo, hi in ((0xC0, 0xFF), (0x100, 0x17F), (0x370, 0x3FF), (0x400, 0x4FF)):
        for cp in range(lo, hi + 1):
            letter = chr(cp)
            ch = letter.lower()
            if not unicodedata.category(letter).startswith("L") or len(ch) != 1:
                continue
            if needs_table(ch) and anyascii(ch).isascii():
                out[ch] = anyascii(ch).lower()
    return dict(sorted(out.items()))


def test_the_table_is_the_generated_one():
    assert table() == generated()


if __name__ == "__main__":
    print("  var LATIN = " + json.dumps(generated(), ensure_ascii=True, separators=(",", ":")) + ";")
