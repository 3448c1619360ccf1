"""The season table (issue 29, art. 1), pure: approved stages in date order give their spots; a player already
qualified for a championship passes the spot on to the next placed player of the later stage."""

from tournaments.federation.season import season_table


def p(n):
    return {"id": n, "cbjd_id": f"PE{n:04d}", "name": f"Jogador {n}"}


def stage(name, spots, order, rights=True, qualified=None, code="ABS"):
    return {
        "name": name,
        "rights": rights,
        "qualification": [
            {"code": code, "name": "Absoluto", "spots": spots, "qualified": qualified or order[:spots], "order": order}
        ],
    }


def test_spot_passed_on_to_the_next_placed():
    season = season_table(
        [
            stage("Etapa Recife", 2, [p(1), p(2), p(3)]),
            # Caruaru qualified 2 and 4; 2 already qualified: his spot passes down the order past 1 (qualified
            # too) to 5
            stage("Etapa Caruaru", 2, [p(2), p(4), p(1), p(5)]),
        ]
    )
    (abs_,) = season
    assert [(q.name, q.stage, q.passed_from) for q in abs_.qualifiers] == [
        ("Jogador 1", "Etapa Recife", None),
        ("Jogador 2", "Etapa Recife", None),
        ("Jogador 5", "Etapa Caruaru", "Jogador 2"),
        ("Jogador 4", "Etapa Caruaru", None),
    ]
    assert [(s.stage, s.spots) for s in abs_.stages] == [("Etapa Recife", 2), ("Etapa Caruaru", 2)]
    assert (abs_.passed_on, abs_.unfilled) == (1, 0)


def test_a_stage_without_rights_gives_no_spot_and_a_short_order_leaves_spots_unfilled():
    season = season_table(
        [
            stage("Etapa Natal", 3, [p(1), p(2), p(3)], rights=False),
            stage("Etapa Olinda", 1, [p(2), p(3)]),
            stage("Etapa Recife", 2, [p(1), p(2)]),  # 2 already qualified, nobody after him
        ]
    )
    (abs_,) = season
    assert [(s.stage, s.spots, s.rights) for s in abs_.stages] == [
        ("Etapa Natal", 0, False),
        ("Etapa Olinda", 1, True),
        ("Etapa Recife", 2, True),
    ]
    assert [q.name for q in abs_.qualifiers] == ["Jogador 2", "Jogador 1"]
    assert abs_.unfilled == 1


def test_the_season_gives_the_stages_own_qualifiers():
    """Issue 36.1: the stage's verification decided who qualifies (here the second placed passed his spot on
    within the stage, double_spot_rule=pass): the season does not walk the order again."""
    season = season_table([stage("Etapa Recife", 2, [p(1), p(2), p(3)], qualified=[p(1), p(3)])])
    assert [q.name for q in season[0].qualifiers] == ["Jogador 1", "Jogador 3"]


def test_each_championship_on_its_own():
    women = stage("Etapa Recife", 1, [p(7)], code="FEM")
    women["qualification"][0]["name"] = "Feminino"
    season = season_table([stage("Etapa Recife", 1, [p(7)]), women])
    assert [(c.code, c.name, [q.name for q in c.qualifiers]) for c in season] == [
        ("ABS", "Absoluto", ["Jogador 7"]),
        ("FEM", "Feminino", ["Jogador 7"]),
    ]
