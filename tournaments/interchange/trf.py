"""TRF (FIDE Tournament Report File) for single-game tournaments: the app's side of the engine's TRF grammar.

The file is read and written by ``pairing.trffile`` (one grammar for the engine and the app: what one reads the
other reads the same way); the export here maps the tournament to a TRF document, the import (``trf_read``) maps a
document to the tournament. The export is read back by the product's importer, by ``python -m pairing -c`` and by
the engine, which pairs the round after the last complete one as the product would:

* complete rounds in the ``001`` columns (``U`` the bye, ``Z``/``H``/``F`` an announced absence at its value,
  ``-`` a withdrawn player's rounds, a forfeit without colours written ``-``);
* the round to pair's column: who is not paired in it (announced absences, withdrawals, late entries); a round
  already paired whose results are not all in is written there that way too, its boards in ``DSW`` lines;
* ``240`` lines for absences announced for later rounds; ``XXP``/``260`` forbidden pairs; ``XXA`` accelerations;
* ``DSW`` lines (the product's own; other readers ignore them): CBJD IDs, withdrawals, late entries, the board
  order and pairing program of each round.
"""

from __future__ import annotations

from decimal import Decimal

from pairing import trffile
from pairing.model import FORFEIT_LOSS, FORFEIT_WIN, FULL_BYE, GAME, HALF_BYE, PAB, ZERO_BYE
from pairing.trffile import Adjustment, Block, Forbidden, TrfDocument, TrfPlayer
from tournaments.domain import RoundKind
from tournaments.domain.snapshot import IMPORTED
from tournaments.interchange.errors import InterchangeError
from tournaments.interchange.trf_read import (
    DEFAULT_TYPE,
    _free_slug,
    import_trf,
    import_trf_file,
    import_trf_with_warnings,
    parse_trf,
    read_trf,
)
from tournaments.models import ForbiddenPair
from tournaments.models.choices import RoundFormat, RoundStatus
from tournaments.standings import number, tournament_standings

_TITLES = {"GMI": "GM", "MI": "IM", "MF": "FM", "GMIF": "WGM", "MIF": "WIM", "MFF": "WFM", "MN": "MN"}
# Result code from White's view -> (White's TRF char, Black's TRF char).
_TO_TRF = {
    "1-0": ("1", "0"),
    "0-1": ("0", "1"),
    "1/2": ("=", "="),
    "+/-": ("+", "-"),
    "-/+": ("-", "+"),
    "-/-": ("-", "-"),
}
_KIND_OF_RESULT = {"1": GAME, "=": GAME, "0": GAME, "+": FORFEIT_WIN, "-": FORFEIT_LOSS}
_ABSENCE_BLOCK = {
    "zero": Block(None, "", "Z", ZERO_BYE),
    "draw": Block(None, "", "H", HALF_BYE),
    "win": Block(None, "", "F", FULL_BYE),
}
_NOT_PAIRED = Block(None, "", "-", ZERO_BYE)


def _dec(value) -> Decimal:
    return Decimal(str(number(value)))


class _Blocks:
    """The ``001`` block of each counted round of an entry, from the snapshot: the bye, a board (the result from
    the entry's side, its colour), a one-sided round as the entry's line writes it, a withdrawal or late entry,
    an announced absence at its value, or nothing (not paired)."""

    def __init__(self, snapshot, complete, own):
        self.ids = {e.pk: e.number for e in snapshot.entries}
        self.own = own
        # (round number, entry) -> (board, colour "w" first / "b" second, opponent); -> one-sided round
        self.seats = {}
        for rnd in complete:
            for board in rnd.boards:
                if board.first is not None and board.second is not None:
                    self.seats[(rnd.number, board.first)] = (board, "w", board.second)
                    self.seats[(rnd.number, board.second)] = (board, "b", board.first)
        self.one_sided = {(rnd.number, o.entry): o for rnd in complete for o in rnd.one_sided}

    def block(self, rnd, pk, record) -> Block | None:
        seat = self.seats.get((rnd.number, pk))
        lone = self.one_sided.get((rnd.number, pk))
        if record.kind is RoundKind.BYE:
            return Block(None, "", "U", PAB)
        if seat is not None:
            board, colour, opponent = seat
            white, black = _TO_TRF[str(board.games[0][1])]  # a complete round: every result is in
            res = white if colour == "w" else black
            return Block(self.ids[opponent], "" if board.colourless else colour, res, _KIND_OF_RESULT[res])
        if lone is not None and lone.opponent is not None:  # as the player's own line writes it
            return Block(lone.opponent, lone.colour, lone.result, _KIND_OF_RESULT[lone.result])
        if record.kind in (RoundKind.WITHDRAWN, RoundKind.NOT_ENTERED):
            return _NOT_PAIRED
        if (pk, rnd.number) in self.own:
            return _ABSENCE_BLOCK[self.own[(pk, rnd.number)]]
        return None


