"""Swiss Perfect 98 files in: the tournament files (``.ini`` + ``.trn`` + ``.sco``, or the three in one ``.zip``)
and the text export of the cross table. Each is read into an interchange-file dict, then imported by the JSON
importer (same validation, one transaction, all-or-nothing).

Native files (learnt from public descriptions of the format; the reader is our own, ``dbase.py``):

* ``.ini``: text; ``[Tournament Info]`` ``Name``, ``Arbiter``, ``Rounds``, ``Multi Games`` (games per round),
  ``Team or Individual``. No date anywhere (nor in the dBase headers, which Swiss Perfect writes with a fixed
  one): the tournament is marked as having its start date still to be given (as a TRF without its 042 line) and
  stands meanwhile on the day the ``.sco`` was saved (the zip's record of it), else today.
* ``.trn`` (dBase III, one record per player): ``ID`` (the key ``.sco`` uses), ``START_NO`` (pairing number),
  ``SURNAME``, ``FIRSTNAME``, ``SEX`` (1 male, 2 female, 0 not given: left blank, never guessed), ``BIRTH_DATE``,
  ``FEDER`` (a UF is the state, anything else the federation), ``CLUB``, ``LOC_ID`` / ``LOC_RTG`` (national ID and
  rating: here the CBJD's), ``INTL_ID`` (another federation's ID, kept when it is a number), ``INTL_RTG`` (FMJD
  rating), ``TITLE``, ``LATE_ENTRY`` (the round the player joined), ``WITHDRAWAL`` (the first round the player
  was no longer in: real files have no record from it on), ``ABSENT`` (bit r-1 set: absent in round r),
  ``BONUS`` (points given without a game, spread as half points over the rounds the player did not play, as
  Swiss Perfect shows them).
* ``.sco`` (dBase III, one record per board or unpaired player): ``ROUND``, ``WHITE``, ``BLACK`` (player IDs, 0
  for none), ``W_SCORE`` / ``B_SCORE`` (half points: 2 win, 1 draw, 0 loss), ``W_TYPE`` / ``B_TYPE`` (1 played;
  otherwise not played: a forfeit, or, for a player alone, points given without a game).

A board with both players is a game (played when both types are 1, else a forfeit); a player alone on a record
scores what the record says. Points the pairing gave (type 1, the player not marked absent, already entered) are
the pairing-allocated bye: a whole point, or half a point for a bye at the draw value. Anything else is an
announced absence that keeps its own value (zero, half a point, a whole point), as the TRF import keeps them.

Text export (the cross table, tab-separated): header ``No Name [Feder] [Intl Id] [Loc Id] [Rtg] [Loc] [Title]
[Total] 1 2 ...``, a blank line, then one line per player; each round ``opp:R`` with R = W D L (played), + -
(forfeit or unplayed), = (half point unplayed), and `` : `` when the player had no game; ``9:`` (an opponent and no
letter, on both lines) is a game without a result, counted nothing by the Total: left without one in the last round
(for the director to enter), a double forfeit (-/-) in an earlier one (said). This program's cross
table of a micro-match writes a letter per game (``12:WD``, from the player's side, game 1 first): such a file is
read as a micro-match event (the lower number has White in game 1), and a file mixing one letter and two is
refused. It has no colours and
no dates: colours are given by the pairing numbers (the lower number has White) and the import says so. Without
an opponent, ``0:W`` is the pairing-allocated bye (as Swiss Perfect writes it; a lone ``0:+`` in a round without
one is the bye too, as other programs write it), any other ``0:+`` a whole point given without a game, in a file
without ``0:W`` a round's lone ``0:D`` the bye worth a draw (W D L are what the pairing gave), any other ``0:D`` /
``0:=`` an absence worth half a point, ``0:L`` / ``0:-`` one worth nothing, and ``0:`` (no letter, Swiss Perfect's
round without a record) or `` : `` no record: a late entry's first rounds, a withdrawal's last ones, and in
between a round the player was not paired in, without an announced absence (nothing is created). A ``Total``
above the cells' sum is Swiss Perfect's bonus, which its export does not always write: half points in the rounds
without a result, as for the tournament files (said); any other difference is refused. Read in UTF-8
(with or without a BOM) or, failing that, Windows-1252 (Swiss Perfect's own).

Refused, with the reason (pt-BR): several games per round (``Multi Games`` above 1: the per-game results are not
in the files), team events, a board whose scores are not a result, players or
results that do not match, a ``Loc Id`` (taken as the CBJD ID) that the registry gives to someone else, bonus
points (``BONUS``) with no round without a game to hold them, and byes of different values in one file (a
tournament has one bye value).
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from tournaments.core.agreement import plural
from tournaments.core.zipcheck import directory_fits, method_name, read_member, unsafe_member
from tournaments.domain.names import fold
from tournaments.interchange.dbase import DbfError, Value, read_dbf
from tournaments.interchange.errors import InterchangeError
from tournaments.interchange.notices import pairings, points, rights

MAX_MEMBER_BYTES = 5 * 1024 * 1024  # one member of a Swiss Perfect zip (the real ones are a few KB)
MAX_MEMBERS = 20
MAX_ROUNDS = 30
_TITLES = {"1": "GMI", "2": "GMIF", "3": "MI", "4": "MIF", "5": "MF", "6": "MFF"}
_UF = {
    "AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE", "PI",
    "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO",
}  # fmt: skip


# ------------------------------------------------------------------------------------------------ model
@dataclass
class SpPlayer:
    key: int  # the ID .sco refers to (native files) or the pairing number (text export)
    number: int  # pairing number
    name: str
    sex: str = ""
    birth_date: date | None = None
    state: str = ""
    federation: str = ""
    club: str = ""
    loc_id: str = ""
    intl_id: str = ""
    rating: int | None = None
    fmjd_rating: int | None = None
    title: str = ""
    late_entry: int | None = None
    withdrawn_from: int | None = None
    absent_rounds: set[int] = field(default_factory=set)
    bonus_halves: int = 0
    declared_total: Decimal | None = None
    where: str = ""


@dataclass
class SpRound:
    # (first key, second key, result code of each game from that game's White: the first has White in game 1)
    boards: list[tuple[int, int, tuple[str | None, ...]]] = field(default_factory=list)
    alone: dict[int, int] = field(default_factory=dict)  # player key -> half points scored without a game
    awarded: set[int] = field(default_factory=set)  # keys whose points without a game are not the pairing bye


SP_ZERO_KEY = "sp_zero_letter"  # trf_header: "L" when the imported cross table wrote 0:L, not 0:-
SP_HALF_KEY = "sp_half_letter"  # trf_header: "D" when the imported cross table wrote 0:D, not 0:=


@dataclass
class SpEvent:
    name: str
    arbiter: str = ""
    planned_rounds: int = 0
    players: list[SpPlayer] = field(default_factory=list)
    rounds: dict[int, SpRound] = field(default_factory=dict)
    colours_known: bool = True
    scale: int = 1  # points of a win: 1 (Swiss Perfect) or 2 (this program's own 2 / 1 / 0 exports)
    saved_on: date | None = None  # when the results file was last saved (the zip's record of it): a stand-in date
    zero_letter: str = ""  # how a text export writes a round without a game worth nothing: "L" (0:L) or "-" (0:-)
    half_letter: str = ""  # and one worth half a point: "D" (0:D) or "=" (0:=)
    games: int = 1  # games per round: 2 when this program's cross table of a micro-match writes each game's letter
    warnings: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------------------------- the .ini
def parse_ini(text: str) -> dict[str, dict[str, str]]:
    """A tolerant INI reader: ``[Section]`` and ``key=value`` lines; the first value of a repeated key stays."""
    out: dict[str, dict[str, str]] = {}
    section: dict[str, str] | None = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            section = out.setdefault(line[1:-1].strip().lower(), {})
        elif section is not None and "=" in line:
            key, value = line.split("=", 1)
            section.setdefault(key.strip().lower(), value.strip())
    return out


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _int(value: Value) -> int:
    if isinstance(value, bool) or value is None:
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        return int(value)
    text = str(value).strip()
    return int(text) if text.isdigit() else 0


def _text(value: Value) -> str:
    return " ".join(str(value).split()) if value is not None else ""


# ------------------------------------------------------------------------------------------ native files
def read_native(ini: bytes, trn: bytes, sco: bytes, stem: str) -> SpEvent:
    """The event in a Swiss Perfect ``.ini``/``.trn``/``.sco`` triple."""
    info = parse_ini(_decode(ini)).get("tournament info", {})
    where_ini = f"Swiss Perfect, {stem}.ini"
    games = info.get("multi games", "1").strip() or "1"
    if games != "1":
        raise InterchangeError(
            [
                f"{where_ini}: {games} partidas por rodada (Multi Games={games}); o Swiss Perfect não grava o "
                "resultado de cada partida, só o total da rodada: importe rodadas de uma partida"
            ]
        )
    if info.get("team or individual", "0").strip() not in ("", "0"):
        raise InterchangeError([f"{where_ini}: torneio por equipes, que este programa não gere"])
    rounds_text = info.get("rounds", "").strip()
    event = SpEvent(
        name=_text(info.get("name")) or stem,
        arbiter=_text(info.get("arbiter")),
        planned_rounds=int(rounds_text) if rounds_text.isdigit() else 0,
    )
    if not info:
        # a real file (saved by another version) had only the display sections
        event.warnings.append(
            pairings(
                f"{where_ini}: sem a seção [Tournament Info]; o torneio leva o nome do arquivo ({stem}), sem árbitro, e "
                "tantas rodadas quantas foram jogadas"
            )
        )
    try:
        players = read_dbf(trn, max_records=5_000).records
    except DbfError as exc:
        raise InterchangeError([f"Swiss Perfect, {stem}.trn: {exc.reason}"]) from None
    try:
        results = read_dbf(sco, max_records=200_000).records
    except DbfError as exc:
        raise InterchangeError([f"Swiss Perfect, {stem}.sco: {exc.reason}"]) from None
    errors: list[str] = []
    by_key: dict[int, SpPlayer] = {}
    numbers: dict[int, str] = {}
    for i, rec in enumerate(players, start=1):
        where = f"Swiss Perfect, {stem}.trn, registro {i}"
        key = _int(rec.get("ID"))
        number = _int(rec.get("START_NO")) or _int(rec.get("ORDER"))
        surname, first = _text(rec.get("SURNAME")), _text(rec.get("FIRSTNAME"))
        name = f"{first} {surname}".strip()
        if key <= 0 or number <= 0:
            errors.append(f"{where}: ID ou número inicial inválido ({rec.get('ID')!r}, {rec.get('START_NO')!r})")
            continue
        if not name:
            errors.append(f"{where}: nome ausente")
            continue
        if key in by_key:
            errors.append(f"{where}: ID {key} repetido")
            continue
        if number in numbers:
            errors.append(f"{where}: número inicial {number} repetido ({numbers[number]} e {name})")
            continue
        numbers[number] = name
        feder = _text(rec.get("FEDER")).upper()
        absent_mask = _int(rec.get("ABSENT"))
        bonus = rec.get("BONUS")
        bonus_halves = int(bonus * 2) if isinstance(bonus, Decimal | int) and bonus > 0 else 0
        birth = rec.get("BIRTH_DATE")
        player = SpPlayer(
            key=key,
            number=number,
            name=name,
            sex={"1": "M", "2": "F"}.get(_text(rec.get("SEX")), ""),
            birth_date=birth if isinstance(birth, date) else None,
            state=feder if feder in _UF else "",
            federation=feder if feder and feder not in _UF else "",
            club=_text(rec.get("CLUB")),
            loc_id=_text(rec.get("LOC_ID")),
            intl_id=_text(rec.get("INTL_ID")),
            rating=_int(rec.get("LOC_RTG")) or None,
            fmjd_rating=_int(rec.get("INTL_RTG")) or None,
            title=_TITLES.get(_text(rec.get("TITLE")), ""),
            late_entry=_int(rec.get("LATE_ENTRY")) or None,
            # WITHDRAWAL is the first round the player is out of (real files: no record from that round on)
            withdrawn_from=_int(rec.get("WITHDRAWAL")) or None,
            absent_rounds={r + 1 for r in range(MAX_ROUNDS) if absent_mask >> r & 1},
            bonus_halves=bonus_halves,
            where=where,
        )
        by_key[key] = player
        event.players.append(player)
    for i, rec in enumerate(results, start=1):
        where = f"Swiss Perfect, {stem}.sco, registro {i}"
        rnd, white, black = _int(rec.get("ROUND")), _int(rec.get("WHITE")), _int(rec.get("BLACK"))
        ws, bs = _int(rec.get("W_SCORE")), _int(rec.get("B_SCORE"))
        played = _int(rec.get("W_TYPE")) == 1 and _int(rec.get("B_TYPE")) == 1
        if not white and not black:
            continue  # an empty slot Swiss Perfect keeps
        if not 1 <= rnd <= MAX_ROUNDS:
            errors.append(f"{where}: rodada inválida ({rec.get('ROUND')!r})")
            continue
        missing = [k for k in (white, black) if k and k not in by_key]
        if missing:
            errors.append(f"{where}: jogador de ID {missing[0]} não está no arquivo .trn")
            continue
        slot = event.rounds.setdefault(rnd, SpRound())
        if white and black:
            result = _board_result(ws, bs, played)
            if result is None:
                errors.append(
                    f"{where}: rodada {rnd}, {by_key[white].name} × {by_key[black].name}: pontos {ws / 2:g} e "
                    f"{bs / 2:g} não formam um resultado"
                )
                continue
            slot.boards.append((white, black, (result,)))
        else:
            key, score, kind = (white, ws, rec.get("W_TYPE")) if white else (black, bs, rec.get("B_TYPE"))
            if score not in (0, 1, 2):
                errors.append(f"{where}: rodada {rnd}: pontuação inválida {score / 2:g}")
                continue
            slot.alone[key] = score
            if _int(kind) != 1:
                slot.awarded.add(key)  # points given without a game (type 35), not the bye the pairing gave
    if errors:
        raise InterchangeError(errors[:50])
    if not event.players:
        raise InterchangeError([f"Swiss Perfect, {stem}.trn: nenhum jogador"])
    _check_withdrawals(event)
    _absences_without_record(event)
    _spread_bonus(event)
    return event


def _absences_without_record(event: SpEvent) -> None:
    """A round marked in ``ABSENT`` with no record for the player (a real file has them) is still an announced
    absence: a zero record is added, which the player's bonus may then fill."""
    last = max([event.planned_rounds, *event.rounds], default=0)
    for p in event.players:
        for rnd in sorted(p.absent_rounds):
            if rnd > last or (p.late_entry and rnd < p.late_entry) or (p.withdrawn_from and rnd >= p.withdrawn_from):
                continue
            slot = event.rounds.setdefault(rnd, SpRound())
            if p.key not in slot.alone and not any(p.key in (w, b) for w, b, _ in slot.boards):
                slot.alone[p.key] = 0


