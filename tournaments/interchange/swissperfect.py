"""Swiss Perfect 98 files in: the tournament files (``.ini`` + ``.trn`` + ``.sco``, or the three in one ``.zip``)
and the text export of the cross table. Each is read into an interchange-file dict, then imported by the JSON
importer (same validation, one transaction, all-or-nothing).

Native files (learnt from public descriptions of the format; the reader is our own, ``dbase.py``):

* ``.ini``: text; ``[Tournament Info]`` ``Name``, ``Arbiter``, ``Rounds``, ``Multi Games`` (games per round),
  ``Team or Individual``. No date: the start date is asked for (a warning says so).
* ``.trn`` (dBase III, one record per player): ``ID`` (the key ``.sco`` uses), ``START_NO`` (pairing number),
  ``SURNAME``, ``FIRSTNAME``, ``SEX`` (1 male, 2 female, 0 not given), ``BIRTH_DATE``, ``FEDER``, ``CLUB``,
  ``LOC_ID`` / ``LOC_RTG`` (national ID and rating: here the CBJD's), ``INTL_RTG`` (FMJD rating), ``TITLE``,
  ``LATE_ENTRY`` (the round the player joined), ``WITHDRAWAL`` (the last round the player was in), ``ABSENT`` (bit r-1 set: absent in round r), ``BONUS`` (points
  given without a game, spread as half points over the rounds the player did not play, as Swiss Perfect shows
  them).
* ``.sco`` (dBase III, one record per board or unpaired player): ``ROUND``, ``WHITE``, ``BLACK`` (player IDs, 0
  for none), ``W_SCORE`` / ``B_SCORE`` (half points: 2 win, 1 draw, 0 loss), ``W_TYPE`` / ``B_TYPE`` (1 played;
  otherwise not played: a forfeit).

A board with both players is a game (played when both types are 1, else a forfeit); a player alone on a record
scores what the record says: a whole point is the pairing-allocated bye, half a point the bye at the draw value
(or, when the player is marked absent, an absence at the draw value), nothing an absence at zero.

Text export (the cross table, tab-separated): header ``No Name [Feder] [Intl Id] [Loc Id] [Rtg] [Loc] [Title]
[Total] 1 2 ...``, a blank line, then one line per player; each round ``opp:R`` with R = W D L (played), + -
(forfeit or unplayed), = (half point unplayed), and `` : `` when the player had no game. It has no colours and
no dates: colours are given by the pairing numbers (the lower number has White) and the import says so.

Refused, with the reason (pt-BR): several games per round (``Multi Games`` above 1: the per-game results are not
in the files), team events, two whole-point byes in a round, a board whose scores are not a result, players or
results that do not match, a ``Loc Id`` (taken as the CBJD ID) that the registry gives to someone else, and
(while one tournament has one value for each) byes of different values or absences of different values in one
file.
"""

from __future__ import annotations

import io
import re
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from ..zipcheck import directory_fits
from .dbase import DbfError, Value, read_dbf
from .errors import InterchangeError

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
    boards: list[tuple[int, int, str]] = field(default_factory=list)  # (white key, black key, result code)
    alone: dict[int, int] = field(default_factory=dict)  # player key -> half points scored without a game


@dataclass
class SpEvent:
    name: str
    arbiter: str = ""
    planned_rounds: int = 0
    players: list[SpPlayer] = field(default_factory=list)
    rounds: dict[int, SpRound] = field(default_factory=dict)
    colours_known: bool = True
    scale: int = 1  # points of a win: 1 (Swiss Perfect) or 2 (this program's own 2 / 1 / 0 exports)
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
            rating=_int(rec.get("LOC_RTG")) or None,
            fmjd_rating=_int(rec.get("INTL_RTG")) or None,
            title=_TITLES.get(_text(rec.get("TITLE")), ""),
            late_entry=_int(rec.get("LATE_ENTRY")) or None,
            # WITHDRAWAL is the last round the player was in (withdrew after it)
            withdrawn_from=_int(rec.get("WITHDRAWAL")) + 1 if _int(rec.get("WITHDRAWAL")) else None,
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
            slot.boards.append((white, black, result))
        else:
            key, score = (white, ws) if white else (black, bs)
            if score not in (0, 1, 2):
                errors.append(f"{where}: rodada {rnd}: pontuação inválida {score / 2:g}")
                continue
            slot.alone[key] = score
    if errors:
        raise InterchangeError(errors[:50])
    if not event.players:
        raise InterchangeError([f"Swiss Perfect, {stem}.trn: nenhum jogador"])
    _spread_bonus(event)
    return event


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
                    f"{p.where}: {p.name} tem {halves / 2:g} ponto(s) de bônus (BONUS) sem rodada sem partida que "
                    "os receba; este programa não guarda pontos avulsos"
                ]
            )


