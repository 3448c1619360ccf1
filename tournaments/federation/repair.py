"""Re-pairing a round of an interchange file with this product's engine (pure: plain data in, boards out).

The federation trusts no pairing a file shows: it rebuilds the engine's state for round N from the file's
rounds 1..N-1 (results as the file gives them) and pairs N again; :mod:`.verification` compares the boards.
Round 1 is rebuilt from the national rating list instead of the file's ratings (art. 4): :func:`round1_from_list`.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from pairing import model as engine
from pairing.api import pair_round, seed_key
from pairing.model import ForbiddenPair, PlayerState, RoundEntry, Scoring, TournamentState

Pairs = list[tuple[int, int]]
_GAME_POINTS = {"1-0": (1, 0), "0-1": (0, 1), "1/2": (0.5, 0.5), "+/-": (1, 0), "-/+": (0, 1), "-/-": (0, 0)}
_OVER_THE_BOARD = {"1-0", "0-1", "1/2"}
_ABSENCE_KIND = {"zero": engine.ZERO_BYE, "draw": engine.HALF_BYE, "win": engine.FULL_BYE}


class CannotRepair(ValueError):
    """The file holds what the engine's state cannot be rebuilt from (the message says what, in Portuguese)."""


def _num(value: Any, default: Any) -> Decimal:
    return Decimal(str(default if value is None else value))


def _scoring(t: Mapping[str, Any]) -> tuple[Decimal, Decimal, Decimal]:
    sc = t.get("scoring") or {}
    return _num(sc.get("win"), 2), _num(sc.get("draw"), 1), _num(sc.get("loss"), 0)


def games_per_round(t: Mapping[str, Any]) -> int:
    return 2 if t.get("format", "micro-match") == "micro-match" else 1


def _game_points(code: str, white_side: bool, win: Decimal, draw: Decimal, loss: Decimal) -> Decimal:
    if code == "-/-":
        return loss
    white, black = _GAME_POINTS[code]
    mine = white if white_side else black
    return win if mine == 1 else draw if mine == 0.5 else loss


def board_entries(board: Mapping[str, Any], t: Mapping[str, Any]) -> tuple[RoundEntry, RoundEntry]:
    """The two players' round as the engine reads it (``first`` has White in game 1)."""
    win, draw, loss = _scoring(t)
    games = board.get("games") or []
    if any(g is None for g in games) or not games:
        raise CannotRepair("rodada com resultado em aberto")
    first = sum((_game_points(g, n % 2 == 0, win, draw, loss) for n, g in enumerate(games)), Decimal(0))
    second = sum((_game_points(g, n % 2 == 1, win, draw, loss) for n, g in enumerate(games)), Decimal(0))
    played = any(g in _OVER_THE_BOARD for g in games)
    entries = []
    for mine, theirs, colour, opponent in (
        (first, second, "w", board["second"]),
        (second, first, "b", board["first"]),
    ):
        if played:
            result = "W" if mine > theirs else "L" if mine < theirs else "D"
            entries.append(RoundEntry(kind=engine.GAME, opponent=opponent, color=colour, result=result, points=mine))
        else:
            kind = engine.FORFEIT_WIN if mine > theirs and not all(g == "-/-" for g in games) else engine.FORFEIT_LOSS
            entries.append(RoundEntry(kind=kind, opponent=opponent, color=colour, points=mine))
    return entries[0], entries[1]


def _bye_points(t: Mapping[str, Any]) -> Decimal:
    win, draw, _loss = _scoring(t)
    games = games_per_round(t)
    if t.get("bye_points") is not None:
        return _num(t["bye_points"], 0) * games
    return (draw if t.get("bye") == "draw" else win) * games


def _absence_entry(value: str, t: Mapping[str, Any]) -> RoundEntry:
    win, draw, loss = _scoring(t)
    games = games_per_round(t)
    kind = _ABSENCE_KIND.get(value, engine.ZERO_BYE)
    points = {engine.HALF_BYE: draw, engine.FULL_BYE: win}.get(kind, loss) * games
    return RoundEntry(kind=kind, points=points)


def round_entries(rnd: Mapping[str, Any], t: Mapping[str, Any]) -> dict[int, RoundEntry]:
    """Every player's entry for one round of the file (players not in it are absent from the map)."""
    if rnd.get("one_sided"):
        raise CannotRepair("rodada com partidas registradas só na linha de um jogador")
    out: dict[int, RoundEntry] = {}
    for board in rnd.get("boards") or []:
        a, b = board_entries(board, t)
        out[board["first"]], out[board["second"]] = a, b
    if rnd.get("bye") is not None:
        out[rnd["bye"]] = RoundEntry(kind=engine.PAB, points=_bye_points(t))
    values = rnd.get("absent_values") or {}
    for pid in rnd.get("absent") or []:
        out.setdefault(pid, _absence_entry(values.get(str(pid)) or t.get("absence", "zero"), t))
    return out


