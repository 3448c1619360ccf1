"""The public entry points: pair_round (plain data) and pair_trf (a parsed TRF)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

from . import model as M
from .convert import build
from .dutch import Dutch, NoValidPairingError, Progress
from .engine import ETournament

if TYPE_CHECKING:
    from .trf import TrfData


def _run(t: ETournament, explain: bool = True, progress: Progress | None = None) -> M.Pairing:
    d = Dutch(t, progress=progress)
    try:
        pairs, bye = d.run()
    except NoValidPairingError as exc:
        raise M.NoValidPairing(str(exc)) from None
    boards = [(w + 1, b + 1) for w, b in pairs]
    result = M.Pairing(round=t.played_rounds + 1, boards=boards, bye=None if bye is None else bye + 1)
    if explain:
        from .explain import explain as _explain

        result.explanations = _explain(d, pairs, bye)
    return result


def pair_round(state: M.TournamentState, explain: bool = True, progress: Progress | None = None) -> M.Pairing:
    """Pair the next round of ``state`` (FIDE Dutch, 2026 edition).

    ``progress(paired, total)``, when given, is called as the players get their opponents
    (a long pairing can show how far it is). Raises NoValidPairing when no pairing satisfies
    the absolute criteria and InvalidInput when the data is inconsistent.
    """
    t = build(state)
    return _run(t, explain, progress)


def pair_trf(data: TrfData, explain: bool = False, validate: bool = True) -> M.Pairing:
    t = build(
        data.state,
        validate_scores=validate,
        declared_points=data.declared,
        byes_240=data.byes_240,
        baku_rule="reference",
    )
    return _run(t, explain)


# Titles in the round-1 order, strongest first. FIDE C.04.2 ranks the chess titles GM, IM, WGM, FM, WIM, CM,
# WFM, WCM; each FMJD title takes the place of its chess counterpart (GMI = GM, MI = IM, GMIF = WGM, MF = FM,
# MIF = WIM, MC = CM, MFF = WFM), then the national master (MN), then no title. A TRF carries chess titles, the
# app the draughts ones: both sort in one list.
_TITLE_GROUPS = (
    ("GMI", "GM"),
    ("MI", "IM"),
    ("GMIF", "WGM"),
    ("MF", "FM"),
    ("MIF", "WIM"),
    ("MC", "CM"),
    ("MFF", "WFM"),
    ("WCM",),
    ("MN",),
)
_TITLE_RANK = {title: rank for rank, group in enumerate(_TITLE_GROUPS) for title in group}


def title_rank(title: str | None) -> int:
    """0 for the strongest title; every unknown or missing title ranks last, together."""
    return _TITLE_RANK.get((title or "").strip().upper(), len(_TITLE_GROUPS))


def alphabetical(name: str | None) -> str:
    """The name as it sorts alphabetically: case and accents ignored (Álvaro with Alvaro, before Bruno)."""
    text = unicodedata.normalize("NFKD", name or "")
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def seed_key(rating: int, fmjd_rating: int | None, title: str | None, name: str | None) -> tuple[int, int, int, str]:
    """THE round-1 order (docs/pairing.md): rating (higher first), FMJD rating, title, name. The caller gives an
    unrated player's provisional rating as ``rating``."""
    return (-rating, -(fmjd_rating or 0), title_rank(title), alphabetical(name))


def seed_order(players: Iterable[M.PlayerState], provisional_rating: int = 0) -> list[M.PlayerState]:
    """Players in the round-1 order of :func:`seed_key`; an unrated player (rating 0, as in a TRF) counts at
    ``provisional_rating``. Assign ``id = position + 1`` before round 1."""
    return sorted(players, key=lambda p: seed_key(p.rating or provisional_rating, p.fmjd_rating, p.title, p.name))


def check_pairing(state: M.TournamentState, boards: Iterable[tuple[int, int]], bye: int | None = None) -> list[str]:
    """Absolute criteria of a (possibly hand-edited) pairing of the next round.

    Returns a list of problems in Portuguese (empty when the pairing is valid):
    nobody twice, every present player paired, nobody absent paired, no rematch,
    no forbidden pair, at most one bye and only to an eligible player, and no
    meeting of two non-topscorers with the same absolute colour preference.
    """
    t = build(state)
    d = Dutch(t)
    pr = t.played_rounds
    d.forbidden = t.resolve_forbidden(pr)
    present = set()
    for p in t.players:
        if p.valid and len(p.matches) <= pr:
            present.add(p.pid + 1)
    d.pairing_score = {p.pid: t.score_acc(p) for p in t.players if p.valid}
    d.colour_keys()
    problems = []
    seen: dict[int, int] = {}
    listed = [x for b in boards for x in b] + ([bye] if bye is not None else [])
    for x in listed:
        seen[x] = seen.get(x, 0) + 1
    for x, k in sorted(seen.items()):
        if x not in range(1, len(t.players) + 1):
            problems.append(f"jogador {x} inexistente")
        elif k > 1:
            problems.append(f"jogador {x} aparece {k} vezes")
        elif x not in present:
            problems.append(f"jogador {x} está ausente nesta rodada e foi emparceirado")
    for x in sorted(present - set(seen)):
        problems.append(f"jogador {x} presente e sem emparceiramento")
    for w, b in boards:
        if w not in present or b not in present or w == b:
            continue
        pw, pb = t.players[w - 1], t.players[b - 1]
        if any(m.played and m.opponent == pb.pid for m in pw.matches):
            problems.append(f"{w} e {b} já se enfrentaram")
        elif pb.pid in d.forbidden[pw.pid]:
            problems.append(f"{w} e {b} não podem se enfrentar (par proibido)")
        elif not d.compatible(pw, pb):
            problems.append(f"{w} e {b} têm a mesma preferência absoluta de cor")
    if bye is not None and bye in present:
        if len(present) % 2 == 0:
            problems.append("bye com número par de jogadores presentes")
        elif not t.eligible_for_bye(t.players[bye - 1]):
            problems.append(f"jogador {bye} já recebeu bye ou ponto sem jogar e não pode receber outro")
    elif bye is None and len(present) % 2 == 1:
        problems.append("número ímpar de jogadores presentes: falta o bye")
    return problems