# ------------------------------------------------------------------------------------------- text export
_CELL = re.compile(r"^(\d*)\s*:\s*([WDLwdl+=-]?)$")
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


def looks_like_sp_text(data: bytes) -> bool:
    head = _decode(data[:4096]).lstrip("\ufeff")
    first = head.split("\n", 1)[0]
    cells = [c.strip().lower() for c in first.split("\t")]
    return len(cells) > 2 and cells[0] == "no" and cells[1] == "name"


def read_text_export(data: bytes, stem: str) -> SpEvent:
    """The event in a Swiss Perfect cross-table text export (tab-separated)."""
    text = _decode(data).lstrip("\ufeff")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header_at = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_at is None:
        raise InterchangeError([f"Swiss Perfect (texto), {stem}: arquivo vazio"])
    header = [c.strip().lower() for c in lines[header_at].split("\t")]
    columns: dict[str, int] = {}
    round_cols: dict[int, int] = {}
    for i, name in enumerate(header):
        if name.isdigit():
            round_cols[int(name)] = i
        elif name in _HEADERS:
            columns[_HEADERS[name]] = i
        elif name:
            raise InterchangeError(
                [f"Swiss Perfect (texto), {stem}, linha {header_at + 1}: coluna desconhecida “{name}”"]
            )
    where_h = f"Swiss Perfect (texto), {stem}, linha {header_at + 1}"
    if "no" not in columns or "name" not in columns:
        raise InterchangeError([f"{where_h}: o cabeçalho deve ter as colunas No e Name, separadas por tabulação"])
    if sorted(round_cols) != list(range(1, len(round_cols) + 1)) or len(round_cols) > MAX_ROUNDS:
        raise InterchangeError([f"{where_h}: colunas de rodada fora de ordem ou faltando ({sorted(round_cols)})"])
    event = SpEvent(name=stem, planned_rounds=len(round_cols), colours_known=False)
    errors: list[str] = []
    cells_of: dict[int, list[tuple[int, int, str, str]]] = {}  # number -> (round, opp, code, where)
    for lineno, line in enumerate(lines[header_at + 1 :], start=header_at + 2):
        if not line.strip():
            continue
        cells = [c.strip() for c in line.split("\t")]
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
        name = cells[columns["name"]]
        if "," in name:
            last, first = (s.strip() for s in name.split(",", 1))
            name = f"{first} {last}".strip()
        if not name:
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
            rating=int(col("loc")) if col("loc").isdigit() and int(col("loc")) > 0 else None,
            fmjd_rating=int(col("rtg")) if col("rtg").isdigit() and int(col("rtg")) > 0 else None,
            title=col("title").upper() if col("title").upper() in _TITLES.values() else "",
            declared_total=declared,
            where=where,
        )
        event.players.append(player)
        mine = []
        for rnd, i in sorted(round_cols.items()):
            cell = cells[i]
            m = _CELL.match(cell)
            if not m:
                errors.append(f"{where}, rodada {rnd}: resultado ilegível “{cell}”")
                continue
            # -1: no game at all that round (`` : ``), 0: no opponent (a bye, an absence)
            mine.append((rnd, int(m.group(1)) if m.group(1) else -1, m.group(2).upper(), where))
        cells_of[number] = mine
    if errors:
        raise InterchangeError(errors[:50])
    if not event.players:
        raise InterchangeError([f"Swiss Perfect (texto), {stem}: nenhum jogador"])
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


