"""A small reader of dBase III tables (``.dbf``; Swiss Perfect's ``.trn`` and ``.sco``), pure Python.

Layout (dBase III+): a 32-byte header (byte 0 version, 1-3 date of last update YY MM DD, 4-7 number of records,
8-9 header length, 10-11 record length, little-endian), then one 32-byte descriptor per field (0-10 name padded
with NUL, 11 type, 16 length, 17 decimal count) ended by 0x0D; the records start at the header length, each
one byte of deletion flag (``*`` deleted, space alive) then the fields as fixed-width text; 0x1A ends the file.
A NUL ends a field's value (Swiss Perfect leaves stray bytes after it).
Types read: C (text), N and F (numbers as text), D (date YYYYMMDD), L (logical); others as text.

Bounded: a table declaring more records or longer records than its bytes hold is refused, never read past its
end; every problem is a :class:`DbfError` with a Portuguese reason.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

Value = str | int | Decimal | date | bool | None

MAX_FIELDS = 255


class DbfError(ValueError):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Field:
    name: str
    type: str
    length: int
    decimals: int


def _value(raw: bytes, fld: Field, encoding: str) -> Value:
    # Swiss Perfect writes some fields as C strings: what follows a NUL is left-over bytes, not data.
    text = raw.split(b"\x00", 1)[0].decode(encoding, errors="replace")
    if fld.type == "C":
        return text.rstrip(" \x00")
    stripped = text.strip(" \x00")
    if fld.type in ("N", "F"):
        if not stripped or stripped.strip("*") == "":
            return None
        try:
            number = Decimal(stripped)
        except InvalidOperation:
            raise DbfError(f"campo {fld.name}: número inválido “{stripped}”") from None
        if not number.is_finite():
            raise DbfError(f"campo {fld.name}: número inválido “{stripped}”")
        return int(number) if number == number.to_integral_value() and fld.decimals == 0 else number
    if fld.type == "D":
        if not stripped or stripped.strip("0") == "":
            return None
        try:
            return date(int(stripped[:4]), int(stripped[4:6]), int(stripped[6:8]))
        except ValueError:
            raise DbfError(f"campo {fld.name}: data inválida “{stripped}”") from None
    if fld.type == "L":
        if stripped in ("", "?"):
            return None
        return stripped.upper() in ("T", "Y", "S")
    return stripped


@dataclass
class Table:
    fields: list[Field]
    records: list[dict[str, Value]]


def read_dbf(data: bytes, *, encoding: str = "cp1252", max_records: int = 100_000) -> Table:
    """The fields and the live records (deleted ones skipped) of a dBase III table given as bytes."""
    if len(data) < 33:
        raise DbfError("arquivo dBase curto demais")
    if data[0] & 0x07 != 0x03:
        raise DbfError("não é uma tabela dBase III")
    count, header_len, record_len = struct.unpack("<IHH", data[4:12])
    if header_len < 33 or header_len > len(data) or record_len < 1:
        raise DbfError("cabeçalho dBase inválido")
    if count > max_records:
        raise DbfError(f"tabela dBase com {count} registros (máximo {max_records})")
    fields: list[Field] = []
    pos = 32
    while pos < header_len - 1 and data[pos] != 0x0D:
        raw = data[pos : pos + 32]
        if len(raw) < 32 or len(fields) >= MAX_FIELDS:
            raise DbfError("descritores de campo dBase inválidos")
        name = raw[:11].split(b"\x00", 1)[0].decode("ascii", errors="replace").strip().upper()
        fields.append(Field(name, chr(raw[11]).upper(), raw[16], raw[17]))
        pos += 32
    if not fields:
        raise DbfError("tabela dBase sem campos")
    if 1 + sum(f.length for f in fields) > record_len:
        raise DbfError("campos dBase mais longos que o registro")
    if header_len + count * record_len > len(data):
        raise DbfError(f"tabela dBase cortada: {count} registros declarados, o arquivo não os contém")
    records: list[dict[str, Value]] = []
    for i in range(count):
        rec = data[header_len + i * record_len : header_len + (i + 1) * record_len]
        if rec[:1] == b"*":
            continue
        off = 1
        values: dict[str, Value] = {}
        for fld in fields:
            try:
                values[fld.name] = _value(rec[off : off + fld.length], fld, encoding)
            except DbfError as exc:
                raise DbfError(f"registro {i + 1}, {exc.reason}") from None
            off += fld.length
        records.append(values)
    return Table(fields, records)
