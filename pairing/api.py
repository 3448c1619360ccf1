"""The public entry points: pair_round (plain data) and pair_trf (a parsed TRF)."""
from __future__ import annotations

from typing import Optional

from . import model as M
from .convert import build
from .dutch import Dutch, NoValidPairingError
from .engine import WHITE


def _run(t, explain: bool = True) -> M.Pairing:
    d = Dutch(t)
    try:
        pairs, bye = d.run()
    except NoValidPairingError as exc:
        raise M.NoValidPairing(str(exc)) from None
    boards = [(w + 1, b + 1) for w, b in pairs]
    result = M.Pairing(round=t.played_rounds + 1, boards=boards,
                       bye=None if bye is None else bye + 1)
    if explain:
        from .explain import explain as _explain
        result.explanations = _explain(d, pairs, bye)
    return result


def pair_round(state: M.TournamentState, explain: bool = True) -> M.Pairing:
    """Pair the next round of ``state`` (FIDE Dutch, 2026 edition).

    Raises NoValidPairing when no pairing satisfies the absolute criteria and
    InvalidInput when the data is inconsistent.
    """
    t = build(state)
    return _run(t, explain)


def pair_trf(data, explain: bool = False, validate: bool = True) -> M.Pairing:
    t = build(data.state, validate_scores=validate, declared_points=data.declared,
              byes_240=data.byes_240, baku_rule="reference")
    return _run(t, explain)


_TITLES = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM",
           "GMI", "MI", "MF", "MC", "MIF", "MFF"]


def _title_rank(title: str) -> int:
    t = (title or "").strip().upper()
    return _TITLES.index(t) if t in _TITLES else len(_TITLES)


def seed_order(players):
    """Initial ranking for pairing numbers: rating desc, FMJD rating desc, title, name.

    Returns the players sorted; assign ``id = position + 1`` before round 1.
    """
    return sorted(players, key=lambda p: (-(p.rating or 0), -(getattr(p, "fmjd_rating", 0) or 0),
                                          _title_rank(getattr(p, "title", "")),
                                          (p.name or "").casefold()))
