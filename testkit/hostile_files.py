"""Hostile rating-list workbooks and CSV files, built in code (none is committed): shared by the tests
(``tests/security/test_upload_bombs.py``) and ``bench/hostile_uploads.py``.

Each builder returns bytes. The workbooks start from a real workbook saved by openpyxl, with the worksheet (and
where needed the shared strings) replaced by the hostile XML.
"""

from __future__ import annotations

import io
import zipfile
from datetime import date
from functools import cache

from openpyxl import Workbook

SHEET = "xl/worksheets/sheet1.xml"
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def workbook(rows) -> bytes:
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def replace_members(data: bytes, members: dict[str, bytes], *, compression=zipfile.ZIP_DEFLATED) -> bytes:
    """``data`` (a zip) with some members replaced or added."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as z:
        for info in src.infolist():
            if info.filename not in members:
                z.writestr(info.filename, src.read(info.filename))
        for name, content in members.items():
            z.writestr(name, content)
    return out.getvalue()


def with_sheet(sheet_data: bytes, *, dimension: str = "A1:C2", shared: list[str] | None = None) -> bytes:
    """A workbook whose first worksheet's ``<sheetData>`` is ``sheet_data``, with the declared ``dimension``."""
    sheet = (
        f'<worksheet {NS}><dimension ref="{dimension}"/><sheetData>'.encode() + sheet_data + b"</sheetData></worksheet>"
    )
    members = {SHEET: sheet}
    if shared is not None:
        items = "".join(f"<si><t>{s}</t></si>" for s in shared)
        members["xl/sharedStrings.xml"] = f'<sst {NS} count="{len(shared)}">{items}</sst>'.encode()
    return replace_members(workbook([["x"]]), members)


HEADER_ROW = b'<row r="1"><c r="A1" t="inlineStr"><is><t>CBJD</t></is></c><c r="B1" t="inlineStr"><is><t>Nome</t></is></c><c r="C1" t="inlineStr"><is><t>Rating</t></is></c><c r="D1" t="inlineStr"><is><t>Sexo</t></is></c></row>'


def player_row(n: int) -> bytes:
    return (
        f'<row r="{n}"><c r="A{n}"><v>{90000 + n}</v></c><c r="B{n}" t="inlineStr"><is><t>Jogador {n}</t></is></c>'
        f'<c r="C{n}"><v>1500</v></c><c r="D{n}" t="inlineStr"><is><t>M</t></is></c></row>'
    ).encode()


@cache
def declared_dimension_bomb(rows: int = 6000) -> bytes:
    """The issue's file: ``rows`` real rows under a declared dimension of ``A1:XFD{rows}`` (openpyxl pads every
    row to 16,384 columns: 881 MB for 6,000 rows)."""
    body = HEADER_ROW + b"".join(player_row(n) for n in range(2, rows + 1))
    return with_sheet(body, dimension=f"A1:XFD{rows}")


@cache
def million_rows() -> bytes:
    """1,000,000 rows, each one small cell, declared as ``A1:XFD1048576``: about 1.3 MB zipped."""
    body = HEADER_ROW + b"<row><c><v>1</v></c></row>" * 1_000_000
    return with_sheet(body, dimension="A1:XFD1048576")


@cache
def million_rows_declared_sizes() -> bytes:
    """A million full player rows: its worksheet alone would be ~170 MB once unpacked."""
    return with_sheet(HEADER_ROW + player_row(2) * 1_000_000, dimension="A1:D1000001")


@cache
def far_row() -> bytes:
    """The header, then one row numbered 1,048,576: a million empty rows in between."""
    return with_sheet(HEADER_ROW + player_row(1_048_576), dimension="A1:XFD1048576")


@cache
def wide_row(cells: int = 200_000) -> bytes:
    """One row of ``cells`` empty cells (``<c/>``, 4 bytes each)."""
    return with_sheet(HEADER_ROW + b"<row>" + b"<c/>" * cells + b"</row>")


@cache
def inflating_member(size: int = 40 * 1024 * 1024) -> bytes:
    """A workbook with an extra member of ``size`` zero bytes (deflated to a few hundred KB)."""
    return replace_members(workbook([["CBJD", "Nome", "Rating"]]), {"xl/media/zeros.bin": b"\0" * size})


