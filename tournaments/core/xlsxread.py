"""A bounded, streaming reader for the first worksheet of an XLSX workbook (the rating lists).

A workbook is a zip of XML files, and both can lie: a 5 KB file may declare ``<dimension ref="A1:XFD1048576"/>``
(openpyxl pads every row to the declared width: 137 GB), a zip member may inflate a thousandfold, a row may hold
millions of empty ``<c/>`` cells, a document type may define entities. So:

* every zip member's uncompressed size is checked before anything is parsed (:func:`check_zip`; ``zipfile``
  never inflates a member past the size its directory declares, and a member that lies fails its CRC);
* the XML is read with expat, chunk by chunk, keeping no tree: memory does not grow with the file;
* the declared dimension is ignored; only the first ``max_columns`` columns are kept; a row may hold at most
  :data:`MAX_CELLS_PER_ROW` cells and a cell :data:`MAX_CELL_CHARS` characters (Excel's own limit);
* rows come out one at a time (:func:`iter_rows`), so the caller stops at its row limit while reading; a gap
  in the row numbers is yielded as empty rows, lazily;
* a document type declaration (``<!DOCTYPE``, where entities live) is refused.

No database access. Errors are :class:`XlsxError` with a user message in Portuguese (translated at call time).
"""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from posixpath import dirname, join, normpath
from xml.parsers import expat

from tournaments.core.zipcheck import directory_size, unsafe_member

MAX_MEMBERS = 200
MAX_MEMBER_BYTES = 32 * 1024 * 1024  # uncompressed, each member (a 50,000-row list is about 15 MB)
MAX_TOTAL_BYTES = 64 * 1024 * 1024  # uncompressed, all members
MAX_CELLS_PER_ROW = 1024
MAX_CELL_CHARS = 32_767
MAX_SHARED_STRINGS = 1_000_000
MAX_STYLES = 65_536
CHUNK = 64 * 1024

_REL_ID = "http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_CELL_REF = re.compile(r"([A-Za-z]{1,3})(\d*)$")
# Built-in number formats that are dates or times (ECMA-376, 18.8.30).
_BUILTIN_DATE_FORMATS = {*range(14, 23), *range(45, 48), *range(27, 37), *range(50, 59)}


class XlsxError(Exception):
    """A workbook refused; ``message`` is for the user."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class TooManyRows(Exception):
    """More rows than the caller's limit: the caller says so in its own words."""


def _(text: str) -> str:
    from django.utils.translation import gettext

    return gettext(text)


def _invalid() -> XlsxError:
    return XlsxError(_("The file is not a valid XLSX workbook."))


def _too_large(what: str) -> XlsxError:
    return XlsxError(
        _("The workbook is too large once unpacked (%(what)s); save only the rating list, in a new workbook.")
        % {"what": what}
    )


def check_zip(
    data: bytes,
    *,
    max_members: int = MAX_MEMBERS,
    max_member_bytes: int = MAX_MEMBER_BYTES,
    max_total_bytes: int = MAX_TOTAL_BYTES,
) -> zipfile.ZipFile:
    """Open ``data`` as a zip whose every member is checked (count, uncompressed sizes) before any is read."""
    directory = directory_size(data)
    if directory is None:
        raise _invalid()
    if directory > max_members * 1024:
        raise _too_large(_("%(n)s files inside") % {"n": f"> {max_members}"})
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise _invalid() from None
    if len(infos) > max_members:
        raise _too_large(_("%(n)s files inside") % {"n": len(infos)})
    odd = unsafe_member(infos)  # bzip2, LZMA...: zipfile would inflate them unbounded (issue 25, item 5)
    if odd is not None:
        raise XlsxError(
            _("The file is not a valid XLSX workbook: %(member)s uses a compression Excel does not use.")
            % {"member": odd.filename[:80]}
        )
    total = 0
    for info in infos:
        if info.file_size > max_member_bytes:
            raise _too_large(f"{info.filename[:80]}: {info.file_size // (1024 * 1024)} MB")
        total += info.file_size
    if total > max_total_bytes:
        raise _too_large(f"{total // (1024 * 1024)} MB")
    return zf