def _text_rounds(event: SpEvent, cells_of: dict[int, list[tuple[int, int, str, str]]], errors: list[str]) -> None:
    rounds = event.planned_rounds
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
                if rnd in blank and (rnd <= lead or rnd > trail):
                    continue  # not in the tournament that round (late entry, withdrawal)
                slot.alone[p.number] = _ALONE.get(code, 0)
                if code not in ("W", "+"):
                    p.absent_rounds.add(rnd)
                continue
            if opp not in cells_of:
                errors.append(f"{where}, rodada {rnd}: adversário {opp} não está na tabela")
                continue
            if opp < p.number:
                continue  # read from the other side
            o_opp, o_code, _o_where = next((o, c, w) for r, o, c, w in cells_of[opp] if r == rnd)
            if o_opp != p.number:
                errors.append(
                    f"{where}, rodada {rnd}: {p.number} enfrenta {opp}, mas {opp} enfrenta {o_opp or 'ninguém'}"
                )
                continue
            result = _PAIR.get((code, o_code))
            if result is None:
                errors.append(
                    f"{where}, rodada {rnd}: resultados de {p.number} e {opp} não conferem (“{code}” e “{o_code}”)"
                )
                continue
            slot.boards.append((p.number, opp, result))
    if not errors:
        sums = {}
        for p in event.players:
            got = Decimal(0)
            for slot in event.rounds.values():
                got += Decimal(slot.alone.get(p.number, 0)) / 2
                for w, b, res in slot.boards:
                    if p.number in (w, b):
                        got += _points(res, p.number == w)
            sums[p.number] = got
        declared = [p for p in event.players if p.declared_total is not None]
        # Swiss Perfect counts 1 / ½ / 0; this program's own export of a 2 / 1 / 0 tournament doubles every total
        if declared and all(p.declared_total == 2 * sums[p.number] for p in declared) and any(sums.values()):
            event.scale = 2
        else:
            for p in declared:
                if p.declared_total != sums[p.number]:
                    errors.append(
                        f"{p.where}: {p.name} tem total {p.declared_total:g} na coluna Total, mas os resultados "
                        f"somam {sums[p.number]:g}"
                    )
    event.warnings.append(
        "a exportação de texto do Swiss Perfect não registra as cores: em cada partida o jogador de número menor "
        "ficou com as brancas; para as cores reais importe os arquivos do torneio (.zip com .ini, .trn e .sco)"
    )


def _points(result: str, white: bool) -> Decimal:
    one, half, zero = Decimal(1), Decimal("0.5"), Decimal(0)
    table = {"1-0": (one, zero), "0-1": (zero, one), "1/2": (half, half), "+/-": (one, zero), "-/+": (zero, one)}
    pair = table.get(result, (zero, zero))
    return pair[0] if white else pair[1]