def _end_text(tournament, header: dict) -> str:
    """The 052 line as the file wrote it: an unreadable date always; a readable one while the start date is unknown
    (after that, the tournament's end date)."""
    text = header.get("052", "")
    if text and not tournament.start_date_unknown and trffile.parse_date(text)[0] is not None:
        return ""
    return str(text)


def _adjustments_of(entry, number: int) -> list[Adjustment]:
    """An entry's points outside the games as 299 lines: as the imported file wrote them, else one bonus or penalty
    line of the points."""
    if entry.adjustment_lines:
        return [
            Adjustment(a["kind"], Decimal(a["points"]), a["round"], [number], match_points="")
            for a in entry.adjustment_lines
        ]
    if entry.points_adjustment:
        return [Adjustment("", Decimal(entry.points_adjustment), None, [number])]
    return []


def export_trf(tournament) -> str:
    """The tournament as TRF-2026 (single-game tournaments only), written by the engine's TRF writer."""
    if tournament.format != RoundFormat.SINGLE_GAME:
        raise InterchangeError(
            [
                "TRF: só torneios de partida única podem ser exportados em TRF "
                "(os micromatches não cabem no formato); use o arquivo JSON"
            ]
        )
    st = tournament_standings(tournament, public=False, rights=False, categories=())
    snapshot = st.snapshot
    entries = snapshot.entries
    ids = {e.pk: e.number for e in entries}
    own = {(entry_id, n): value or tournament.absence_value for (entry_id, n), value in snapshot.absences.items()}
    complete = st.counted
    last = len(complete)
    pending = snapshot.rounds[last] if len(snapshot.rounds) > last else None
    next_round = last + 1
    rank = {row.id: row.position for row in st.rows}
    bye = snapshot.settings.bye_round_points  # a single-game tournament: the points of one game
    blocks_of = _Blocks(snapshot, complete, own)
    header = tournament.trf_header or {}
    doc = TrfDocument(
        name=tournament.name,
        city=tournament.city,
        federation=header.get("032", ""),
        start_date=None if tournament.start_date_unknown else tournament.start_date,
        start_text=header.get("042", ""),
        # while the start date is unknown the end date is the same stand-in: only a 052 the file gave is written
        end_date=None if tournament.start_date_unknown else tournament.end_date,
        end_text=_end_text(tournament, header),
        players_declared=str(len(entries)),
        rated_declared=str(sum(1 for e in entries if e.rating is not None)),
        type=header.get("092", DEFAULT_TYPE),
        chief_arbiter=tournament.chief_arbiter,
        deputies=list(header.get("112", [])),
        time_control=tournament.time_control or f"{tournament.minutes_per_game}'",
        round_dates=list(header.get("132", [])),
        rank_method=header.get("172", ""),
        pairing_controller=header.get("182", ""),
        tiebreaks=header.get("202", ""),
        tiebreaks_2=header.get("212", ""),
        time_control_code=header.get("222", ""),
        total_rounds=tournament.planned_rounds,
        initial_colour="w" if tournament.initial_colour == "white" else "b",
        tournament_type=header.get("192", "")
        or ("FIDE_DUTCH_2025_BAKU" if tournament.acceleration == "baku" else "FIDE_DUTCH_2025"),
        baku=tournament.acceleration == "baku",
    )
    doc.scoring = {"win": _dec(tournament.score_win), "draw": _dec(tournament.score_draw)}
    if tournament.score_loss:
        doc.scoring["loss"] = _dec(tournament.score_loss)
    doc.scoring["bye"] = _dec(bye)
    if tournament.score_forfeit_loss is not None:
        doc.scoring["forfeit_loss"] = _dec(tournament.score_forfeit_loss)
    if tournament.score_zero_bye is not None:
        doc.scoring["zero_bye"] = _dec(tournament.score_zero_bye)
    ext: list[str] = []
    for e in sorted(entries, key=lambda e: e.number):
        p = e.player
        pid = e.number
        records = st.records[e.pk]
        points = sum((Decimal(r.points or 0) for r in records), Decimal(0))
        blocks = [blocks_of.block(rnd, e.pk, r) for rnd, r in zip(complete, records)]
        if next_round <= tournament.planned_rounds:
            seated = pending is not None and (
                e.pk in pending.byes or any(e.pk in (b.first, b.second) for b in pending.boards)
            )
            if e.is_out_for_round(next_round):
                blocks.append(_NOT_PAIRED)  # withdrawn or not entered yet: the engine must not pair the player
            elif (e.pk, next_round) in own and not seated:
                blocks.append(_ABSENCE_BLOCK[own[(e.pk, next_round)]])
        while blocks and blocks[-1] is None:
            blocks.pop()
        doc.players.append(
            TrfPlayer(
                number=pid,
                name=p.name,
                sex={"F": "w", "M": "m"}.get(p.sex, ""),
                title=p.title_as_written or _TITLES.get(p.title, ""),
                rating=e.rating or 0,
                federation=p.federation,
                ident=p.foreign_id,
                birth=p.birth_date.strftime("%Y/%m/%d")
                if p.birth_date
                else (f"{p.birth_year}/00/00" if p.birth_year else ""),
                points=_dec(points),
                rank=rank.get(pid),
                blocks=blocks,
            )
        )
        if e.accelerations:
            doc.accelerations[pid] = [Decimal(str(a)) for a in e.accelerations]
        if p.cbjd_id:
            ext.append(f"DSW CBJD {pid} {p.cbjd_id}")
        if e.withdrawn_from_round:
            ext.append(f"DSW WITHDRAWN {pid} {e.withdrawn_from_round} {e.withdrawal_kind or 'approved'}")
        if e.late_entry_round:
            ext.append(f"DSW LATE {pid} {e.late_entry_round}")
    for (entry_id, n), value in sorted(own.items(), key=lambda kv: (kv[0][1], ids.get(kv[0][0], 0))):
        if n > next_round and entry_id in ids:
            doc.byes_240.append((n, ids[entry_id], {"draw": HALF_BYE, "win": FULL_BYE}.get(value, ZERO_BYE)))
    for fp in ForbiddenPair.objects.filter(tournament=tournament).order_by("pk"):
        if fp.entry_a_id in ids and fp.entry_b_id in ids:
            doc.forbidden.append(Forbidden([ids[fp.entry_a_id], ids[fp.entry_b_id]], fp.from_round, fp.to_round))
    for rnd in complete:
        firsts = [ids[b.first] for b in rnd.boards if b.first is not None]
        ext.append(f"DSW ORDER {rnd.number} " + " ".join(str(x) for x in firsts))
    if pending is not None:
        ext.append(f"DSW ROUND {pending.number} {pending.status or RoundStatus.PUBLISHED}")
        for b in pending.boards:
            if b.first is None or b.second is None:
                continue
            result = next(iter(code for _n, code in b.games), None) or "*"
            flag = " colourless" if b.colourless else ""
            ext.append(f"DSW BOARD {pending.number} {b.number} {ids[b.first]} {ids[b.second]} {result}{flag}")
        for entry_id in pending.byes:
            ext.append(f"DSW BYE {pending.number} {ids[entry_id]}")
    ext += [f"DSW ENGINE {r.number} {r.engine}" for r in snapshot.rounds if r.engine and r.engine != IMPORTED]
    doc.adjustments = [a for e in entries if e.pk in ids for a in _adjustments_of(e, ids[e.pk])]
    return trffile.write(doc, extensions=ext)


__all__ = [
    "_free_slug",
    "export_trf",
    "import_trf",
    "import_trf_file",
    "import_trf_with_warnings",
    "parse_trf",
    "read_trf",
]
