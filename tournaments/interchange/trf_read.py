"""A TRF into a tournament: the app's mapping of the engine's TRF document (``pairing.trffile``).

The rounds are read as the engine reads them (``pairing.trf.reading``): the rounds played, then the round to pair,
whose column (and the ``240`` lines) holds who is not paired in it. So the app pairs an imported tournament's
next round exactly as ``python -m pairing`` pairs the file.

Per round column: a game or forfeit -> a board (first = White; a forfeit written without colours keeps none);
``U`` (or ``+`` without opponent) -> the pairing-allocated bye; ``H``/``=``, ``F``, ``Z`` -> an announced absence
worth a draw, a win or zero (each absence keeps its own value); ``-`` or blank -> not paired (zero). In the round
to pair's column every one of these (``-`` too) is an absence of that round: the player is not paired. A round
one player's line gives and the rest of the file does not say the same (a forfeit the opponent's line does not
show, a second ``U`` in the round, results that contradict, a rematch) is kept for that player alone
(``models.OneSidedRound``), as the engine reads every line on its own. What the
file says that pairs nothing (names as written, sex, titles, federation, FIDE or other IDs, birth dates or years,
time control, header lines) is kept; what cannot be read is a warning, never a refusal. Every warning is kept,
marked with what it changes (``notices``: points, pairings, rights, nothing) and returned in that order. JaVaFo's
``XXZ`` names players who will not play the round to pair: absences of that round, as the column's. A round played
written ``0000 - `` with a blank result is a bye when the player's declared points say so (:func:`_settle_blank_byes`).
Two readings the director may ask for: the declared points rather than the results' sum (``follow_declared``), and
the complete rounds without a round in progress (``leave_out_in_progress``). The product's own export
adds ``DSW`` lines (ignored by every other reader) for what TRF cannot say: CBJD IDs, withdrawals, late entries,
board order, the engine of each round, and a round paired whose results are not in.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils import timezone

from pairing import model as M
from pairing import trf, trffile
from pairing.convert import fmt_tenths, tenths
from pairing.trffile import TrfDocument, TrfPlayer, decode
from tournaments.core.agreement import plural
from tournaments.core.slugs import free_slug
from tournaments.interchange import notices
from tournaments.interchange.errors import InterchangeError
from tournaments.interchange.jsonfile import FORMAT, MAX_PLAYERS, import_data
from tournaments.models.choices import MAX_ROUNDS, RATING_MAX, RATING_MIN, GameResult, RoundStatus, WithdrawalKind

# TRF title (FIDE chess titles, Swiss-Manager's letters, FMJD draughts titles) -> the product's title.
TITLES = {
    "GM": "GMI",
    "G": "GMI",
    "GMI": "GMI",
    "IM": "MI",
    "M": "MI",
    "MI": "MI",
    "FM": "MF",
    "F": "MF",
    "MF": "MF",
    "WGM": "GMIF",
    "WG": "GMIF",
    "GMIF": "GMIF",
    "WIM": "MIF",
    "WM": "MIF",
    "MIF": "MIF",
    "WFM": "MFF",
    "WF": "MFF",
    "MFF": "MFF",
    "MN": "MN",
}
# (White's result, Black's result) -> the game's code from White's view.
_GAME_CODE = {
    ("W", "L"): GameResult.WHITE_WIN,
    ("L", "W"): GameResult.BLACK_WIN,
    ("D", "D"): GameResult.DRAW,
    ("+", "-"): GameResult.WHITE_FORFEIT_WIN,
    ("-", "+"): GameResult.BLACK_FORFEIT_WIN,
    ("-", "-"): GameResult.DOUBLE_FORFEIT,
}
_ABSENCE_VALUE = {M.HALF_BYE: "draw", M.FULL_BYE: "win", M.ZERO_BYE: "zero"}
# A round kept for one player alone (models.OneSidedRound): the TRF character as the model stores it.
_ONE_SIDED_RESULT = {"1": "1", "W": "1", "=": "=", "D": "=", "0": "0", "L": "0", "+": "+", "-": "-", "U": "U"}
DEFAULT_TYPE = "Sistema suíço (holandês FIDE C.04.3)"  # the 092 line of the product's export


def read_document(text: str | bytes) -> TrfDocument:
    """The file's document (the engine's own grammar); a refusal names the line."""
    if isinstance(text, bytes):
        text = decode(text)
    try:
        return trffile.parse(text)
    except M.InvalidInput as exc:
        where = f"TRF, linha {exc.line}" if exc.line else "TRF"
        raise InterchangeError([f"{where}: {exc.detail}"]) from None


def _doc_notice(warning: str) -> str:
    """A warning of the TRF grammar with what it changes: an unreadable birth date the age categories (rights),
    ``XXC rank`` the pairing; the rest (unreadable dates of the event, lines no one uses) nothing."""
    if "data de nascimento" in warning:
        return notices.rights(warning)
    if "XXC rank" in warning:
        return notices.pairings(warning)
    return warning


def _outcome(block: trffile.Block) -> str:
    return block.game_result or block.result if block.kind == M.GAME else block.result


def _check_numbers(doc: TrfDocument) -> None:
    """Players there are, not too many, numbered 1 to n without a gap (before anything is computed from them)."""
    numbers = sorted(p.number for p in doc.players)
    if not numbers:
        raise InterchangeError(["TRF: nenhum jogador (linhas 001) no arquivo"])
    if len(numbers) > MAX_PLAYERS:
        raise InterchangeError([f"TRF: jogadores demais ({len(numbers)}; no máximo {MAX_PLAYERS})"])
    missing = sorted(set(range(1, numbers[-1] + 1)) - set(numbers))
    if missing:
        raise InterchangeError(
            [f"TRF: número de emparceiramento {missing[0]} ausente (os jogadores vão de 1 a {numbers[-1]})"]
        )


class _Reader:
    def __init__(self, doc: TrfDocument):
        self.doc = doc
        try:
            self.data = trf.document_state(doc)
        except M.InvalidInput as exc:
            raise InterchangeError(
                [f"TRF, linha {exc.line}: {exc.detail}" if exc.line else f"TRF: {exc.detail}"]
            ) from None
        self.errors: list[str] = []
        self.warnings: list[str] = [_doc_notice(w) for w in doc.warnings]
        self.by_id = {p.number: p for p in doc.players}
        self.ext = self._extensions()
        self.met: dict[frozenset[int], int] = {}  # pair -> the round of their first game played on a board

    # ------------------------------------------------------------------------------------------ extensions
    def _extensions(self) -> dict[str, Any]:
        ext: dict[str, Any] = {
            "cbjd": {},
            "withdrawn": {},
            "late": {},
            "order": {},
            "engine": {},
            "boards": {},
            "byes": {},
            "status": {},
        }
        for lineno, _code, rest in self.doc.extensions:
            words = rest.split()
            try:
                key = words[0].upper()
                if key == "CBJD":
                    ext["cbjd"][int(words[1])] = words[2]
                elif key == "WITHDRAWN":
                    kind = words[3] if len(words) > 3 else WithdrawalKind.APPROVED
                    ext["withdrawn"][int(words[1])] = (int(words[2]), kind)
                elif key == "LATE":
                    ext["late"][int(words[1])] = int(words[2])
                elif key == "ORDER":
                    ext["order"][int(words[1])] = [int(w) for w in words[2:]]
                elif key == "ENGINE":
                    ext["engine"][int(words[1])] = " ".join(words[2:])
                elif key == "BOARD":
                    rnd, board, first, second = (int(w) for w in words[1:5])
                    result = words[5] if len(words) > 5 and words[5] != "*" else None
                    colourless = len(words) > 6 and words[6] == "colourless"
                    ext["boards"].setdefault(rnd, []).append((board, first, second, result, colourless))
                elif key == "BYE":
                    ext["byes"][int(words[1])] = int(words[2])
                elif key == "ROUND":
                    ext["status"][int(words[1])] = words[2]
                else:
                    raise ValueError(key)
            except (IndexError, ValueError):
                self.warnings.append(f"linha {lineno}: extensão “DSW {rest.strip()[:40]}” ilegível; ignorada")
        return ext

    # ---------------------------------------------------------------------------------------------- rounds
    def rounds(self, played: int) -> list[dict[str, Any]]:
        out = []
        for rnum in range(1, played + 1):
            out.append(self._round(rnum))
        return out

    def _round(self, rnum: int) -> dict[str, Any]:
        boards: list[dict[str, Any]] = []
        bye = None
        absent: list[int] = []
        absent_values: dict[str, str] = {}
        self.one_sided: list[dict[str, Any]] = []
        seen: set[int] = set()
        for p in self.doc.players:
            b = p.blocks[rnum - 1] if len(p.blocks) >= rnum else None
            if b is None or p.number in seen:
                continue
            where = f"TRF, linha {p.line}, rodada {rnum}"
            if b.kind == M.PAB:
                if bye is not None:
                    # a second bye in the round: kept for that player alone, as the engine reads it
                    self._one_sided(p, b, rnum, "outro bye (U) na mesma rodada, do jogador " + str(bye))
                else:
                    bye = p.number
            elif b.kind in _ABSENCE_VALUE:
                if b.result in ("-", " "):
                    continue  # not paired, zero: no announced absence
                absent.append(p.number)
                absent_values[str(p.number)] = _ABSENCE_VALUE[b.kind]
            else:
                board = self._board(p, b, rnum, where, seen)
                if board is None:
                    continue
                pair = frozenset((board["first"], board["second"]))
                seen |= pair
                if pair in self.met:  # a rematch: the engine reads it, the app's boards never repeat a game
                    opp = self.by_id[b.opponent or 0]
                    ob = opp.blocks[rnum - 1]
                    assert ob is not None
                    self._both_one_sided(p, b, opp, ob, rnum, f"os dois já tinham jogado na rodada {self.met[pair]}")
                    continue
                boards.append(board)
        for bd in boards:
            if bd["games"][0] in (GameResult.WHITE_WIN, GameResult.BLACK_WIN, GameResult.DRAW):
                self.met.setdefault(frozenset((bd["first"], bd["second"])), rnum)
        order = self.ext["order"].get(rnum)
        if order and sorted(order) == sorted(bd["first"] for bd in boards):
            boards.sort(key=lambda bd: order.index(bd["first"]))
        else:
            boards.sort(key=lambda bd: min(bd["first"], bd["second"]))
        for i, bd in enumerate(boards, 1):
            bd["board"] = i
        rnd: dict[str, Any] = {
            "number": rnum,
            "opening": None,
            "status": "published",
            "boards": boards,
            "bye": bye,
            "absent": sorted(absent),
        }
        if absent_values:
            rnd["absent_values"] = absent_values
        if self.one_sided:
            rnd["one_sided"] = self.one_sided
        if self.ext["engine"].get(rnum):
            rnd["engine"] = self.ext["engine"][rnum]
        return rnd

    def _one_sided(self, p: TrfPlayer, b: trffile.Block, rnum: int, why: str) -> None:
        """The round as ``p``'s line writes it, kept for ``p`` alone (``models.OneSidedRound``), and said."""
        result = "U" if b.kind == M.PAB else _ONE_SIDED_RESULT[b.result]
        self.one_sided.append({"player": p.number, "opponent": b.opponent, "colour": b.colour, "result": result})
        self.warnings.append(
            notices.points(
                f"linha {p.line}, rodada {rnum}: “{b.text().strip()}” do jogador {p.number} importado como o arquivo o "
                f"escreve, só para esse jogador ({why})"
            )
        )

    def _board(self, p: TrfPlayer, b: trffile.Block, rnum: int, where: str, seen: set[int]) -> dict[str, Any] | None:
        opp_id = b.opponent
        assert opp_id is not None
        opp = self.by_id.get(opp_id)
        if opp is None:
            self.errors.append(f"{where}: adversário {opp_id} inexistente")
            return None
        ob = opp.blocks[rnum - 1] if len(opp.blocks) >= rnum else None
        if ob is None or ob.opponent != p.number:
            self._unanswered(p, b, opp_id, ob, rnum, where)
            return None
        if trffile.PAIRED in (b.kind, ob.kind):
            return self._paired_board(p, b, opp, ob, where, seen)
        if (b.kind == M.GAME) != (ob.kind == M.GAME):  # the engine refuses a game against a forfeit
            self.errors.append(
                f"{where}: os resultados de {p.number} e {opp_id} não conferem (“{b.result}” e “{ob.result}”): "
                "uma partida jogada contra um W.O."
            )
            seen.update((p.number, opp_id))
            return None
        if b.colour and b.colour == ob.colour:
            if b.kind == M.GAME:  # refused by the engine too
                self.errors.append(f"{where}: {p.number} e {opp_id} com a mesma cor")
                seen.update((p.number, opp_id))
                return None
            self._both_one_sided(p, b, opp, ob, rnum, "a mesma cor nas duas linhas")
            seen.update((p.number, opp_id))
            return None
        if b.colour == "b" or (not b.colour and ob.colour == "w"):
            white, black, wb, bb = opp, p, ob, b
        else:
            white, black, wb, bb = p, opp, b, ob
        code = _GAME_CODE.get((_outcome(wb), _outcome(bb)))
        if code is None:
            self._both_one_sided(p, b, opp, ob, rnum, f"resultados que não conferem: “{b.result}” e “{ob.result}”")
            seen.update((p.number, opp_id))
            return None
        board: dict[str, Any] = {"first": white.number, "second": black.number, "games": [code]}
        if not b.colour and not ob.colour:
            board["colourless"] = True  # a forfeit without colours: none is invented
        return board

    def _unanswered(
        self, p: TrfPlayer, b: trffile.Block, opp_id: int, ob: trffile.Block | None, rnum: int, where: str
    ) -> None:
        """A round whose opponent's line does not name the player back: refused for a game or a pairing (as the
        engine refuses it), else kept for the player alone."""
        said = "ninguém" if ob is None or ob.opponent is None else f"o jogador {ob.opponent}"
        if b.kind == trffile.PAIRED:
            self.errors.append(
                f"{where}: o jogador {p.number} está emparceirado com {opp_id}, mas a linha de {opp_id} mostra "
                f"{said} nessa rodada"
            )
        elif b.kind == M.GAME:  # the engine refuses a game its opponent's line does not show
            self.errors.append(
                f"{where}: o jogador {p.number} jogou com {opp_id}, mas a linha de {opp_id} mostra {said} nessa rodada"
            )
        else:
            self._one_sided(p, b, rnum, f"a linha do jogador {opp_id} mostra {said} nessa rodada")

    def _paired_board(
        self, p: TrfPlayer, b: trffile.Block, opp: TrfPlayer, ob: trffile.Block, where: str, seen: set[int]
    ) -> dict[str, Any] | None:
        """A board of a round paired whose result is not in (a blank result): published, without a result."""
        if b.colour and b.colour == ob.colour:
            self.errors.append(f"{where}: {p.number} e {opp.number} com a mesma cor")
            seen.update((p.number, opp.number))
            return None
        if b.colour == "b" or (not b.colour and ob.colour == "w"):
            white, black = opp, p
        else:
            white, black = p, opp
        if b.kind != ob.kind:
            written, line = (b, p) if b.kind != trffile.PAIRED else (ob, opp)
            self.warnings.append(
                notices.points(
                    f"linha {line.line}, rodada {where.rsplit(' ', 1)[-1]}: resultado “{written.result}” só na linha "
                    f"do jogador {line.number} (em branco na do adversário); a mesa fica sem resultado para o diretor "
                    "lançar"
                )
            )
        board: dict[str, Any] = {"first": white.number, "second": black.number, "games": [None]}
        if not b.colour and not ob.colour:
            board["colourless"] = True
        return board

    def seated(self, rnum: int) -> set[int]:
        """The players the file seats in round ``rnum`` (an opponent, or the bye)."""
        out = set()
        for p in self.doc.players:
            b = p.blocks[rnum - 1] if len(p.blocks) >= rnum else None
            if b is not None and (b.opponent is not None or b.kind == M.PAB):
                out.add(p.number)
        return out

    def dsw_round(self, rnum: int, absent: list[int], values: dict[str, str]) -> dict[str, Any]:
        """The round paired whose results are not in, as the product's own export writes it (DSW BOARD lines)."""
        boards = [
            {
                "board": board,
                "first": first,
                "second": second,
                "games": [result],
                **({"colourless": True} if colourless else {}),
            }
            for board, first, second, result, colourless in sorted(self.ext["boards"].get(rnum, []))
        ]
        status = self.ext["status"].get(rnum, "published")
        rnd: dict[str, Any] = {
            "number": rnum,
            "opening": None,
            "status": status if status in RoundStatus.values else "published",
            "boards": boards,
            "bye": self.ext["byes"].get(rnum),
            "absent": absent,
            "absent_values": values,
        }
        if self.ext["engine"].get(rnum):
            rnd["engine"] = self.ext["engine"][rnum]
        return rnd

    def paired_round(self, rnum: int, absent: list[int], values: dict[str, str]) -> dict[str, Any]:
        """The round paired whose results are not in: its boards (results kept where the file gives them), its
        bye, and the players its column (or a 240 line) says are not paired, as the engine reads them."""
        rnd = self._round(rnum)
        rnd["absent"] = list(absent)
        if values:
            rnd["absent_values"] = dict(values)
        else:
            rnd.pop("absent_values", None)
        return rnd

    def later_absences(self, after: int) -> list[dict[str, Any]]:
        """Absences a file announces in the columns after the round paired without results (H, F, Z, -)."""
        out = []
        for p in self.doc.players:
            for rnum, b in enumerate(p.blocks[after:], start=after + 1):
                if b is None or b.opponent is not None:
                    continue
                if b.kind in _ABSENCE_VALUE and b.result != " ":
                    out.append({"round": rnum, "player": p.number, "value": _ABSENCE_VALUE[b.kind]})
                elif b.kind == M.PAB:
                    self.warnings.append(
                        notices.pairings(
                            f"linha {p.line}, rodada {rnum}: bye (U) numa rodada ainda não emparceirada; ignorado"
                        )
                    )
        return out

    def _both_one_sided(
        self, p: TrfPlayer, b: trffile.Block, opp: TrfPlayer, ob: trffile.Block, rnum: int, why: str
    ) -> None:
        self._one_sided(p, b, rnum, why)
        self._one_sided(opp, ob, rnum, why)

    # --------------------------------------------------------------------------------------------- players
    def player(self, p: TrfPlayer) -> dict[str, Any]:
        where = f"linha {p.line}"
        sex = {"m": "M", "w": "F", "f": "F"}.get(p.sex.lower(), "")
        if p.sex and not sex:
            self.warnings.append(
                notices.rights(f"{where}: sexo “{p.sex}” do jogador {p.number} desconhecido; deixado em branco")
            )
        name = p.name
        if not name:
            name = f"Jogador {p.number}"
            self.warnings.append(f"{where}: jogador {p.number} sem nome; chamado “{name}”")
        rating: int | None = p.rating or None
        if rating is not None and not RATING_MIN <= rating <= RATING_MAX:
            self.warnings.append(
                notices.rights(
                    f"{where}: rating {rating} do jogador {p.number} fora da faixa ({RATING_MIN} a {RATING_MAX}); "
                    "importado sem rating"
                )
            )
            rating = None
        birth_date, birth_year = p.birth_date, p.birth_year
        today = timezone.localdate()
        if birth_date is not None and not date(1900, 1, 1) <= birth_date <= today:
            self.warnings.append(
                notices.rights(f"{where}: data de nascimento “{p.birth}” impossível; tratada como desconhecida")
            )
            birth_date, birth_year = None, None
        if birth_year is not None and not 1900 <= birth_year <= today.year:
            birth_year = None
        player: dict[str, Any] = {
            "id": p.number,
            "cbjd_id": self.ext["cbjd"].get(p.number),
            "name": name,
            "sex": sex,
            "birth_date": birth_date.isoformat() if birth_date else None,
            "state": "",
            "club": "",
            "rating": rating,
            "categories": ["ABS"],
        }
        if birth_date is None and birth_year is not None:
            player["birth_year"] = birth_year
        title = TITLES.get(p.title.upper(), "")
        if title:
            player["title"] = title
        if p.title and p.title.upper() != title:
            player["title_as_written"] = p.title[:10]
        if p.federation:
            player["federation"] = p.federation[:3]
        if p.ident:
            player["foreign_id"] = p.ident[:20]  # a FIDE or other federation's ID: never a CBJD ID
        if p.number in self.ext["withdrawn"]:
            rnd, kind = self.ext["withdrawn"][p.number]
            player["withdrawn_from"], player["withdrawal"] = rnd, kind
        if p.number in self.ext["late"]:
            player["late_entry"] = self.ext["late"][p.number]
        return player


