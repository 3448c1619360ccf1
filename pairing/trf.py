"""TRF reading and writing (TRF-2026, and TRF-16 with the TRF(x) extensions).

Supported: ``001`` players; ``012`` name; ``XXR``/``142`` total rounds;
``XXC``/``152`` initial colour; ``162`` and ``BBW BBD BBL BBZ BBF BBU`` point
system; ``XXP``/``260`` forbidden pairs; ``XXA``/``250`` accelerations;
``240`` announced byes of the round to pair; ``192`` tournament type (``_BAKU``
selects Baku acceleration).  ``###`` lines are comments; unknown codes are
ignored.  Errors raise :class:`InvalidInput` carrying the line number.
"""

from __future__ import annotations

import re
from decimal import Decimal

from . import model as M

_RESULT_GAME = {"1": "W", "W": "W", "=": "D", "D": "D", "0": "L", "L": "L"}
# Point-system symbols -> the Scoring fields they set: the 162 line's letters (A: accepted, unused) and the
# TRF(x) BB* lines.
_POINTS_162 = {
    "W": ("win",),
    "D": ("draw",),
    "L": ("loss",),
    "Z": ("zero_bye", "forfeit_loss"),
    "P": ("bye",),
    "U": ("bye",),
    "A": (),
}
_POINTS_BB = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBZ": "zero_bye", "BBF": "forfeit_loss", "BBU": "bye"}


_PLAYER_LINE = re.compile(r"^001 [ \d]{3}\d", re.MULTILINE)


def looks_like_trf(text: str) -> bool:
    """The text holds at least one TRF player line (``001`` and a starting number in columns 5-8)."""
    return bool(_PLAYER_LINE.search(text.replace("\r", "\n")))


class TrfData:
    """A parsed TRF: the tournament state plus what the file declared."""

    def __init__(self, state: M.TournamentState, declared: dict[int, int], byes_240: list[tuple[int, int, str]]):
        self.state = state
        self.declared = declared
        self.byes_240 = byes_240


def _err(lineno: int, msg: str):
    return M.InvalidInput(msg, lineno)


def _int(s: str, lineno: int, what: str) -> int:
    s2 = s.strip()
    if not s2 or not s2.isdigit():
        raise _err(lineno, f"{what} '{s.strip()}' inválido")
    return int(s2)


def _points(s: str, lineno: int, what: str = "pontos") -> Decimal:
    s2 = s.strip()
    try:
        if not s2 or s2.count(".") > 1 or not s2.replace(".", "").isdigit():
            raise ValueError
        d = Decimal(s2)
    except Exception:
        raise _err(lineno, f"{what} '{s2}' inválido") from None
    if (d * 10) != (d * 10).to_integral_value():
        raise _err(lineno, f"{what} '{s2}' com mais de uma casa decimal")
    return d


