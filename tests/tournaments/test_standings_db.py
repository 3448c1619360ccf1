"""Standings through the database (tournaments.standings: the snapshot read, the computation) on tournaments imported from hand-written files.

small5.json (5 players, 3 micro-match rounds, 2/1/0, a bye each round), computed by hand:

    after R1: 1:3  2:2  3:1  4:2  5:4(bye)     after R2: 1:6  2:6  3:1  4:6(bye)  5:5     final: 1:8 2:8 5:8 4:7 3:5
    progressive: 1: 3+6+8=17, 2: 2+6+8=16, 3: 1+1+5=7, 4: 2+6+7=15, 5: 4+5+8=17
    corrected (cut 1): 1: 14, 2: 14, 3: 6, 4: 13, 5: 13
    Buchholz (FIDE C.07 art. 16, 2026; a bye counts as the player's own score capped at a draw per round, 2x3=6):
      1: 5+8+8=21  2: 7+5+8=20  3: 8+8+min(5,6)=21  4: 8+min(7,6)+8=22  5: min(8,6)+8+7=21
    8-point group (1, 2, 5), three players: normal order; 1 and 5 tie on progressive (17), corrected 14 > 13.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.interchange.helpers import direct_encounter_file, import_named, load
from tournaments.interchange import import_data
from tournaments.interchange.synthetic import synthetic_tournament
from tournaments.models import Game, Round
from tournaments.standings import tournament_standings

pytestmark = pytest.mark.django_db

NORMAL = ["progressive", "progressive_corrected", "buchholz"]


def tb(p, c, b):
    return {"progressive": p, "progressive_corrected": c, "buchholz": b}


# Ana and Edu are left level by the progressive score (17) inside the tie of three on 8, and met (Ana won 3-1):
# art. 6, b) "quando o desempate for entre dois jogadores" puts their encounter before the corrected score (issue
# 26; the same order here, now for the regulation's reason).
PAIR = (
    "Dois jogadores que se enfrentaram ficaram empatados dentro de um empate maior: o confronto direto decidiu entre "
    "eles (regulamento, art. 6º, b: “quando o desempate for entre dois jogadores”)."
)
SMALL5 = [
    {"rank": "1", "id": 1, "name": "Ana Souza", "points": 8, "tiebreaks": tb(17, 14, 21), "order_reason": PAIR},
    {"rank": "2", "id": 5, "name": "Edu Gomes", "points": 8, "tiebreaks": tb(17, 13, 21), "order_reason": PAIR},
    {"rank": "3", "id": 2, "name": "Bruno Lima", "points": 8, "tiebreaks": tb(16, 14, 20), "order_reason": None},
    {"rank": "4", "id": 4, "name": "Davi Rocha", "points": 7, "tiebreaks": tb(15, 13, 22), "order_reason": None},
    {"rank": "5", "id": 3, "name": "Carla Dias", "points": 5, "tiebreaks": tb(7, 6, 21), "order_reason": None},
]


@pytest.mark.parametrize("public", [True, False])
def test_small_tournament_standings_by_hand(public):
    st = tournament_standings(import_named("small5.json"), public=public)
    assert st.as_json() == SMALL5
    assert [list(r["tiebreaks"]) for r in st.as_json()] == [NORMAL] * 5
    assert st.rounds_completed == 3
    groups = [(g.points, g.ids, g.reasons) for g in st.tie_groups]
    assert groups == [(8, (1, 5, 2), ("direct_encounter_pair",)), (7, (4,), ()), (5, (3,), ())]


def test_two_tied_players_who_met_direct_encounter_first():
    """1 and 2 end on 5 points; 2 won their micro-match 3-1 (round 2).

    progressive 1: 4+5=9, 2: 2+5=7; corrected 1: 5, 2: 5; Buchholz 1: 4+5=9, 2: 2+5=7;
    3: 4 points (0, 4: progressive 4, corrected 4, Buchholz 5+2=7); 4: 2 points (2, 2: 4, 2, 5+4=9).
    """
    st = tournament_standings(import_named(direct_encounter_file()))
    rows = st.as_json()
    assert [(r["rank"], r["id"], r["points"]) for r in rows] == [("1", 2, 5), ("2", 1, 5), ("3", 3, 4), ("4", 4, 2)]
    assert rows[0]["tiebreaks"] == {"direct_encounter": 3, "progressive": 7, "progressive_corrected": 5, "buchholz": 7}
    assert rows[1]["tiebreaks"] == {"direct_encounter": 1, "progressive": 9, "progressive_corrected": 5, "buchholz": 9}
    assert rows[0]["order_reason"].startswith("Empate entre dois jogadores que se enfrentaram")
    assert rows[1]["order_reason"] == rows[0]["order_reason"]
    assert rows[2]["tiebreaks"] == tb(4, 4, 7) and rows[3]["tiebreaks"] == tb(4, 2, 9)
    assert rows[2]["order_reason"] is None
    assert st.columns() == ("direct_encounter", "progressive", "progressive_corrected", "buchholz")


def test_public_standings_skip_drafts_and_incomplete_rounds():
    data = load("small5.json")
    data["rounds"][2]["status"] = "draft"
    t = import_data(data)
    public, staff = tournament_standings(t, public=True), tournament_standings(t, public=False)
    assert public.rounds_completed == 2 and staff.rounds_completed == 3
    assert staff.as_json() == SMALL5
    # after 2 rounds 1, 4 and 2 have 6; 4 and 2 tie on progressive (8) and corrected (6); Buchholz with the
    # cap at 2 rounds x 2: 4 = 6 (opponent 2) + min(6, 4) (bye) = 10, 2 = 6 + 1 = 7
    assert [(r["id"], r["points"]) for r in public.as_json()][:3] == [(1, 6), (4, 6), (2, 6)]
    assert public.row_json(public.rows[1])["tiebreaks"] == tb(8, 6, 10)
    Round.objects.filter(tournament=t, number=3).update(status="published")
    Game.objects.filter(board__round__tournament=t, board__round__number=3, board__number=2, number=2).update(
        result=None
    )
    assert tournament_standings(t, public=True).rounds_completed == 2
    assert tournament_standings(t, public=False).rounds_completed == 2


def test_categories_and_qualification_spots():
    t = import_named("small5.json")
    st = tournament_standings(t, rights=False)
    fem = st.category("FEM")
    assert [(c.rank, c.row.id, c.overall_rank) for c in fem.rows] == [("1", 1, "1"), ("2", 3, "5")]
    assert st.as_json(category="fem")[1]["rank"] == "2"
    q = {c.code: c.qualification for c in st.categories}
    assert (q["ABS"].entries, q["ABS"].counted, float(q["ABS"].exact_average), q["ABS"].spots) == (5, 5, 1900.0, 1)
    assert (q["FEM"].entries, float(q["FEM"].exact_average), q["FEM"].spots) == (2, 2000.0, 1)
    assert q["ABS"].qualified == ()
    awarded = tournament_standings(t, rights=True)
    assert awarded.category("ABS").qualification.qualified == (1,)
    assert awarded.category("FEM").qualification.qualified == (1,)
    # the rights are the homologation's answer, passed in: 5 players are not enough, so no spot is awarded
    from tournaments.homologation.report import homologation_check

    report = homologation_check(t)
    assert report.rights is False and report.standings.rights is False
    assert report.standings.category("ABS").qualification.qualified == ()


def test_before_round_one_everyone_shares_the_place():
    data = load("small5.json")
    data["rounds"] = []
    st = tournament_standings(import_data(data))
    assert st.rounds_completed == 0
    assert [r["rank"] for r in st.as_json()] == ["1-5"] * 5
    assert st.category("ABS").qualification.spots == 1


def test_constant_number_of_queries_whatever_the_size():
    small = import_named("small5.json")
    big = import_data(synthetic_tournament(60, 6, slug="grande"))
    counts = []
    for t in (small, big):
        for public in (True, False):
            with CaptureQueriesContext(connection) as ctx:
                tournament_standings(t, public=public)
            counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[2] and counts[1] == counts[3], counts
    assert max(counts) <= 12, counts


@pytest.mark.parametrize(
    "data", [load("small5.json"), synthetic_tournament(41, 6, seed=3, slug="cruzado")], ids=["small5", "synthetic-41x6"]
)
def test_database_path_agrees_with_the_pure_reader_of_the_same_file(data):
    """Two independent roads to the same standings: the file read by the domain, and the file imported."""
    from tournaments.domain import compute_standings
    from tournaments.domain.interchange import tournament_from_interchange

    pure = compute_standings(tournament_from_interchange(data))
    db = tournament_standings(import_data(data), public=True)
    assert [(r.rank, r.id, r.points, r.tiebreaks, r.order_reasons) for r in db.rows] == [
        (r.rank, r.id, r.points, r.tiebreaks, r.order_reasons) for r in pure.rows
    ]


def test_three_highest_rated_drawing_among_themselves_move_progressive_to_the_end():
    """CBJD exception 3: 1, 2, 3 (the three highest ratings) beat everyone else and drew among themselves."""
    data = load("small5.json")
    data["tournament"].update(slug="top3", rounds=5)
    data["players"].append(
        {
            "id": 6,
            "cbjd_id": "90006",
            "name": "Fábio Moura",
            "sex": "M",
            "birth_date": "1980-07-07",
            "state": "AL",
            "club": "",
            "rating": 1600,
            "categories": ["ABS"],
        }
    )
    win, draw = ["1-0", "0-1"], ["1/2", "1/2"]

    def rnd(n, boards):
        return {
            "number": n,
            "opening": None,
            "bye": None,
            "absent": [],
            "boards": [{"board": i, "first": a, "second": b, "games": g} for i, (a, b, g) in enumerate(boards, 1)],
        }

    data["rounds"] = [
        rnd(1, [(1, 4, win), (2, 5, win), (3, 6, win)]),
        rnd(2, [(1, 2, draw), (3, 4, win), (5, 6, draw)]),
        rnd(3, [(1, 3, draw), (2, 6, win), (4, 5, draw)]),
        rnd(4, [(2, 3, draw), (1, 5, win), (4, 6, draw)]),
        rnd(5, [(1, 6, win), (2, 4, win), (3, 5, win)]),
    ]
    st = tournament_standings(import_data(data))
    top = [r for r in st.as_json() if r["points"] == 16]
    assert sorted(r["id"] for r in top) == [1, 2, 3]
    # art. 6 c): Buchholz first (the default reading), the progressive scores last
    assert all(list(r["tiebreaks"]) == ["buchholz", "progressive_corrected", "progressive"] for r in top)
    assert top[0]["order_reason"].startswith("Os 3 maiores ratings venceram todos os demais")
    assert all(r["order_reason"] is None for r in st.as_json() if r["points"] != 16)


def test_acceleration_moves_progressive_to_the_end_for_every_group(edition_with):
    data = load("small5.json")
    data["tournament"]["acceleration"] = "classic"
    edition_with(acceleration_order="corrected")  # the reading under test, the edition's (default: Buchholz first)
    rows = tournament_standings(import_data(data)).as_json()
    assert all(list(r["tiebreaks"]) == ["progressive_corrected", "buchholz", "progressive"] for r in rows)
    assert all(r["order_reason"].startswith("Acelerador de emparceiramento utilizado") for r in rows)
    # 8-point group: corrected 1: 14, 2: 14, 5: 13; Buchholz 1: 21 > 2: 20
    assert [r["id"] for r in rows] == [1, 2, 5, 4, 3]