def _check_withdrawals(event: SpEvent) -> None:
    """A withdrawn player's records from the round of the withdrawal on: zero records (absences Swiss Perfect
    announced before the withdrawal) are dropped; a game or points there move the withdrawal after them (said)."""
    for p in event.players:
        if not p.withdrawn_from:
            continue
        active = [
            r
            for r, slot in event.rounds.items()
            if slot.alone.get(p.key) or any(p.key in (w, b) for w, b, _ in slot.boards)
        ]
        if active and max(active) >= p.withdrawn_from:
            event.warnings.append(
                pairings(
                    f"{p.name} (nº {p.number}): retirado na rodada {p.withdrawn_from} (WITHDRAWAL), mas com resultado "
                    f"na rodada {max(active)}; registrado como retirado a partir da rodada {max(active) + 1}"
                )
            )
            p.withdrawn_from = max(active) + 1
        for r, slot in event.rounds.items():
            if r >= p.withdrawn_from and p.key in slot.alone:
                del slot.alone[p.key]
                slot.awarded.discard(p.key)


def _board_result(ws: int, bs: int, played: bool) -> str | None:
    if played:
        return {(2, 0): "1-0", (0, 2): "0-1", (1, 1): "1/2"}.get((ws, bs))
    return {(2, 0): "+/-", (0, 2): "-/+", (0, 0): "-/-"}.get((ws, bs))