def _stand_in_start(doc: TrfDocument) -> date:
    for text in doc.round_dates:
        when, _y, _ok = trffile.parse_date(text)
        if when is not None:
            return when
    return doc.end_date or timezone.localdate()


def _minutes(time_control: str) -> int:
    m = re.search(r"\d+", time_control)
    return int(m.group()) if m and 1 <= int(m.group()) <= 600 else 21


def _header(doc: TrfDocument) -> dict[str, Any]:
    header: dict[str, Any] = {
        "032": doc.federation,
        "092": "" if doc.type == DEFAULT_TYPE else doc.type,
        "112": list(doc.deputies),
        "132": list(doc.round_dates),
        "172": doc.rank_method,
        "182": doc.pairing_controller,
        "192": "" if doc.tournament_type in ("FIDE_DUTCH_2025", "FIDE_DUTCH_2025_BAKU") else doc.tournament_type,
        "202": doc.tiebreaks,
        "212": doc.tiebreaks_2,
        "222": doc.time_control_code,
    }
    if doc.start_date is None and doc.start_text:
        header["042"] = doc.start_text
    if doc.end_text and (doc.end_date is None or doc.start_date is None):
        # unreadable, or the one date given when the start is unknown (the tournament's end date may be a stand-in)
        header["052"] = doc.end_text
    return {k: v for k, v in header.items() if (any(v) if isinstance(v, list) else v)}


