"""A season of the Circuito Nacional (art. 1: it qualifies players for the Brazilian championships), pure.

Stages are taken in date order, only approved ones. Each stage gives its category's spots (computed by the
federation's verification, none without the rights) to its best placed players; a player already qualified for
that championship by an earlier stage does not take a second spot: the spot passes on to the next placed
player of the stage (said beside it), and so on down the stage's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Qualifier:
    name: str
    cbjd_id: str | None
    stage: str
    passed_from: str | None = None  # the player already qualified whose spot this one took


@dataclass
class StageSpots:
    stage: str
    spots: int
    rights: bool


@dataclass
class Championship:
    code: str
    name: str
    qualifiers: list[Qualifier] = field(default_factory=list)
    stages: list[StageSpots] = field(default_factory=list)
    passed_on: int = 0
    unfilled: int = 0


def _key(p: Mapping[str, Any]) -> str:
    return str(p.get("cbjd_id") or f"{p.get('name')}#{p.get('id')}")


def season_table(stages: Iterable[Mapping[str, Any]]) -> list[Championship]:
    """``stages``: approved stages in date order, each ``{"name", "rights", "qualification": [...]}`` as the
    verification stored them. Returns one championship per category code, in the order first seen."""
    out: dict[str, Championship] = {}
    taken: dict[str, set[str]] = {}
    for stage in stages:
        for cat in stage.get("qualification") or []:
            code = str(cat.get("code"))
            champ = out.setdefault(code, Championship(code, str(cat.get("name") or code)))
            seen = taken.setdefault(code, set())
            # the spots the stage awarded (a shared last place left to the organising committee, art. 13, is
            # not one the season can fill)
            spots = len(cat.get("qualified") or []) if stage.get("rights") else 0
            champ.stages.append(
                StageSpots(
                    str(stage.get("name")),
                    int(cat.get("spots") or 0) if stage.get("rights") else 0,
                    bool(stage.get("rights")),
                )
            )
            if spots <= 0:
                continue
            left = spots
            skipped: list[str] = []
            for p in cat.get("order") or []:
                if left == 0:
                    break
                if _key(p) in seen:
                    skipped.append(str(p.get("name")))
                    continue
                seen.add(_key(p))
                champ.qualifiers.append(
                    Qualifier(
                        str(p.get("name")),
                        p.get("cbjd_id"),
                        str(stage.get("name")),
                        passed_from=skipped.pop(0) if skipped else None,
                    )
                )
                left -= 1
            champ.passed_on += sum(
                1 for q in champ.qualifiers[len(champ.qualifiers) - (spots - left) :] if q.passed_from
            )
            champ.unfilled += left
    return list(out.values())
