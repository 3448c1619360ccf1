"""TRF (FIDE Tournament Report File, TRF-2026 with the TRF-16 codes still read) for single-game tournaments.

A minimal reader/writer of its own (the ``pairing`` package has one for the engine's state, which does not
carry what a tournament import needs: birth dates, IDs, dates, city). Columns are 1-based as in the
standard; ``001`` player lines:

    1-3 "001", 5-8 start number, 10 sex (m/w), 11-13 title, 15-47 name, 49-52 rating, 54-56 federation,
    58-68 ID (here the CBJD ID), 70-79 birth date YYYY/MM/DD, 81-84 points, 86-89 rank,
    then per round r from column 92 + 10(r-1): opponent (4), colour w/b/- at +5, result at +7.

Results: 1 = 0 (played), W D L (played, short game), + - (forfeit), U (pairing-allocated bye; F accepted
when the round has no U), Z or H (announced absence: zero or draw value), blank (not paired: withdrawn,
late entry). Columns after the last paired round holding only Z or H are the absences announced for the
rounds still to pair (as pairing programs write them); the export writes them there too. Header lines read:
012 name, 022 city, 042/052 dates, 102 chief arbiter, 142 or XXR rounds, XXC (white1/black1) or 152 initial
colour, 162 or BBW/BBD/BBL points, BBU bye value. Import goes through the JSON importer (same validation, one
transaction).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.utils.text import slugify

from ..models import Absence, Tournament
from ..models.choices import AbsenceValue, ByeValue, RoundFormat
from ..safetext import one_line
from ..selectors import entries_in_order, tournament_history
from ..standings import lean_rounds_with_boards, number, tournament_standings
from .errors import InterchangeError
from .jsonfile import FORMAT, import_data

_TITLES = {"GMI": "GM", "MI": "IM", "MF": "FM", "GMIF": "WGM", "MIF": "WIM", "MFF": "WFM", "MN": ""}
_TITLES_BACK = {"GM": "GMI", "IM": "MI", "FM": "MF", "WGM": "GMIF", "WIM": "MIF", "WFM": "MFF"}
# Result code from White's view -> (White's TRF char, Black's TRF char).
_TO_TRF = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2": ("=", "="),
    "+/-": ("+", "-"),
    "-/+": ("-", "+"),
    "-/-": ("-", "-"),
}
_FROM_TRF = {
    ("1", "0"): "1-0",
    ("0", "1"): "0-1",
    ("=", "="): "1/2",
    ("+", "-"): "+/-",
    ("-", "+"): "-/+",
    ("-", "-"): "-/-",
}
_SHORT = {"W": "1", "D": "=", "L": "0"}


# --------------------------------------------------------------------------------------------------- write
def _put(buf, col, text):
    """Write ``text`` into the list ``buf`` from 1-based column ``col``."""
    start = col - 1
    if len(buf) < start + len(text):
        buf.extend(" " * (start + len(text) - len(buf)))
    buf[start : start + len(text)] = list(text)


def _fmt(value):
    return f"{float(number(value)):.1f}"


def export_trf(tournament) -> str:
    """The tournament as TRF-2026 (single-game tournaments only)."""
    if tournament.format != RoundFormat.SINGLE_GAME:
        raise InterchangeError(
            [
                "TRF: só torneios de partida única podem ser exportados em TRF "
                "(os micromatches não cabem no formato); use o arquivo JSON"
            ]
        )
    st = tournament_standings(tournament, public=False, rights=False)
    entries = entries_in_order(tournament)
    entries, rounds, history = tournament_history(
        tournament, rounds=lean_rounds_with_boards(tournament, entries), entries=entries
    )
    ids = {e.pk: n for n, e in st.entries.items()}
    announced = set(Absence.objects.filter(entry__tournament=tournament).values_list("entry_id", "round_number"))
    absent_char = "H" if tournament.absence_value == AbsenceValue.DRAW else "Z"
    last_paired = max((r.number for r in rounds), default=0)
    rank = {row.id: row.position for row in st.rows}
    lines = [
        f"012 {one_line(tournament.name)}",
        f"022 {one_line(tournament.city)}".rstrip(),
        "032 BRA",
        f"042 {tournament.start_date:%Y/%m/%d}",
        f"052 {tournament.end_date:%Y/%m/%d}",
        f"062 {len(entries)}",
        f"072 {sum(1 for e in entries if e.rating is not None)}",
        "092 Sistema suíço (holandês FIDE C.04.3)",
        f"102 {one_line(tournament.chief_arbiter)}".rstrip(),
        f"122 {tournament.minutes_per_game}'",
        f"142 {tournament.planned_rounds}",
        f"152 {'W' if tournament.initial_colour == 'white' else 'B'}",
    ]
    loss = f"    L{_fmt(tournament.score_loss):>4}" if tournament.score_loss else ""
    lines.append(f"162  W{_fmt(tournament.score_win):>4}    D{_fmt(tournament.score_draw):>4}{loss}")
    lines.append("192 FIDE_DUTCH_2025")
    bye = tournament.score_win if tournament.bye_value == ByeValue.WIN else tournament.score_draw
    lines.append(f"BBU {_fmt(bye):>4}")
    for e in sorted(entries, key=lambda e: ids[e.pk]):
        p = e.player
        pid = ids[e.pk]
        buf: list[str] = []
        _put(buf, 1, "001")
        _put(buf, 5, f"{pid:>4}")
        _put(buf, 10, "w" if p.sex == "F" else "m")
        _put(buf, 11, f"{_TITLES.get(p.title, ''):>3}")
        _put(buf, 15, f"{one_line(p.name)[:33]:<33}")
        _put(buf, 49, f"{e.rating or '':>4}")
        _put(buf, 54, "BRA")
        _put(buf, 58, f"{one_line(p.cbjd_id)[:11]:>11}")
        _put(buf, 70, p.birth_date.strftime("%Y/%m/%d") if p.birth_date else " " * 10)
        points = sum((r.points for r in history[e.pk]), 0)
        _put(buf, 81, f"{_fmt(points):>4}")
        _put(buf, 86, f"{rank.get(pid, ''):>4}")
        for r in history[e.pk]:
            col = 92 + 10 * (r.round - 1)
            if r.kind == "pab":
                block = "0000 - U"
            elif r.opponent is not None:
                code = r.results.get(1)
                if code is None:
                    res = " "
                else:
                    white, black = _TO_TRF[code]
                    res = white if r.colour == "w" else black
                block = f"{r.opponent:>4} {r.colour} {res}"
            elif (e.pk, r.round) in announced:
                block = f"0000 - {absent_char}"
            else:
                block = ""
            if block:
                _put(buf, col, block)
        for rnd in sorted(n for pk, n in announced if pk == e.pk and n > last_paired):
            _put(buf, 92 + 10 * (rnd - 1), f"0000 - {absent_char}")  # announced for a round not paired yet
        lines.append("".join(buf).rstrip())
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------- read
def _date(text, lineno):
    text = text.strip()
    if not text:
        return None
    for pattern, order in (
        (r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$", "ymd"),
        (r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$", "dmy"),
    ):
        m = re.match(pattern, text)
        if m:
            a, b, c = (int(x) for x in m.groups())
            y, mo, d = (a, b, c) if order == "ymd" else (c, b, a)
            try:
                return date(y, mo, d)
            except ValueError:
                break
    raise InterchangeError([f"TRF, linha {lineno}: data inválida “{text}” (use AAAA/MM/DD)"])


def _name(text):
    text = " ".join(text.split())
    if "," in text:
        last, first = (s.strip() for s in text.split(",", 1))
        text = f"{first} {last}".strip()
    return text


def parse_trf(text, slug=None) -> dict:
    """Read a TRF into an interchange-file dict (then imported by the JSON importer)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = text.decode("latin-1")
    errors = []
    t: dict[str, Any] = {"name": "", "city": "", "start_date": None, "end_date": None, "chief_arbiter": ""}
    rounds_declared = None
    initial_colour = None
    scoring = {"win": "1", "draw": "0.5", "loss": "0"}
    bye_points = None
    players = []
    blocks = {}  # pid -> list of (round, opponent, colour, result, lineno)
    line_of: dict[int, int] = {}
    for lineno, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = raw.rstrip()
        if len(line) < 3 or line.startswith("###"):
            continue
        code, rest = line[:3], line[4:].strip()
        try:
            if code == "012":
                t["name"] = rest
            elif code == "022":
                t["city"] = rest
            elif code == "042":
                t["start_date"] = _date(rest, lineno)
            elif code == "052":
                t["end_date"] = _date(rest, lineno)
            elif code == "102":
                t["chief_arbiter"] = rest
            elif code in ("142", "XXR"):
                if not rest.split() or not rest.split()[0].isdigit():
                    raise InterchangeError([f"TRF, linha {lineno}: número de rodadas inválido “{rest}”"])
                rounds_declared = int(rest.split()[0])
            elif code == "XXC":
                for token in rest.split():
                    initial_colour = {"white1": "white", "black1": "black"}.get(token.lower(), initial_colour)
            elif code == "152":
                initial_colour = {"W": "white", "B": "black"}.get(rest[:1].upper(), initial_colour)
            elif code == "162":
                for letter, value in re.findall(r"([A-Za-z])\s*(\d+(?:\.\d+)?)", line[4:]):
                    key = {"W": "win", "D": "draw", "L": "loss"}.get(letter.upper())
                    if key:
                        scoring[key] = value
            elif code in ("BBW", "BBD", "BBL"):
                scoring[{"BBW": "win", "BBD": "draw", "BBL": "loss"}[code]] = rest
            elif code == "BBU":
                bye_points = rest
            elif code == "001":
                pid, player, rblocks = _player(line, lineno)
                if pid in line_of:
                    raise InterchangeError(
                        [f"TRF, linha {lineno}: número inicial {pid} repetido (linha {line_of[pid]})"]
                    )
                line_of[pid] = lineno
                players.append(player)
                blocks[pid] = rblocks
        except InterchangeError as exc:
            errors.extend(exc.messages)
    if not players and not errors:
        errors.append("TRF: nenhum jogador (linhas 001) no arquivo")
    if errors:
        raise InterchangeError(errors[:50])
    if t["start_date"] is None:
        errors.append("TRF: data de início ausente (linha 042)")
    n_rounds = max((len(b) for b in blocks.values()), default=0)
    rounds: list[dict[str, Any]] = []
    has_h = has_z = False
    for rnum in range(1, n_rounds + 1):
        boards, bye, absent = [], None, []
        seen: set[int] = set()
        for pid in sorted(blocks):
            if len(blocks[pid]) < rnum:
                continue
            opp, colour, res, lineno = blocks[pid][rnum - 1]
            where = f"TRF, linha {lineno}, rodada {rnum}"
            if opp == 0:
                if res in ("U", "F"):
                    if bye is not None:
                        errors.append(f"{where}: dois byes na mesma rodada (jogadores {bye} e {pid})")
                    bye = pid
                elif res in ("Z", "H"):
                    has_h, has_z = has_h or res == "H", has_z or res == "Z"
                    absent.append(pid)
                elif res not in ("", "-"):
                    errors.append(f"{where}: resultado “{res}” sem adversário")
                continue
            if pid in seen:
                continue
            if opp not in blocks:
                errors.append(f"{where}: adversário {opp} inexistente")
                continue
            if len(blocks[opp]) < rnum:
                errors.append(
                    f"TRF, linha {line_of[opp]}: o jogador {opp} não tem a rodada {rnum}, mas o jogador "
                    f"{pid} (linha {line_of[pid]}) o enfrenta nela (linha cortada?)"
                )
                continue
            o_opp, o_colour, o_res, _o_line = blocks[opp][rnum - 1]
            if o_opp != pid:
                errors.append(f"{where}: o jogador {pid} enfrenta {opp}, mas {opp} enfrenta {o_opp or 'ninguém'}")
                continue
            seen.update((pid, opp))
            if colour == "b" or (colour != "w" and o_colour == "w"):
                white, black, wres, bres = opp, pid, o_res, res
            else:
                white, black, wres, bres = pid, opp, res, o_res
            if colour in ("w", "b") and o_colour in ("w", "b") and colour == o_colour:
                errors.append(f"{where}: {pid} e {opp} com a mesma cor")
                continue
            wres, bres = _SHORT.get(wres, wres), _SHORT.get(bres, bres)
            if wres == "" and bres == "":
                result = None
            else:
                result = _FROM_TRF.get((wres, bres))
                if result is None:
                    errors.append(f"{where}: resultados de {pid} e {opp} não conferem (“{res}” e “{o_res}”)")
                    continue
            boards.append((white, black, result))
        boards.sort(key=lambda b: min(b[0], b[1]))
        rounds.append(
            {
                "number": rnum,
                "opening": None,
                "status": "published",
                "boards": [
                    {"board": i, "first": w, "second": b, "games": [r]} for i, (w, b, r) in enumerate(boards, 1)
                ],
                "bye": bye,
                "absent": sorted(absent),
            }
        )
    # Trailing columns with announced absences only (no game, no bye): the absences of rounds still to pair,
    # as the pairing programs write them.
    ahead: list[dict[str, int]] = []
    while rounds and not rounds[-1]["boards"] and rounds[-1]["bye"] is None:
        last = rounds.pop()
        ahead[:0] = [{"round": last["number"], "player": pid} for pid in last["absent"]]
    if has_h and has_z:
        errors.append("TRF: ausências de meio ponto (H) e de zero ponto (Z) no mesmo torneio não são suportadas")
    if errors:
        raise InterchangeError(errors[:50])
    name = t["name"] or "Torneio importado de TRF"
    try:
        float(scoring["win"])  # must be a number
        draw = float(scoring["draw"])
    except ValueError:
        raise InterchangeError([f"TRF, linha 162: pontuação inválida {scoring}"]) from None
    bye_value = "win"
    if bye_points is not None:
        try:
            bye_value = "draw" if float(bye_points) == draw else "win"
        except ValueError:
            raise InterchangeError([f"TRF, linha BBU: valor do bye inválido “{bye_points}”"]) from None
    start = t["start_date"]
    end = t["end_date"] or start
    return {
        "format": FORMAT,
        "tournament": {
            "name": name[:200],
            "slug": slug or _free_slug(name),
            "variant": "brazilian-64",
            "format": "single-game",
            "rounds": max(rounds_declared or 0, n_rounds, 1),
            "minutes_per_game": 21,
            "start_date": start.isoformat(),
            "end_date": end.isoformat(),
            "city": t["city"][:100],
            "state": "",
            "scoring": {"win": scoring["win"], "draw": scoring["draw"], "loss": scoring["loss"]},
            "bye": bye_value,
            "absence": "draw" if has_h else "zero",
            "acceleration": "none",
            "tiebreaks": "cbjd",
            "min_participants": 30,
            "chief_arbiter": t["chief_arbiter"][:120],
            "opening_table": None,
            "initial_colour": initial_colour or "white",
        },
        "categories": [{"code": "ABS", "name": "Absoluto"}],
        "players": players,
        "rounds": rounds,
        "absences": ahead,
    }


