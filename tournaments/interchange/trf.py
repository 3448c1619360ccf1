"""TRF (FIDE Tournament Report File) for single-game tournaments: the app's mapping of the engine's TRF document.

The file is read and written by ``pairing.trffile`` (one grammar for the engine and the app: what one reads the
other reads the same way); this module only maps the document to the tournament's models and back. Results: 1 = 0
(played), W D L (played, short game), + - (forfeit), U (pairing-allocated bye; F accepted when the round has no
U), Z or H (announced absence: zero or draw value), blank (not paired: withdrawn, late entry). Columns after the
last paired round holding only Z or H are the absences announced for the rounds still to pair (as pairing
programs write them); the export writes them there too. Import goes through the JSON importer (same validation,
one transaction).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.text import slugify

from pairing import trffile
from pairing.model import FORFEIT_LOSS, FORFEIT_WIN, GAME, HALF_BYE, PAB, ZERO_BYE, InvalidInput
from pairing.trffile import Block, TrfDocument, TrfPlayer, decode

from ..models import Absence, Tournament
from ..models.choices import AbsenceValue, ByeValue, RoundFormat
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
def _dec(value) -> Decimal:
    return Decimal(str(number(value)))


_KIND_OF_RESULT = {"1": GAME, "=": GAME, "0": GAME, "+": FORFEIT_WIN, "-": FORFEIT_LOSS, " ": GAME}


def export_trf(tournament) -> str:
    """The tournament as TRF-2026 (single-game tournaments only), written by the engine's TRF writer."""
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
    absent_kind = HALF_BYE if absent_char == "H" else ZERO_BYE
    last_paired = max((r.number for r in rounds), default=0)
    rank = {row.id: row.position for row in st.rows}
    bye = tournament.score_win if tournament.bye_value == ByeValue.WIN else tournament.score_draw
    doc = TrfDocument(
        name=tournament.name,
        city=tournament.city,
        federation="BRA",
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        players_declared=str(len(entries)),
        rated_declared=str(sum(1 for e in entries if e.rating is not None)),
        type="Sistema suíço (holandês FIDE C.04.3)",
        chief_arbiter=tournament.chief_arbiter,
        time_control=f"{tournament.minutes_per_game}'",
        total_rounds=tournament.planned_rounds,
        initial_colour="w" if tournament.initial_colour == "white" else "b",
        tournament_type="FIDE_DUTCH_2025",
    )
    doc.scoring = {"win": _dec(tournament.score_win), "draw": _dec(tournament.score_draw)}
    if tournament.score_loss:
        doc.scoring["loss"] = _dec(tournament.score_loss)
    doc.scoring["bye"] = _dec(bye)
    for e in sorted(entries, key=lambda e: ids[e.pk]):
        p = e.player
        pid = ids[e.pk]
        blocks: list[Block | None] = []
        for r in history[e.pk]:
            if r.kind == "pab":
                block = Block(None, "", "U", PAB)
            elif r.opponent is not None:
                code = r.results.get(1)
                if code is None:
                    res = " "
                else:
                    white, black = _TO_TRF[code]
                    res = white if r.colour == "w" else black
                block = Block(
                    r.opponent, r.colour or "", res, _KIND_OF_RESULT[res]
                )  # set whenever there is an opponent
            elif (e.pk, r.round) in announced:
                block = Block(None, "", absent_char, absent_kind)
            else:
                block = None
            blocks.extend([None] * (r.round - 1 - len(blocks)))
            blocks.append(block)
        for rnd in sorted(n for pk, n in announced if pk == e.pk and n > last_paired):
            blocks.extend([None] * (rnd - 1 - len(blocks)))  # announced for a round not paired yet
            blocks.append(Block(None, "", absent_char, absent_kind))
        doc.players.append(
            TrfPlayer(
                number=pid,
                name=p.name,
                sex="w" if p.sex == "F" else "m",
                title=_TITLES.get(p.title, ""),
                rating=e.rating or 0,
                federation="BRA",
                ident=p.cbjd_id or "",
                birth=p.birth_date.strftime("%Y/%m/%d") if p.birth_date else "",
                points=_dec(sum((r.points for r in history[e.pk]), 0)),
                rank=rank.get(pid),
                blocks=blocks,
            )
        )
    return trffile.write(doc)


# ---------------------------------------------------------------------------------------------------- read
def read_document(text) -> TrfDocument:
    """The file's document (pairing.trffile: the engine's own grammar); a refusal names the line."""
    if isinstance(text, bytes):
        text = decode(text)
    try:
        return trffile.parse(text)
    except InvalidInput as exc:
        where = f"TRF, linha {exc.line}" if exc.line else "TRF"
        raise InterchangeError([f"{where}: {exc.detail}"]) from None


def parse_trf(text, slug=None) -> dict:
    """Read a TRF into an interchange-file dict (then imported by the JSON importer)."""
    doc = read_document(text)
    errors = []
    scoring = {k: str(doc.scoring[k]) for k in ("win", "draw", "loss") if doc.scoring.get(k) is not None}
    scoring = {"win": "1", "draw": "0.5", "loss": "0", **scoring}
    players = [_player(p) for p in doc.players]
    blocks = {
        p.number: [
            (b.opponent or 0, b.colour, b.result.strip(), p.line) if b else (0, "", "", p.line) for b in p.blocks
        ]
        for p in doc.players
    }
    line_of = {p.number: p.line for p in doc.players}
    if not players:
        errors.append("TRF: nenhum jogador (linhas 001) no arquivo")
    if errors:
        raise InterchangeError(errors[:50])
    if doc.start_date is None:
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
    name = doc.name or "Torneio importado de TRF"
    try:
        float(scoring["win"])  # must be a number
        draw = float(scoring["draw"])
    except ValueError:
        raise InterchangeError([f"TRF, linha 162: pontuação inválida {scoring}"]) from None
    bye_points = doc.scoring.get("bye")
    bye_value = "draw" if bye_points is not None and float(bye_points) == draw else "win"
    start = doc.start_date
    end = doc.end_date or start
    return {
        "format": FORMAT,
        "tournament": {
            "name": name[:200],
            "slug": slug or _free_slug(name),
            "variant": "brazilian-64",
            "format": "single-game",
            "rounds": max(doc.total_rounds or 0, n_rounds, 1),
            "minutes_per_game": 21,
            "start_date": start.isoformat() if start else None,
            "end_date": end.isoformat() if end else None,
            "city": doc.city[:100],
            "state": "",
            "scoring": {"win": scoring["win"], "draw": scoring["draw"], "loss": scoring["loss"]},
            "bye": bye_value,
            "absence": "draw" if has_h else "zero",
            "acceleration": "none",
            "tiebreaks": "cbjd",
            "min_participants": 30,
            "chief_arbiter": doc.chief_arbiter[:120],
            "opening_table": None,
            "initial_colour": "black" if doc.initial_colour == "b" else "white",
        },
        "categories": [{"code": "ABS", "name": "Absoluto"}],
        "players": players,
        "rounds": rounds,
        "absences": ahead,
    }


def _player(p: TrfPlayer) -> dict:
    player = {
        "id": p.number,
        "cbjd_id": p.ident or None,
        "name": p.name,
        "sex": "F" if p.sex.lower() in ("w", "f") else "M",
        "birth_date": p.birth_date.isoformat() if p.birth_date else None,
        "state": "",
        "club": "",
        "rating": p.rating or None,
        "categories": ["ABS"],
    }
    title = _TITLES_BACK.get(p.title.upper(), "")
    if title:
        player["title"] = title
    return player


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
