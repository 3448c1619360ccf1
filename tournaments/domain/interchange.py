"""Build :class:`TournamentData` from the interchange file (docs/interchange.md), no database.

Useful for the ``standings`` command on an imported file and for tests.  Readings:

* ``boards[].games`` are from the point of view of each game's White: ``first`` has
  White in game 1, ``second`` in game 2.
* A round counts as completed when every board has every result (no ``null``);
  standings use the completed rounds from round 1 up to the first incomplete or
  draft one (``rounds_completed`` can be passed to stop earlier).
* A player on no board, not the bye and not ``absent``: before the player's first
  appearance in any round this is a late-entry round (``not_entered``), after it a
  withdrawal (``withdrawn``).  ``absent`` players score their absence's value
  (``absent_values``, else the tournament's ``absence``: zero, draw or win).
* ``one_sided`` rounds (a round one player's line of an imported file gives alone) count for that player as
  written: ``1 = 0`` a game, ``+ -`` a forfeit, ``U`` the bye; ``bye_points``, when given, is what a bye is worth
  per game.
* ``scoring`` values (JSON numbers) become the domain's scores as the database keeps
  them: ``int`` when whole, else the ``Decimal`` written (``0.5``), never a float.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tournaments.domain.model import (
    RESULTS_BY_CODE,
    ByeValue,
    Format,
    Number,
    PlayerData,
    RoundKind,
    RoundRecord,
    Scoring,
    TournamentData,
)


def _score(value: int | float | str) -> Number:
    exact = Decimal(str(value))
    return int(exact) if exact == exact.to_integral_value() else exact


# ``data`` is the parsed JSON file, unchecked (the importer validates it): ``Any`` is its honest type.
def _complete(rnd: dict[str, Any]) -> bool:
    if rnd.get("status", "published") == "draft":
        return False
    return all(g is not None for b in rnd.get("boards", []) for g in b.get("games", [None]))


# A one-sided round's character -> the game's code from White's view with the player White, and Black or colourless.
_ONE_SIDED = {"1": ("1-0", "0-1"), "=": ("1/2", "1/2"), "0": ("0-1", "1-0"), "+": ("+/-", "-/+"), "-": ("-/+", "+/-")}


def _one_sided(item: dict[str, Any], scoring: Scoring, bye_points: Number | None) -> RoundRecord:
    if item["result"] == "U":
        return RoundRecord(RoundKind.BYE, points=bye_points)
    as_white, as_black = _ONE_SIDED[item["result"]]
    white, black = RESULTS_BY_CODE[as_white if item.get("colour") == "w" else as_black]
    return RoundRecord.from_games(item["opponent"], [white if item.get("colour") == "w" else black], scoring)


def tournament_from_interchange(
    data: dict[str, Any], rounds_completed: int | None = None, provisional_rating: int = 1600
) -> TournamentData:
    t = data["tournament"]
    fmt = Format(t.get("format", "micro-match"))
    sc = t.get("scoring") or {}
    scoring = Scoring(
        _score(sc.get("win", 2)),
        _score(sc.get("draw", 1)),
        _score(sc.get("loss", 0)),
        None if sc.get("forfeit_loss") is None else _score(sc["forfeit_loss"]),
    )
    zero = scoring.loss if sc.get("zero_bye") is None else _score(sc["zero_bye"])
    rounds = sorted(data.get("rounds", []), key=lambda r: r["number"])
    done = 0
    for rnd in rounds:
        if rnd["number"] != done + 1 or not _complete(rnd):
            break
        done += 1
    if rounds_completed is not None:
        done = min(done, rounds_completed)
    ids = [p["id"] for p in data.get("players", [])]
    per_round: list[dict[int, RoundRecord]] = []
    for rnd in rounds[:done]:
        recs: dict[int, RoundRecord] = {}
        for board in rnd.get("boards", []):
            a, b = board["first"], board["second"]
            ga, gb = [], []
            for n, code in enumerate(board["games"]):
                white, black = RESULTS_BY_CODE[code]
                if n % 2 == 0:  # game 1 (and 3, ...): first has White
                    ga.append(white)
                    gb.append(black)
                else:
                    ga.append(black)
                    gb.append(white)
            recs[a] = RoundRecord.from_games(b, ga, scoring)
            recs[b] = RoundRecord.from_games(a, gb, scoring)
        bye_points = None if t.get("bye_points") is None else _score(t["bye_points"]) * fmt.games_per_round
        if rnd.get("bye") is not None:
            recs[rnd["bye"]] = RoundRecord(RoundKind.BYE, points=bye_points)
        for item in rnd.get("one_sided") or ():
            recs[item["player"]] = _one_sided(item, scoring, bye_points)
        for pid in rnd.get("absent") or ():
            value = (rnd.get("absent_values") or {}).get(str(pid)) or t.get("absence", "zero")
            per_game = {"draw": scoring.draw, "win": scoring.win}.get(value, zero)
            games = 2 if fmt.value == "micro-match" else 1
            recs.setdefault(pid, RoundRecord(RoundKind.ABSENT, points=per_game * games))
        per_round.append(recs)
    players = []
    for p in data.get("players", []):
        pid = p["id"]
        seen = False
        records = []
        for recs in per_round:
            rec = recs.get(pid)
            if rec is None:
                rec = RoundRecord(RoundKind.WITHDRAWN if seen else RoundKind.NOT_ENTERED)
            else:
                seen = True
            records.append(rec)
        if not seen:  # never appeared: every round is a late-entry round
            records = [RoundRecord(RoundKind.NOT_ENTERED) for _ in per_round]
        players.append(PlayerData(id=pid, name=p.get("name", str(pid)), rating=p.get("rating"), rounds=tuple(records)))
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate player ids")
    return TournamentData(
        players=tuple(players),
        rounds_completed=done,
        planned_rounds=t.get("rounds", done),
        format=fmt,
        scoring=scoring,
        bye_value=ByeValue(t.get("bye", "win")),
        acceleration_used=t.get("acceleration", "none") not in (None, "none"),
        provisional_rating=provisional_rating,
    )
