"""The staff pages' table downloads (issue 28, item 11): CSV as Excel in Brazilian Portuguese opens it, and XLSX.

* CSV: UTF-8 with a byte-order mark (Excel otherwise reads it as Windows-1252: “JoÃ£o”), cells separated by ``;``
  (Excel pt-BR's list separator: with ``,`` every row lands in column A), CRLF line ends, dates ``dd/mm/aaaa``,
  a fractional number with a decimal comma (``12,5``: a point would be a date or text to Excel pt-BR), a whole
  number without decimals.
* XLSX: one sheet named for what it holds (``Rodada 3``), numbers as numbers, dates as dates shown
  ``dd/mm/aaaa``, text typed as text (never a formula).

Both: one header row whose names are unique (a spreadsheet's filter and a ``csv.DictReader`` key by them), and every
text cell made safe (``safetext.spreadsheet_value``: no formula, no character XML cannot hold).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.http import HttpResponse

from tournaments.core.safetext import spreadsheet_value

CSV_TYPE = "text/csv; charset=utf-8"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMATS = ("csv", "xlsx")
_SHEET_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")


def unique_headers(headers: Iterable[Any]) -> list[str]:
    """The header names, each one unique: a repeated name gets its number of occurrence (``pts (2)``)."""
    seen: dict[str, int] = {}
    out = []
    for h in headers:
        name = str(h)
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def _number(value: Decimal | float | Fraction) -> Decimal | float:
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)
    return value


def csv_cell(value: Any) -> str:
    """One CSV cell as Excel pt-BR reads it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal | float | Fraction):
        number = _number(value)
        if number == int(number):
            return str(int(number))
        text = f"{Decimal(str(number)).normalize():f}" if isinstance(number, float) else f"{number.normalize():f}"
        return text.replace(".", ",")
    if isinstance(value, datetime):
        return value.strftime("%d/%m/%Y %H:%M")
    if isinstance(value, date):
        return value.strftime("%d/%m/%Y")
    return str(spreadsheet_value(str(value)))


def csv_bytes(headers: Sequence[Any], rows: Iterable[Sequence[Any]]) -> bytes:
    """The table as a CSV file for Excel pt-BR (module docstring)."""
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=";", lineterminator="\r\n")
    writer.writerow([csv_cell(h) for h in unique_headers(headers)])
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return ("\ufeff" + buf.getvalue()).encode("utf-8")


def sheet_title(title: str) -> str:
    """A worksheet name Excel accepts: at most 31 characters, none of ``[]:*?/\\``."""
    return _SHEET_FORBIDDEN.sub(" ", title).strip()[:31] or "Planilha"


def xlsx_bytes(title: str, headers: Sequence[Any], rows: Iterable[Sequence[Any]]) -> bytes:
    """The table as an XLSX workbook of one sheet named ``title`` (module docstring)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    wb = Workbook(write_only=True)
    ws = wb.create_sheet(sheet_title(title))
    head = []
    for name in unique_headers(headers):
        cell = WriteOnlyCell(ws, value=spreadsheet_value(name))
        cell.data_type = "s"
        cell.font = Font(bold=True)
        head.append(cell)
    ws.append(head)
    for row in rows:
        cells = []
        for value in row:
            value = spreadsheet_value(value)
            if isinstance(value, Fraction):
                value = _number(value)
            cell = WriteOnlyCell(ws, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # text, never a formula nor an error value
            elif isinstance(value, datetime):
                cell.number_format = "DD/MM/YYYY HH:MM"
            elif isinstance(value, date):
                cell.number_format = "DD/MM/YYYY"
            cells.append(cell)
        ws.append(cells)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def download(fmt: str, name: str, title: str, headers: Sequence[Any], rows: Iterable[Sequence[Any]]) -> HttpResponse:
    """The response that downloads the table as ``name.csv`` or ``name.xlsx`` (``fmt``), its sheet ``title``."""
    if fmt == "csv":
        content, content_type = csv_bytes(headers, rows), CSV_TYPE
    else:
        content, content_type = xlsx_bytes(title, headers, list(rows)), XLSX_TYPE
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


def table_download(request: Any, table: Any, name: str, title: str) -> HttpResponse | None:
    """``?_export=csv|xlsx`` on a page with a django-tables2 ``table``: its download (the columns' headers made
    unique, the values the table's ``value_*`` methods give: numbers and dates typed), else None. A table may
    name its columns for the file in ``export_headers`` (column name -> header) where the page's are repeated."""
    fmt = request.GET.get("_export")
    if fmt not in FORMATS:
        return None
    values = table.as_values()
    header = next(values)
    columns = [c for c in table.columns.iterall() if not c.column.exclude_from_export]  # as as_values lists them
    named = getattr(table, "export_headers", {})
    headers = [named.get(c.name, h) for c, h in zip(columns, header)]
    # an empty cell is empty in the file, not the page's dash (the column's default)
    rows = [[None if v == c.default else v for c, v in zip(columns, row)] for row in values]
    return download(fmt, name, title, headers, rows)


__all__ = [
    "CSV_TYPE",
    "FORMATS",
    "XLSX_TYPE",
    "csv_bytes",
    "csv_cell",
    "download",
    "sheet_title",
    "table_download",
    "unique_headers",
    "xlsx_bytes",
]