# ------------------------------------------------------------------------------------------ to interchange
def to_interchange(event: SpEvent, *, slug: str, start: date) -> tuple[dict[str, Any], list[str]]:
    """The interchange-file dict of ``event`` (single-game rounds, scoring 1 / ½ / 0 as Swiss Perfect counts)
    and the warnings of the import. Raises InterchangeError for what the product cannot hold."""
    from .jsonfile import FORMAT

    warnings = list(event.warnings)
    errors: list[str] = []
    key_to_number = {p.key: p.number for p in event.players}
    by_key = {p.key: p for p in event.players}
    last = max([*event.rounds, 0])
    while last and not event.rounds[last].boards and not any(event.rounds[last].alone.values()):
        # a round Swiss Perfect opened but did not pair: its lone zero records are absences announced ahead
        last -= 1
        if last == 0:
            break
    for p in event.players:
        # points in a round before the late entry: here those rounds would score nothing, so the player is
        # entered from the start, absent (with those points) in the rounds missed
        if p.late_entry and any(event.rounds.get(r, SpRound()).alone.get(p.key, 0) for r in range(1, p.late_entry)):
            warnings.append(
                f"{p.name} (nº {p.number}): entrada tardia na rodada {p.late_entry} registrada como ausências "
                "nas rodadas anteriores, com os pontos que o Swiss Perfect deu"
            )
            for r in range(1, p.late_entry):
                p.absent_rounds.add(r)
            p.late_entry = None
    bye_values: dict[str, list[str]] = {}
    absence_values: dict[str, list[str]] = {}
    rounds = []
    ahead = []
    for rnd in range(1, max([*event.rounds, 0]) + 1):
        slot = event.rounds.get(rnd, SpRound())
        if rnd > last:
            ahead += [
                {"round": rnd, "player": key_to_number[k]} for k in sorted(slot.alone, key=lambda k: key_to_number[k])
            ]
            continue
        byes = []
        absent = []
        for key, halves in sorted(slot.alone.items(), key=lambda kv: key_to_number[kv[0]]):
            p = by_key[key]
            label = f"{p.name} (nº {p.number}), rodada {rnd}"
            before_entry = p.late_entry is not None and rnd < p.late_entry
            if not before_entry and (halves == 2 or (halves == 1 and rnd not in p.absent_rounds)):
                byes.append(key_to_number[key])
                bye_values.setdefault("win" if halves == 2 else "draw", []).append(label)
            elif halves == 2:
                errors.append(
                    f"Swiss Perfect: {label}: ausência valendo um ponto inteiro; aqui uma ausência vale zero ou "
                    "meio ponto"
                )
            else:
                absent.append(key_to_number[key])
                absence_values.setdefault("draw" if halves else "zero", []).append(label)
        if len(byes) > 1:
            errors.append(
                f"Swiss Perfect, rodada {rnd}: {len(byes)} jogadores sem adversário com pontos de bye "
                f"(números {', '.join(map(str, byes))}); este programa dá um bye por rodada"
            )
        boards = []
        for i, (w, b, res) in enumerate(slot.boards, start=1):
            boards.append({"board": i, "first": key_to_number[w], "second": key_to_number[b], "games": [res]})
        rounds.append(
            {
                "number": rnd,
                "opening": None,
                "status": "published",
                "boards": boards,
                "bye": byes[0] if byes else None,
                "absent": sorted(absent),
            }
        )
    for kind, values in (("byes", bye_values), ("ausências", absence_values)):
        if len(values) > 1:
            one, other = sorted(values)
            errors.append(
                f"Swiss Perfect: {kind} de valores diferentes no mesmo torneio ({_value_pt(one)}: "
                f"{values[one][0]}; {_value_pt(other)}: {values[other][0]}); um torneio aqui tem um valor só para cada"
            )
    if errors:
        raise InterchangeError(errors[:50])
    players = []
    unknown_sex = []
    for p in sorted(event.players, key=lambda p: p.number):
        if not p.sex:
            unknown_sex.append(p.number)
        player: dict[str, Any] = {
            "id": p.number,
            "cbjd_id": p.loc_id or None,
            "name": p.name[:120],
            "sex": p.sex or "M",
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
        if p.federation:
            warnings.append(f"{p.name} (nº {p.number}): federação {p.federation} não guardada (só UF)")
        players.append(player)
    if unknown_sex:
        warnings.append(
            f"sexo não informado no arquivo para {len(unknown_sex)} jogador(es) (números "
            f"{', '.join(map(str, unknown_sex[:20]))}{'…' if len(unknown_sex) > 20 else ''}): registrado como M; "
            "corrija nas inscrições"
        )
    warnings.append(
        f"o Swiss Perfect não grava a data do torneio: registrada a data de hoje ({start:%d/%m/%Y}); "
        "corrija-a nas configurações do torneio"
    )
    data = {
        "format": FORMAT,
        "tournament": {
            "name": event.name[:200],
            "slug": slug,
            "variant": "brazilian-64",
            "format": "single-game",
            "rounds": max(event.planned_rounds, last, 1),
            "minutes_per_game": 21,
            "start_date": start.isoformat(),
            "end_date": start.isoformat(),
            "city": "",
            "state": "",
            "scoring": {"win": "2", "draw": "1", "loss": "0"}
            if event.scale == 2
            else {"win": "1", "draw": "0.5", "loss": "0"},
            "bye": next(iter(bye_values), "win"),
            "absence": next(iter(absence_values), "zero"),
            "acceleration": "none",
            "tiebreaks": "cbjd",
            "min_participants": 30,
            "chief_arbiter": event.arbiter[:120],
            "opening_table": None,
            "initial_colour": "white",
        },
        "categories": [{"code": "ABS", "name": "Absoluto"}],
        "players": players,
        "rounds": rounds,
        "absences": ahead,
    }
    return data, warnings


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


def files_from_zip(data: bytes, name: str) -> tuple[bytes, bytes, bytes, str]:
    """The ``.ini``, ``.trn`` and ``.sco`` of one tournament from a zip, every member's size checked before it is
    read (a zip bomb is refused, never inflated)."""
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
    for info in parts.values():
        if info.file_size > MAX_MEMBER_BYTES:
            raise InterchangeError(
                [f"{where}: {info.filename} teria {info.file_size} bytes descompactado (máximo {MAX_MEMBER_BYTES})"]
            )
    try:
        ini, trn, sco = (archive.read(parts[s])[: MAX_MEMBER_BYTES + 1] for s in (".ini", ".trn", ".sco"))
    except (zipfile.BadZipFile, RuntimeError, OSError, EOFError, zlib.error, NotImplementedError, ValueError) as exc:
        raise InterchangeError([f"{where}: não foi possível descompactar ({exc})"]) from None
    return ini, trn, sco, Path(stem).name


def files_beside(path: Path) -> tuple[bytes, bytes, bytes, str]:
    """The three files of the tournament whose one file is ``path`` (the command line), found by stem."""
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
    return out[0], out[1], out[2], stem


# ------------------------------------------------------------------------------------------ the imports
def _plain(name: str) -> str:
    text = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in text if not unicodedata.combining(c)).casefold().split())


