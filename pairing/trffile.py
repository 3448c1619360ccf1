"""The one TRF grammar of the product: FIDE's Tournament Report File as other programs write it.

TRF-2026 and TRF-16 with the TRF(x) extensions (JaVaFo's ``XX`` codes, bbpPairings' ``BB`` codes). :func:`decode`
turns the bytes of a file into text (UTF-8 with or without BOM, else Latin-1), :func:`parse` reads the text into a
:class:`TrfDocument` that keeps every field of the file, :func:`write` writes a document back. The engine
(``pairing.trf``) and the web app (``tournaments.interchange.trf``) both read and write through here, so they
cannot read the same file in two ways.

What decides pairings (player numbers, ratings, points, the round columns, the point system, rounds,
initial colour, forbidden pairs, byes, accelerations) is checked here and a bad value raises
:class:`~pairing.model.InvalidInput` naming the line, as the reference engine refuses it. What does not
(dates, names, IDs, federations, titles, team lines, unknown lines) is kept as written; what cannot be read is
listed in :attr:`TrfDocument.warnings` (Portuguese, one line each) and never refuses the file.

Columns of a ``001`` line (1-based, as the standard counts them): 5-8 start number, 10 sex, 11-13 title,
15-47 name, 49-52 rating, 54-56 federation, 58-68 ID, 70-79 birth date, 81-84 points, 86-89 rank, then for
round r from column 92 + 10(r-1): opponent (4), colour at +5, result at +7.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation

from . import model as M

# Round kinds of a block (the engine's RoundEntry kinds, and PAIRED: an opponent and a colour, no result yet).
PAIRED = "paired"
_WITH_OPPONENT_RESULTS = "1=0WDL+- "
_RESULTS = "1=0WDL+-HFUZ "
_GAME_RESULT = {"1": "W", "W": "W", "=": "D", "D": "D", "0": "L", "L": "L"}
# A result without an opponent: U (pairing-allocated bye), and + as some programs write it; H/= half-point bye;
# F full-point bye; Z, -, blank: zero (an absence, a withdrawal, a late entry).
_NO_OPPONENT_KIND = {
    "U": M.PAB,
    "+": M.PAB,
    "H": M.HALF_BYE,
    "=": M.HALF_BYE,
    "F": M.FULL_BYE,
    "Z": M.ZERO_BYE,
    " ": M.ZERO_BYE,
    "-": M.ZERO_BYE,
}
# Point-system symbols -> the Scoring fields they set: the 162 line's letters (TRF-2026: W win, D draw, L loss,
# A absence = zero-point bye or forfeit loss, P pairing-allocated bye, X unknown result; Z and U as older programs
# write A and P) and the TRF(x) BB* lines. ``unknown`` (X) pairs nothing: kept to be written back.
POINTS_162: dict[str, tuple[str, ...]] = {
    "W": ("win",),
    "D": ("draw",),
    "L": ("loss",),
    "A": ("zero_bye", "forfeit_loss"),
    "Z": ("zero_bye", "forfeit_loss"),
    "P": ("bye",),
    "U": ("bye",),
    "X": ("unknown",),
}
POINTS_BB = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "zero_bye", "BBF": "forfeit_loss", "BBU": "bye"}

# Header lines kept as text: code -> TrfDocument attribute.
_TEXT_HEADERS = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "062": "players_declared",
    "072": "rated_declared",
    "082": "teams_declared",
    "092": "type",
    "102": "chief_arbiter",
    "122": "time_control",
    "172": "rank_method",
    "182": "pairing_controller",
    "202": "tiebreaks",
    "212": "tiebreaks_2",
    "222": "time_control_code",
}
# Lines other programs write that the reference engine does not use: read and reported, never refused.
_IGNORED = {
    "XXS": "sistema de pontos do JaVaFo (XXS)",
    "XXY": "extensão do JaVaFo (XXY)",
    "013": "equipe (013)",
    "310": "resultado de equipes (310)",
}
# Codes the product writes in its own export (extensions every other reader ignores): see tournaments/interchange.
PRODUCT_CODES = ("DSW",)

_PLAYER_LINE = re.compile(r"^001 [ \d]{3}\d", re.MULTILINE)
PLACEHOLDER_ID = re.compile(r"^0*$")


class InvalidTrf(M.InvalidInput):
    """A TRF that cannot be read (``line``: the line number)."""


@dataclass
class Block:
    """One round column of a player: what the file says, and how it is read.

    ``opponent``: start number, or None (``0000`` or blank); ``colour``: ``w``, ``b`` or ``""`` (``-`` or blank);
    ``result``: the result character as written (upper case; ``" "`` when blank); ``kind``: the engine's reading
    (``game``, ``forfeit_win``, ``forfeit_loss``, ``pab``, ``half_bye``, ``full_bye``, ``zero_bye``).
    """

    opponent: int | None
    colour: str
    result: str
    kind: str

    @property
    def game_result(self) -> str | None:
        """``W``/``D``/``L`` of a game played over the board."""
        return _GAME_RESULT.get(self.result) if self.kind == M.GAME else None

    def text(self) -> str:
        opp = f"{self.opponent:>4}" if self.opponent is not None else "0000"
        return f"{opp} {self.colour or '-'} {self.result or ' '}"


@dataclass
class TrfPlayer:
    number: int
    name: str = ""  # as written (``Last, First`` stays so)
    sex: str = ""  # as written: m, w, f or blank
    title: str = ""  # as written: GM, IM, WGM, ... or g, m, f, wg, ...
    rating: int = 0
    federation: str = ""
    ident: str = ""  # the ID column (a FIDE ID, or a national one): "" when blank or a placeholder (00000000)
    birth: str = ""  # as written
    birth_date: date | None = None
    birth_year: int | None = None
    points: Decimal = Decimal(0)  # declared
    rank: int | None = None
    blocks: list[Block | None] = field(default_factory=list)  # round 1, 2, ...; None: blank column
    line: int = 0


@dataclass
class Forbidden:
    players: list[int]
    first_round: int | None = None
    last_round: int | None = None


@dataclass
class Adjustment:
    """A ``299`` line: points given or taken outside the games (TRF-2026 "abnormal assignment of points").

    ``kind``: the result it stands for (``W D L F H Z + -``), or ``""`` for a bonus or a penalty; ``points``: the
    points (signed) as the file writes them; ``round``: the round, None for every round (``000`` or blank)."""

    kind: str
    points: Decimal
    round: int | None
    players: list[int]
    line: int = 0
    match_points: str = ""  # columns 8-11 (teams only), as written


# The 299 types -> the block kinds they stand for (a bonus or penalty stands for none).
ADJUSTMENT_KINDS = {
    "W": (M.GAME,),
    "D": (M.GAME,),
    "L": (M.GAME,),
    "F": (M.FULL_BYE,),
    "H": (M.HALF_BYE,),
    "Z": (M.ZERO_BYE,),
    "+": (M.FORFEIT_WIN,),
    "-": (M.FORFEIT_LOSS,),
    "": (),
}


@dataclass
class TrfDocument:
    """Everything a TRF holds. Dates: the ``date`` when it can be read, ``*_text`` as written."""

    name: str = ""
    city: str = ""
    federation: str = ""
    start_text: str = ""
    start_date: date | None = None
    end_text: str = ""
    end_date: date | None = None
    players_declared: str = ""
    rated_declared: str = ""
    teams_declared: str = ""
    type: str = ""  # 092
    chief_arbiter: str = ""
    deputies: list[str] = field(default_factory=list)  # 112, one per line
    time_control: str = ""  # 122
    round_dates: list[str] = field(default_factory=list)  # 132, as written, one per round
    rank_method: str = ""
    pairing_controller: str = ""
    tiebreaks: str = ""
    tiebreaks_2: str = ""
    time_control_code: str = ""
    total_rounds: int | None = None  # XXR / 142
    initial_colour: str = ""  # "w", "b" or "" (not given)
    scoring: dict[str, Decimal | None] = field(default_factory=dict)  # only the values the file gives
    tournament_type: str = ""  # 192, as written
    baku: bool = False
    forbidden: list[Forbidden] = field(default_factory=list)
    byes_240: list[tuple[int, int, str]] = field(default_factory=list)  # (round, player, kind)
    accelerations: dict[int, list[Decimal]] = field(default_factory=dict)  # player -> virtual points per round
    players: list[TrfPlayer] = field(default_factory=list)
    extensions: list[tuple[int, str, str]] = field(default_factory=list)  # (line, code, rest): product codes
    warnings: list[str] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)  # 299 lines
    scoring_162: list[str] = field(default_factory=list)  # the 162 line's symbols in the file's order
    # JaVaFo's ``XXZ`` lines: (line, start number) of each player who will not play the round to pair
    absent_next: list[tuple[int, int]] = field(default_factory=list)

    @property
    def paired_round(self) -> int | None:
        """The first round paired whose results are not all in (a game with a blank result), or None."""
        first = None
        for p in self.players:
            for r, b in enumerate(p.blocks, start=1):
                if b is not None and b.kind == PAIRED and (first is None or r < first):
                    first = r
                    break
        return first

    def player(self, number: int) -> TrfPlayer | None:
        for p in self.players:
            if p.number == number:
                return p
        return None


# ----------------------------------------------------------------------------------------------------- text
def decode(raw: bytes) -> str:
    """The text of a TRF's bytes: UTF-8 (a BOM is dropped), else Latin-1 (Windows programs: every byte reads)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def looks_like_trf(text: str) -> bool:
    """The text holds at least one TRF player line (``001`` and a starting number in columns 5-8)."""
    return bool(_PLAYER_LINE.search(text.replace("\r", "\n")))