def read_trf(
    text: str | bytes,
    slug: str | None = None,
    *,
    total_rounds: int | None = None,
    follow_declared: bool = False,
    leave_out_in_progress: bool = False,
) -> tuple[dict[str, Any], list[str]]:
    """Read a TRF into an interchange-file dict (imported then by the JSON importer) and the warnings, what changes
    most first (``notices``).

    ``total_rounds``: the number of rounds the director gives at import, for a file that does not say it (``XXR``/``142``,
    as Swiss-Manager often exports). ``follow_declared``: a player whose declared points differ from the results
    keeps the declared points (the difference as points outside the games, with the reason). ``leave_out_in_progress``:
    the round paired whose results are not all in is left out (the complete rounds are imported; it is the next to
    pair)."""
    doc = read_document(text)
    _check_numbers(doc)
    early: list[str] = []
    if leave_out_in_progress:
        early += _leave_out_round_in_progress(doc)
    early += _settle_blank_byes(doc)
    reader = _Reader(doc)
    reader.warnings += early
    reading = trf.reading(doc)
    played = reading.played
    for line, pid in doc.absent_next:
        if pid not in reader.by_id:
            raise InterchangeError([f"TRF, linha {line}: XXZ com jogador inexistente {pid}"])
    for pid in reading.absences:
        if pid not in reader.by_id:
            raise InterchangeError([f"TRF: ausência (linha 240) de jogador inexistente {pid}"])
    players = _adjustments(doc, [reader.player(p) for p in doc.players])
    rounds = reader.rounds(played)
    by_player = {p["id"]: p for p in players}
    ahead, in_progress = _next_round(reader, reading, rounds, by_player)
    if reader.errors:
        errors = reader.errors[:50]
        if in_progress:
            errors[0] += _leave_out_offer(in_progress)
        raise InterchangeError(errors)
    _declared_points(reader, by_player, follow_declared)
    _scoring_notes(doc, reader.warnings)
    # Scoring.
    sc = doc.scoring
    win, draw, loss = sc.get("win") or Decimal(1), sc.get("draw"), sc.get("loss") or Decimal(0)
    draw = Decimal("0.5") if draw is None else draw
    # The engine's forfeit loss and zero-point bye are 0 unless the file says (BBF, BBZ, 162 Z), whatever a loss is
    # worth; the app's default is a loss's value (0 almost always): kept apart only when they differ.
    forfeit_loss = sc.get("forfeit_loss") if sc.get("forfeit_loss") is not None else Decimal(0)
    zero_bye = sc.get("zero_bye") if sc.get("zero_bye") is not None else Decimal(0)
    unplayed_scoring: dict[str, str] = {}
    if forfeit_loss != loss:
        unplayed_scoring["forfeit_loss"] = str(forfeit_loss)
    if zero_bye != loss:
        unplayed_scoring["zero_bye"] = str(zero_bye)
    bye = sc.get("bye")
    bye_points = None
    if bye is None or bye == win:
        bye_value = "win"
    elif bye == draw:
        bye_value = "draw"
    else:
        bye_value, bye_points = "win", bye  # worth neither: the tournament keeps its points

    planned = _planned_rounds(doc, total_rounds, len(rounds), ahead, reader.warnings)
    if planned > MAX_ROUNDS:
        raise InterchangeError([f"TRF: {planned} rodadas (no máximo {MAX_ROUNDS})"])
    # Accelerations: XXA/250 lines, or a 192 ..._BAKU line read as the engine reads it.
    accelerations = {pid: vals for pid, vals in doc.accelerations.items() if pid in by_player and any(vals)}
    if doc.baku and not accelerations:
        accelerations = trf.reference_baku(reader.data, doc.total_rounds or planned)
    for pid, vals in accelerations.items():
        by_player[pid]["accelerations"] = [str(v) for v in vals]

    start, end = doc.start_date, doc.end_date
    start_unknown = start is None
    if start is None:
        start = _stand_in_start(doc)
        reader.warnings.append(
            f"TRF: sem data de início (linha 042); o torneio fica com {start:%d/%m/%Y} até o diretor informar a "
            "data nas configurações"
        )
    if end is None or end < start:
        end = start
    colour = trf.inferred_initial_colour(reader.data)
    name = doc.name or "Torneio importado de TRF"
    forbidden = [{"players": list(f.players), "from": f.first_round, "to": f.last_round} for f in doc.forbidden]
    data: dict[str, Any] = {
        "format": FORMAT,
        "tournament": {
            "name": name[:200],
            "slug": slug or _free_slug(name),
            "variant": "brazilian-64",
            "format": "single-game",
            "rounds": planned,
            "minutes_per_game": _minutes(doc.time_control),
            "start_date": start.isoformat(),
            "end_date": end.isoformat(),
            "city": doc.city[:100],
            "state": "",
            "scoring": {"win": str(win), "draw": str(draw), "loss": str(loss), **unplayed_scoring},
            "bye": bye_value,
            **({"bye_points": str(bye_points)} if bye_points is not None else {}),
            "absence": "zero",
            "acceleration": "baku" if doc.baku else "none",
            "tiebreaks": "cbjd",
            "min_participants": 30,
            "chief_arbiter": doc.chief_arbiter[:120],
            "opening_table": None,
            "initial_colour": "black" if colour == "b" else "white",
            # "21'" is what the export writes for a tournament that only has its minutes per game
            "time_control": "" if re.fullmatch(r"\d+'", doc.time_control) else doc.time_control[:120],
            "trf_header": _header(doc),
        },
        "categories": [{"code": "ABS", "name": "Absoluto"}],
        "players": players,
        "rounds": rounds,
        "absences": ahead,
    }
    if start_unknown:
        data["tournament"]["start_date_unknown"] = True
    if forbidden:
        data["forbidden"] = forbidden
    return data, notices.by_consequence(reader.warnings)