def _spread_bonus(event: SpEvent) -> None:
    """Points given without a game (``BONUS``) go, half a point at a time, to the rounds the player has no result
    in: first those where the file lists the player alone with nothing, then those with no record at all (rounds
    before a late entry, absences), as Swiss Perfect shows them in its cross table."""
    last = max([event.planned_rounds, *event.rounds], default=0)
    for p in event.players:
        halves = p.bonus_halves
        if not halves:
            continue
        on_board = {r for r, s in event.rounds.items() for w, b, _ in s.boards if p.key in (w, b)}
        for rnd in range(1, last + 1):
            if not halves:
                break
            slot = event.rounds.setdefault(rnd, SpRound())
            if rnd in on_board or slot.alone.get(p.key, 0):
                continue
            if p.withdrawn_from and rnd >= p.withdrawn_from:
                break
            slot.alone[p.key] = slot.alone.get(p.key, 0) + 1
            p.absent_rounds.add(rnd)
            halves -= 1
        if halves:
            raise InterchangeError(
                [
                    f"{p.where}: {p.name} tem {halves / 2:g} {plural(halves / 2, 'ponto', 'pontos')} de bônus "
                    "(BONUS), mas nenhuma rodada sem "
                    "partida que os receba; este programa não guarda pontos fora das rodadas"
                ]
            )


# ------------------------------------------------------------------------------------------- text export
_CELL = re.compile(r"^(\d*)\s*:\s*([WDLwdl+=-]?|[WDLwdl+-]{2})$")
_HEADERS = {
    "no": "no",
    "name": "name",
    "feder": "feder",
    "intl id": "intl_id",
    "intlid": "intl_id",
    "loc id": "loc_id",
    "locid": "loc_id",
    "rtg": "rtg",
    "loc": "loc",
    "title": "title",
    "total": "total",
}


_TWO_WORDS = re.compile(r"(intl id|loc id)\b", re.IGNORECASE)
_WORD = re.compile(r"\S+")


def _header_columns(line: str) -> list[tuple[int, str]]:
    """(start, name) of each column of a header laid out with spaces (``Intl Id`` and ``Loc Id`` are one each)."""
    out, i = [], 0
    while i < len(line):
        if line[i].isspace():
            i += 1
            continue
        m = _TWO_WORDS.match(line, i) or _WORD.match(line, i)
        assert m is not None
        out.append((i, m.group().strip()))
        i = m.end()
    return out


def _space_cells(line: str, starts: list[int]) -> list[str]:
    """The cells of a line laid out with spaces under the header's columns: each from its column's start to the
    next's, a boundary that falls inside a value moving to the value's start (a number right-aligned under its
    header begins left of it)."""
    bounds = []
    for b in starts[1:]:
        while 0 < b < len(line) and not line[b - 1].isspace() and not line[b].isspace():
            b -= 1
        bounds.append(b)
    cuts = [0, *bounds, max(len(line), bounds[-1] if bounds else 0)]
    return [line[a:z].strip() for a, z in zip(cuts, cuts[1:])]


def _first_line(text: str) -> str:
    return next((line for line in text.replace("\r", "\n").split("\n") if line.strip()), "")


def looks_like_sp_text(data: bytes) -> bool:
    """A cross table: its first line is the header ``No Name ...``, tab-separated or laid out with spaces."""
    first = _first_line(_decode(data[:4096]).lstrip("\ufeff"))
    if "\t" in first:
        cells = [c.strip().lower() for c in first.split("\t")]
    else:
        cells = [name.lower() for _i, name in _header_columns(first)]
    return len(cells) > 2 and cells[0] == "no" and cells[1] == "name"


def _text_header(line: str, where: str) -> tuple[list[str], dict[str, int], dict[int, int], list[int]]:
    """(names, column of each known field, column of each round, where each column starts when laid out with
    spaces) of a cross table's header, tab-separated or laid out with spaces."""
    starts: list[int] = []
    if "\t" in line:
        header = [c.strip().lower() for c in line.split("\t")]
    else:  # laid out with spaces: the columns start where the header's names start
        laid = _header_columns(line)
        header = [name.lower() for _i, name in laid]
        starts = [i for i, _name in laid]
    columns: dict[str, int] = {}
    round_cols: dict[int, int] = {}
    for i, name in enumerate(header):
        if name.isdigit():
            round_cols[int(name)] = i
        elif name in _HEADERS:
            columns[_HEADERS[name]] = i
        elif name:
            raise InterchangeError([f"{where}: coluna desconhecida “{name}”"])
    if "no" not in columns or "name" not in columns:
        raise InterchangeError(
            [f"{where}: o cabeçalho deve ter as colunas No e Name, separadas por tabulação ou espaços"]
        )
    if sorted(round_cols) != list(range(1, len(round_cols) + 1)) or len(round_cols) > MAX_ROUNDS:
        raise InterchangeError([f"{where}: colunas de rodada fora de ordem ou faltando ({sorted(round_cols)})"])
    return header, columns, round_cols, starts


