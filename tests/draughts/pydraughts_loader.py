"""Load the third-party ``pydraughts`` package, whose import name is also ``draughts``, without clashing with
this project's ``draughts`` package.

How: find pydraughts' ``draughts/__init__.py`` through its distribution metadata (so it works in any
virtualenv), temporarily take our own ``draughts*`` modules out of ``sys.modules``, execute pydraughts from its
file path as ``draughts`` (its modules import each other with absolute ``draughts.core...`` imports, which then
resolve inside pydraughts' directory), move every ``draughts*`` module it created to ``pydraughts*`` keys, and
put our modules back.  pydraughts only imports at module level, so the loaded objects keep working afterwards.
Returns None when pydraughts is not installed.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from importlib import metadata


def _is_draughts_key(name: str) -> bool:
    return name == "draughts" or name.startswith("draughts.")


def load_pydraughts() -> types.ModuleType | None:
    if "pydraughts" in sys.modules:
        return sys.modules["pydraughts"]
    try:
        dist = metadata.distribution("pydraughts")
    except metadata.PackageNotFoundError:
        return None
    init = dist.locate_file("draughts/__init__.py")
    if not init.exists():
        return None
    pkg_dir = str(init.parent)
    saved = {k: sys.modules.pop(k) for k in list(sys.modules) if _is_draughts_key(k)}
    try:
        spec = importlib.util.spec_from_file_location("draughts", str(init), submodule_search_locations=[pkg_dir])
        module = importlib.util.module_from_spec(spec)
        sys.modules["draughts"] = module
        spec.loader.exec_module(module)
        # make sure the parts the tests use are loaded while the name still points at pydraughts
        importlib.import_module("draughts.core.game")
        loaded = {k: sys.modules.pop(k) for k in list(sys.modules) if _is_draughts_key(k)}
    finally:
        for k in list(sys.modules):
            if _is_draughts_key(k):
                del sys.modules[k]
        sys.modules.update(saved)
    for k, mod in loaded.items():
        sys.modules["py" + k] = mod
    return loaded["draughts"]


def pydraughts_moves(pyd: types.ModuleType, variant: str, fen: str) -> set:
    """Legal moves of pydraughts for a FEN in the standard numbering, as {(start, end, frozenset(captured))}.

    Uses the internal ``Game`` class, whose square numbering for 'brazilian' and 'standard' is the same as
    ours (square 1 on Black's side); the public Board/Move layer renumbers Brazilian squares.  For speed, when
    pydraughts' own board finds no capture, its one-step positional moves are the legal moves (Game.legal_moves
    would replay every one of them to look for capture continuations, ~10x slower); otherwise the full capture
    sequences come from Game.legal_moves, which applies the majority rule."""
    game_mod = sys.modules["pydraughts.core.game"]
    game = game_mod.Game("brazilian" if variant == "brazilian" else "standard", fen)
    if not game.board.get_possible_capture_moves([]):
        return {(a, b, frozenset()) for a, b in game.board.get_possible_positional_moves()}
    moves, captures = game.legal_moves()
    out = set()
    for mv, caps in zip(moves, captures):
        caps = frozenset(c for c in caps if c is not None)
        out.add((mv[0][0], mv[-1][1], caps))
    return out