def _next_round(
    reader: _Reader, reading: trf.Reading, rounds: list[dict[str, Any]], by_player: dict[int, dict[str, Any]]
) -> tuple[list[dict[str, Any]], int | None]:
    """The round to pair after the played ``rounds``: its column, the 240 lines and JaVaFo's XXZ say who is not
    paired in it; a round paired whose results are not in (appended to ``rounds``). Returns the absences announced
    ahead, and the round in progress when it contradicts itself (its errors are the only ones)."""
    doc = reader.doc
    next_round = reading.played + 1
    ahead: list[dict[str, Any]] = []
    pending = reader.ext["boards"].get(next_round) or reader.ext["byes"].get(next_round)
    in_progress = doc.paired_round == next_round and not pending
    seated = reader.seated(next_round) if in_progress else set()
    next_absent: list[int] = []
    next_values: dict[str, str] = {}
    for pid, kind in sorted(reading.absences.items()):
        p = by_player[pid]
        if p.get("withdrawn_from") is not None and p["withdrawn_from"] <= next_round:
            continue
        if p.get("late_entry") is not None and p["late_entry"] > next_round:
            continue
        if pid in seated:
            continue  # an XXZ for a player the round in progress already seats (said below)
        next_absent.append(pid)
        next_values[str(pid)] = _ABSENCE_VALUE[kind]
    reader.warnings += _xxz_notes(doc, next_round, next_absent, seated)
    contradicts = None
    if pending:
        rounds.append(reader.dsw_round(next_round, next_absent, next_values))
    elif in_progress:
        before = len(reader.errors)
        rounds.append(reader.paired_round(next_round, next_absent, next_values))
        if before == 0 and reader.errors:
            contradicts = next_round
        ahead = reader.later_absences(next_round)
        reader.warnings.append(
            notices.pairings(
                f"TRF: a rodada {next_round} está emparceirada sem resultados; importada como publicada, para o "
                "diretor lançar os resultados"
            )
        )
    else:
        ahead = [{"round": next_round, "player": pid, "value": next_values[str(pid)]} for pid in next_absent]
    paired = len(rounds)
    seen_ahead = {(a["round"], a["player"]) for a in ahead}
    for rnd_240, pid, kind in doc.byes_240:
        if rnd_240 > paired and (rnd_240, pid) not in seen_ahead and pid in by_player:
            seen_ahead.add((rnd_240, pid))
            ahead.append({"round": rnd_240, "player": pid, "value": _ABSENCE_VALUE[kind]})
    return ahead, contradicts


