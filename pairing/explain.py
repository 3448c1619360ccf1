"""Per-player explanation of a pairing: bracket, float, colour preference."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .engine import BLACK, NOCOLOR, WHITE, EPlayer
from .model import Explanation

if TYPE_CHECKING:
    from .dutch import Dutch


def _pts(v: int) -> str:
    return f"{v // 10}.{v % 10}" if v >= 0 else f"-{(-v) // 10}.{(-v) % 10}"


def _pref(p: EPlayer) -> tuple[str | None, str | None]:
    if p.pref == NOCOLOR:
        return None, None
    letter = "W" if p.pref == WHITE else "B"
    if p.absolute_pref():
        return letter, "absolute"
    if p.strong:
        return letter, "strong"
    return letter, "mild"


def _down_reason(d: Dutch, pid: int) -> str:
    hist = getattr(d, "moved_down", {}).get(pid)
    if not hist:
        return "a pontuação do adversário é menor"
    score, size, paired = hist[0]
    if size % 2 and paired == size - 1:
        return f"o grupo de {_pts(score)} tinha número ímpar de jogadores ({size})"
    return (
        f"no grupo de {_pts(score)} ({size} jogadores) não havia adversário "
        "compatível (sem repetir confronto, respeitando cores e permitindo "
        "completar a rodada)"
    )


def explain(d: Dutch, pairs: list[tuple[int, int]], bye: int | None) -> dict[int, Explanation]:
    """Build an Explanation for every paired player (and the bye)."""
    t = d.t
    pairing_score = d.pairing_score
    out: dict[int, Explanation] = {}
    colour_of = {}
    opp_of = {}
    for w, b in pairs:
        colour_of[w] = WHITE
        colour_of[b] = BLACK
        opp_of[w] = b
        opp_of[b] = w
    rule_of = {}
    for w, b in pairs:
        pw, pb = t.players[w], t.players[b]
        _, rule = d.choose_colour(pw, pb)
        if rule == "pref":
            # which of E.1/E.2/E.3 decided
            if pw.pref != pb.pref or pw.pref == NOCOLOR or pb.pref == NOCOLOR:
                rule = "E.1 (ambas as preferências atendidas)"
            elif pw.absolute_pref() or pb.absolute_pref() or pw.strong != pb.strong:
                rule = "E.2 (atendida a preferência mais forte)"
            else:
                rule = "E.3 (alternância a partir da última rodada com cores diferentes)"
        elif rule == "E4":
            rule = "E.4 (preferência do jogador de melhor ranking)"
        else:
            rule = "E.5 (cor inicial pelo número de emparceiramento)"
        rule_of[w] = rule_of[b] = rule
    paired_in = getattr(d, "paired_in", {})
    for pid in list(opp_of) + ([bye] if bye is not None else []):
        p = t.players[pid]
        letter, strength = _pref(p)
        bracket = paired_in.get(pid)
        if pid == bye:
            fl = "down"
            why = (
                "recebeu o bye: número ímpar de jogadores; é o de menor pontuação que pode "
                "recebê-lo (e, entre esses, o que jogou mais partidas); conta como "
                "flutuação para baixo"
            )
            col = None
            granted = None
            rule = ""
            opp = None
        else:
            o = t.players[opp_of[pid]]
            mine, theirs = pairing_score[pid], pairing_score[o.pid]
            if mine > theirs:
                fl = "down"
                why = (
                    f"desceu do grupo de {_pts(mine)} e jogou com {o.pid + 1} ({_pts(theirs)}): {_down_reason(d, pid)}"
                )
            elif mine < theirs:
                fl = "up"
                why = f"subiu: enfrentou {o.pid + 1} ({_pts(theirs)}), que desceu do grupo de {_pts(theirs)}"
            else:
                fl = None
                why = "emparceirado dentro do próprio grupo de pontuação"
            c = colour_of[pid]
            col = "w" if c == WHITE else "b"
            granted = None if p.pref == NOCOLOR else (c == p.pref)
            rule = rule_of[pid]
            opp = o.pid + 1
        out[pid + 1] = Explanation(
            player=pid + 1,
            score=_pts(pairing_score[pid]),
            bracket=None if bracket is None else _pts(bracket),
            opponent=opp,
            color=col,
            float=fl,
            float_reason=why,
            color_preference=letter,
            preference_strength=strength,
            preference_granted=granted,
            color_rule=rule,
        )
    return out
