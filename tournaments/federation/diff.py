"""What changed between two versions of an event's interchange file (pure): players, results, settings.

Each change is ``{"kind": "player"|"result"|"setting", "what": "...", "before": ..., "after": ...}``, ``what``
in Portuguese; the federation shows them beside a later version, and a result changed after the stage was
homologated is a finding (:mod:`.verification`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tournaments.domain.text import clean

# tournament fields that are not settings (they describe or identify the event)
_NOT_SETTINGS = {"name", "slug"}


def _players(data: Mapping[str, Any]) -> dict[Any, Mapping[str, Any]]:
    return {p.get("cbjd_id") or f"#{p.get('id')}": p for p in data.get("players", [])}


def _results(data: Mapping[str, Any]) -> dict[tuple[int, int], tuple[Any, Any, tuple[Any, ...]]]:
    out = {}
    for rnd in data.get("rounds", []):
        for b in rnd.get("boards") or []:
            out[(rnd.get("number"), b.get("board"))] = (b.get("first"), b.get("second"), tuple(b.get("games") or ()))
    return out


def result_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
    old, new = _results(before), _results(after)
    changes = []
    for key in sorted(set(old) | set(new), key=lambda k: (k[0] or 0, k[1] or 0)):
        if old.get(key) != new.get(key):
            a, b = old.get(key), new.get(key)
            changes.append(
                {
                    "kind": "result",
                    "what": f"rodada {key[0]}, mesa {key[1]}",
                    "before": None if a is None else f"{a[0]}×{a[1]} {' '.join(str(g) for g in a[2])}",
                    "after": None if b is None else f"{b[0]}×{b[1]} {' '.join(str(g) for g in b[2])}",
                }
            )
    return changes


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every change from ``before`` to ``after``: settings, then players, then results."""
    out: list[dict[str, Any]] = []
    tb, ta = before.get("tournament") or {}, after.get("tournament") or {}
    for key in sorted((set(tb) | set(ta)) - _NOT_SETTINGS):
        if tb.get(key) != ta.get(key):
            out.append({"kind": "setting", "what": clean(key), "before": tb.get(key), "after": ta.get(key)})
    pb, pa = _players(before), _players(after)
    for key in sorted(set(pb) | set(pa), key=str):
        a, b = pb.get(key), pa.get(key)
        if a is None and b is not None:
            out.append({"kind": "player", "what": clean(b.get("name")), "before": None, "after": "inscrito"})
        elif b is None and a is not None:
            out.append({"kind": "player", "what": clean(a.get("name")), "before": "inscrito", "after": None})
        elif a is not None and b is not None:
            for field in ("rating", "id", "birth_date", "sex", "withdrawn_from", "withdrawal"):
                if a.get(field) != b.get(field):
                    out.append(
                        {
                            "kind": "player",
                            "what": f"{clean(b.get('name'))}: {field}",
                            "before": a.get(field),
                            "after": b.get(field),
                        }
                    )
    out.extend(result_changes(before, after))
    return out


def _qualified_names(qualification: Any) -> dict[str, list[str]]:
    return {
        str(q.get("code")): [clean(p.get("name")) for p in q.get("qualified") or []]
        for q in qualification or []
        if isinstance(q, Mapping)
    }


def verdict_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """What a new verification changed in the verdict of the one before (issue 36.2), in Portuguese: the rights,
    the findings that appeared or went, and each category's qualifiers. ``before``/``after``: ``{"rights",
    "findings", "qualification"}`` as a submission stores them. Empty when the verdict is the same."""
    out = []
    if before.get("rights") != after.get("rights"):
        word = {True: "sim", False: "não", None: "—"}
        out.append(f"Direito a vagas: {word[before.get('rights')]} → {word[after.get('rights')]}.")
    old = {(f.get("code"), f.get("message")) for f in before.get("findings") or []}
    new = {(f.get("code"), f.get("message")) for f in after.get("findings") or []}
    out += [f"Novo apontamento: {clean(message, 400)}" for code, message in sorted(new - old, key=str)]
    out += [f"Apontamento que deixou de valer: {clean(message, 400)}" for code, message in sorted(old - new, key=str)]
    was, now = _qualified_names(before.get("qualification")), _qualified_names(after.get("qualification"))
    for code in sorted(set(was) | set(now)):
        if was.get(code, []) != now.get(code, []):
            out.append(
                f"Classificados {clean(code)}: {', '.join(was.get(code, [])) or 'nenhum'} → "
                f"{', '.join(now.get(code, [])) or 'nenhum'}."
            )
    return out