def _xxz_notes(doc: TrfDocument, rnd: int, absent: list[int], seated: set[int]) -> list[str]:
    """What JaVaFo's XXZ line was read as: the absences of the round to pair (as the director's “ausente”), and the
    players it names whom the round in progress already seats."""
    if not doc.absent_next:
        return []
    lines = ", ".join(sorted({str(line) for line, _pid in doc.absent_next}))
    named = sorted({pid for _line, pid in doc.absent_next})
    out: list[str] = []
    read = [pid for pid in named if pid in absent]
    if read:
        out.append(
            notices.pairings(
                f"linha {lines}: XXZ (JaVaFo): {_numbers_pt(read)} não {'joga' if len(read) == 1 else 'jogam'} a "
                f"rodada {rnd}: {'ausência anunciada' if len(read) == 1 else 'ausências anunciadas'}, valendo zero, "
                "como o “ausente” que o diretor marca; o emparceiramento dessa rodada não os inclui"
            )
        )
    kept = [pid for pid in named if pid in seated]
    if kept:
        out.append(
            notices.pairings(
                f"linha {lines}: XXZ (JaVaFo) dá como ausente na rodada {rnd} {_numbers_pt(kept)}, mas a rodada {rnd} "
                "já está emparceirada com eles; ficam na mesa em que o arquivo os põe"
            )
        )
    return out


