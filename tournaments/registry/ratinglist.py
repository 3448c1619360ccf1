"""Reading a rating list (CSV or XLSX) into plain rows, with line-numbered errors. No database access.

Columns (header names in Portuguese or English, any case): CBJD ID, name, rating, and optionally birth date,
sex, state (UF), club, the player's standing ("Situação": "Ativo", "Suspenso até 15/02/2027 (abandono)") and the
rated games the list counts ("Partidas", for the rating method's K).
The header is the first row that names the three required columns: title lines above it (the federation's name,
the list's date) are skipped. CSV files may be UTF-8 (with or without BOM) or Windows-1252 (Excel's "CSV" on a
Portuguese Windows; Latin-1 is its subset), separated by ``;`` or ``,``.
"""

import csv
import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime

from django.utils.translation import gettext as _

from tournaments.core.safetext import has_control_characters
from tournaments.core.xlsxread import TooManyRows, XlsxError, iter_rows
from tournaments.models.choices import RATING_MAX, RATING_MIN, UF_CODES

MAX_BYTES = 10 * 1024 * 1024
MAX_ROWS = 50_000
MAX_COLUMNS = 40  # the format uses 7; a list may carry a few more, which are ignored
MAX_LINE_CHARS = 4096
_LONG_LINE = re.compile(rf"^[^\n]{{{MAX_LINE_CHARS + 1}}}", re.MULTILINE)  # anchored: linear time

HEADER_ALIASES = {
    "cbjd_id": {"cbjd", "id cbjd", "cbjd id", "idcbjd", "id_cbjd", "cbjd_id", "codigo", "id", "registro"},
    "name": {"nome", "name", "jogador", "nome completo"},
    "rating": {"rating", "elo", "rating cbjd", "pontuacao"},
    "birth_date": {"nascimento", "data de nascimento", "data nascimento", "birth date", "birth_date", "nasc", "dn"},
    "sex": {"sexo", "sex", "genero"},
    "state": {"uf", "estado", "state"},
    "club": {"clube", "club", "entidade", "associacao"},
    "situation": {"situacao", "status", "situacao cadastral", "situacao do jogador"},
    # the rated games the list counts (the rating method's K, issue 40); a list without the column leaves them be
    "rated_games": {"partidas", "jogos", "partidas com rating", "games", "rated games", "n partidas"},
}
REQUIRED = ("cbjd_id", "name", "rating")
HEADER_SEARCH_ROWS = 30  # title lines a list may carry above its header
# "Suspenso até 15/02/2027 (abandono)", "Suspensa ate 15/2/2027 - abandono" (compared without accents or case)
_SUSPENDED = re.compile(r"^suspens[oa]\b(?:\s+ate\s+(\d{1,2}/\d{1,2}/\d{4}))?\s*[-:(]?\s*(.*?)\)?\s*$")
_ACTIVE = {"", "ativo", "ativa", "regular", "ok", "normal", "apto", "apta"}


def line_message(line, message):
    """A user message naming the file's line ("linha 12: rating inválido")."""
    return _("line %(line)s: %(message)s") % {"line": line, "message": message} if line else message


class RatingListError(Exception):
    def __init__(self, errors):
        self.errors = errors  # list of (line, message)
        super().__init__("; ".join(line_message(line, msg) for line, msg in errors))


@dataclass
class RatingRow:
    line: int
    cbjd_id: str
    name: str
    rating: int | None
    birth_date: date | None = None
    sex: str = ""
    state: str = ""
    club: str = ""
    situation: str = ""  # the "Situação" cell as written, when it says something other than active
    suspended_until: date | None = None  # read from it: "Suspenso até dd/mm/aaaa (reason)"
    suspension_reason: str = ""
    rated_games: int | None = None  # None: the list has no such column


def _norm(text):
    text = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return re.sub(r"\s+", " ", text.replace("_", " ").strip().lower())


_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xf4][\x80-\xbf]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _decode(data):
    """UTF-8 (with or without BOM) or Windows-1252 (what Excel saves as "CSV" on a Portuguese Windows: the en dash
    and curly quotes are text there, bytes 0x80-0x9F; Latin-1 is its subset). A file that mixes UTF-8 with the
    other is refused, naming the lines that are not UTF-8: reading it whole as Windows-1252 would store every
    accented name of the other lines garbled."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if _UTF8_MULTIBYTE.search(data):
        bad = []
        for number, line in enumerate(data.split(b"\n"), start=1):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError:
                bad.append(
                    (
                        number,
                        _(
                            "mixed character encodings: this line is not UTF-8 like the rest of the file "
                            "(save the file again as UTF-8)"
                        ),
                    )
                )
        raise RatingListError(bad[:50])
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:  # a byte with no character in Windows-1252: the control-character check names its line
        return data.decode("latin-1")


def _lines(text):
    """The lines of ``text`` with their ends, one at a time (a StringIO would hold a second, wider copy)."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start)
        end = size if end < 0 else end + 1
        yield text[start:end]
        start = end