def _round_cells(
    event: SpEvent, cells: list[str], round_cols: dict[int, int], where: str, errors: list[str]
) -> list[tuple[int, int, str, str]]:
    """A line's round cells as (round, opponent, letters, where): opponent -1 when the player had no game and no
    points that round (`` : ``, or ``0:`` as Swiss Perfect writes a round without a record, before a late entry), 0
    when without an opponent (a bye, an absence); the letters the file uses for a round without a game worth
    nothing or half are kept in ``event``."""
    mine = []
    for rnd, i in sorted(round_cols.items()):
        cell = cells[i]
        m = _CELL.match(cell)
        if not m:
            errors.append(f"{where}, rodada {rnd}: resultado ilegível “{cell}”")
            continue
        opp = int(m.group(1)) if m.group(1) else -1
        code = m.group(2).upper()
        if opp == 0 and code in ("L", "-") and not event.zero_letter:
            event.zero_letter = code
        if opp == 0 and code in ("D", "=") and not event.half_letter:
            event.half_letter = code
        if len(code) > 1 and opp <= 0:
            errors.append(f"{where}, rodada {rnd}: “{cell}”: duas partidas sem adversário")
            continue
        mine.append((rnd, -1 if opp == 0 and not code else opp, code, where))
    return mine


def read_text_export(data: bytes, stem: str) -> SpEvent:
    """The event in a Swiss Perfect cross-table text export (tab-separated)."""
    text = _decode(data).lstrip("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header_at = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_at is None:
        raise InterchangeError([f"Swiss Perfect (texto), {stem}: arquivo vazio"])
    tabs = "\t" in lines[header_at]
    header, columns, round_cols, starts = _text_header(
        lines[header_at], f"Swiss Perfect (texto), {stem}, linha {header_at + 1}"
    )
    event = SpEvent(name=stem, planned_rounds=len(round_cols), colours_known=False)
    errors: list[str] = []
    cells_of: dict[int, list[tuple[int, int, str, str]]] = {}  # number -> (round, opp, code, where)
    for lineno, line in enumerate(lines[header_at + 1 :], start=header_at + 2):
        if not line.strip():
            continue
        cells = [c.strip() for c in line.split("\t")] if tabs else _space_cells(line, starts)
        where = f"Swiss Perfect (texto), {stem}, linha {lineno}"
        if len(cells) < len(header):
            cells += [""] * (len(header) - len(cells))
        number_text = cells[columns["no"]]
        if not number_text.isdigit() or int(number_text) < 1:
            errors.append(f"{where}: número inválido “{number_text}”")
            continue
        number = int(number_text)
        if number in cells_of:
            errors.append(f"{where}: número {number} repetido")
            continue
        name = cells[columns["name"]]  # as written: "Gondo, Alex" stays so
        if not name.strip(" ,"):
            errors.append(f"{where}: nome ausente")
            continue

        def col(key: str, cells: list[str] = cells) -> str:
            return cells[columns[key]] if key in columns else ""

        feder = col("feder").upper()
        total = col("total").replace(",", ".")
        try:
            declared = Decimal(total) if total else None
        except ArithmeticError:
            errors.append(f"{where}: total inválido “{total}”")
            continue
        player = SpPlayer(
            key=number,
            number=number,
            name=" ".join(name.split()),
            state=feder if feder in _UF else "",
            federation=feder if feder and feder not in _UF else "",
            loc_id=col("loc_id"),
            intl_id=col("intl_id"),
            rating=int(col("loc")) if col("loc").isdigit() and int(col("loc")) > 0 else None,
            fmjd_rating=int(col("rtg")) if col("rtg").isdigit() and int(col("rtg")) > 0 else None,
            title=col("title").upper() if col("title").upper() in _TITLES.values() else "",
            declared_total=declared,
            where=where,
        )
        event.players.append(player)
        mine = _round_cells(event, cells, round_cols, where, errors)
        cells_of[number] = mine
    if errors:
        raise InterchangeError(errors[:50])
    if not event.players:
        raise InterchangeError([f"Swiss Perfect (texto), {stem}: nenhum jogador"])
    _games_per_round(event, cells_of, errors)
    if errors:
        raise InterchangeError(errors[:50])
    _text_rounds(event, cells_of, errors)
    if errors:
        raise InterchangeError(errors[:50])
    return event


_PAIR = {
    ("W", "L"): "1-0",
    ("L", "W"): "0-1",
    ("D", "D"): "1/2",
    ("+", "-"): "+/-",
    ("-", "+"): "-/+",
    ("-", "-"): "-/-",
}
_ALONE = {"W": 2, "+": 2, "D": 1, "=": 1, "L": 0, "-": 0}


def _draw_bye_rounds(cells_of: dict[int, list[tuple[int, int, str, str]]]) -> set[int]:
    """The rounds whose one ``0:D`` is the pairing bye worth a draw: W, D and L are what the pairing gave (Swiss
    Perfect writes its bye ``0:W``), so in a file without a ``0:W`` (a tournament has one bye value) a round's lone
    ``0:D`` is the bye at the draw value; with a ``0:W`` anywhere, or two in a round, a ``0:D`` is half a point given
    without a game (an absence, Swiss Perfect's bonus), as ``0:=`` is."""
    alone = [(rnd, code) for cells in cells_of.values() for rnd, opp, code, _w in cells if opp == 0]
    if any(code == "W" for _r, code in alone):
        return set()
    per_round: dict[int, int] = {}
    for rnd, code in alone:
        if code == "D":
            per_round[rnd] = per_round.get(rnd, 0) + 1
    return {rnd for rnd, n in per_round.items() if n == 1}


def _text_rounds(event: SpEvent, cells_of: dict[int, list[tuple[int, int, str, str]]], errors: list[str]) -> None:
    rounds = event.planned_rounds
    draw_byes = _draw_bye_rounds(cells_of)
    for p in event.players:
        cells = {rnd: (opp, code, where) for rnd, opp, code, where in cells_of[p.number]}
        blank = {rnd for rnd in range(1, rounds + 1) if cells[rnd][0] == -1}
        lead = 0
        while lead + 1 in blank:
            lead += 1
        trail = rounds
        while trail in blank and trail > lead:
            trail -= 1
        if lead and lead < rounds:
            p.late_entry = lead + 1
        if trail < rounds and trail >= 1:
            p.withdrawn_from = trail + 1
        for rnd in range(1, rounds + 1):
            opp, code, where = cells[rnd]
            slot = event.rounds.setdefault(rnd, SpRound())
            if opp <= 0:
                if rnd in blank:
                    continue  # no record: not in the tournament (late entry, withdrawal) or not paired
                slot.alone[p.number] = _ALONE.get(code, 0)
                if code == "+":
                    slot.awarded.add(p.number)  # a point without a game; "W" is the pairing bye (below)
                elif code != "W" and not (code == "D" and rnd in draw_byes):
                    p.absent_rounds.add(rnd)
                continue
            if opp not in cells_of:
                errors.append(f"{where}, rodada {rnd}: adversário {opp} não está na tabela")
                continue
            o_opp, o_code, o_where = next((o, c, w) for r, o, c, w in cells_of[opp] if r == rnd)
            if o_opp != p.number:  # both lines named ("linha N" ends where)
                errors.append(
                    f"{where}, rodada {rnd}: {p.name} (nº {p.number}) enfrenta o nº {opp}, mas a "
                    f"{o_where.rsplit(', ', 1)[-1]} (nº {opp}) mostra "
                    f"{f'o jogador {o_opp}' if o_opp > 0 else 'nenhum adversário'} nessa rodada"
                )
                continue
            if opp < p.number:
                continue  # read from the other side
            result = _board_games(code, o_code, event.games)
            if result is None:
                errors.append(
                    f"{where}, rodada {rnd}: resultados de {p.number} e {opp} não conferem (“{code}” nesta linha e "
                    f"“{o_code}” na {o_where.rsplit(', ', 1)[-1]})"
                )
                continue
            slot.boards.append((p.number, opp, result))
    for slot in event.rounds.values():
        # Swiss Perfect writes the pairing bye ``0:W`` and a whole point awarded without a game ``0:+``; other
        # programs (and this one's exports before it wrote ``0:W``) write the bye ``0:+``: a lone ``+`` in a round
        # without a ``W`` is the bye
        rated = [k for k, halves in slot.alone.items() if halves == 2 and k not in slot.awarded]
        plus = [k for k in slot.awarded if slot.alone[k] == 2]
        if not rated and len(plus) == 1:
            slot.awarded.discard(plus[0])
    if not errors:
        _check_totals(event, errors)
    event.warnings.append(
        pairings(
            "a exportação de texto do Swiss Perfect não registra as cores: em cada partida o jogador de número menor "
            "ficou com as brancas; para as cores reais importe os arquivos do torneio (.zip com .ini, .trn e .sco)"
            if event.games == 1
            else "a tabela cruzada não registra as cores: em cada micro-match o jogador de número menor ficou com as "
            "brancas na 1ª partida e com as pretas na 2ª; para as cores reais importe o arquivo JSON do torneio"
        )
    )


def _board_games(code: str, o_code: str, games: int) -> tuple[str | None, ...] | None:
    """The result of each game of a board from the letters of its two cells (``code`` the first's, the lower
    number, who has White in game 1; in a micro-match the second has White in game 2), None when they disagree."""
    if not code and not o_code:
        return (None,) * games  # a game without a result: ``9:`` on both lines (read by _SpRounds)
    if len(code) != games or len(o_code) != games:
        return None
    out = []
    for i, (mine, theirs) in enumerate(zip(code, o_code)):
        result = _PAIR.get((mine, theirs) if i % 2 == 0 else (theirs, mine))
        if result is None:
            return None
        out.append(result)
    return tuple(out)


def _check_totals(event: SpEvent, errors: list[str]) -> None:
    """Each line's ``Total`` against its cells: Swiss Perfect counts 1 / ½ / 0 a game; this program's own export of
    a 2 / 1 / 0 tournament doubles every total (``event.scale``); a Total above the cells is Swiss Perfect's bonus
    (:func:`_invisible_bonus`); any other difference is an error."""
    sums = {}
    for p in event.players:
        got = Decimal(0)
        for slot in event.rounds.values():
            got += Decimal(slot.alone.get(p.number, 0)) / 2 * event.games  # a round without a game: every game
            for w, b, res in slot.boards:
                if p.number in (w, b):
                    got += _points(res, p.number == w)
        sums[p.number] = got
    declared = [p for p in event.players if p.declared_total is not None]
    if declared and all(p.declared_total == 2 * sums[p.number] for p in declared) and any(sums.values()):
        event.scale = 2
        return
    for p in declared:
        total = p.declared_total
        assert total is not None
        if total > sums[p.number] and event.games == 1 and _invisible_bonus(event, p, total - sums[p.number]):
            continue
        if total != sums[p.number]:
            errors.append(
                f"{p.where}: {p.name} tem total {total:g} na coluna Total, mas os resultados somam {sums[p.number]:g}"
            )


def _games_per_round(event: SpEvent, cells_of: dict[int, list[tuple[int, int, str, str]]], errors: list[str]) -> None:
    """One letter per game: two in every game cell of this program's cross table of a micro-match, one in Swiss
    Perfect's. A file that mixes them is refused, naming the first cell unlike the file's first game."""
    played = [
        (len(code), where, rnd) for cells in cells_of.values() for rnd, opp, code, where in cells if opp > 0 and code
    ]  # ``9:``, a game without a result, has no letter at all: it says nothing of how many games a round has
    if not played or all(n == played[0][0] for n, _w, _r in played):
        event.games = 2 if played and played[0][0] == 2 else 1
        return
    _n, where, rnd = next(c for c in played if c[0] != played[0][0])
    errors.append(
        f"{where}, rodada {rnd}: partidas de uma rodada escritas ora com uma letra, ora com duas (uma por partida "
        "de um micro-match); escreva todas do mesmo jeito"
    )


def _invisible_bonus(event: SpEvent, p: SpPlayer, missing: Decimal) -> bool:
    """Points in the Total that no cell shows: Swiss Perfect's bonus (``BONUS``), which its export does not always
    write. As for the tournament files, they go half a point at a time to the rounds the player has no result in
    while in the tournament: first those with nothing (``0:L``, ``0:-``), then those without a record. When they do
    not fit, nothing changes and False is returned (the totals then disagree, and the import says so)."""
    halves = missing * 2
    if halves != halves.to_integral_value():
        return False
    need = int(halves)
    first = p.late_entry or 1
    end = (p.withdrawn_from or event.planned_rounds + 1) - 1
    span = range(first, end + 1)
    on_board = {r for r, slot in event.rounds.items() for w, b, _ in slot.boards if p.number in (w, b)}
    nothing = [r for r in span if event.rounds[r].alone.get(p.number) == 0]
    unrecorded = [r for r in span if r not in on_board and p.number not in event.rounds[r].alone]
    chosen = (nothing + unrecorded)[:need]
    if len(chosen) < need:
        return False
    for r in chosen:
        event.rounds[r].alone[p.number] = 1
        p.absent_rounds.add(r)
    rounds = ", ".join(map(str, sorted(chosen)))
    several = len(chosen) > 1
    event.warnings.append(
        points(
            f"{p.where}: {p.name} tem {missing:g} {plural(missing, 'ponto', 'pontos')} no Total que nenhuma rodada "
            "mostra (bônus do Swiss Perfect): "
            + (
                f"registrados como ausência valendo meio ponto nas rodadas {rounds}"
                if several
                else f"registrado como ausência valendo meio ponto na rodada {rounds}"
            )
        )
    )
    return True


def _points(results: tuple[str | None, ...], first: bool) -> Decimal:
    """The first's (``first``) or the second's points of a board's games at 1 / ½ / 0: the first has White in
    game 1, the second in game 2."""
    one, half, zero = Decimal(1), Decimal("0.5"), Decimal(0)
    table = {"1-0": (one, zero), "0-1": (zero, one), "1/2": (half, half), "+/-": (one, zero), "-/+": (zero, one)}
    got = zero
    for i, result in enumerate(results):
        pair = table.get(result or "", (zero, zero))  # no result (``9:``): nothing
        got += pair[0] if first == (i % 2 == 0) else pair[1]
    return got


# ------------------------------------------------------------------------------------------ to interchange
def to_interchange(event: SpEvent, *, slug: str, today: date) -> tuple[dict[str, Any], list[str]]:
    """The interchange-file dict of ``event`` (single-game rounds, or micro-matches from this program's cross table;
    scoring 1 / ½ / 0 as Swiss Perfect counts, or 2 / 1 / 0 when the totals say so)
    and the warnings of the import. Raises InterchangeError for what the product cannot hold.

    Swiss Perfect keeps no date (not in the ``.ini``, and the dBase headers carry a fixed one): the tournament is
    marked ``start_date_unknown``, as a TRF without its 042 line, and stands on the day the results file was last
    saved (the zip records it) or, without that, on ``today``, until the director gives the date."""
    from tournaments.interchange.jsonfile import FORMAT

    warnings = list(event.warnings)
    last = _last_paired_round(event)
    _late_entries_with_points(event, warnings)
    rounds = _SpRounds(event, last, warnings)
    rounds.convert()
    if len(rounds.bye_values) > 1:
        one, other = sorted(rounds.bye_values)
        raise InterchangeError(
            [
                f"Swiss Perfect: byes de valores diferentes no mesmo torneio ({_value_pt(one)}: "
                f"{rounds.bye_values[one][0]}; {_value_pt(other)}: {rounds.bye_values[other][0]}); um torneio aqui "
                "tem um valor só para o bye"
            ]
        )
    players = _sp_players(event, last, warnings)
    start = _start_date(event, today, warnings)
    data = {
        "format": FORMAT,
        "tournament": _sp_tournament(event, slug, last, start, rounds),
        "categories": [{"code": "ABS", "name": "Absoluto"}],
        "players": players,
        "rounds": rounds.rounds,
        "absences": rounds.ahead,
    }
    return data, warnings


def _last_paired_round(event: SpEvent) -> int:
    last = max([*event.rounds, 0])
    while last and not event.rounds[last].boards and not any(event.rounds[last].alone.values()):
        # a round Swiss Perfect opened but did not pair: its lone zero records are absences announced ahead
        last -= 1
        if last == 0:
            break
    return last


def _late_entries_with_points(event: SpEvent, warnings: list[str]) -> None:
    """Points in a round before the late entry (Swiss Perfect lets the arbiter give some for rounds missed):
    here a round before the entry scores nothing, so the entry moves to the first round with points and the
    rounds from there are absences with the points given (rounds before it stay rounds not entered)."""
    for p in event.players:
        if not p.late_entry:
            continue
        given = [r for r in range(1, p.late_entry) if event.rounds.get(r, SpRound()).alone.get(p.key, 0)]
        for r in range(1, min(given, default=p.late_entry)):
            event.rounds.get(r, SpRound()).alone.pop(p.key, None)  # a zero record before the entry: nothing
        if not given:
            continue
        first = min(given)
        warnings.append(
            points(
                f"{p.name} (nº {p.number}): entrada tardia na rodada {p.late_entry} registrada "
                + ("como ausências nas rodadas anteriores" if first == 1 else f"na rodada {first}, com ausências até "
                   f"a rodada {p.late_entry - 1}")
                + ", com os pontos que o Swiss Perfect deu"
            )
        )  # fmt: skip
        for r in range(first, p.late_entry):
            p.absent_rounds.add(r)
        p.late_entry = first if first > 1 else None


class _SpRounds:
    """The event's rounds as the interchange file's ``rounds`` (up to ``last``) and ``absences`` (the rounds
    after it), with the values of the pairing byes (``bye_values``: value -> the byes, by label) and how many
    absences are worth each value."""

    def __init__(self, event: SpEvent, last: int, warnings: list[str]) -> None:
        self.event, self.last, self.warnings = event, last, warnings
        self.key_to_number = {p.key: p.number for p in event.players}
        self.by_key = {p.key: p for p in event.players}
        self.bye_values: dict[str, list[str]] = {}
        self.absence_count = {"zero": 0, "draw": 0, "win": 0}
        self.rounds: list[dict[str, Any]] = []
        self.ahead: list[dict[str, Any]] = []

    def convert(self) -> None:
        key_to_number = self.key_to_number
        for rnd in range(1, max([*self.event.rounds, 0]) + 1):
            slot = self.event.rounds.get(rnd, SpRound())
            if rnd > self.last:
                self.ahead += [
                    {"round": rnd, "player": key_to_number[k], "value": "zero"}
                    for k in sorted(slot.alone, key=lambda k: key_to_number[k])
                ]
            else:
                self.rounds.append(self._round(rnd, slot))

    def _round(self, rnd: int, slot: SpRound) -> dict[str, Any]:
        key_to_number = self.key_to_number
        byes, absent, absent_values = self._alone(rnd, slot)
        one_sided = []
        if len(byes) > 1:
            # a second pairing bye (Swiss Perfect allows it when pairing by hand): kept as that player's own round,
            # as the TRF import keeps one
            one_sided = [{"player": n, "opponent": None, "colour": "", "result": "U"} for n in byes[1:]]
            self.warnings.append(
                points(
                    f"Swiss Perfect, rodada {rnd}: {len(byes)} jogadores com o bye do emparceiramento (números "
                    f"{', '.join(map(str, byes))}); o bye da rodada fica com o nº {byes[0]}, os outros contam como byes "
                    "registrados só para o jogador"
                )
            )
        boards = [
            {"board": i, "first": key_to_number[w], "second": key_to_number[b], "games": self._games(rnd, w, b, res)}
            for i, (w, b, res) in enumerate(slot.boards, start=1)
        ]
        return {
            "number": rnd,
            "opening": None,
            "status": "published",
            "boards": boards,
            "bye": byes[0] if byes else None,
            "absent": sorted(absent),
            "absent_values": absent_values,
            **({"one_sided": one_sided} if one_sided else {}),
        }

    def _games(self, rnd: int, first: int, second: int, results: tuple[str | None, ...]) -> list[str | None]:
        """A board's results; a game without one (``9:`` on both lines, counted nothing in the totals) stays without
        one in the last round, for the director to enter; in an earlier round (the product holds no result missing
        before a round paired after it) it is a double forfeit (-/-), which counts nothing either. Said."""
        if None not in results:
            return list(results)
        a, b = self.by_key[first], self.by_key[second]
        said = (
            f"Swiss Perfect, rodada {rnd}: a partida de {a.name} (nº {a.number}) e {b.name} (nº {b.number}) está sem "
            f"resultado (“{b.number}:” e “{a.number}:”), e o Total do arquivo não a conta"
        )
        if rnd == self.last:
            self.warnings.append(points(f"{said}; importada sem resultado, para o diretor lançar"))
            return list(results)
        self.warnings.append(
            points(
                f"{said}; como há rodadas emparceiradas depois dela, importada como W.O. duplo (-/-), que não vale "
                "pontos a nenhum dos dois"
            )
        )
        return ["-/-" if r is None else r for r in results]

    def _alone(self, rnd: int, slot: SpRound) -> tuple[list[int], list[int], dict[str, str]]:
        """The players of a round without a game: the pairing byes, the absent and their values."""
        key_to_number = self.key_to_number
        byes = []
        absent = []
        absent_values = {}
        for key, halves in sorted(slot.alone.items(), key=lambda kv: key_to_number[kv[0]]):
            p = self.by_key[key]
            label = f"{p.name} (nº {p.number}), rodada {rnd}"
            before_entry = p.late_entry is not None and rnd < p.late_entry
            # the pairing bye: points without a game that the pairing gave (not an absence, not points awarded)
            if halves and not before_entry and rnd not in p.absent_rounds and key not in slot.awarded:
                byes.append(key_to_number[key])
                self.bye_values.setdefault("win" if halves == 2 else "draw", []).append(label)
            else:
                # an absence keeps the value Swiss Perfect gave it: zero, half a point or a whole point
                value = ("zero", "draw", "win")[halves]
                absent.append(key_to_number[key])
                absent_values[str(key_to_number[key])] = value
                self.absence_count[value] += 1
        return byes, absent, absent_values


def _sp_players(event: SpEvent, last: int, warnings: list[str]) -> list[dict[str, Any]]:
    players = []
    unknown_sex = []
    odd_intl: list[str] = []
    for p in sorted(event.players, key=lambda p: p.number):
        if not p.sex:
            unknown_sex.append(p.number)
        players.append(_sp_player(p, event, last, warnings, odd_intl))
    if unknown_sex:
        warnings.append(
            rights(
                f"sexo não informado no arquivo para {_players(unknown_sex)}: deixado em branco, e categorias por sexo "
                f"não {'o' if len(unknown_sex) == 1 else 'os'} incluem; informe-o nas inscrições"
            )
        )
    if odd_intl:
        warnings.append(f"Intl Id que não é um número para {_players(odd_intl)}: não guardado como ID internacional")
    return players


def _players(numbers: list[Any]) -> str:
    """ "1 jogador (número 5)", "3 jogadores (números 1, 4, 9)"."""
    if len(numbers) == 1:
        return f"1 jogador (número {_some(numbers)})"
    return f"{len(numbers)} jogadores (números {_some(numbers)})"


def _sp_player(p: SpPlayer, event: SpEvent, last: int, warnings: list[str], odd_intl: list[str]) -> dict[str, Any]:
    """One player of the file; an international ID that is not a number goes to ``odd_intl``."""
    player: dict[str, Any] = {
        "id": p.number,
        "cbjd_id": p.loc_id or None,
        "name": p.name[:120],
        "sex": p.sex,  # "" when the file does not say: never guessed
        "birth_date": p.birth_date.isoformat() if p.birth_date else None,
        "state": p.state,
        "club": p.club[:120],
        "rating": p.rating,
        "categories": ["ABS"],
    }
    if p.fmjd_rating:
        player["fmjd_rating"] = p.fmjd_rating
    if p.title:
        player["title"] = p.title
    if p.withdrawn_from and p.withdrawn_from <= max(event.planned_rounds, last):
        player["withdrawn_from"] = p.withdrawn_from
    if p.late_entry and p.late_entry > 1:
        player["late_entry"] = p.late_entry
    if len(p.federation) <= 3:
        player["federation"] = p.federation  # as the TRF import keeps it; a Brazilian state is the UF
    else:
        warnings.append(f"{p.name} (nº {p.number}): federação “{p.federation}” com mais de 3 letras; não guardada")
    if p.intl_id.isdigit() and len(p.intl_id) <= 20:
        player["foreign_id"] = p.intl_id  # FIDE or another federation's ID: never a CBJD ID
    elif p.intl_id:
        odd_intl.append(f"{p.number} (“{p.intl_id[:20]}”)")
    return player


def _start_date(event: SpEvent, today: date, warnings: list[str]) -> date:
    saved = event.saved_on if event.saved_on and date(1990, 1, 1) <= event.saved_on <= today else None
    start = saved or today
    warnings.append(
        "o Swiss Perfect não grava a data do torneio: o torneio fica com "
        + (f"{start:%d/%m/%Y} (a data em que os resultados foram salvos)" if saved else f"{start:%d/%m/%Y}")
        + " até o diretor informar a data de início nas configurações"
    )
    return start


def _sp_tournament(event: SpEvent, slug: str, last: int, start: date, rounds: _SpRounds) -> dict[str, Any]:
    return {
        "name": event.name[:200],
        "slug": slug,
        "variant": "brazilian-64",
        "format": "micro-match" if event.games == 2 else "single-game",
        "rounds": max(event.planned_rounds, last, 1),
        "minutes_per_game": 21,
        "start_date": start.isoformat(),
        "end_date": start.isoformat(),
        "start_date_unknown": True,
        # the cross table writes a round without a game worth nothing as the file did (0:L or 0:-)
        **_letters_kept(event),
        "city": "",
        "state": "",
        "scoring": {"win": "2", "draw": "1", "loss": "0"}
        if event.scale == 2
        else {"win": "1", "draw": "0.5", "loss": "0"},
        "bye": next(iter(rounds.bye_values), "win"),
        # the setting for absences announced later (zero or half a point); each imported one keeps its own
        "absence": "draw" if rounds.absence_count["draw"] > rounds.absence_count["zero"] else "zero",
        "acceleration": "none",
        "tiebreaks": "cbjd",
        "min_participants": 30,
        "chief_arbiter": event.arbiter[:120],
        "opening_table": None,
        "initial_colour": "white",
    }


def _letters_kept(event: SpEvent) -> dict[str, Any]:
    """The letters the file wrote for a round without a game worth nothing (``0:L``) or half (``0:D``), kept so that
    the cross table writes them back so (``trf_header``, as a TRF's header lines are kept)."""
    kept = {SP_ZERO_KEY: "L"} if event.zero_letter == "L" else {}
    if event.half_letter == "D":
        kept[SP_HALF_KEY] = "D"
    return {"trf_header": kept} if kept else {}


def _some(items: list[Any], most: int = 20) -> str:
    return ", ".join(map(str, items[:most])) + ("…" if len(items) > most else "")


def _value_pt(value: str) -> str:
    return {"win": "um ponto", "draw": "meio ponto", "zero": "zero"}[value]


# ------------------------------------------------------------------------------------------ the files
def looks_like_sp_zip(data: bytes) -> bool:
    if not data.startswith(b"PK\x03\x04") or not directory_fits(data):
        return False
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except (zipfile.BadZipFile, ValueError):
        return False
    exts = {Path(n).suffix.lower() for n in names}
    return {".trn", ".sco"} <= exts


def looks_like_sp_dbase(data: bytes) -> bool:
    head = data[:2048]
    return len(head) > 32 and head[0] == 0x03 and (b"SURNAME" in head or b"W_SCORE" in head)


def _refuse_odd_compression(where: str, infos: Iterable[zipfile.ZipInfo]) -> None:
    """zipfile inflates a bzip2 or LZMA read unbounded (issue 25, item 5): such a member is never read."""
    odd = unsafe_member(infos)
    if odd is not None:
        raise InterchangeError(
            [
                f"{where}: {odd.filename} está comprimido com {method_name(odd)}; salve o zip com a compressão "
                "padrão (deflate) ou sem compressão"
            ]
        )


def files_from_zip(data: bytes, name: str) -> tuple[bytes, bytes, bytes, str, date | None]:
    """The ``.ini``, ``.trn`` and ``.sco`` of one tournament from a zip, every member's size checked before it is
    read (a zip bomb is refused, never inflated), and the day the ``.sco`` (the results) was last saved."""
    where = f"Swiss Perfect, {name}"
    if not directory_fits(data):
        raise InterchangeError([f"{where}: arquivo zip inválido ou com arquivos demais"])
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError):
        raise InterchangeError([f"{where}: arquivo zip inválido"]) from None
    if len(infos) > MAX_MEMBERS:
        raise InterchangeError([f"{where}: o zip tem {len(infos)} arquivos; esperados .ini, .trn e .sco"])
    stems: dict[str, dict[str, zipfile.ZipInfo]] = {}
    for info in infos:
        suffix = Path(info.filename).suffix.lower()
        if suffix in (".ini", ".trn", ".sco") and not info.is_dir():
            stems.setdefault(info.filename[: -len(suffix)], {})[suffix] = info
    complete = {s: parts for s, parts in stems.items() if len(parts) == 3}
    if len(complete) != 1:
        found = ", ".join(sorted(i.filename for i in infos)) or "nada"
        raise InterchangeError(
            [f"{where}: o zip deve conter um torneio: os arquivos .ini, .trn e .sco de mesmo nome (contém: {found})"]
        )
    stem, parts = next(iter(complete.items()))
    _refuse_odd_compression(where, parts.values())
    for info in parts.values():
        if info.file_size > MAX_MEMBER_BYTES:
            raise InterchangeError(
                [f"{where}: {info.filename} teria {info.file_size} bytes descompactado (máximo {MAX_MEMBER_BYTES})"]
            )
    try:
        ini, trn, sco = (read_member(archive, parts[s], MAX_MEMBER_BYTES) for s in (".ini", ".trn", ".sco"))
    except (zipfile.BadZipFile, RuntimeError, OSError, EOFError, zlib.error, NotImplementedError, ValueError) as exc:
        raise InterchangeError([f"{where}: não foi possível descompactar ({exc})"]) from None
    try:
        saved_on: date | None = date(*parts[".sco"].date_time[:3])
    except ValueError:
        saved_on = None
    return ini, trn, sco, Path(stem).name, saved_on