def _numbers_pt(numbers: list[int]) -> str:
    """ "o jogador 5", "os jogadores 22, 28 e 43"."""
    if len(numbers) == 1:
        return f"o jogador {numbers[0]}"
    return f"os jogadores {', '.join(map(str, numbers[:-1]))} e {numbers[-1]}"


def _complete_rounds(rnd: int) -> str:
    """The rounds before ``rnd``, in words: "as rodadas 1 a 4", "as rodadas 1 e 2", "a rodada 1", "nenhuma rodada"."""
    if rnd > 3:
        return f"as rodadas 1 a {rnd - 1}"
    return {3: "as rodadas 1 e 2", 2: "a rodada 1"}.get(rnd, "nenhuma rodada")


def _leave_out_offer(rnd: int) -> str:
    return (
        f"; a rodada {rnd} está em andamento (sem todos os resultados) e é a única com erro: para importar "
        f"{_complete_rounds(rnd) if rnd > 1 else 'os jogadores'} e deixar a rodada {rnd} de fora, importe de novo "
        "marcando “deixar de fora a rodada em andamento” (manage.py import_tournament --leave-out-round-in-progress)"
    )


def _leave_out_round_in_progress(doc: TrfDocument) -> list[str]:
    """The round paired whose results are not all in taken out of ``doc``: its boards and bye (its absences stay,
    those of the round to pair); absences the later columns announce become 240 lines of their rounds."""
    rnd = doc.paired_round
    if rnd is None:
        return ["TRF: o arquivo não tem rodada em andamento; “deixar de fora a rodada em andamento” não mudou nada"]
    for p in doc.players:
        for r, b in enumerate(p.blocks[rnd:], start=rnd + 1):
            if b is not None and b.opponent is None and b.kind in _ABSENCE_VALUE and b.result != " ":
                doc.byes_240.append((r, p.number, b.kind))
        blocks = p.blocks[:rnd]
        if (
            len(blocks) == rnd
            and blocks[-1] is not None
            and (blocks[-1].opponent is not None or blocks[-1].kind == M.PAB)
        ):
            blocks[-1] = None
        while blocks and blocks[-1] is None:
            blocks.pop()
        p.blocks = blocks
    complete = _complete_rounds(rnd)
    return [
        notices.pairings(
            f"TRF: a rodada {rnd}, em andamento, ficou de fora, como pedido (“deixar de fora a rodada em andamento”): "
            f"o torneio fica com {complete} e a rodada {rnd} é a próxima a emparceirar; as ausências que o arquivo "
            "anuncia para ela e para as seguintes ficam"
        )
    ]


