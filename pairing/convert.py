"""Conversion of the public TournamentState into the engine's representation."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from . import model as M
from .engine import BLACK, DRAW, LOSS, NOCOLOR, WHITE, WIN, EMatch, EPlayer, ETournament, ForbiddenEntry, invert


def tenths(x: M.Number | None, what: str = "valor") -> int:
    if x is None:
        return 0
    try:
        d = Decimal(str(x)) * 10
    except InvalidOperation:
        raise M.InvalidInput(f"{what} '{x}' inválido") from None
    if d != d.to_integral_value() or d < 0:
        raise M.InvalidInput(f"{what} '{x}' inválido (use décimos de ponto)")
    return int(d)


def fmt_tenths(v: int) -> str:
    return f"{v // 10}.{v % 10}"


_ABSENCE_SCORE = {M.ZERO_BYE: LOSS, M.ABSENT: LOSS, M.HALF_BYE: DRAW, M.FULL_BYE: WIN}


def entry_to_match(pid: int, e: M.RoundEntry | None, ids: dict[int, int], where: str) -> EMatch:
    if e is None:
        return EMatch(pid)
    pts = None if e.points is None else tenths(e.points, "pontos")
    col = {"w": WHITE, "b": BLACK, None: NOCOLOR, "-": NOCOLOR, "": NOCOLOR}.get((e.color or None) and e.color.lower())
    if col is None:
        raise M.InvalidInput(f"cor '{e.color}' inválida {where}")
    kind = e.kind
    if kind in (M.GAME, M.FORFEIT_WIN, M.FORFEIT_LOSS):
        if e.opponent is None or e.opponent not in ids:
            raise M.InvalidInput(f"adversário '{e.opponent}' inexistente {where}")
        opp = ids[e.opponent]
        if opp == pid:
            raise M.InvalidInput(f"jogador emparceirado consigo mesmo {where}")
        if kind == M.GAME:
            if col == NOCOLOR:
                raise M.InvalidInput(f"partida sem cor {where}")
            res = (e.result or "").upper()
            score = {"W": WIN, "1": WIN, "D": DRAW, "=": DRAW, "L": LOSS, "0": LOSS}.get(res)
            if score is None:
                raise M.InvalidInput(f"resultado '{e.result}' inválido {where}")
            return EMatch(opp, col, score, True, True, pts)
        score = WIN if kind == M.FORFEIT_WIN else LOSS
        return EMatch(opp, col, score, False, True, pts)
    if kind == M.PAB:
        return EMatch(pid, NOCOLOR, WIN, False, True, pts)
    if kind in _ABSENCE_SCORE:
        return EMatch(pid, NOCOLOR, _ABSENCE_SCORE[kind], False, False, pts)
    raise M.InvalidInput(f"tipo de rodada '{kind}' inválido {where}")


def baku_accelerations(n_ranked: int, total_rounds: int, win: int, draw: int, rounds_needed: int) -> list[int]:
    """Virtual points per round for a group-A player (C.04.5.1 as docs/pairing.md reads it)."""
    accelerated = (total_rounds + 1) // 2
    full = (accelerated + 1) // 2
    out = []
    for r in range(min(rounds_needed, total_rounds)):
        if r < full:
            out.append(win)
        elif r < accelerated:
            out.append(draw)
        else:
            break
    return out


def build(
    state: M.TournamentState,
    validate_scores: bool = False,
    declared_points: dict[int, int] | None = None,
    byes_240: list[tuple[int, int, str]] | None = None,
    baku_rule: str = "fide",
) -> ETournament:
    """Build the engine's tournament for pairing the next round of ``state``."""
    t = ETournament()
    lines = state.line_of
    players = sorted(state.players, key=lambda p: p.id)
    if not players:
        raise M.InvalidInput("nenhum jogador")
    ids: dict[int, int] = {}
    for p in players:
        if not isinstance(p.id, int) or p.id <= 0:
            raise M.InvalidInput(f"número de emparceiramento '{p.id}' inválido", lines.get(p.id))
        if p.id in ids:
            raise M.InvalidInput(f"número de emparceiramento {p.id} repetido", lines.get(p.id))
        ids[p.id] = p.id - 1
    maxid = players[-1].id
    if len(players) != maxid:
        missing = sorted(set(range(1, maxid + 1)) - set(ids))
        raise M.InvalidInput(f"número de emparceiramento {missing[0]} ausente")

    sc = state.scoring
    mult = 2 if state.micro_match else 1
    t.win = tenths(sc.win, "pontos da vitória") * mult
    t.draw = tenths(sc.draw, "pontos do empate") * mult
    t.loss = tenths(sc.loss, "pontos da derrota") * mult
    t.pab = tenths(sc.bye, "pontos do bye") * mult if sc.bye is not None else t.win
    t.zero_bye = tenths(sc.zero_bye, "pontos") * mult
    t.forfeit_loss = tenths(sc.forfeit_loss, "pontos") * mult
    t.no_colour_criteria = bool(state.micro_match)
    if not state.total_rounds or state.total_rounds <= 0:
        raise M.InvalidInput("o número total de rodadas (XXR ou 142) é obrigatório")
    t.expected_rounds = int(state.total_rounds)

    played_rounds = 0
    for p in players:
        pid = p.id - 1
        hist = list(p.history)
        while hist and hist[-1] is None:
            hist.pop()
        matches: list[EMatch] = []
        for r, e in enumerate(hist):
            where = f"na rodada {r + 1} do jogador {p.id}"
            try:
                m = entry_to_match(pid, e, ids, where)
            except M.InvalidInput as exc:
                raise M.InvalidInput(exc.detail, lines.get(p.id)) from exc
            if e is not None:
                played_rounds = max(played_rounds, len(matches))
            matches.append(m)
            if e is not None and m.participated:
                played_rounds = max(played_rounds, len(matches))
        ep = EPlayer(pid, 0, int(p.rating or 0), matches, p.name)
        t.players.append(ep)
        t.by_rank.append(pid)
    # the round to pair may be given explicitly
    if state.round_to_pair is not None:
        want = int(state.round_to_pair) - 1
        if want < played_rounds:
            raise M.InvalidInput(f"a rodada {want + 1} já foi emparceirada")
        played_rounds = want
    else:
        if all(len(ep.matches) > played_rounds for ep in t.players):
            played_rounds += 1
    if played_rounds > t.expected_rounds - 1:
        raise M.InvalidInput("o número de rodadas é maior que o total de rodadas do torneio")
    t.played_rounds = played_rounds
    for ep in t.players:
        if len(ep.matches) < played_rounds:
            ep.matches.extend(EMatch(ep.pid) for _ in range(played_rounds - len(ep.matches)))
    # absences, withdrawals and late entries for the round to pair
    rnd = played_rounds + 1
    absent = dict(state.absences or {})
    for r240, pidn, kind in byes_240 or []:
        if r240 == rnd:
            absent.setdefault(pidn, kind)
    for p in players:
        if p.withdrawn_from_round is not None and p.withdrawn_from_round <= rnd:
            absent.setdefault(p.id, M.ZERO_BYE)
        if p.late_entry_round is not None and p.late_entry_round > rnd:
            absent.setdefault(p.id, M.ZERO_BYE)
    for pidn, kind in absent.items():
        if pidn not in ids:
            raise M.InvalidInput(f"ausência de jogador inexistente {pidn}")
        ep = t.players[ids[pidn]]
        if len(ep.matches) <= played_rounds:
            ep.matches.append(
                entry_to_match(ep.pid, M.RoundEntry(kind if kind in _ABSENCE_SCORE else M.ZERO_BYE), ids, "")
            )

    t.update_ranks()
    t.compute_player_data()

    # initial colour
    ic = (state.initial_color or "").lower()
    if ic in ("w", "white", "white1", "w1"):
        t.initial_color = WHITE
    elif ic in ("b", "black", "black1", "b1"):
        t.initial_color = BLACK
    else:
        t.initial_color = infer_first_colour(t)
        if t.initial_color == NOCOLOR:
            raise M.InvalidInput("cor inicial não definida (XXC white1/black1)")

    # forbidden pairs
    for fp in state.forbidden:
        members = []
        for x in fp.players:
            if x not in ids:
                raise M.InvalidInput(f"par proibido com jogador inexistente {x}")
            members.append(ids[x])
        start = (fp.first_round - 1) if fp.first_round else 0
        end = fp.last_round if fp.last_round else t.expected_rounds
        t.forbidden.append(ForbiddenEntry(members, start, end))

    # accelerations
    manual = False
    for p in players:
        if p.accelerations:
            manual = True
            t.players[p.id - 1].accel = [tenths(a, "aceleração") * mult for a in p.accelerations]
    if not manual and state.acceleration in (M.ACCEL_BAKU, M.ACCEL_CLASSIC):
        initial = [p.id - 1 for p in players if not p.late_entry_round or p.late_entry_round <= 1]
        # group A is fixed before round 1 (late entries do not move its last player)
        nplayers = len(initial) if baku_rule == "fide" else len(players)
        if state.acceleration == M.ACCEL_BAKU:
            if t.loss or t.draw * 2 != t.win:
                raise M.InvalidInput("pontuação incompatível com a aceleração Baku")
            # docs/pairing.md: group A = first half rounded up to an even number; a TRF
            # marked FIDE_DUTCH_BAKU is paired as the reference engine does (first
            # half rounded up)
            group = 2 * ((nplayers + 3) // 4) if baku_rule == "fide" else (nplayers + 1) // 2
            acc = baku_accelerations(nplayers, t.expected_rounds, t.win, t.draw, played_rounds + 1)
        else:
            group = (nplayers + 1) // 2
            acc = [t.win] * min(2, played_rounds + 1, t.expected_rounds)
        for pid in sorted(initial)[:group]:
            t.players[pid].accel = list(acc)

    # scores
    for ep in t.players:
        ep.score = sum(t.points(ep, m) for m in ep.matches[:played_rounds])
    validate_pairs(t, lines)
    if validate_scores and declared_points is not None:
        validate_declared(t, declared_points, lines)
    return t


def infer_first_colour(t: ETournament) -> int:
    min_round = None
    for p in t.players:
        if p.valid:
            for r, m in enumerate(p.matches):
                if m.color != NOCOLOR:
                    min_round = r if min_round is None else min(min_round, r)
                    break
    if min_round is None:
        return NOCOLOR
    result = NOCOLOR
    eff = 0
    for pid in t.by_rank:
        p = t.players[pid]
        if any(m.participated for m in p.matches[: min_round + 1]):
            if result == NOCOLOR and min_round < len(p.matches):
                c = p.matches[min_round].color
                result = invert(c) if eff & 1 else c
            eff += 1
    return result


def validate_pairs(t: ETournament, lines: dict[int, int]) -> None:
    for p in t.players:
        if not p.valid:
            continue
        for r, m in enumerate(p.matches):
            if m.played:
                o = t.players[m.opponent]
                om = o.matches[r] if r < len(o.matches) else None
                if not o.valid or om is None or not om.played or om.color == m.color or om.opponent != p.pid:
                    raise M.InvalidInput(
                        f"a partida da rodada {r + 1} do jogador {p.pid + 1} "
                        f"contradiz a do adversário {m.opponent + 1}",
                        lines.get(p.pid + 1),
                    )


def validate_declared(t: ETournament, declared: dict[int, int], lines: dict[int, int]) -> None:
    for p in t.players:
        if not p.valid or (p.pid + 1) not in declared:
            continue
        d = declared[p.pid + 1]
        pts = p.score
        acc = t.acceleration(p)
        ok = {pts, pts + acc}
        if len(p.matches) > t.played_rounds:
            nxt = t.points(p, p.matches[t.played_rounds])
            ok |= {pts + nxt, pts + nxt + acc}
        if d not in ok:
            raise M.InvalidInput(
                f"pontos {fmt_tenths(d)} do jogador {p.pid + 1} não conferem com os resultados ({fmt_tenths(pts)})",
                lines.get(p.pid + 1),
            )
