"""Text typed by users, checked on the way in and made safe on the way out: the one place for these rules.

Every string a user types (a player's name, a club, a tournament's city) is hostile in every export. Two
families of rules live here.

**In** (forms, the JSON and TRF importers, rating lists): a name or any other single-line field holds no
control character and no line break. :func:`control_characters` finds them, :func:`validate_single_line` is the
Django validator (model fields and forms) with the Portuguese message.

**Out**:

* :func:`one_line` for line-based files (TRF, PDN tags, the Swiss Perfect cross table): every control
  character and line break becomes a space, so a value can never start a line of its own;
* :func:`spreadsheet_value` for every CSV/XLSX cell (the homologation workbook, the tables' exports, the
  standings CSV): strings lose the characters XML cannot hold (openpyxl would refuse them) and a string that a
  spreadsheet would read as a formula (first character ``= + - @``, tab or carriage return: the OWASP
  CSV-injection rule) gets a leading apostrophe; line breaks are ``\n`` (which CSV writers quote). Numbers, dates and ``None`` pass unchanged: a negative number
  written as a number stays a number. Strings that are plain numbers (``-3``, ``+1.5``) or result codes
  (``-/+``) are left alone: no spreadsheet runs them;
* :func:`append_row` writes a row into an openpyxl worksheet through :func:`spreadsheet_value` and marks every
  string cell as text.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from decimal import Decimal

# Control characters (Unicode Cc: C0, DEL, C1 incl. NEL), the Unicode line and paragraph separators, and the
# bidirectional overrides/isolates (they reorder what a reader sees: a name could display as another one).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# What XML 1.0 (so XLSX) cannot hold: C0 controls other than tab, line feed and carriage return.
XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
REPLACEMENT = "\ufffd"
# A spreadsheet reads a cell starting with one of these as a formula (OWASP CSV injection).
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n")
# Strings that start with a trigger but that no spreadsheet can run: plain numbers and result codes (``-3``,
# ``+1.5``, ``-/+``, ``+/-  2-0``), no letter, no reference, no function.
_TOKEN = r"(?:[+-]?\d+(?:[.,]\d+)?|[+-]/[+-]|[+-]|\d+-\d+)"
_HARMLESS = re.compile(rf"{_TOKEN}(?: +{_TOKEN})*")


def control_characters(text) -> list[str]:
    """The distinct control characters / line breaks in ``text``, as ``U+000A``-style names (empty if none)."""
    found = dict.fromkeys(CONTROL_CHARACTERS.findall(str(text or "")))
    return [f"U+{ord(c):04X}" for c in found]


def has_control_characters(text) -> bool:
    return bool(CONTROL_CHARACTERS.search(str(text or "")))


def single_line_message() -> str:
    """The user's message for a refused value (translated at call time)."""
    from django.utils.translation import gettext

    return gettext("Line breaks and control (invisible) characters are not allowed in this field.")


def validate_single_line(value):
    """Django validator for names and single-line fields."""
    if has_control_characters(value):
        from django.core.exceptions import ValidationError

        raise ValidationError(single_line_message(), code="control_characters")


def one_line(text) -> str:
    """``text`` on one line: control characters and line breaks become spaces, runs of spaces one space."""
    return " ".join(CONTROL_CHARACTERS.sub(" ", str(text if text is not None else "")).split())


def xml_text(text: str) -> str:
    """``text`` without the characters an XLSX cell cannot hold (each becomes U+FFFD), line breaks as ``\n``
    (a lone carriage return is a line end to a CSV reader, and XML reads it back as ``\n`` anyway)."""
    return XML_ILLEGAL.sub(REPLACEMENT, text.replace("\r\n", "\n").replace("\r", "\n"))


def neutralise_formula(text: str) -> str:
    """A leading apostrophe for a string a spreadsheet would run as a formula (OWASP)."""
    if text.startswith(FORMULA_TRIGGERS) and not _HARMLESS.fullmatch(text):
        return "'" + text
    stripped = text.lstrip(" \t\r\n")
    if stripped is not text and stripped.startswith(FORMULA_TRIGGERS) and not _HARMLESS.fullmatch(stripped):
        return "'" + text
    return text


_PASS_THROUGH = (int, float, Decimal, date, datetime, time)


def spreadsheet_value(value):
    """A value for a CSV or XLSX cell: numbers, dates, booleans and None unchanged, everything else as safe text."""
    if value is None or isinstance(value, _PASS_THROUGH):  # bool is an int
        return value
    return neutralise_formula(xml_text(str(value)))


def spreadsheet_row(values) -> list:
    return [spreadsheet_value(v) for v in values]


def append_row(ws, values) -> list:
    """Append ``values`` to the openpyxl worksheet ``ws`` as safe cells: every string cell is typed as text
    (never a formula, nor an error value such as ``#N/A``). Returns the values as written."""
    from openpyxl.cell import WriteOnlyCell

    row = spreadsheet_row(values)
    cells = []
    for value in row:
        cell = WriteOnlyCell(ws, value=value)  # a detached cell, placed by ws.append
        if isinstance(value, str):
            cell.data_type = "s"
        cells.append(cell)
    ws.append(cells)
    return row


__all__ = [
    "CONTROL_CHARACTERS",
    "append_row",
    "control_characters",
    "has_control_characters",
    "neutralise_formula",
    "one_line",
    "single_line_message",
    "spreadsheet_row",
    "spreadsheet_value",
    "validate_single_line",
    "xml_text",
]