_BYE_LETTER = {
    "U": (M.PAB, "bye do emparceiramento (U)"),
    "F": (M.FULL_BYE, "bye de um ponto (F)"),
    "H": (M.HALF_BYE, "bye de meio ponto (H)"),
}


def _settle_blank_byes(doc: TrfDocument) -> list[str]:
    """Rounds played written ``0000 - `` with a blank result (not paired, zero, as the engine reads them) that the
    player's declared points show were byes: each becomes the bye (``U``; ``F`` when the round has another bye) or,
    when the points are half a game's, a half-point bye, and the import says so. Only when the declared points and
    the results differ by exactly the value of those rounds."""
    try:
        data = trf.document_state(doc)
        mismatches = trf.declared_mismatches(data)
    except M.InvalidInput:
        return []  # refused later, naming the line
    played = trf.reading(doc).played
    sc = data.state.scoring
    win, draw = tenths(sc.win), tenths(sc.draw)
    bye = tenths(sc.bye) if sc.bye is not None else win
    wanted: dict[int, tuple[list[int], str, int, int]] = {}
    for pid, declared, computed in mismatches:
        p = doc.player(pid)
        assert p is not None
        blank = [r for r, b in enumerate(p.blocks[:played], 1) if b and b.opponent is None and b.result == " "]
        if blank and declared - computed == len(blank) * bye:
            wanted[pid] = (blank, "U", declared, computed)
        elif blank and declared - computed == len(blank) * draw:
            wanted[pid] = (blank, "H", declared, computed)
    claims = Counter(r for rs, letter, _d, _c in wanted.values() if letter == "U" for r in rs)
    had_bye = {r for p in doc.players for r, b in enumerate(p.blocks, 1) if b is not None and b.kind == M.PAB}
    notes: list[str] = []
    for pid, (blank, letter, declared, computed) in wanted.items():
        letters = {r: "F" if letter == "U" and (claims[r] > 1 or r in had_bye) else letter for r in blank}
        if "F" in letters.values() and bye != win:
            continue  # a second bye in a round worth other than a win: nothing settles it
        p = doc.player(pid)
        assert p is not None
        for r, lt in letters.items():
            p.blocks[r - 1] = trffile.Block(None, "", lt, _BYE_LETTER[lt][0])
        read = "; ".join(f"rodada {r}: {_BYE_LETTER[lt][1]}" for r, lt in letters.items())
        one = len(blank) == 1
        notes.append(
            notices.points(
                f"linha {p.line}: {'a rodada' if one else 'as rodadas'} {', '.join(map(str, blank))} do jogador "
                f"{pid}, sem adversário e sem resultado (“0000 - ”), {'valeria' if one else 'valeriam'} zero (não "
                f"emparceirado), e os resultados somariam {fmt_tenths(computed)}; o jogador declara "
                f"{fmt_tenths(declared)} pontos, que só {'um bye explica' if one else 'byes explicam'}: seguidos os "
                f"pontos declarados ({read})"
            )
        )
    return notes


def _declared_points(reader: _Reader, by_player: dict[int, dict[str, Any]], follow: bool) -> None:
    """Declared points against the results (the engine's check), said per player: the results count, or, when the
    director asks to follow the declared points, the difference is the player's points outside the games."""
    mismatches = trf.declared_mismatches(reader.data)
    for pid, declared, computed in mismatches:
        where = f"linha {reader.by_id[pid].line}"
        said = (
            f"{where}: o jogador {pid} declara {fmt_tenths(declared)} pontos, mas os resultados somam "
            f"{fmt_tenths(computed)}"
        )
        if not follow:
            reader.warnings.append(notices.points(f"{said}; vale a soma dos resultados"))
            continue
        diff = Decimal(declared - computed) / 10
        p = by_player[pid]
        p["points_adjustment"] = str(Decimal(p.get("points_adjustment", "0")) + diff)
        why = f"TRF {where}: pontos declarados no arquivo ({fmt_tenths(declared)}), seguidos na importação"
        p["points_adjustment_reason"] = "; ".join(filter(None, [p.get("points_adjustment_reason", ""), why]))[:300]
        if "trf_299" in p:
            p["trf_299"].append({"kind": "", "points": str(diff), "round": None})
        reader.warnings.append(
            notices.points(
                f"{said}; valem os pontos declarados (“seguir os pontos declarados”): "
                f"{'+' if diff > 0 else ''}{fmt_tenths(declared - computed)} como pontos fora das partidas"
            )
        )
    if mismatches and not follow:
        reader.warnings.append(
            notices.points(
                f"TRF: {_numbers_pt([m[0] for m in mismatches])} "
                f"{'declara' if len(mismatches) == 1 else 'declaram'} pontos diferentes da soma dos resultados, e "
                "valeu a soma dos resultados. Para valerem os pontos do arquivo, importe de novo marcando “seguir os "
                "pontos declarados” (manage.py import_tournament --follow-declared-points): a diferença de cada um "
                "entra como pontos fora das partidas, com o motivo, e conta na classificação e no emparceiramento"
            )
        )