def files_beside(path: Path) -> tuple[bytes, bytes, bytes, str, date | None]:
    """The three files of the tournament whose one file is ``path`` (the command line), found by stem, and the
    day the ``.sco`` was last saved."""
    folder, stem = path.parent, path.stem
    found: dict[str, Path] = {}
    for sibling in folder.iterdir():
        if sibling.stem == stem and sibling.suffix.lower() in (".ini", ".trn", ".sco"):
            found[sibling.suffix.lower()] = sibling
    missing = [s for s in (".ini", ".trn", ".sco") if s not in found]
    if missing:
        raise InterchangeError(
            [f"Swiss Perfect, {path.name}: falta {', '.join(stem + m for m in missing)} na mesma pasta"]
        )
    out = []
    for suffix in (".ini", ".trn", ".sco"):
        f = found[suffix]
        if f.stat().st_size > MAX_MEMBER_BYTES:
            raise InterchangeError([f"Swiss Perfect, {f.name}: grande demais"])
        out.append(f.read_bytes())
    saved_on = date.fromtimestamp(found[".sco"].stat().st_mtime)
    return out[0], out[1], out[2], stem, saved_on


# ------------------------------------------------------------------------------------------ the imports
def _plain(name: str) -> str:
    return fold(name)


def _check_registry(data: dict[str, Any]) -> None:
    """A ``Loc Id`` is taken as the CBJD ID, and the import reuses the registry's player with that ID: refuse when
    the registry's player has another name (another person, or another federation's ID), never link silently."""
    from tournaments.models import Player

    wanted = {p["cbjd_id"]: p for p in data["players"] if p.get("cbjd_id")}
    clashes = [
        f"Swiss Perfect: o Loc Id {pl.cbjd_id} de {wanted[pl.cbjd_id]['name']} (nº {wanted[pl.cbjd_id]['id']}) é, "
        f"no cadastro, o ID CBJD de {pl.name}; corrija o Loc Id no Swiss Perfect (ou o cadastro) e importe de novo"
        for pl in Player.objects.filter(cbjd_id__in=list(wanted))
        if _plain(pl.name) != _plain(wanted[pl.cbjd_id]["name"])
    ]
    if clashes:
        raise InterchangeError(clashes[:50])