def _read_csv(data):
    if b"\x00" in data:
        lines = [n for n, line in enumerate(data.split(b"\n"), start=1) if b"\x00" in line]
        raise RatingListError([(lines[0], _("the file holds binary bytes (NUL): it is not a CSV text file"))])
    if data.count(b"\n") > MAX_ROWS + 1000:  # counting is instant; reading 50,000 rows first is not
        raise _too_many_rows()
    text = _decode(data)
    long_line = _LONG_LINE.search(text)
    if long_line:
        line = text.count("\n", 0, long_line.start()) + 1
        raise RatingListError(
            [(line, _("line longer than %(n)s characters: this is not a rating list") % {"n": MAX_LINE_CHARS})]
        )
    sample = text[:4096]
    delimiter = (
        ";" if sample.count(";") > sample.count(",") else ("\t" if sample.count("\t") > sample.count(",") else ",")
    )
    reader = csv.reader(_lines(text), delimiter=delimiter)
    try:
        for row in reader:
            yield row[:MAX_COLUMNS]
    except csv.Error:
        raise RatingListError([(None, _("The file is not a readable CSV text file."))]) from None


def _too_many_rows():
    return RatingListError([(None, _("Too many rows (at most %(n)s).") % {"n": MAX_ROWS})])


def _read_xlsx(data):
    """The first worksheet's rows, streamed (see :mod:`tournaments.core.xlsxread` for the bounds)."""
    try:
        # MAX_ROWS and the header, with room for a few empty formatted rows: _read_rows counts exactly.
        yield from iter_rows(data, max_columns=MAX_COLUMNS, max_rows=MAX_ROWS + 100)
    except TooManyRows:
        raise _too_many_rows() from None
    except XlsxError as exc:
        raise RatingListError([(None, exc.message)]) from None


def _read_rows(rows):
    """The rows up to the header and at most MAX_ROWS after it, stopping as soon as the file says more: a file of
    a million rows is refused after reading MAX_ROWS of them."""
    result, header_seen, after_header = [], False, 0
    for row in rows:
        result.append(row)
        if header_seen:
            after_header += 1
            if after_header > MAX_ROWS:
                raise _too_many_rows()
        elif any(str(c).strip() for c in row if c is not None):
            header_seen = True
        elif len(result) > MAX_ROWS:
            raise RatingListError([(None, _("The file is empty."))])
    return result