def state_for_round(data: Mapping[str, Any], number: int, ratings: Mapping[int, int] | None = None) -> TournamentState:
    """The engine's state for pairing round ``number`` of the file (rounds before it must be complete).
    ``ratings``: pairing number -> the rating to pair with (default: the file's, unrated at the provisional)."""
    t = data["tournament"]
    rounds = {r["number"]: r for r in data.get("rounds", [])}
    history_rounds = []
    for n in range(1, number):
        if n not in rounds:
            raise CannotRepair(f"falta a rodada {n}")
        history_rounds.append(round_entries(rounds[n], t))
    provisional = int(t.get("provisional_rating") or 1600)
    players = []
    for p in data.get("players", []):
        pid = p["id"]
        rating = (ratings or {}).get(pid)
        if rating is None:
            rating = p.get("rating") or provisional
        history: list[RoundEntry | None] = [
            recs.get(pid, RoundEntry(kind=engine.ZERO_BYE, points=Decimal(0))) for recs in history_rounds
        ]
        players.append(
            PlayerState(
                id=pid,
                name=str(p.get("name", "")),
                rating=int(rating),
                fmjd_rating=int(p.get("fmjd_rating") or 0),
                title=str(p.get("title") or ""),
                history=history,
                late_entry_round=p.get("late_entry"),
                withdrawn_from_round=p.get("withdrawn_from"),
                accelerations=[Decimal(str(a)) for a in p.get("accelerations") or []],
            )
        )
    current = rounds.get(number, {})
    values = current.get("absent_values") or {}
    absences = {
        pid: _ABSENCE_KIND.get(values.get(str(pid)) or t.get("absence", "zero"), engine.ZERO_BYE)
        for pid in current.get("absent") or []
    }
    win, draw, loss = _scoring(t)
    forbidden = [
        ForbiddenPair(players=list(f["players"]), first_round=f.get("from"), last_round=f.get("to"))
        for f in data.get("forbidden") or []
    ]
    return TournamentState(
        players=players,
        total_rounds=int(t.get("rounds") or number),
        initial_color="b" if t.get("initial_colour") == "black" else "w",
        scoring=Scoring(win=win, draw=draw, loss=loss),
        micro_match=games_per_round(t) == 2,
        acceleration=t.get("acceleration") or "none",
        forbidden=forbidden,
        absences=absences,
        round_to_pair=number,
        name=str(t.get("name", "")),
    )


def repair(data: Mapping[str, Any], number: int) -> tuple[Pairs, int | None]:
    """(boards as (first, second) in board order, bye) as the engine pairs round ``number`` of the file."""
    try:
        result = pair_round(state_for_round(data, number), explain=False)
    except engine.PairingError as exc:
        raise CannotRepair(f"o motor não emparceira a rodada {number}: {exc}") from exc
    return [(w, b) for w, b in result.boards], result.bye


def list_order(data: Mapping[str, Any], ratings: Mapping[int, int | None]) -> list[int]:
    """The file's players in the round-1 order of the national list (rating, FMJD rating, title, name; the
    file's number last): ``ratings`` maps a pairing number to the list's rating (``None``: not on the list)."""
    provisional = int(data["tournament"].get("provisional_rating") or 1600)

    def key(p: Mapping[str, Any]) -> tuple[Any, ...]:
        rating = ratings.get(p["id"])
        return (
            *seed_key(provisional if rating is None else rating, p.get("fmjd_rating"), p.get("title"), p.get("name")),
            p["id"],
        )

    return [p["id"] for p in sorted(data.get("players", []), key=key)]


def round1_from_list(data: Mapping[str, Any], ratings: Mapping[int, int | None]) -> tuple[Pairs, int | None]:
    """Round 1 as the engine pairs it with the players ranked by the national list: (boards, bye) in the file's
    pairing numbers."""
    order = list_order(data, ratings)
    renumber = {pid: n for n, pid in enumerate(order, start=1)}
    back = {n: pid for pid, n in renumber.items()}
    players = []
    for p in data.get("players", []):
        players.append({**p, "id": renumber[p["id"]], "rating": ratings.get(p["id"])})
    rounds = [r for r in data.get("rounds", []) if r.get("number") == 1]
    moved_rounds = [
        {
            **r,
            "absent": [renumber[a] for a in r.get("absent") or [] if a in renumber],
            "absent_values": {
                str(renumber[int(k)]): v for k, v in (r.get("absent_values") or {}).items() if int(k) in renumber
            },
            "boards": [],
            "bye": None,
        }
        for r in rounds
    ]
    forbidden = [
        {**f, "players": [renumber[x] for x in f.get("players", []) if x in renumber]}
        for f in data.get("forbidden") or []
    ]
    moved = {**data, "players": players, "rounds": moved_rounds, "forbidden": forbidden}
    boards, bye = repair(moved, 1)
    return [(back[w], back[b]) for w, b in boards], None if bye is None else back[bye]
