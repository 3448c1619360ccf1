"""TournamentData from the interchange file (docs/interchange.md)."""

from tournaments.domain import GameResult as G
from tournaments.domain import RoundKind, compute_standings
from tournaments.domain.interchange import tournament_from_interchange


def sample(round2_games=("1/2", "0-1")):
    return {
        "format": "damas-swiss/1",
        "tournament": {
            "name": "t",
            "format": "micro-match",
            "rounds": 5,
            "scoring": {"win": 2, "draw": 1, "loss": 0},
            "bye": "win",
            "acceleration": "baku",
        },
        "players": [
            {"id": i, "name": f"P{i}", "rating": r} for i, r in [(1, 2100), (2, 2000), (3, None), (4, 1800), (5, 1700)]
        ],
        "rounds": [
            {
                "number": 1,
                "boards": [
                    {"board": 1, "first": 1, "second": 3, "games": ["1-0", "1/2"]},
                    {"board": 2, "first": 2, "second": 4, "games": ["+/-", "-/+"]},
                ],
                "bye": None,
                "absent": [5],
            },
            {
                "number": 2,
                "boards": [
                    {"board": 1, "first": 2, "second": 1, "games": list(round2_games)},
                    {"board": 2, "first": 5, "second": 3, "games": ["-/-", "-/-"]},
                ],
                "bye": 4,
                "absent": [],
            },
        ],
    }


def test_games_from_each_white_point_of_view():
    t = tournament_from_interchange(sample())
    assert t.rounds_completed == 2 and t.planned_rounds == 5 and t.acceleration_used
    p1 = t.players[0].rounds
    # R1: P1 White in game 1 won ("1-0"); game 2 P3 White drew -> P1: W, D = 3
    assert (p1[0].kind, p1[0].games, p1[0].points) == (RoundKind.PLAYED, (G.WIN, G.DRAW), 3)
    # R2: P2 first.  Game 1 P2 White drew; game 2 P1 White lost ("0-1") -> P1: D, L = 1
    assert p1[1].games == (G.DRAW, G.LOSS) and p1[1].points == 1
    # R1 board 2: game 1 P2 White wins by forfeit, game 2 P4 White loses by forfeit:
    # P2 gets both games by forfeit -> forfeit win 4; P4 forfeit loss 0
    p2, p4 = t.players[1].rounds, t.players[3].rounds
    assert (p2[0].kind, p2[0].points) == (RoundKind.FORFEIT_WIN, 4)
    assert (p4[0].kind, p4[0].points) == (RoundKind.FORFEIT_LOSS, 0)
    assert p4[1].kind is RoundKind.BYE
    assert t.players[4].rounds[0].kind is RoundKind.ABSENT
    assert t.players[4].rounds[1].kind is RoundKind.DOUBLE_FORFEIT
    # P1 3 + 1 = 4, P2 4 + 3 = 7, P4 0 + 4 = 4
    s = compute_standings(t)
    assert [(r.id, r.points) for r in s.rows][:1] == [(2, 7)]


def test_incomplete_round_is_not_counted():
    t = tournament_from_interchange(sample(round2_games=("1/2", None)))
    assert t.rounds_completed == 1
    assert all(len(p.rounds) == 1 for p in t.players)


def test_half_point_scoring_becomes_the_database_scores():
    # JSON reads 0.5 as a float; the domain keeps scores exact (int when whole, else Decimal), as the
    # database path does: the same file gives the same scores on both roads.
    from decimal import Decimal

    from tournaments.domain import Scoring

    data = sample()
    data["tournament"]["scoring"] = {"win": 1, "draw": 0.5, "loss": 0.0}
    t = tournament_from_interchange(data)
    assert t.scoring == Scoring(1, Decimal("0.5"), 0)
    assert [type(v) for v in (t.scoring.win, t.scoring.draw, t.scoring.loss)] == [int, Decimal, int]
    # P1: R1 W, D = 1.5; R2 D, L = 0.5.  P2: forfeit win 2 (2 x 1), then D, W = 1.5 -> 3.5, first.
    p1 = t.players[0].rounds
    assert (p1[0].points, p1[1].points) == (Decimal("1.5"), Decimal("0.5"))
    s = compute_standings(t)
    assert (s.rows[0].id, s.rows[0].points) == (2, Decimal("3.5"))