_KIND_PT = {
    "W": "vitória",
    "D": "empate",
    "L": "derrota",
    "F": "bye de um ponto",
    "H": "bye de meio ponto",
    "Z": "bye de zero ponto",
    "+": "vitória por W.O.",
    "-": "derrota por W.O.",
}


def _adjustments(doc: TrfDocument, listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The players with the 299 lines on them: the points they give or take (as the engine counts them), the
    reason, and the lines as written (to write them back)."""
    players = {p["id"]: p for p in listed}
    for adj, points in zip(doc.adjustments, trf.adjustment_points(doc)):
        where = f"TRF linha {adj.line} (299)"
        rounds = f"rodada {adj.round}" if adj.round else "todas as rodadas"
        if adj.kind:
            why = f"{where}: {_KIND_PT[adj.kind]} valendo {fmt_tenths(int(adj.points * 10))} ({rounds})"
        else:
            what = "bônus" if adj.points >= 0 else "penalidade"
            size = abs(adj.points)
            why = f"{where}: {what} de {fmt_tenths(int(size * 10))} {plural(size, 'ponto', 'pontos')} ({rounds})"
        for pid in adj.players:
            p = players[pid]
            p["points_adjustment"] = str(Decimal(p.get("points_adjustment", "0")) + points.get(pid, Decimal(0)))
            p["points_adjustment_reason"] = "; ".join(filter(None, [p.get("points_adjustment_reason", ""), why]))[:300]
            p.setdefault("trf_299", []).append({"kind": adj.kind, "points": str(adj.points), "round": adj.round})
    return listed


def _scoring_notes(doc: TrfDocument, warnings: list[str]) -> None:
    """What the file's point system says that the tournament does not hold: a 162 X (unknown result) value."""
    unknown = doc.scoring.get("unknown")
    if unknown is not None:
        warnings.append(
            f"TRF: a linha 162 dá {fmt_tenths(int(unknown * 10))} pontos a um resultado desconhecido (X); "
            "o programa não tem esse resultado: ignorado"
        )


_NO_COUNT = "TRF sem número de rodadas (linha XXR ou 142)"


def _planned_rounds(
    doc: TrfDocument, given: int | None, in_file: int, ahead: list[dict[str, Any]], warnings: list[str]
) -> int:
    """The event's length: the file's count, else the one given at import; a file without one whose rounds are
    all played is taken as finished (said), and one with none played or a round still to finish is refused, asking
    for it, since the event would end at its last round."""
    needed = max(in_file, *(a["round"] for a in ahead), 1)
    if doc.total_rounds:
        if given and given != doc.total_rounds:
            warnings.append(
                notices.pairings(
                    f"TRF: o arquivo diz {doc.total_rounds} rodadas; o número informado ({given}) não foi usado"
                )
            )
        return max(doc.total_rounds, needed)
    if given:
        if given < needed:
            raise InterchangeError(
                [f"{_NO_COUNT}: o número informado ({given}) é menor que as {needed} rodadas que o arquivo já tem"]
            )
        warnings.append(
            notices.pairings(f"{_NO_COUNT}: o torneio fica com {given} rodadas, como informado na importação")
        )
        return given
    if in_file == 0 or doc.paired_round is not None:
        raise InterchangeError(
            [
                f"{_NO_COUNT}: informe quantas rodadas o torneio terá (campo “número de rodadas” da página de importação, "
                "ou a opção --rounds do manage.py import_tournament)"
            ]
        )
    warnings.append(
        notices.pairings(
            f"{_NO_COUNT}: o torneio fica com as {needed} rodadas do arquivo, como encerrado; se ele continua, "
            "importe de novo informando o número de rodadas"
        )
    )
    return needed


def parse_trf(text: str | bytes, slug: str | None = None) -> dict[str, Any]:
    """Read a TRF into an interchange-file dict (then imported by the JSON importer)."""
    return read_trf(text, slug)[0]


def _free_slug(name: str) -> str:
    return free_slug(name, "torneio-trf")


def import_trf_with_warnings(
    text: str | bytes,
    *,
    user: Any = None,
    slug: str | None = None,
    rounds: int | None = None,
    follow_declared: bool = False,
    leave_out_in_progress: bool = False,
) -> tuple[Any, list[str]]:
    """Create a single-game tournament from a TRF (all-or-nothing): (tournament, warnings, what changes most
    first). The options: :func:`read_trf`'s."""
    data, warnings = read_trf(
        text,
        slug,
        total_rounds=rounds,
        follow_declared=follow_declared,
        leave_out_in_progress=leave_out_in_progress,
    )
    return import_data(data, user=user), warnings


def import_trf(text: str | bytes, *, user: Any = None, slug: str | None = None) -> Any:
    return import_trf_with_warnings(text, user=user, slug=slug)[0]


def import_trf_file(data: bytes, *, user: Any = None, **options: Any) -> tuple[Any, list[str]]:
    """:func:`import_trf` for the file dispatch: (tournament, warnings); ``options``: rounds, slug,
    follow_declared, leave_out_in_progress."""
    return import_trf_with_warnings(data, user=user, **options)