class _Names(dict):
    """``namespace}local -> local``, remembered for the few names a workbook uses (not for a flood of them)."""

    def __missing__(self, key: str) -> str:
        local = key.rsplit("}", 1)[-1]
        if len(self) < 1024:
            self[key] = local
        return local


class _Stream:
    """Expat over one zip member, fed in chunks; handlers get local names. ``chunks()`` parses one chunk at a
    time and lets the caller take what the handlers gathered in between. With ``raw=True`` the handlers get the
    expat names (``namespace}local``) and map them with ``self.names`` themselves (the worksheet's hot path)."""

    def __init__(
        self,
        zf: zipfile.ZipFile,
        name: str,
        start: Callable[[str, dict[str, str]], None],
        end: Callable[[str], None],
        text: Callable[[str], None] | None = None,
        raw: bool = False,
    ):
        self.zf, self.name = zf, name
        self.names = names = _Names()
        parser = expat.ParserCreate(namespace_separator="}")
        parser.buffer_text = True
        if raw:
            parser.StartElementHandler, parser.EndElementHandler = start, end
        else:
            parser.StartElementHandler = lambda tag, attrs: start(names[tag], attrs)
            parser.EndElementHandler = lambda tag: end(names[tag])
        if text is not None:
            parser.CharacterDataHandler = text
        parser.StartDoctypeDeclHandler = self._refuse_doctype
        parser.EntityDeclHandler = self._refuse_doctype
        self.parser = parser

    @staticmethod
    def _refuse_doctype(*_args: object) -> None:
        raise _invalid()

    def chunks(self) -> Iterator[None]:
        try:
            with self.zf.open(self.name) as fh:
                while True:
                    data = fh.read(CHUNK)
                    self.parser.Parse(data, not data)
                    yield None
                    if not data:
                        return
        except XlsxError:
            raise
        except (expat.ExpatError, zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, KeyError):
            raise _invalid() from None
        except (ValueError, OverflowError, IndexError):  # a number or reference no workbook holds
            raise _invalid() from None
        except NotImplementedError:  # a compression method zipfile cannot read
            raise _invalid() from None

    def run(self) -> None:
        for _chunk in self.chunks():
            pass


def _relationships(zf: zipfile.ZipFile, rels_path: str, base: str) -> dict[str, tuple[str, str]]:
    """``Id -> (type, member path)`` of a ``.rels`` member (empty when it is missing)."""
    found: dict[str, tuple[str, str]] = {}
    if rels_path not in zf.NameToInfo:
        return found

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "Relationship" and len(found) < 1000 and attrs.get("TargetMode") != "External":
            target = attrs.get("Target", "")
            path = target.lstrip("/") if target.startswith("/") else normpath(join(base, target))
            found[attrs.get("Id", "")] = (attrs.get("Type", ""), path)

    _Stream(zf, rels_path, start, lambda tag: None).run()
    return found


def _first_sheet(zf: zipfile.ZipFile) -> tuple[str, dict[str, tuple[str, str]], bool]:
    """The first worksheet's member, the workbook's relationships, and whether dates count from 1904."""
    package = _relationships(zf, "_rels/.rels", "")
    workbook = next((p for t, p in package.values() if t.endswith("/officeDocument")), "xl/workbook.xml")
    if workbook not in zf.NameToInfo:
        raise _invalid()
    base = dirname(workbook)
    rels = _relationships(zf, join(base, "_rels", workbook.rsplit("/", 1)[-1] + ".rels"), base)
    state: dict[str, object] = {"sheet": None, "date1904": False}

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "workbookPr":
            state["date1904"] = attrs.get("date1904", "").lower() in {"1", "true"}
        elif tag == "sheet" and state["sheet"] is None:
            state["sheet"] = attrs.get(_REL_ID) or next((v for k, v in attrs.items() if k.endswith("}id")), None)

    _Stream(zf, workbook, start, lambda tag: None).run()
    rel = rels.get(str(state["sheet"]))
    if rel is None or rel[1] not in zf.NameToInfo:
        raise _invalid()
    return rel[1], rels, bool(state["date1904"])


