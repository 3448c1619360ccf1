"""The engine's view of a TRF: :mod:`pairing.trffile` reads the file, this module turns it into the engine's
:class:`~pairing.model.TournamentState` (and back, for :func:`dumps`).

Read for pairing: ``001`` players (start number, name, rating, title, points, round columns); ``XXR``/``142``
total rounds; ``XXC``/``152`` initial colour; ``162`` and ``BBW BBD BBL BBZ BBF BBU`` point system;
``XXP``/``260`` forbidden pairs; ``XXA``/``250`` accelerations; ``240`` announced byes of the round to pair;
``XXZ`` (JaVaFo) players who will not play the round to pair (absent, zero points);
``192`` tournament type (``_BAKU`` selects Baku acceleration). Every other line is kept by the document and,
when unknown, listed in its warnings. Errors raise :class:`InvalidInput` carrying the line number.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from decimal import Decimal

from . import model as M
from . import trffile
from .trffile import TrfDocument, decode, looks_like_trf

__all__ = [
    "Reading",
    "adjustment_points",
    "TrfData",
    "declared_mismatches",
    "document_state",
    "dumps",
    "inferred_initial_colour",
    "looks_like_trf",
    "parse",
    "read",
    "reading",
    "reference_baku",
    "state_document",
]


class TrfData:
    """A parsed TRF: the tournament state, what the file declared, and the whole document."""

    def __init__(
        self,
        state: M.TournamentState,
        declared: dict[int, int],
        byes_240: list[tuple[int, int, str]],
        document: TrfDocument | None = None,
    ):
        self.state = state
        self.declared = declared  # start number -> points column, in tenths
        self.byes_240 = byes_240
        self.document = document if document is not None else TrfDocument()

    @property
    def warnings(self) -> list[str]:
        return self.document.warnings


def _entry(block: trffile.Block | None) -> M.RoundEntry | None:
    if block is None:
        return None
    color = block.colour or None
    if block.kind == M.GAME:
        return M.RoundEntry(M.GAME, block.opponent, color, block.game_result)
    if block.kind in (M.FORFEIT_WIN, M.FORFEIT_LOSS):
        return M.RoundEntry(block.kind, block.opponent, color)
    return M.RoundEntry(block.kind)


def engine_blocks(doc: TrfDocument) -> dict[int, list[trffile.Block | None]]:
    """Each player's round columns as the engine reads them: up to a round paired whose results are not in, which
    is the round to pair (its pairing is the engine's to make; an absence in its column stays one)."""
    rnd = doc.paired_round
    out: dict[int, list[trffile.Block | None]] = {}
    for p in doc.players:
        blocks = list(p.blocks)
        if rnd is not None:
            last = blocks[rnd - 1] if len(blocks) >= rnd else None
            blocks = blocks[: rnd - 1]
            if last is not None and last.kind in _NOT_PAIRED:
                blocks.append(last)
        while blocks and blocks[-1] is None:
            blocks.pop()
        out[p.number] = blocks
    return out


def _adjusted_points(
    doc: TrfDocument, histories: dict[int, list[M.RoundEntry | None]], points: dict[str, M.Number | None]
) -> None:
    """The 299 lines on the engine's entries: a result given other points (its round's, or every round's of that
    kind) is worth them; a bonus or a penalty is added to its round (the first round played when it has none)."""
    for adj in doc.adjustments:
        for pid in adj.players:
            history = histories.get(pid)
            if history is None:
                raise M.InvalidInput(f"linha 299 de jogador inexistente {pid}", adj.line)
            rounds = [adj.round] if adj.round else list(range(1, len(history) + 1))
            for r in rounds:
                e = history[r - 1] if 0 < r <= len(history) else None
                if e is None:
                    continue
                if adj.kind:
                    kinds = trffile.ADJUSTMENT_KINDS[adj.kind]
                    if e.kind not in kinds or (e.kind == M.GAME and e.result != adj.kind):
                        continue
                    e.points = adj.points
                else:
                    e.points = _entry_points(e, points) + adj.points
                    break  # a bonus or penalty counts once


def adjustment_points(doc: TrfDocument) -> list[dict[int, Decimal]]:
    """Per 299 line of ``doc``, the points it gives (or takes from) each of its players as the engine counts them:
    a bonus or penalty its points; a result given other points the difference from the point system's value, in
    every round it applies to (none when no round of that kind is there)."""
    import dataclasses

    def totals(d: TrfDocument) -> dict[int, Decimal]:
        state = document_state(d).state
        sc = state.scoring
        points: dict[str, M.Number | None] = {
            "win": sc.win,
            "draw": sc.draw,
            "loss": sc.loss,
            "zero_bye": sc.zero_bye,
            "forfeit_loss": sc.forfeit_loss,
            "bye": sc.bye,
        }
        return {p.id: sum((_entry_points(e, points) for e in p.history if e), Decimal(0)) for p in state.players}

    base = totals(dataclasses.replace(doc, adjustments=[]))
    out = []
    for adj in doc.adjustments:
        if not adj.kind:
            out.append(dict.fromkeys(adj.players, adj.points))
            continue
        one = totals(dataclasses.replace(doc, adjustments=[adj]))
        out.append({pid: one.get(pid, Decimal(0)) - base.get(pid, Decimal(0)) for pid in adj.players})
    return out


def _entry_points(e: M.RoundEntry, points: dict[str, M.Number | None]) -> Decimal:
    if e.points is not None:
        return Decimal(str(e.points))
    key = {
        M.FORFEIT_WIN: "win",
        M.FULL_BYE: "win",
        M.HALF_BYE: "draw",
        M.FORFEIT_LOSS: "forfeit_loss",
        M.ZERO_BYE: "zero_bye",
        M.ABSENT: "zero_bye",
    }.get(e.kind)
    if e.kind == M.GAME:
        key = {"W": "win", "D": "draw", "L": "loss"}[e.result or "L"]
    if e.kind == M.PAB:
        key = "bye" if points["bye"] is not None else "win"
    value = points[key or "zero_bye"]
    return Decimal(str(value if value is not None else 0))


def document_state(doc: TrfDocument) -> TrfData:
    """The engine's state of a document."""
    points: dict[str, M.Number | None] = {
        "win": Decimal(1),
        "draw": Decimal("0.5"),
        "loss": Decimal(0),
        "zero_bye": Decimal(0),
        "forfeit_loss": Decimal(0),
        "bye": None,
    }
    points.update({k: v for k, v in doc.scoring.items() if k in points})
    blocks = engine_blocks(doc)
    players = [
        M.PlayerState(
            id=p.number, name=p.name, rating=p.rating, title=p.title, history=[_entry(b) for b in blocks[p.number]]
        )
        for p in doc.players
    ]
    if doc.adjustments:
        _adjusted_points(doc, {p.id: p.history for p in players}, points)
    by_id = {p.id: p for p in players}
    for pid, vals in doc.accelerations.items():
        if pid in by_id:
            by_id[pid].accelerations = list(vals)
    win, draw, loss = points["win"], points["draw"], points["loss"]
    assert win is not None and draw is not None and loss is not None
    zero_bye, forfeit_loss = points["zero_bye"], points["forfeit_loss"]
    assert zero_bye is not None and forfeit_loss is not None
    state = M.TournamentState(
        players=players,
        total_rounds=doc.total_rounds or 0,
        initial_color=doc.initial_colour,
        scoring=M.Scoring(
            win=win, draw=draw, loss=loss, bye=points["bye"], zero_bye=zero_bye, forfeit_loss=forfeit_loss
        ),
        acceleration=M.ACCEL_BAKU if doc.baku else M.ACCEL_NONE,
        forbidden=[M.ForbiddenPair(list(f.players), f.first_round, f.last_round) for f in doc.forbidden],
        name=doc.name,
    )
    state.line_of = {p.number: p.line for p in doc.players}
    # JaVaFo's XXZ: players who will not play the round to pair (absent, zero), as a 0000 - Z in its column
    state.absences = {pid: M.ZERO_BYE for _line, pid in doc.absent_next}
    declared = {p.number: int(p.points * 10) for p in doc.players}
    return TrfData(state, declared, list(doc.byes_240), doc)


def parse(text: str) -> TrfData:
    return document_state(trffile.parse(text))


def read(path: str) -> TrfData:
    with open(path, "rb") as fh:
        raw = fh.read()
    # TRF files from older desktop programs (Swiss-Manager, Vega) are Latin-1 / Windows-1252.
    return parse(decode(raw))


# ----------------------------------------------------------------- writing
def _block(ep: object, m: object, micro: bool) -> trffile.Block:
    from .engine import BLACK, DRAW, WHITE, WIN, EMatch, EPlayer

    assert isinstance(ep, EPlayer) and isinstance(m, EMatch)
    if not m.participated:
        code = "F" if m.score == WIN else "H" if m.score == DRAW else "Z"
        kind = {"F": M.FULL_BYE, "H": M.HALF_BYE, "Z": M.ZERO_BYE}[code]
        return trffile.Block(None, "", code, kind)
    if m.opponent == ep.pid:
        return trffile.Block(None, "", "U", M.PAB)
    col = "w" if m.color == WHITE else "b" if m.color == BLACK else ""
    if m.played:
        res = "1" if m.score == WIN else "=" if m.score == DRAW else "0"
        return trffile.Block(m.opponent + 1, col, res, M.GAME)
    if m.score == WIN:
        return trffile.Block(m.opponent + 1, col, "+", M.FORFEIT_WIN)
    return trffile.Block(m.opponent + 1, col, "-", M.FORFEIT_LOSS)


def state_document(state: M.TournamentState) -> TrfDocument:
    """A document holding what the engine needs of ``state`` (scores computed from its history)."""
    from .convert import build

    sc = state.scoring
    mult = 2 if state.micro_match else 1
    doc = TrfDocument(name=state.name, total_rounds=state.total_rounds, initial_colour=state.initial_color[:1])
    doc.scoring = {"win": Decimal(str(sc.win)) * mult, "draw": Decimal(str(sc.draw)) * mult}
    if Decimal(str(sc.loss)) != 0:
        doc.scoring["loss"] = Decimal(str(sc.loss)) * mult
    if sc.bye is not None:
        doc.scoring["bye"] = Decimal(str(sc.bye)) * mult
    doc.baku = state.acceleration == M.ACCEL_BAKU
    doc.tournament_type = "FIDE_DUTCH_2025_BAKU" if doc.baku else "FIDE_DUTCH_2025"
    t = build(state)
    for p in sorted(state.players, key=lambda p: p.id):
        ep = t.players[p.id - 1]
        doc.players.append(
            trffile.TrfPlayer(
                number=p.id,
                name=p.name or f"Player {p.id}",
                title=p.title,
                rating=int(p.rating or 0),
                points=Decimal(ep.score) / 10,
                blocks=[_block(ep, m, state.micro_match) for m in ep.matches],
            )
        )
        if p.accelerations:
            doc.accelerations[p.id] = [Decimal(str(a)) * mult for a in p.accelerations]
    doc.forbidden = [trffile.Forbidden(list(f.players), f.first_round, f.last_round) for f in state.forbidden]
    return doc


def dumps(state: M.TournamentState, trf2026: bool = False) -> str:
    """Write the state as TRF (TRF-16 + XX extensions, or TRF-2026 codes)."""
    return trffile.write(state_document(state), trf2026=trf2026)


# ----------------------------------------------------------------- the engine's reading, for importers
_PARTICIPATED = (M.GAME, M.FORFEIT_WIN, M.FORFEIT_LOSS, M.PAB)
_NOT_PAIRED = (M.HALF_BYE, M.FULL_BYE, M.ZERO_BYE)


@dataclass
class Reading:
    """How the engine reads a document's rounds (``convert.build``): ``played`` rounds, the round to pair after
    them, and who is not paired in it (start number -> ``zero_bye``/``half_bye``/``full_bye``: that round's
    column first, then the 240 lines, then JaVaFo's XXZ line)."""

    played: int
    absences: dict[int, str]
    absence_blocks: dict[int, trffile.Block]  # start number -> the block of the round to pair's column


def reading(doc: TrfDocument) -> Reading:
    histories = engine_blocks(doc)
    played = 0
    for h in histories.values():
        for r, b in enumerate(h):
            if b is not None:
                played = max(played, r)
                if b.kind in _PARTICIPATED:
                    played = max(played, r + 1)
    if histories and all(len(h) > played for h in histories.values()):
        played += 1
    absences: dict[int, str] = {}
    blocks: dict[int, trffile.Block] = {}
    for pid, h in histories.items():
        if len(h) > played:
            b = h[played]
            assert b is not None and b.kind in _NOT_PAIRED
            absences[pid] = b.kind
            blocks[pid] = b
    announced = [(pid, kind) for rnd, pid, kind in doc.byes_240 if rnd == played + 1]
    announced += [(pid, M.ZERO_BYE) for _line, pid in doc.absent_next]
    for pid, kind in announced:
        if len(histories.get(pid, [])) <= played:
            absences.setdefault(pid, kind)
    return Reading(played, absences, blocks)


def _probe(data: TrfData, played: int) -> object:
    """The engine's tournament for the round after ``played`` (total rounds widened when the file's is short)."""
    from .convert import build

    probe = copy.deepcopy(data.state)
    probe.total_rounds = max(probe.total_rounds, played + 1)
    probe.initial_color = probe.initial_color or "w"
    return build(probe, byes_240=data.byes_240, baku_rule="reference")


def inferred_initial_colour(data: TrfData) -> str:
    """The initial colour as the engine takes it: the file's (XXC/152), else inferred from the earliest round
    with colours; "" when nothing says."""
    if data.state.initial_color:
        return data.state.initial_color
    from .convert import infer_first_colour
    from .engine import BLACK, WHITE, ETournament

    t = _probe(data, reading(data.document).played)
    assert isinstance(t, ETournament)
    c = infer_first_colour(t)
    return "w" if c == WHITE else "b" if c == BLACK else ""


def declared_mismatches(data: TrfData) -> list[tuple[int, int, int]]:
    """(start number, declared points, points of the results), in tenths, of every player whose points column
    the engine would refuse (``convert.validate_declared``: the results, plus the acceleration or the round to
    pair's announced bye may be counted)."""
    from .engine import ETournament

    t = _probe(data, reading(data.document).played)
    assert isinstance(t, ETournament)
    out = []
    for p in t.players:
        d = data.declared.get(p.pid + 1)
        if not p.valid or d is None:
            continue
        pts = p.score
        acc = t.acceleration(p)
        ok = {pts, pts + acc}
        if len(p.matches) > t.played_rounds:
            nxt = t.points(p, p.matches[t.played_rounds])
            ok |= {pts + nxt, pts + nxt + acc}
        if d not in ok:
            out.append((p.pid + 1, d, pts))
    return out


def reference_baku(data: TrfData, total_rounds: int) -> dict[int, list[Decimal]]:
    """Virtual points per round of every accelerated player of a TRF marked ``192 ..._BAKU``, as the engine
    pairs it (group A: the first half of the start numbers, rounded up)."""
    from .convert import baku_accelerations, tenths

    sc = data.state.scoring
    win, draw = tenths(sc.win), tenths(sc.draw)
    n = len(data.state.players)
    acc = [Decimal(v) / 10 for v in baku_accelerations(n, total_rounds, win, draw, total_rounds)]
    return {pid: list(acc) for pid in range(1, (n + 1) // 2 + 1)} if acc else {}