def lines_of(text: str) -> list[str]:
    """Lines of a TRF whatever its line ends (LF, CRLF, CR only); a BOM left in text is dropped."""
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")


# ---------------------------------------------------------------------------------------------------- dates
_MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("jan", "january", "janeiro", "januar", "janvier", "enero"),
            ("feb", "february", "fev", "fevereiro", "februar", "fevrier", "febrero"),
            ("mar", "march", "marco", "março", "marz", "märz", "mars", "marzo"),
            ("apr", "april", "abr", "abril", "avril"),
            ("may", "mai", "maio", "mayo"),
            ("jun", "june", "junho", "juni", "juin", "junio"),
            ("jul", "july", "julho", "juli", "juillet", "julio"),
            ("aug", "august", "ago", "agosto", "aout", "août"),
            ("sep", "sept", "september", "set", "setembro", "septembre", "septiembre"),
            ("oct", "october", "out", "outubro", "oktober", "okt", "octobre", "octubre"),
            ("nov", "november", "novembro", "novembre", "noviembre"),
            ("dec", "december", "dez", "dezembro", "dezember", "decembre", "décembre", "dic", "diciembre"),
        ]
    )
    for name in names
}


def _year(y: int, digits: int) -> int:
    if digits > 2:
        return y
    return 2000 + y if y <= date.today().year % 100 else 1900 + y