def _shared_strings(zf: zipfile.ZipFile, path: str | None) -> list[str]:
    strings: list[str] = []
    if path is None or path not in zf.NameToInfo:
        return strings
    parts: list[str] = []
    state = {"phonetic": 0, "in_t": False, "chars": 0}

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "rPh":
            state["phonetic"] += 1
        elif tag == "t" and not state["phonetic"]:
            state["in_t"] = True

    def text(data: str) -> None:
        if state["in_t"]:
            state["chars"] += len(data)
            if state["chars"] > MAX_CELL_CHARS:
                raise _too_large(_("a text longer than %(n)s characters") % {"n": MAX_CELL_CHARS})
            parts.append(data)

    def end(tag: str) -> None:
        if tag == "rPh":
            state["phonetic"] -= 1
        elif tag == "t":
            state["in_t"] = False
        elif tag == "si":
            if len(strings) >= MAX_SHARED_STRINGS:
                raise _too_large(_("more than %(n)s texts") % {"n": MAX_SHARED_STRINGS})
            strings.append("".join(parts))
            parts.clear()
            state["chars"] = 0

    _Stream(zf, path, start, end, text).run()
    return strings


def _date_styles(zf: zipfile.ZipFile, path: str | None) -> set[int]:
    """Indexes of the cell styles (``s=``) whose number format is a date."""
    from openpyxl.styles.numbers import is_date_format

    dates: set[int] = set()
    if path is None or path not in zf.NameToInfo:
        return dates
    custom: dict[int, str] = {}
    state = {"in_xfs": False, "index": 0}

    def number(text: str | None) -> int:
        return int(text) if text and text.isascii() and text.isdigit() and len(text) < 7 else -1

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "numFmt" and len(custom) < MAX_STYLES:
            custom[number(attrs.get("numFmtId"))] = attrs.get("formatCode", "")[:200]
        elif tag == "cellXfs":
            state["in_xfs"] = True
        elif tag == "xf" and state["in_xfs"]:
            if state["index"] >= MAX_STYLES:
                raise _too_large(_("more than %(n)s cell styles") % {"n": MAX_STYLES})
            fmt = number(attrs.get("numFmtId"))
            if fmt in _BUILTIN_DATE_FORMATS or (fmt in custom and is_date_format(custom[fmt])):
                dates.add(state["index"])
            state["index"] += 1

    def end(tag: str) -> None:
        if tag == "cellXfs":
            state["in_xfs"] = False

    _Stream(zf, path, start, end).run()
    return dates


def _column(ref: str | None, previous: int) -> int:
    if not ref:
        return previous + 1
    m = _CELL_REF.match(ref)
    if not m:
        raise _invalid()
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + ord(ch) - 64
    return col


def _number(text: str) -> int | float | str:
    text = text.strip()
    try:
        value: int | float = float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        return text
    if isinstance(value, float) and not abs(value) < float("inf"):  # NaN and infinities stay text
        return text
    return value


def _count_rows(zf: zipfile.ZipFile, sheet: str, max_rows: int | None) -> None:
    """Refuse a worksheet with more than ``max_rows`` row elements before parsing it: counting ``<row`` in the
    inflated bytes takes milliseconds where parsing 50,000 rows takes a good part of a second. (Only ever an
    over-count: a hostile file that hides ``<row`` in a comment is refused all the same.)"""
    if max_rows is None:
        return
    count, tail = 0, b""
    try:
        with zf.open(sheet) as fh:
            while data := fh.read(1024 * 1024):
                block = tail + data
                count += block.count(b"<row") + block.count(b":row ") + block.count(b":row>")
                count -= tail.count(b"<row") + tail.count(b":row ") + tail.count(b":row>")
                tail = block[-4:]
                if count > max_rows:
                    raise TooManyRows()
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError):
        raise _invalid() from None


