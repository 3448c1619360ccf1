"""Test helper: build a TournamentData from a compact round-by-round description.

Each round is a list of items:
    (a, b, "WD")      a played b; a's game results, one letter per game:
                      W win, D draw, L loss, + forfeit win, - forfeit loss, = double forfeit
                      (b gets the mirrored letters)
    (a, "bye")        pairing-allocated bye
    (a, "absent")     announced absence, zero; (a, "absent", 1) with 1 point
    (a, "withdrawn")  not paired, withdrawn
    (a, "late")       round before a late entry
The builder only transcribes; it computes no score (points of played rounds are
derived by the code under test from the game results and the scoring).
"""

from tournaments.domain import (
    Format,
    GameResult,
    PlayerData,
    RoundKind,
    RoundRecord,
    TournamentData,
)

LETTER = {
    "W": GameResult.WIN,
    "D": GameResult.DRAW,
    "L": GameResult.LOSS,
    "+": GameResult.FORFEIT_WIN,
    "-": GameResult.FORFEIT_LOSS,
    "=": GameResult.DOUBLE_FORFEIT,
}
MIRROR = {"W": "L", "L": "W", "D": "D", "+": "-", "-": "+", "=": "="}


def _paired(games: str, opponent: int) -> RoundRecord:
    if any(ch in "WDL" for ch in games):
        kind = RoundKind.PLAYED
    elif set(games) == {"="}:
        kind = RoundKind.DOUBLE_FORFEIT
    elif set(games) <= {"+", "="}:
        kind = RoundKind.FORFEIT_WIN
    else:
        kind = RoundKind.FORFEIT_LOSS
    return RoundRecord(kind=kind, opponent=opponent, games=tuple(LETTER[c] for c in games))


def build(players, rounds, *, fmt="single-game", **kw) -> TournamentData:
    """players: list of (id, name, rating or None)."""
    recs = {pid: [] for pid, _, _ in players}
    for number, items in enumerate(rounds, start=1):
        for item in items:
            a = item[0]
            if isinstance(item[1], int):
                b, games = item[1], item[2]
                recs[a].append(_paired(games, b))
                recs[b].append(_paired("".join(MIRROR[c] for c in games), a))
            elif item[1] == "bye":
                recs[a].append(RoundRecord(kind=RoundKind.BYE))
            elif item[1] == "absent":
                pts = item[2] if len(item) > 2 else 0
                recs[a].append(RoundRecord(kind=RoundKind.ABSENT, points=pts))
            elif item[1] == "withdrawn":
                recs[a].append(RoundRecord(kind=RoundKind.WITHDRAWN))
            elif item[1] == "late":
                recs[a].append(RoundRecord(kind=RoundKind.NOT_ENTERED))
            else:
                raise ValueError(item)
        for pid, lst in recs.items():
            assert len(lst) == number, f"player {pid} has no record in round {number}"
    kw.setdefault("rounds_completed", len(rounds))
    kw.setdefault("planned_rounds", len(rounds))
    return TournamentData(
        players=tuple(
            PlayerData(id=pid, name=name, rating=rating, rounds=tuple(recs[pid])) for pid, name, rating in players
        ),
        format=Format(fmt),
        **kw,
    )
