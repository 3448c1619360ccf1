"""Points given or taken outside the games (a bonus, a penalty: a TRF's 299 lines) in the interchange file.

``players[].points_adjustment`` (game points, signed, one decimal, as text: ``"-1.0"``), ``points_adjustment_reason``
(required when the points are not zero) and ``trf_299`` (the 299 lines as the file wrote them for the player:
``[{"kind": "W", "points": "0.5", "round": 3}]``, ``kind`` ``""`` for a bonus or penalty, ``round`` null for every
round), all optional and absent when there is nothing.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from pairing.trffile import ADJUSTMENT_KINDS
from tournaments.core.safetext import one_line

MAX_LINES = 50
MAX_POINTS = Decimal(999)


def _signed(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return None
    if not d.is_finite() or abs(d) > MAX_POINTS or d * 10 != (d * 10).to_integral_value():
        return None
    return d


def adjustment_out(entry: Any) -> dict[str, Any]:
    """The interchange fields of an entry's points outside the games (none when it has none)."""
    out: dict[str, Any] = {}
    if entry.points_adjustment:
        out["points_adjustment"] = f"{entry.points_adjustment:.1f}"
        out["points_adjustment_reason"] = entry.points_adjustment_reason
    if entry.adjustment_lines:
        out["trf_299"] = list(entry.adjustment_lines)
    return out


def adjustment_in(player: dict[str, Any], where: str, ck: Any) -> dict[str, Any]:
    """The entry's fields from a player of the file; problems are added to ``ck`` naming where."""
    raw = player.get("points_adjustment", "0")
    points = _signed(raw)
    if points is None:
        ck.add(where, f"valor inválido em “points_adjustment”: {raw!r} (pontos com sinal, no máximo uma casa decimal)")
        points = Decimal(0)
    reason = player.get("points_adjustment_reason", "")
    if not isinstance(reason, str) or len(reason) > 300:
        ck.add(where, f"valor inválido em “points_adjustment_reason”: {str(reason)[:40]!r}")
        reason = ""
    reason = one_line(reason)
    if points and not reason:
        ck.add(where, "“points_adjustment” sem o motivo (“points_adjustment_reason”)")
    lines = player.get("trf_299", [])
    checked = []
    if not isinstance(lines, list) or len(lines) > MAX_LINES:
        ck.add(where, "valor inválido em “trf_299” (uma lista de linhas 299)")
        lines = []
    for item in lines:
        ok = isinstance(item, dict) and item.get("kind") in ADJUSTMENT_KINDS and _signed(item.get("points")) is not None
        rnd = item.get("round") if isinstance(item, dict) else None
        if not ok or not (rnd is None or (isinstance(rnd, int) and not isinstance(rnd, bool) and 1 <= rnd <= 999)):
            ck.add(where, f"linha 299 inválida em “trf_299”: {str(item)[:60]!r}")
            continue
        checked.append({"kind": item["kind"], "points": f"{_signed(item['points']):.1f}", "round": rnd})
    return {"points_adjustment": points, "points_adjustment_reason": reason, "adjustment_lines": checked}