def iter_rows(data: bytes, *, max_columns: int, max_rows: int | None = None) -> Iterator[list]:
    """The rows of the first worksheet, from row 1, each a list of at most ``max_columns`` values (``None`` for
    an empty cell; trailing empty cells dropped). Values: ``str``, ``int``, ``float``, ``bool``, ``datetime``
    (a number in a date format). Raises :class:`XlsxError`, and :class:`TooManyRows` at once when the sheet
    holds more than ``max_rows`` row elements (the caller still counts the rows it reads: row numbers may jump)."""
    from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

    zf = check_zip(data)
    sheet, rels, date1904 = _first_sheet(zf)
    by_type = {t.rsplit("/", 1)[-1]: p for t, p in rels.values()}
    strings = _shared_strings(zf, by_type.get("sharedStrings"))
    date_styles = _date_styles(zf, by_type.get("styles"))
    epoch = CALENDAR_MAC_1904 if date1904 else CALENDAR_WINDOWS_1900

    done: list[tuple[int, list]] = []  # rows finished since the last chunk
    parts: list[str] = []
    values: list = []
    row = col = cells = chars = phonetic = 0
    kind: str = "n"
    style: str | None = None
    in_value = False
    names = _Names()

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal row, col, cells, chars, phonetic, kind, style, in_value
        tag = names[tag]
        if tag == "c":
            cells += 1
            if cells > MAX_CELLS_PER_ROW:
                raise _too_large(_("row %(row)s has more than %(n)s cells") % {"row": row, "n": MAX_CELLS_PER_ROW})
            col = _column(attrs.get("r"), col)
            kind = attrs.get("t", "n")
            style = attrs.get("s")
            parts.clear()
            chars = 0
        elif tag == "v" or tag == "t":
            in_value = not phonetic
        elif tag == "row":
            r = attrs.get("r")
            index = int(r) if r and r.isascii() and r.isdigit() and len(r) < 12 else row + 1
            if index <= row:
                raise _invalid()
            row, col, cells = index, 0, 0
            values.clear()
        elif tag == "rPh":
            phonetic += 1

    def text(data: str) -> None:
        nonlocal chars
        if in_value:
            chars += len(data)
            if chars > MAX_CELL_CHARS:
                raise _too_large(_("a text longer than %(n)s characters") % {"n": MAX_CELL_CHARS})
            parts.append(data)

    def end(tag: str) -> None:
        nonlocal phonetic, in_value
        tag = names[tag]
        if tag == "v" or tag == "t":
            in_value = False
        elif tag == "c":
            if col > max_columns or not parts:
                return
            raw = "".join(parts)
            value: object
            if kind == "s":
                if not raw.strip().isascii() or not raw.strip().isdigit() or int(raw) >= len(strings):
                    raise _invalid()
                value = strings[int(raw)]
            elif kind in ("inlineStr", "str", "e"):
                value = raw
            elif kind == "b":
                value = raw.strip() in ("1", "true")
            else:
                value = _number(raw)
                if (
                    isinstance(value, (int, float))
                    and style
                    and style.isascii()
                    and style.isdigit()
                    and int(style) in date_styles
                ):
                    with contextlib.suppress(ValueError, OverflowError, TypeError):
                        value = from_excel(value, epoch)
            if len(values) < col:
                values.extend([None] * (col - len(values)))
            values[col - 1] = value
        elif tag == "row":
            while values and values[-1] is None:
                values.pop()
            done.append((row, list(values)))
        elif tag == "rPh":
            phonetic -= 1

    _count_rows(zf, sheet, max_rows)
    stream = _Stream(zf, sheet, start, end, text, raw=True)
    next_row = 1
    for _chunk in stream.chunks():
        for index, cells_read in done:
            while next_row < index:  # rows the file leaves out
                yield []
                next_row += 1
            yield cells_read
            next_row += 1
        done.clear()


__all__ = ["MAX_MEMBER_BYTES", "MAX_TOTAL_BYTES", "TooManyRows", "XlsxError", "check_zip", "iter_rows"]
