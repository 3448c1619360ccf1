"""A season of the Circuito Nacional (art. 1: it qualifies players for the Brazilian championships), pure.

Stages are taken in date order, only approved ones. Each stage gives its category's spots to the players its
verification qualified (the venue's own rules: ``tournaments.domain.qualification`` through the homologation
report, none without the rights; issue 36.1). Only what a single stage cannot know is decided here: a player
already qualified for that championship by an earlier stage does not take a second spot, and his spot passes on to
the next placed player of the stage not qualified yet (said beside it), and so on down the stage's order.
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
            champ.stages.append(
                StageSpots(
                    str(stage.get("name")),
                    int(cat.get("spots") or 0) if stage.get("rights") else 0,
                    bool(stage.get("rights")),
                )
            )
            if not stage.get("rights"):
                continue
            qualified = list(cat.get("qualified") or [])
            here = {_key(p) for p in qualified}
            # the next placed, best first, for a spot passed on
            following = (p for p in cat.get("order") or [] if _key(p) not in here)
            for q in qualified:
                taker, passed_from = q, None
                if _key(q) in seen:
                    passed_from = str(q.get("name"))
                    taker = next((p for p in following if _key(p) not in seen), None)
                    if taker is None:
                        champ.unfilled += 1
                        continue
                    champ.passed_on += 1
                seen.add(_key(taker))
                champ.qualifiers.append(
                    Qualifier(str(taker.get("name")), taker.get("cbjd_id"), str(stage.get("name")), passed_from)
                )
    return list(out.values())