def _parse_date(value):
    if value in (None, ""):
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = str(value).strip()
    for fmt in ("%d/%m/%Y", "%Y-%m-%d", "%d-%m-%Y", "%d.%m.%Y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            pass
    raise ValueError(_("invalid birth date “%(value)s” (use dd/mm/yyyy)") % {"value": text})


def _parse_rating(value):
    if value in (None, ""):
        return None
    text = str(value).strip()
    try:
        number = float(text.replace(",", "."))
    except ValueError:
        raise ValueError(_("invalid rating “%(value)s”") % {"value": text}) from None
    if not math.isfinite(number):  # "NaN", "inf": float() reads them, int() would fail
        raise ValueError(_("invalid rating “%(value)s”") % {"value": text})
    if number != int(number) or not RATING_MIN <= number <= RATING_MAX:
        raise ValueError(
            _("rating %(value)s out of range (%(min)s to %(max)s)")
            % {"value": text, "min": RATING_MIN, "max": RATING_MAX}
        )
    return int(number)


def _parse_games(value):
    """The rated games of a list's line: a whole number (Excel may write 12.0), blank for none."""
    text = str(value).strip()
    if text.endswith(".0"):
        text = text[:-2]
    if not text:
        return 0
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise ValueError(_("invalid number of rated games “%(value)s”") % {"value": text[:20]})
    return int(text)


def _parse_sex(value):
    text = _norm(value)
    if not text:
        return ""
    if text in {"m", "masculino", "male", "h"}:
        return "M"
    if text in {"f", "feminino", "female", "w"}:
        return "F"
    raise ValueError(_("invalid sex “%(value)s” (use M or F)") % {"value": value})


def _parse_state(value):
    text = str(value or "").strip().upper()
    if text and text not in UF_CODES:
        raise ValueError(_("invalid state “%(value)s”") % {"value": value})
    return text


def _parse_situation(value):
    """(what to keep of the "Situação" cell, the suspension's end date, its reason). Active or empty: ("", None,
    ""). A suspension without a readable end date, or words not understood, are kept (and reported), not read."""
    text = re.sub(r"\s+", " ", str(value or "").strip())[:200]
    folded = _norm(text)
    if folded in _ACTIVE:
        return "", None, ""
    match = _SUSPENDED.match(folded)
    if match and match.group(1):
        try:
            end = datetime.strptime(match.group(1), "%d/%m/%Y").date()
        except ValueError:
            raise ValueError(_("invalid date in the standing “%(value)s” (use dd/mm/yyyy)") % {"value": text}) from None
        # the reason as written (accents kept): what follows the date, without the brackets
        original = re.search(r"\d{1,2}/\d{1,2}/\d{4}\s*[-:(]?\s*(.*?)\)?\s*$", text)
        return text, end, (original.group(1).strip() if original else "")[:200]
    return text, None, ""


def _header_index(rows):
    """The index of the header: the first row (of the first HEADER_SEARCH_ROWS that say something) naming the
    required columns; without one, the first row that says something (its missing columns are then reported)."""
    first, seen = None, 0
    for i, row in enumerate(rows):
        if not any(str(c or "").strip() for c in row):
            continue
        first = i if first is None else first
        names = {_norm(c) for c in row}
        if all(names & HEADER_ALIASES[f] for f in REQUIRED):
            return i
        seen += 1
        if seen >= HEADER_SEARCH_ROWS:
            break
    return first


def parse_rating_list(data, filename):
    """Return the list of RatingRow, or raise RatingListError listing every bad line (nothing is partial)."""
    if len(data) > MAX_BYTES:
        raise RatingListError([(None, _("The file is too large (at most 10 MB)."))])
    if not data.strip():
        raise RatingListError([(None, _("The file is empty."))])
    is_xlsx = filename.lower().endswith((".xlsx", ".xlsm")) or data[:2] == b"PK"
    rows = _read_rows(_read_xlsx(data) if is_xlsx else _read_csv(data))
    rows = [r for r in rows if any(str(c).strip() for c in r if c is not None)] and rows
    header_index = _header_index(rows)
    if header_index is None:
        raise RatingListError([(None, _("The file is empty."))])
    header = [_norm(c) for c in rows[header_index]]
    columns = {}
    for field, aliases in HEADER_ALIASES.items():
        for i, h in enumerate(header):
            if h in aliases and field not in columns:
                columns[field] = i
    missing = [f for f in REQUIRED if f not in columns]
    if missing:
        labels = {"cbjd_id": "CBJD ID", "name": _("name"), "rating": "rating"}
        raise RatingListError(
            [(header_index + 1, _("missing columns: %(cols)s") % {"cols": ", ".join(str(labels[m]) for m in missing)})]
        )
    result, errors, seen = [], [], {}
    for i, raw in enumerate(rows[header_index + 1 :], start=header_index + 2):
        if not any(str(c).strip() for c in raw if c is not None):
            continue

        def cell(field):
            idx = columns.get(field)
            if idx is None or idx >= len(raw) or raw[idx] is None:
                return ""
            return raw[idx]

        try:
            if any(_CONTROL.search(str(c)) for c in raw if c is not None):
                raise ValueError(_("invisible control characters in the line (a damaged or wrongly encoded file)"))
            for idx in columns.values():
                if idx < len(raw) and raw[idx] is not None and has_control_characters(raw[idx]):
                    raise ValueError(
                        _("line break or control (invisible) character in the column “%(column)s”")
                        % {"column": str(rows[header_index][idx]).strip()}
                    )
            cbjd = str(cell("cbjd_id")).strip()
            if cbjd.endswith(".0") and cbjd[:-2].isdigit():
                cbjd = cbjd[:-2]
            name = re.sub(r"\s+", " ", str(cell("name")).strip())
            if not cbjd:
                raise ValueError(_("CBJD ID missing"))
            if len(cbjd) > 20:
                raise ValueError(_("CBJD ID too long"))
            if not name:
                raise ValueError(_("name missing"))
            if len(name) > 120:
                raise ValueError(_("name too long"))
            if cbjd in seen:
                raise ValueError(
                    _("CBJD ID %(id)s repeated (also on line %(line)s)") % {"id": cbjd, "line": seen[cbjd]}
                )
            seen[cbjd] = i
            result.append(
                RatingRow(
                    line=i,
                    cbjd_id=cbjd,
                    name=name,
                    rating=_parse_rating(cell("rating")),
                    birth_date=_parse_date(cell("birth_date")),
                    sex=_parse_sex(cell("sex")),
                    state=_parse_state(cell("state")),
                    club=str(cell("club")).strip()[:120],
                    rated_games=_parse_games(cell("rated_games")) if "rated_games" in columns else None,
                    **dict(
                        zip(
                            ("situation", "suspended_until", "suspension_reason"),
                            _parse_situation(cell("situation")),
                            strict=True,
                        )
                    ),
                )
            )
        except ValueError as exc:
            errors.append((i, str(exc)))
    if errors:
        raise RatingListError(errors)
    if not result:
        raise RatingListError([(None, _("The file has no players."))])
    return result