def parse_date(text: str) -> tuple[date | None, int | None, bool]:
    """(date, year, understood) of a date as programs write it.

    ``2020/05/29``, ``2020-05-29``, ``2020.05.29``, ``29.07.2005``, ``29/07/2005``, ``28. 07. 2005``, ``10.09.13``
    (day first with dots, year first with slashes, as TRF 132 lines write it), ``May 29, 2020``, ``29 May 2020``;
    a year alone (``1985``, ``1985/00/00``, ``1985.  .``, ``  .  .1985``) gives only the year. Empty, zeros,
    ``. .`` and ``/ /``: unknown (understood). Anything else: (None, None, False).
    """
    s = text.strip()
    compact = re.sub(r"\s+", "", s)
    if not compact.strip("0./-") or not re.sub(r"[\s./-]", "", s):
        return None, None, True
    m = re.fullmatch(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", compact)
    if m:
        y, mo, d = (int(x) for x in m.groups())
        order = (y, mo, d)
    else:
        m = re.fullmatch(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})", compact)
        if m:
            d, mo, y = (int(x) for x in m.groups())
            order = (y, mo, d)
        else:
            m = re.fullmatch(r"(\d{2})([/.-])(\d{2})[/.-](\d{2})", compact)
            if m:
                a, sep, b, c = int(m.group(1)), m.group(2), int(m.group(3)), int(m.group(4))
                order = (_year(a, 2), b, c) if sep == "/" else (_year(c, 2), b, a)
            else:
                # a year alone, its month and day left blank or zero: ``1975``, ``1975.  .``, ``1975/  /``,
                # ``  .  .1975`` (as a federation's rating system writes a date it knows only the year of)
                m = re.fullmatch(r"(\d{4})(?:[/.-]0*){0,2}|(?:0*[/.-]){1,2}(\d{4})", compact)
                if m and int(m.group(1) or m.group(2)) > 0:
                    return None, int(m.group(1) or m.group(2)), True
                named = _named_date(s)
                if named is None:
                    return None, None, False
                order = named
    y, mo, d = order
    if 1 <= mo <= 12 and 1 <= d <= 31:
        try:
            return date(y, mo, d), y, True
        except ValueError:
            return None, None, False
    if mo == 0 and d == 0 and y > 0:
        return None, y, True
    return None, None, False