def _check_registry(data: dict[str, Any]) -> None:
    """A ``Loc Id`` is taken as the CBJD ID, and the import reuses the registry's player with that ID: refuse when
    the registry's player has another name (another person, or another federation's ID), never link silently."""
    from ..models import Player

    wanted = {p["cbjd_id"]: p for p in data["players"] if p.get("cbjd_id")}
    clashes = [
        f"Swiss Perfect: o Loc Id {pl.cbjd_id} de {wanted[pl.cbjd_id]['name']} (nº {wanted[pl.cbjd_id]['id']}) é, "
        f"no cadastro, o ID CBJD de {pl.name}; corrija o Loc Id no Swiss Perfect (ou o cadastro) e importe de novo"
        for pl in Player.objects.filter(cbjd_id__in=list(wanted))
        if _plain(pl.name) != _plain(wanted[pl.cbjd_id]["name"])
    ]
    if clashes:
        raise InterchangeError(clashes[:50])


def _create(event: SpEvent, user: Any) -> tuple[Any, list[str]]:
    from django.utils import timezone

    from .jsonfile import import_data
    from .trf import _free_slug

    data, warnings = to_interchange(event, slug=_free_slug(event.name), start=timezone.localdate())
    _check_registry(data)
    return import_data(data, user=user), warnings


def import_native(upload: Any, user: Any = None) -> tuple[Any, list[str]]:
    """A tournament from Swiss Perfect's files: a zip of the three, or (command line) one of them with the
    others beside it. A lone ``.ini``/``.trn``/``.sco`` sent through the web has no siblings: refused."""
    if looks_like_sp_zip(upload.data) or upload.extension == ".zip":
        ini, trn, sco, stem = files_from_zip(upload.data, upload.name)
    elif upload.path is not None:
        ini, trn, sco, stem = files_beside(Path(upload.path))
    else:
        raise InterchangeError(
            [
                f"Swiss Perfect, {upload.name}: um torneio do Swiss Perfect são três arquivos (.ini, .trn e .sco); "
                "envie os três juntos num .zip"
            ]
        )
    return _create(read_native(ini, trn, sco, stem), user)


def import_text(upload: Any, user: Any = None) -> tuple[Any, list[str]]:
    """A tournament from a Swiss Perfect cross-table text export."""
    return _create(read_text_export(upload.data, Path(upload.name).stem), user)