def _create(event: SpEvent, user: Any, slug: str | None = None) -> tuple[Any, list[str]]:
    from django.utils import timezone

    from tournaments.interchange.jsonfile import import_data
    from tournaments.interchange.trf import _free_slug

    data, warnings = to_interchange(event, slug=slug or _free_slug(event.name), today=timezone.localdate())
    _check_registry(data)
    return import_data(data, user=user), warnings


def import_native(upload: Any, user: Any = None, *, slug: str | None = None) -> tuple[Any, list[str]]:
    """A tournament from Swiss Perfect's files: a zip of the three, or (command line) one of them with the
    others beside it. A lone ``.ini``/``.trn``/``.sco`` sent through the web has no siblings: refused."""
    if looks_like_sp_zip(upload.data) or upload.extension == ".zip":
        ini, trn, sco, stem, saved_on = files_from_zip(upload.data, upload.name)
    elif upload.path is not None:
        ini, trn, sco, stem, saved_on = files_beside(Path(upload.path))
    else:
        raise InterchangeError(
            [
                f"Swiss Perfect, {upload.name}: um torneio do Swiss Perfect são três arquivos (.ini, .trn e .sco); "
                "envie os três juntos num .zip"
            ]
        )
    event = read_native(ini, trn, sco, stem)
    event.saved_on = saved_on
    return _create(event, user, slug)


def import_text(upload: Any, user: Any = None, *, slug: str | None = None) -> tuple[Any, list[str]]:
    """A tournament from a Swiss Perfect cross-table text export."""
    return _create(read_text_export(upload.data, Path(upload.name).stem), user, slug)