def _named_date(s: str) -> tuple[int, int, int] | None:
    words = re.findall(r"[^\W\d_]+|\d+", s.lower())
    months = [w for w in words if w in _MONTHS or w.rstrip(".") in _MONTHS]
    numbers = [w for w in words if _digits(w)]
    if len(months) != 1 or len(numbers) != 2:
        return None
    mo = _MONTHS[months[0].rstrip(".")]
    a, b = numbers
    if len(a) == 4:
        return int(a), mo, int(b)
    if len(b) == 4:
        return int(b), mo, int(a)
    return None


# ---------------------------------------------------------------------------------------------------- parse
def _err(lineno: int, msg: str) -> InvalidTrf:
    return InvalidTrf(msg, lineno)


def _digits(s: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts ``²`` and the like, which ``int()`` refuses."""
    return s.isascii() and s.isdigit()


def _int(s: str, lineno: int, what: str) -> int:
    s2 = s.strip()
    if not s2 or not _digits(s2):
        raise _err(lineno, f"{what} '{s2}' inválido")
    return int(s2)


def _points(s: str, lineno: int, what: str = "pontos") -> Decimal:
    s2 = s.strip().replace(",", ".")
    try:
        if not s2 or s2.count(".") > 1 or not s2.replace(".", "").isdigit():
            raise ValueError
        d = Decimal(s2)
    except (ValueError, InvalidOperation):
        raise _err(lineno, f"{what} '{s.strip()}' inválido") from None
    if (d * 10) != (d * 10).to_integral_value():
        raise _err(lineno, f"{what} '{s2}' com mais de uma casa decimal")
    return d


def parse(text: str) -> TrfDocument:
    """Read a TRF's text. Raises :class:`InvalidTrf` (with the line) for what decides pairings."""
    doc = TrfDocument()
    line_of: dict[int, int] = {}
    acc250: list[tuple[Decimal, int, int, int, int, int]] = []
    for lineno, raw in enumerate(lines_of(text), start=1):
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        if len(line) < 3:
            doc.warnings.append(f"linha {lineno}: “{line.strip()}” não é uma linha de TRF; ignorada")
            continue
        code = line[:3]
        rest = line[4:].strip() if len(line) > 4 else ""
        if code == "###":
            continue
        if code == "001":
            p = _player(line, lineno, doc.warnings)
            if p.number in line_of:
                raise _err(lineno, f"número de emparceiramento {p.number} repetido (linha {line_of[p.number]})")
            line_of[p.number] = lineno
            doc.players.append(p)
        elif code in _TEXT_HEADERS:
            setattr(doc, _TEXT_HEADERS[code], rest)
        elif code in ("042", "052"):
            when, _year_only, ok = parse_date(rest)
            if not ok:
                what = "início" if code == "042" else "término"
                doc.warnings.append(f"linha {lineno}: data de {what} “{rest}” ilegível; tratada como desconhecida")
            if code == "042":
                doc.start_text, doc.start_date = rest, when
            else:
                doc.end_text, doc.end_date = rest, when
        elif code == "112":
            doc.deputies.append(rest)
        elif code == "132":
            _round_dates(line, rest, doc)
        elif code in ("XXR", "142"):
            doc.total_rounds = _int(line[3:], lineno, "número de rodadas")
            if doc.total_rounds <= 0:
                raise _err(lineno, "número de rodadas inválido")
        elif code == "XXC":
            for tok in line[3:].split():
                if tok.lower() == "white1":
                    doc.initial_colour = "w"
                elif tok.lower() == "black1":
                    doc.initial_colour = "b"
                elif tok.lower() == "rank":
                    doc.warnings.append(f"linha {lineno}: XXC rank (emparceirar pela coluna de posição) ignorado")
        elif code == "152":
            c = rest.upper()
            if c not in ("W", "B"):
                raise _err(lineno, f"cor inicial '{rest}' inválida (use W ou B)")
            doc.initial_colour = c.lower()
        elif code == "162":
            _points_162(line, lineno, doc)
        elif code in POINTS_BB:
            doc.scoring[POINTS_BB[code]] = _points(line[4:12], lineno, "pontos")
        elif code in ("XXP", "XXZ"):
            ids = _numbers(line, lineno, code)
            if code == "XXP":
                doc.forbidden.append(Forbidden(ids))
            else:
                doc.absent_next += [(lineno, pid) for pid in ids]
        elif code == "260":
            if len(line) < 16:
                raise _err(lineno, "linha 260 incompleta")
            first = _int(line[4:7], lineno, "rodada")
            last = _int(line[8:11], lineno, "rodada")
            ids = []
            i = 12
            while i <= len(line) - 4:
                ids.append(_int(line[i : i + 4], lineno, "jogador"))
                i += 5
            if line[i:].strip():
                raise _err(lineno, "linha 260 inválida")
            doc.forbidden.append(Forbidden(ids, first, last))
        elif code == "240":
            _line_240(line, lineno, doc)
        elif code == "250":
            if len(line) < 31:
                raise _err(lineno, "linha 250 incompleta")
            gp = _points(line[9:13], lineno, "pontos de aceleração")
            r1 = _int(line[14:17], lineno, "rodada")
            r2 = _int(line[18:21], lineno, "rodada")
            p1 = _int(line[22:26], lineno, "jogador")
            p2 = _int(line[27:31], lineno, "jogador")
            if r1 > r2 or p1 > p2 or r1 == 0 or p1 == 0:
                raise _err(lineno, "linha 250 inválida")
            acc250.append((gp, r1, r2, p1, p2, lineno))
        elif code == "XXA":
            pid = _int(line[4:8], lineno, "jogador")
            vals = []
            i = 9
            while i + 4 <= len(line):
                chunk = line[i : i + 4]
                vals.append(Decimal(0) if not chunk.strip() else _points(chunk, lineno, "aceleração"))
                i += 5
            doc.accelerations[pid] = vals
        elif code == "192":
            _line_192(rest, lineno, doc)
        elif code == "299":
            doc.adjustments.append(_line_299(line, lineno))
        elif code in _IGNORED:
            doc.warnings.append(f"linha {lineno}: {_IGNORED[code]} ignorada (o motor de referência não a usa)")
        elif code in PRODUCT_CODES:
            doc.extensions.append((lineno, code, line[4:]))
        else:
            doc.warnings.append(f"linha {lineno}: código “{code.strip()}” desconhecido; linha ignorada")
    _check_paired(doc)
    for gp, r1, r2, p1, p2, _lineno in acc250:
        for pid in range(p1, p2 + 1):
            acc = doc.accelerations.setdefault(pid, [])
            while len(acc) < r2:
                acc.append(Decimal(0))
            for r in range(r1 - 1, r2):
                acc[r] = gp
    return doc


def _numbers(line: str, lineno: int, code: str) -> list[int]:
    """The start numbers of an ``XXP`` or ``XXZ`` line, separated by blanks."""
    ids = []
    for tok in line[3:].split():
        if not _digits(tok) or int(tok) == 0:
            raise _err(lineno, f"jogador '{tok}' inválido em {code}")
        ids.append(int(tok))
    return ids


def _line_192(rest: str, lineno: int, doc: TrfDocument) -> None:
    """The tournament type: the FIDE Dutch system (``_BAKU``: Baku acceleration); a team event is refused plainly."""
    doc.tournament_type = rest
    typ = rest.upper()
    if "TEAM" in typ:
        raise _err(
            lineno, f"torneio por equipes ({rest}) não é suportado: o programa emparceira só torneios individuais"
        )
    if not typ.startswith("FIDE_DUTCH"):
        raise _err(lineno, f"tipo de torneio '{rest}' não suportado (só o sistema holandês FIDE)")
    doc.baku = typ.endswith("_BAKU")


def _round_dates(line: str, rest: str, doc: TrfDocument) -> None:
    """A 132 line: the dates in the round columns (92, 102, ...); several 132 lines (one per round, each in its own
    column, or each with its date right after the code) add up in round order."""
    if len(line) > 91 and line[91:].strip():
        dates = [line[i : i + 8].strip() for i in range(91, len(line), 10)]
        for r, text in enumerate(dates):
            if text:
                while len(doc.round_dates) <= r:
                    doc.round_dates.append("")
                doc.round_dates[r] = text
    elif rest:
        words = rest.split()
        if len(words) > 1 and all(parse_date(w)[0] is not None for w in words):
            doc.round_dates.extend(words)
        else:
            doc.round_dates.append(rest)


def _signed_points(s: str, lineno: int, what: str) -> Decimal:
    s2 = s.strip()
    if s2.startswith("-"):
        return -_points(s2[1:], lineno, what)
    return _points(s2.lstrip("+"), lineno, what)


def _line_299(line: str, lineno: int) -> Adjustment:
    """``299 T  MMMM  GGGG RRR PPPP PPPP ...`` (columns 5, 8-11, 14-17, 20-22, then players from 24, every 5)."""
    if len(line) < 17:
        raise _err(lineno, "linha 299 incompleta")
    kind = line[4].upper().strip()
    if kind not in ADJUSTMENT_KINDS:
        raise _err(lineno, f"tipo '{line[4]}' inválido na linha 299 (use W, D, L, F, H, Z, +, - ou branco)")
    points = _signed_points(line[13:17], lineno, "pontos da linha 299")
    rnd_s = line[19:22].strip()
    rnd = _int(rnd_s, lineno, "rodada") if rnd_s else 0
    players = []
    i = 23
    while i < len(line):
        chunk = line[i : i + 4]
        if chunk.strip():
            pid = _int(chunk, lineno, "jogador")
            if pid == 0:
                raise _err(lineno, "jogador 0 na linha 299")
            players.append(pid)
        i += 5
    if not players:
        raise _err(lineno, "linha 299 sem jogador")
    return Adjustment(kind, points, rnd or None, players, lineno, line[7:11].strip())


def _check_paired(doc: TrfDocument) -> None:
    """A round paired without results (blank results) is the round to pair; no later round can hold a game."""
    rnd = doc.paired_round
    if rnd is None:
        return
    for p in doc.players:
        for r, b in enumerate(p.blocks[rnd:], start=rnd + 1):
            if b is not None and b.opponent is not None:
                raise _err(
                    p.line,
                    f"a rodada {rnd} não tem todos os resultados, mas o jogador {p.number} já tem adversário na "
                    f"rodada {r}",
                )


def _points_162(line: str, lineno: int, doc: TrfDocument) -> None:
    if len(line) < 10:
        raise _err(lineno, "sistema de pontos (162) inválido")
    i = 5
    while i <= len(line) - 5:
        ch = line[i].upper()
        if ch not in POINTS_162:
            raise _err(lineno, f"símbolo '{line[i]}' não suportado na linha 162 (use W, D, L, A, P ou X)")
        val = _points(line[i + 1 : i + 5], lineno, "pontos")
        for key in POINTS_162[ch]:
            doc.scoring[key] = val
        doc.scoring_162.append(ch)
        i += 9
    if line[i:].strip():
        raise _err(lineno, "sistema de pontos (162) inválido")


def _line_240(line: str, lineno: int, doc: TrfDocument) -> None:
    if len(line) < 14:
        raise _err(lineno, "linha 240 incompleta")
    kind = {"F": M.FULL_BYE, "H": M.HALF_BYE, "Z": M.ZERO_BYE, " ": M.ZERO_BYE}.get(line[4].upper())
    if kind is None:
        raise _err(lineno, f"tipo de bye '{line[4]}' inválido")
    rnd = _int(line[6:9], lineno, "rodada")
    i = 10
    while i <= len(line) - 4:
        doc.byes_240.append((rnd, _int(line[i : i + 4], lineno, "jogador"), kind))
        i += 5
    if line[i:].strip():
        raise _err(lineno, "linha 240 inválida")


def _player(line: str, lineno: int, warnings: list[str]) -> TrfPlayer:
    if len(line) < 84:
        raise _err(lineno, "linha de jogador (001) curta demais")
    pid = _int(line[4:8], lineno, "número de emparceiramento")
    if pid == 0:
        raise _err(lineno, "número de emparceiramento 0")
    rating_s = line[48:52].strip()
    rating = 0
    if rating_s:
        if not _digits(rating_s):
            raise _err(lineno, f"rating '{rating_s}' inválido")
        rating = int(rating_s)
    pts = _points(line[80:84], lineno, "pontos")
    p = TrfPlayer(
        number=pid,
        name=" ".join(line[14:47].split()),
        sex=line[9].strip(),
        title=line[10:13].strip(),
        rating=rating,
        federation=line[53:56].strip() if len(line) > 53 else "",
        points=pts,
        line=lineno,
    )
    ident = line[57:68].strip()
    p.ident = "" if PLACEHOLDER_ID.match(ident) else ident
    p.birth = line[69:79].strip()
    p.birth_date, p.birth_year, ok = parse_date(p.birth)
    if not ok:
        warnings.append(
            f"linha {lineno}: data de nascimento “{p.birth}” do jogador {pid} ilegível; tratada como desconhecida"
        )
    rank_s = line[85:89].strip() if len(line) > 85 else ""
    p.rank = int(rank_s) if _digits(rank_s) else None
    s = 91
    rnd = 0
    while s < len(line):
        chunk = line[s : s + 8]
        if len(chunk) < 8:
            if not chunk.strip():
                break
            chunk = chunk.ljust(8)  # a line whose trailing blanks were cut (a blank result)
        rnd += 1
        p.blocks.append(_block(_letter_in_colour_column(chunk), pid, rnd, lineno))
        s += 10
    return p


def _letter_in_colour_column(chunk: str) -> str:
    """A cell without opponent whose bye letter sits where the colour goes and whose result is blank (``0000 H``,
    ``   0 Z``): the letter is the result, as ``0000 - H`` (no colour is ever ``H``, ``Z``, ``F`` or ``U``)."""
    if chunk[5] in "HZFU" and chunk[7] == " " and not chunk[0:4].strip("0 "):
        return f"{chunk[:5]}- {chunk[5]}"
    return chunk


def _block(chunk: str, pid: int, rnd: int, lineno: int) -> Block | None:
    where = f"na rodada {rnd}"
    opp_s = chunk[0:4]
    col = chunk[5]
    res = chunk[7].upper()
    opp: int | None = None
    if opp_s.strip() and opp_s.strip("0 "):  # "0000", "   0" and blanks: no opponent
        o = _int(opp_s, lineno, f"adversário {where}")
        if o == pid:
            raise _err(lineno, f"jogador emparceirado consigo mesmo {where}")
        opp = o
    if col not in ("w", "b", "-", " "):
        raise _err(lineno, f"cor '{col}' inválida {where}")
    if res not in _RESULTS:
        raise _err(lineno, f"resultado '{chunk[7]}' inválido {where}")
    colour = col if col in ("w", "b") else ""
    if not opp_s.strip() and col == " " and res == " ":
        return None
    if opp is not None:
        if res not in _WITH_OPPONENT_RESULTS:
            raise _err(lineno, f"resultado '{chunk[7]}' inválido com adversário {where}")
        if res == "+":
            return Block(opp, colour, res, M.FORFEIT_WIN)
        if res == "-":
            return Block(opp, colour, res, M.FORFEIT_LOSS)
        if res == " ":
            return Block(opp, colour, res, PAIRED)  # paired, the result not in yet
        if not colour:
            raise _err(lineno, f"partida sem cor {where}")
        return Block(opp, colour, res, M.GAME)
    if colour:
        raise _err(lineno, f"cor sem adversário {where}")
    if res in "1W0LD":
        raise _err(lineno, f"resultado '{chunk[7]}' inválido sem adversário {where}")
    return Block(None, "", res, _NO_OPPONENT_KIND[res])


# ---------------------------------------------------------------------------------------------------- write
def clean(text: object) -> str:
    """A value on one line: every control character and line break becomes a space (no line can be injected)."""
    return re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", str(text or "")).strip()


def fmt_points(value: Decimal | int | float | str) -> str:
    return f"{Decimal(str(value)):.1f}"


def _put(buf: list[str], col: int, text: str) -> None:
    """Write ``text`` into ``buf`` from 1-based column ``col``."""
    start = col - 1
    if len(buf) < start + len(text):
        buf.extend(" " * (start + len(text) - len(buf)))
    buf[start : start + len(text)] = list(text)


def player_line(p: TrfPlayer) -> str:
    buf: list[str] = []
    _put(buf, 1, "001")
    _put(buf, 5, f"{p.number:>4}")
    _put(buf, 10, clean(p.sex)[:1] or " ")
    _put(buf, 11, f"{clean(p.title)[:3]:>3}")
    _put(buf, 15, f"{clean(p.name)[:33]:<33}")
    _put(buf, 49, f"{p.rating or '':>4}"[:4])
    _put(buf, 54, f"{clean(p.federation)[:3]:<3}")
    _put(buf, 58, f"{clean(p.ident)[:11]:>11}")
    _put(buf, 70, f"{clean(p.birth)[:10]:<10}")
    _put(buf, 81, f"{fmt_points(p.points):>4}")
    _put(buf, 86, f"{p.rank or '':>4}")
    for r, b in enumerate(p.blocks):
        if b is not None:
            _put(buf, 92 + 10 * r, b.text())
    return "".join(buf).rstrip()


def _line_162(doc: TrfDocument, trf2026: bool) -> list[str]:
    """The point system's 162 line (none when the file gave no value): W D L, and the other TRF-2026 symbols the
    file gave (A P X; older readers take A and P from the BB* lines)."""
    symbols = [("W", "win"), ("D", "draw"), ("L", "loss")]
    others = ("A", "P", "X") if trf2026 else ("X",)
    symbols += [(ch, POINTS_162[ch][0]) for ch in others if ch in doc.scoring_162]
    parts = [(ch, doc.scoring.get(key)) for ch, key in symbols]
    if all(v is None for _ch, v in parts):
        return []
    return ["162" + "".join(f"  {ch}{fmt_points(v):>4}  " for ch, v in parts if v is not None).rstrip()]


def _lines_299(doc: TrfDocument) -> list[str]:
    """The 299 lines as read: type, (team match points,) points signed, round (000: every round), players."""
    out = []
    for a in doc.adjustments:
        players = "".join(f" {pid:>4}" for pid in a.players)
        value = f"{'-' if a.points < 0 else ''}{fmt_points(abs(a.points))}"
        out.append(f"299 {a.kind or ' '}  {clean(a.match_points)[:4]:>4}  {value:>4}  {a.round or 0:03d}{players}")
    return out


def _absence_lines(doc: TrfDocument) -> list[str]:
    """The absences announced ahead: the ``240`` lines, then JaVaFo's ``XXZ`` line as read."""
    out = []
    for rnd, pid, kind in doc.byes_240:
        letter = {M.FULL_BYE: "F", M.HALF_BYE: "H"}.get(kind, "Z")
        out.append(f"240 {letter} {rnd:>3} {pid:>4}")
    if doc.absent_next:
        out.append("XXZ " + " ".join(str(pid) for _line, pid in doc.absent_next))
    return out


def write(doc: TrfDocument, *, trf2026: bool = True, extensions: list[str] | None = None) -> str:
    """The document as TRF text (LF line ends). ``trf2026``: 142/152 (else XXR/XXC); both read everywhere."""
    out: list[str] = []

    def text_line(code: str, value: str) -> None:
        if clean(value):
            out.append(f"{code} {clean(value)}")

    text_line("012", doc.name)
    text_line("022", doc.city)
    text_line("032", doc.federation)
    text_line("042", doc.start_text or (f"{doc.start_date:%Y/%m/%d}" if doc.start_date else ""))
    text_line("052", doc.end_text or (f"{doc.end_date:%Y/%m/%d}" if doc.end_date else ""))
    text_line("062", doc.players_declared)
    text_line("072", doc.rated_declared)
    text_line("082", doc.teams_declared)
    text_line("092", doc.type)
    text_line("102", doc.chief_arbiter)
    for d in doc.deputies:
        text_line("112", d)
    text_line("122", doc.time_control)
    if any(doc.round_dates):
        buf: list[str] = []
        _put(buf, 1, "132")
        for r, d in enumerate(doc.round_dates):
            _put(buf, 92 + 10 * r, f"{clean(d)[:8]:>8}")
        out.append("".join(buf).rstrip())
    if doc.total_rounds:
        out.append(f"142 {doc.total_rounds}" if trf2026 else f"XXR {doc.total_rounds}")
    if doc.initial_colour:
        if trf2026:
            out.append(f"152 {doc.initial_colour.upper()}")
        else:
            out.append("XXC white1" if doc.initial_colour == "w" else "XXC black1")
    out.extend(_line_162(doc, trf2026))
    text_line("172", doc.rank_method)
    text_line("182", doc.pairing_controller)
    typ = clean(doc.tournament_type)
    if doc.baku and not typ.upper().endswith("_BAKU"):
        typ = "FIDE_DUTCH_2025_BAKU"
    if typ:
        out.append(f"192 {typ}")
    text_line("202", doc.tiebreaks)
    text_line("212", doc.tiebreaks_2)
    text_line("222", doc.time_control_code)
    for key, code in (("bye", "BBU"), ("zero_bye", "BBZ"), ("forfeit_loss", "BBF")):
        v = doc.scoring.get(key)
        if v is not None:
            out.append(f"{code} {fmt_points(v):>4}")
    for p in sorted(doc.players, key=lambda p: p.number):
        out.append(player_line(p))
    out.extend(_lines_299(doc))
    out.extend(_absence_lines(doc))
    for fp in doc.forbidden:
        if fp.first_round is None and fp.last_round is None:
            out.append("XXP " + " ".join(str(x) for x in fp.players))
        else:
            first = fp.first_round or 1
            last = fp.last_round or doc.total_rounds or first
            out.append(f"260 {first:>3} {last:>3} " + " ".join(f"{x:>4}" for x in fp.players))
    for pid in sorted(doc.accelerations):
        vals = doc.accelerations[pid]
        if vals:
            out.append(f"XXA {pid:>4} " + " ".join(f"{fmt_points(a):>4}" for a in vals))
    out.extend(clean(e) for e in extensions or [])
    return "\n".join(out) + "\n"


__all__ = [
    "PAIRED",
    "Adjustment",
    "Block",
    "Forbidden",
    "InvalidTrf",
    "TrfDocument",
    "TrfPlayer",
    "decode",
    "lines_of",
    "looks_like_trf",
    "parse",
    "parse_date",
    "write",
]