@cache
def lying_member() -> bytes:
    """A worksheet whose directory entry declares 1 KB while it inflates to 30 MB."""
    data = declared_dimension_bomb(50)
    big = HEADER_ROW + b"<row><c><v>1</v></c></row>" * (30 * 1024 * 1024 // 26)
    data = replace_members(data, {SHEET: f"<worksheet {NS}><sheetData>".encode() + big + b"</sheetData></worksheet>"})
    # Patch the central directory's "uncompressed size" of the worksheet to 1024.
    buf = bytearray(data)
    name = SHEET.encode()
    at = buf.rfind(b"PK\x01\x02" + b"", 0)
    while at != -1:
        name_len = int.from_bytes(buf[at + 28 : at + 30], "little")
        if bytes(buf[at + 46 : at + 46 + name_len]) == name:
            buf[at + 24 : at + 28] = (1024).to_bytes(4, "little")
            break
        at = buf.rfind(b"PK\x01\x02", 0, at)
    return bytes(buf)


@cache
def many_members(count: int = 5000) -> bytes:
    return replace_members(workbook([["CBJD", "Nome", "Rating"]]), {f"xl/media/{i}.bin": b"" for i in range(count)})


def entity_expansion() -> bytes:
    """The billion laughs, in the worksheet."""
    dtd = (
        b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
        + b"".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">'.encode() for i in range(8))
        + b"]>"
    )
    sheet = dtd + f"<worksheet {NS}><sheetData>".encode() + HEADER_ROW
    sheet += b'<row r="2"><c r="A2" t="inlineStr"><is><t>&i;</t></is></c></row></sheetData></worksheet>'
    return replace_members(workbook([["x"]]), {SHEET: sheet})


def huge_cell() -> bytes:
    return with_sheet(
        HEADER_ROW + b'<row r="2"><c r="B2" t="inlineStr"><is><t>' + b"a" * 40_000 + b"</t></is></c></row>"
    )


def bad_shared_string_index() -> bytes:
    return with_sheet(b'<row r="1"><c r="A1" t="s"><v>99</v></c></row>', shared=["CBJD"])


def rows_backwards() -> bytes:
    return with_sheet(HEADER_ROW + player_row(5) + player_row(3))


def not_finite_numbers() -> bytes:
    """Ratings written as the numbers NaN and INF (a number cell's text, which float() would accept)."""
    rows = b'<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="inlineStr"><is><t>Ana</t></is></c><c r="C2"><v>NaN</v></c><c r="D2" t="inlineStr"><is><t>F</t></is></c></row>'
    rows += b'<row r="3"><c r="A3"><v>2</v></c><c r="B3" t="inlineStr"><is><t>Bia</t></is></c><c r="C3"><v>INF</v></c><c r="D3" t="inlineStr"><is><t>F</t></is></c></row>'
    return with_sheet(HEADER_ROW + rows)


@cache
def csv_long_line() -> bytes:
    return b"CBJD;Nome;Rating;Sexo\n1;Ana;1500;F\n" + b";" * (8 * 1024 * 1024) + b"\n"


@cache
def csv_million_rows() -> bytes:
    return b"CBJD;Nome;Rating;Sexo\n" + b"1;A;1;M\n" * 1_000_000


def good_workbook() -> bytes:
    """What the federation sends: shared strings, numbers, dates."""
    return workbook(
        [
            ["ID CBJD", "Nome", "Rating", "Nascimento", "Sexo", "UF", "Clube"],
            [7001, "João Araújo", 2105, date(1990, 2, 1), "M", "PE", "Clube Recife"],
            [7002, "Ana Conceição", 1988.0, None, "F", "SP", None],
        ]
    )


@cache
def directory_flood(count: int = 60_000) -> bytes:
    """A zip of ``count`` empty entries: ``zipfile`` would build an object for each before anything is checked."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for i in range(count):
            z.writestr(f"t{i}.sco", b"")
        z.writestr("t.trn", b"")
    return out.getvalue()


def corrupt_deflate_sp_zip() -> bytes:
    """A Swiss Perfect zip whose .sco member's deflated bytes are garbage."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for ext in (".ini", ".trn", ".sco"):
            z.writestr("evento" + ext, b"x" * 2000)
    data = bytearray(out.getvalue())
    at = data.find(b"evento.sco") + len(b"evento.sco")
    data[at : at + 10] = b"\xff" * 10
    return bytes(data)


# ------------------------------------------------------------------ bombs of every compression (issue 25, item 5)


def _lie_about_size(data: bytes, name: str, declared: int) -> bytes:
    """``data`` (a zip) with the central directory's uncompressed size of ``name`` patched to ``declared``."""
    buf = bytearray(data)
    wanted = name.encode()
    at = buf.rfind(b"PK\x01\x02")
    while at != -1:
        name_len = int.from_bytes(buf[at + 28 : at + 30], "little")
        if bytes(buf[at + 46 : at + 46 + name_len]) == wanted:
            buf[at + 24 : at + 28] = declared.to_bytes(4, "little")
            break
        at = buf.rfind(b"PK\x01\x02", 0, at)
    return bytes(buf)


def _zeros_member(z: zipfile.ZipFile, name: str, size: int, compression: int) -> None:
    """A member of ``size`` zero bytes written in 1 MB pieces (never ``size`` bytes in memory)."""
    info = zipfile.ZipInfo(name, date_time=(2026, 11, 8, 18, 0, 0))
    info.compress_type = compression
    piece = b"\0" * (1024 * 1024)
    with z.open(info, "w") as out:
        for _ in range(size // len(piece)):
            out.write(piece)


@cache
def sp_zip_bomb(compression: int = zipfile.ZIP_BZIP2, size: int = 256 * 1024 * 1024) -> bytes:
    """A Swiss Perfect zip whose ``.sco`` is ``size`` zero bytes compressed with ``compression`` (bzip2 or LZMA
    make it a few hundred bytes to a few tens of KB) and whose directory declares 2 KB, as the issue's 686-byte
    file did."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("evento.ini", b"[Tournament]\r\nName=Evento\r\n")
        z.writestr("evento.trn", b"x" * 2000)
        _zeros_member(z, "evento.sco", size, compression)
    return _lie_about_size(out.getvalue(), "evento.sco", 2048)


@cache
def xlsx_bomb(compression: int = zipfile.ZIP_BZIP2, size: int = 256 * 1024 * 1024) -> bytes:
    """A workbook whose worksheet is ``size`` zero bytes compressed with ``compression``, its size declared 2 KB."""
    src = zipfile.ZipFile(io.BytesIO(workbook([["CBJD", "Nome", "Rating"]])))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            if info.filename != SHEET:
                z.writestr(info.filename, src.read(info.filename))
        _zeros_member(z, SHEET, size, compression)
    return _lie_about_size(out.getvalue(), SHEET, 2048)


@cache
def nested_zip_bomb(depth: int = 3) -> bytes:
    """A workbook carrying a zip that carries a zip ... of 40 MB of zeros (deflated, sizes honest)."""
    inner = inflating_member()
    for _ in range(depth):
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("inner.zip", inner)
        inner = out.getvalue()
    return replace_members(workbook([["CBJD", "Nome", "Rating"]]), {"xl/media/nested.zip": inner})