def parse(text: str) -> TrfData:
    players: list[M.PlayerState] = []
    line_of: dict[int, int] = {}
    declared: dict[int, int] = {}
    total_rounds = 0
    initial = None
    points = {
        "win": Decimal(1),
        "draw": Decimal("0.5"),
        "loss": Decimal(0),
        "zero_bye": Decimal(0),
        "forfeit_loss": Decimal(0),
        "bye": None,
    }
    forbidden: list[M.ForbiddenPair] = []
    xxa: dict[int, list[Decimal]] = {}
    acc250: list[tuple[Decimal, int, int, int, int]] = []
    byes: list[tuple[int, int, str]] = []
    baku = False
    name = ""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for lineno, line in enumerate(text.split("\n"), start=1):
        if len(line) < 3:
            continue
        code = line[:3]
        if code == "###":
            continue
        if code == "001":
            p, pts = _player(line, lineno)
            if p.id in line_of:
                raise _err(lineno, f"número de emparceiramento {p.id} repetido")
            line_of[p.id] = lineno
            declared[p.id] = pts
            players.append(p)
        elif code in ("013", "310"):
            raise _err(lineno, "torneios por equipes não são suportados")
        elif code == "299":
            raise _err(lineno, "pontos atribuídos anormais (299) não são suportados")
        elif code in ("XXR", "142"):
            total_rounds = _int(line[3:], lineno, "número de rodadas")
            if total_rounds <= 0:
                raise _err(lineno, "número de rodadas inválido")
        elif code == "XXC":
            for tok in line[3:].split():
                if tok == "white1":
                    initial = "w"
                elif tok == "black1":
                    initial = "b"
        elif code == "152":
            c = line[4:].strip()
            if c not in ("W", "B"):
                raise _err(lineno, f"cor inicial '{c}' inválida")
            initial = c.lower()
        elif code == "162":
            if len(line) < 10:
                raise _err(lineno, "sistema de pontos inválido")
            i = 5
            while i <= len(line) - 5:
                ch = line[i]
                val = _points(line[i + 1 : i + 5], lineno, "pontos")
                if ch not in _POINTS_162:
                    raise _err(lineno, f"símbolo '{ch}' não suportado na linha 162")
                points.update(dict.fromkeys(_POINTS_162[ch], val))
                i += 9
            if line[i:].strip():
                raise _err(lineno, "sistema de pontos inválido")
        elif code in _POINTS_BB:
            points[_POINTS_BB[code]] = _points(line[4:12], lineno, "pontos")
        elif code == "XXP":
            ids = []
            for tok in line[3:].split():
                if not tok.isdigit() or int(tok) == 0:
                    raise _err(lineno, f"jogador '{tok}' inválido em XXP")
                ids.append(int(tok))
            forbidden.append(M.ForbiddenPair(ids))
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
            forbidden.append(M.ForbiddenPair(ids, first, last))
        elif code == "240":
            if len(line) < 14:
                raise _err(lineno, "linha 240 incompleta")
            kind = {"F": M.FULL_BYE, "H": M.HALF_BYE, "Z": M.ZERO_BYE, " ": M.ZERO_BYE}.get(line[4])
            if kind is None:
                raise _err(lineno, f"tipo de bye '{line[4]}' inválido")
            rnd = _int(line[6:9], lineno, "rodada")
            i = 10
            while i <= len(line) - 4:
                byes.append((rnd, _int(line[i : i + 4], lineno, "jogador"), kind))
                i += 5
            if line[i:].strip():
                raise _err(lineno, "linha 240 inválida")
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
            acc250.append((gp, r1, r2, p1, p2))
        elif code == "XXA":
            pid = _int(line[4:8], lineno, "jogador")
            vals = []
            i = 9
            while i + 4 <= len(line):
                chunk = line[i : i + 4]
                vals.append(Decimal(0) if not chunk.strip() else _points(chunk, lineno, "aceleração"))
                i += 5
            xxa[pid] = vals
        elif code == "192":
            typ = line[4:].strip()
            if typ in ("FIDE_DUTCH_2025_BAKU", "FIDE_DUTCH_BAKU"):
                baku = True
            elif typ in ("FIDE_DUTCH_2025", "FIDE_DUTCH"):
                baku = False
            else:
                raise _err(lineno, f"tipo de torneio '{typ}' não suportado")
        elif code == "012":
            name = line[4:].strip()
    by_id = {p.id: p for p in players}
    for pid, vals in xxa.items():
        if pid in by_id:
            by_id[pid].accelerations = vals
    for gp, r1, r2, p1, p2 in acc250:
        for pid in range(p1, p2 + 1):
            if pid in by_id:
                acc = by_id[pid].accelerations
                while len(acc) < r2:
                    acc.append(Decimal(0))
                for r in range(r1 - 1, r2):
                    acc[r] = gp
    state = M.TournamentState(
        players=players,
        total_rounds=total_rounds,
        initial_color=initial or "",
        scoring=M.Scoring(**points),
        acceleration=M.ACCEL_BAKU if baku else M.ACCEL_NONE,
        forbidden=forbidden,
        name=name,
    )
    state.line_of = line_of
    return TrfData(state, {k: int(v * 10) for k, v in declared.items()}, byes)


def _player(line: str, lineno: int):
    if len(line) < 84:
        raise _err(lineno, "linha de jogador (001) curta demais")
    pid = _int(line[4:8], lineno, "número de emparceiramento")
    if pid == 0:
        raise _err(lineno, "número de emparceiramento 0")
    rating_s = line[48:52].strip()
    rating = 0
    if rating_s:
        if not rating_s.isdigit():
            raise _err(lineno, f"rating '{rating_s}' inválido")
        rating = int(rating_s)
    pts = _points(line[80:84], lineno, "pontos")
    history: list[M.RoundEntry | None] = []
    s = 91
    rnd = 0
    while s <= len(line) - 8:
        rnd += 1
        where = f"na rodada {rnd}"
        opp_s = line[s : s + 4]
        col = line[s + 5]
        res = line[s + 7].upper()
        opp: int | None = None
        if opp_s.strip() and opp_s != "0000":
            o = _int(opp_s, lineno, f"adversário {where}")
            if o == 0:
                raise _err(lineno, f"adversário '{opp_s}' inválido {where}")
            if o == pid:
                raise _err(lineno, f"jogador emparceirado consigo mesmo {where}")
            opp = o
        if col not in ("w", "b", "-", " "):
            raise _err(lineno, f"cor '{col}' inválida {where}")
        if res not in "1=0WDL+-HFUZ ":
            raise _err(lineno, f"resultado '{line[s + 7]}' inválido {where}")
        blank = not opp_s.strip() and col == " " and res == " "
        if blank:
            history.append(None)
        elif opp is not None:
            if res in "HFUZ ":
                raise _err(lineno, f"resultado '{line[s + 7]}' inválido com adversário {where}")
            color = col if col in ("w", "b") else None
            if res == "+":
                history.append(M.RoundEntry(M.FORFEIT_WIN, opp, color))
            elif res == "-":
                history.append(M.RoundEntry(M.FORFEIT_LOSS, opp, color))
            else:
                if color is None:
                    raise _err(lineno, f"partida sem cor {where}")
                history.append(M.RoundEntry(M.GAME, opp, color, _RESULT_GAME[res]))
        else:
            if col in ("w", "b"):
                raise _err(lineno, f"cor sem adversário {where}")
            if res in "1W0LD":
                raise _err(lineno, f"resultado '{line[s + 7]}' inválido sem adversário {where}")
            kind = {
                "U": M.PAB,
                "+": M.PAB,
                "H": M.HALF_BYE,
                "=": M.HALF_BYE,
                "F": M.FULL_BYE,
                "Z": M.ZERO_BYE,
                " ": M.ZERO_BYE,
                "-": M.ZERO_BYE,
            }[res]
            history.append(M.RoundEntry(kind))
        s += 10
    if line[s:].strip():
        raise _err(lineno, "conteúdo inesperado no fim da linha de jogador")
    name = line[14:47].strip()
    title = line[10:13].strip()
    return M.PlayerState(id=pid, name=name, rating=rating, title=title, history=history), pts