def _player(line, lineno):
    where = f"TRF, linha {lineno}"
    line = line.ljust(89)
    tpn = line[4:8].strip()
    if not tpn.isdigit() or int(tpn) < 1:
        raise InterchangeError([f"{where}: número inicial inválido “{tpn}” (colunas 5-8)"])
    pid = int(tpn)
    sex = {"m": "M", "w": "F", "f": "F"}.get(line[9].strip().lower(), "M")
    title = _TITLES_BACK.get(line[10:13].strip().upper(), "")
    name = _name(line[14:47])
    if not name:
        raise InterchangeError([f"{where}: nome ausente (colunas 15-47)"])
    rating_text = line[48:52].strip()
    if rating_text and not rating_text.isdigit():
        raise InterchangeError([f"{where}: rating inválido “{rating_text}” (colunas 49-52)"])
    rating = int(rating_text) if rating_text and int(rating_text) > 0 else None
    ident = line[57:68].strip()
    birth = line[69:79].strip()
    birth_date = None
    if birth and birth not in ("0000/00/00", "0000.00.00"):
        if re.fullmatch(r"\d{4}", birth) or re.fullmatch(r"\d{4}/00/00", birth):
            birth_date = None  # only the year is known
        else:
            birth_date = _date(birth, lineno)
    rblocks = []
    col = 91
    while col < len(line):
        block = line[col : col + 8].ljust(8)
        opp_text, colour, res = block[0:4].strip(), block[5].strip().lower(), block[7].strip().upper()
        if opp_text and not opp_text.isdigit():
            raise InterchangeError([f"{where}: adversário inválido “{opp_text}” na coluna {col + 1}"])
        if colour not in ("", "w", "b", "-"):
            raise InterchangeError([f"{where}: cor inválida “{colour}” na coluna {col + 6}"])
        if res not in ("", "1", "0", "=", "+", "-", "W", "D", "L", "U", "F", "H", "Z"):
            raise InterchangeError([f"{where}: resultado inválido “{res}” na coluna {col + 8}"])
        if opp_text and opp_text.strip("0") and not res:
            raise InterchangeError(
                [f"{where}: rodada {(col - 91) // 10 + 1} sem resultado na coluna {col + 8} (linha cortada?)"]
            )
        rblocks.append((int(opp_text) if opp_text else 0, colour, res, lineno))
        col += 10
    player = {
        "id": pid,
        "cbjd_id": ident if ident and ident != "0" else None,
        "name": name,
        "sex": sex,
        "birth_date": birth_date.isoformat() if birth_date else None,
        "state": "",
        "club": "",
        "rating": rating,
        "categories": ["ABS"],
    }
    if title:
        player["title"] = title
    return pid, player, rblocks


def _free_slug(name):
    base = (slugify(name) or "torneio-trf")[:70]
    slug, n = base, 1
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    return slug


def import_trf(text, *, user=None, slug=None):
    """Create a single-game tournament from a TRF (all-or-nothing)."""
    return import_data(parse_trf(text, slug=slug), user=user)


def import_trf_file(data, *, user=None):
    """:func:`import_trf` for the file dispatch: (tournament, warnings)."""
    return import_trf(data, user=user), []


__all__ = ["export_trf", "import_trf", "import_trf_file", "parse_trf"]