def read(path: str) -> TrfData:
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        # TRF files from older desktop programs (Swiss-Manager, Vega) are Latin-1 / Windows-1252; only names
        # use non-ASCII letters, and every byte is a valid Latin-1 character.
        text = raw.decode("latin-1")
    return parse(text)


# ----------------------------------------------------------------- writing
def _fmt_points(v) -> str:
    d = Decimal(str(v))
    return f"{d:.1f}"


def dumps(state: M.TournamentState, trf2026: bool = False) -> str:
    """Write the state as TRF (TRF-16 + XX extensions, or TRF-2026 codes)."""
    from .convert import build

    out = []
    if state.name:
        out.append(f"012 {state.name}")
    sc = state.scoring
    mult = 2 if state.micro_match else 1
    win = Decimal(str(sc.win)) * mult
    draw = Decimal(str(sc.draw)) * mult
    if trf2026:
        out.append(f"142 {state.total_rounds}")
        if state.initial_color:
            out.append(f"152 {state.initial_color[0].upper()}")
        out.append("192 FIDE_DUTCH_2025_BAKU" if state.acceleration == M.ACCEL_BAKU else "192 FIDE_DUTCH_2025")
        out.append(f"162  W{_fmt_points(win):>4}    D{_fmt_points(draw):>4}")
    else:
        out.append("192 FIDE_DUTCH_2025_BAKU" if state.acceleration == M.ACCEL_BAKU else "092 FIDE_DUTCH_2025")
        out.append(f"162  W{_fmt_points(win):>4}    D{_fmt_points(draw):>4}")
        out.append(f"XXR {state.total_rounds}")
        if state.initial_color:
            out.append("XXC white1" if state.initial_color[0].lower() == "w" else "XXC black1")
    if sc.bye is not None:
        out.append(f"BBU {_fmt_points(Decimal(str(sc.bye)) * mult):>4}")
    if Decimal(str(sc.loss)) != 0:
        out.append(f"BBL {_fmt_points(Decimal(str(sc.loss)) * mult):>4}")
    t = build(state)
    for p in sorted(state.players, key=lambda p: p.id):
        ep = t.players[p.id - 1]
        pts = Decimal(ep.score) / 10
        name = (p.name or f"Player {p.id}")[:33]
        line = (
            f"001 {p.id:>4} {' ':1}{(p.title or '')[:3]:<3} {name:<33} {int(p.rating or 0) or '':>4}"
            f"{'':28}{_fmt_points(pts):>4}{'':5}"
        )
        line = line[:84].ljust(84) + " " * 5
        blocks = []
        for r, m in enumerate(ep.matches):
            blocks.append(_block(ep, m, r, t, state.micro_match))
        line = line[:89] + "".join("  " + b for b in blocks)
        out.append(line.rstrip())
    for fp in state.forbidden:
        if fp.first_round is None and fp.last_round is None:
            out.append("XXP " + " ".join(str(x) for x in fp.players))
        else:
            first = fp.first_round or 1
            last = fp.last_round or state.total_rounds
            out.append(f"260 {first:>3} {last:>3} " + " ".join(f"{x:>4}" for x in fp.players))
    for p in sorted(state.players, key=lambda p: p.id):
        if p.accelerations:
            out.append(
                f"XXA {p.id:>4} " + " ".join(f"{_fmt_points(Decimal(str(a)) * mult):>4}" for a in p.accelerations)
            )
    return "\n".join(out) + "\n"


def _block(ep, m, r, t, micro) -> str:
    from .engine import BLACK, DRAW, WHITE, WIN

    if not m.participated:
        code = "F" if m.score == WIN else "H" if m.score == DRAW else "Z"
        return f"0000 - {code}"
    if m.opponent == ep.pid:
        return "0000 - U"
    col = "w" if m.color == WHITE else "b" if m.color == BLACK else "-"
    if m.played:
        res = "1" if m.score == WIN else "=" if m.score == DRAW else "0"
    else:
        res = "+" if m.score == WIN else "-"
    return f"{m.opponent + 1:>4} {col} {res}"
