"""Issue 24: every sheet of the homologation workbook agrees with the standings, point by point, on every kind of
round: played, the pairing-allocated bye, forfeits and double forfeits, announced absences of each value (the
tournament's setting, zero, draw, win), not paired, late entry, withdrawal, and the rounds an imported file kept
for one player alone ("one-sided"). Before, "Rodadas" re-derived each round and showed a one-sided round as
"ausente (não emparceirado)" with 0 points while "Classificação" counted it: 5 players off on the hand-edited TRF
below."""

from decimal import Decimal

import pytest

from tests.tournaments.interchange.test_trf_accept import hand_edited
from tournaments.domain.snapshot import OffBoard, counted_rounds, off_board
from tournaments.homologation.report import homologation_check
from tournaments.homologation.workbook import homologation_workbook
from tournaments.interchange import import_data, import_trf_with_warnings

pytestmark = pytest.mark.django_db


def every_kind():
    """A micro-match of 10 players and 4 rounds (the 4th a draft still being played): 9 enters in round 2, 10
    withdraws from round 3; round 1 has a forfeit, a double forfeit and the bye; round 2 announced absences worth
    the tournament's setting (a draw), zero and a win; round 3 two players not paired (a round not played is worth
    half a point per game: ``zero_bye``) and a round player 8's line alone gives (a forfeit win over 10)."""

    def board(n, first, second, games):
        return {"board": n, "first": first, "second": second, "games": games}

    return {
        "format": "damas-swiss/1",
        "tournament": {
            "name": "Todas as rodadas",
            "slug": "todas-as-rodadas",
            "variant": "brazilian-64",
            "format": "micro-match",
            "rounds": 5,
            "minutes_per_game": 30,
            "start_date": "2026-11-07",
            "end_date": "2026-11-08",
            "city": "Recife",
            "state": "PE",
            "scoring": {"win": 2, "draw": 1, "loss": 0, "zero_bye": 0.5},
            "bye": "win",
            "absence": "draw",
            "acceleration": "none",
            "tiebreaks": "cbjd",
            "min_participants": 4,
        },
        "categories": [{"code": "ABS", "name": "Absoluto"}],
        "players": [
            {
                "id": i,
                "name": f"Jogador {chr(64 + i)}",
                "rating": 2300 - 50 * i,
                "sex": "M",
                "birth_date": "1990-01-01",
                "categories": ["ABS"],
                **({"late_entry": 2} if i == 9 else {}),
                **({"withdrawn_from": 3} if i == 10 else {}),
            }
            for i in range(1, 11)
        ],
        "rounds": [
            {
                "number": 1,
                "boards": [
                    board(1, 1, 5, ["1-0", "1/2"]),
                    board(2, 2, 6, ["+/-", "-/+"]),
                    board(3, 3, 7, ["1/2", "0-1"]),
                    board(4, 4, 10, ["-/-", "-/-"]),
                ],
                "bye": 8,
                "absent": [],
            },
            {
                "number": 2,
                "boards": [
                    board(1, 1, 2, ["1/2", "1/2"]),
                    board(2, 3, 4, ["0-1", "1-0"]),
                    board(3, 5, 10, ["1-0", "1-0"]),
                ],
                "bye": 9,
                "absent": [6, 7, 8],
                "absent_values": {"7": "zero", "8": "win"},
            },
            {
                "number": 3,
                "boards": [
                    board(1, 1, 3, ["1-0", "1-0"]),
                    board(2, 2, 4, ["1/2", "0-1"]),
                    board(3, 5, 9, ["0-1", "1/2"]),
                ],
                "bye": None,
                "absent": [],
                "one_sided": [{"player": 8, "opponent": 10, "colour": "w", "result": "+"}],
            },
            {
                "number": 4,
                "status": "draft",
                "boards": [board(1, 1, 4, [None, None]), board(2, 3, 5, ["1-0", None])],
                "bye": None,
                "absent": [],
            },
        ],
    }


def rows(wb, sheet):
    return list(wb[sheet].iter_rows(min_row=2, values_only=True))


def rounds_points(wb):
    """(round, player number) -> the points the "Rodadas" sheet gives that player that round, from every row that
    names the player: a board (first or second), the bye, or a round on no board; and how many rows named them."""
    points, seen = {}, {}
    for row in rows(wb, "Rodadas"):
        rnd, board, first, second, p1, p2 = row[0], row[2], row[3], row[5], row[-4], row[-3]
        named = [(first, p1)] + ([(second, p2)] if board is not None else [])
        for number, value in named:
            key = (rnd, number)
            seen[key] = seen.get(key, 0) + 1
            points[key] = value
    return points, seen


def check_every_sheet(t):
    report = homologation_check(t)
    st = report.standings
    wb = homologation_workbook(t, report)
    counted = [r.number for r in st.counted]
    assert counted, "the tournament has counted rounds"
    points, seen = rounds_points(wb)
    # Rodadas: every entry named once in every round, and each counted round gives it what the standings count
    for rnd in report.snapshot.rounds:
        assert {n for (r, n), k in seen.items() if r == rnd.number and k == 1} == set(st.entries), rnd.number
    for entry in st.entries.values():
        for number, record in zip(counted, st.records[entry.pk], strict=True):
            assert Decimal(str(points[(number, entry.number)])) == record.points, (number, entry.number)
    # Classificação: the standings' rows, points and places; the sum of the player's rounds in "Rodadas"
    standing = {row[2]: row for row in rows(wb, "Classificação")}
    assert [row[2] for row in rows(wb, "Classificação")] == [r.id for r in st.rows]
    for row in st.rows:
        assert Decimal(str(standing[row.id][6])) == row.points
        assert sum(Decimal(str(points[(n, row.id)])) for n in counted) == row.points, row.id
    # Participantes: who is a participant, as the standings count them
    part = {row[0]: row[13] for row in rows(wb, "Participantes")}
    assert {n for n, v in part.items() if v == "sim"} == set(st.participation.played)
    assert {n for n, v in part.items() if v == "ainda a jogar"} == set(st.participation.to_play)
    # Desempenho: the same players in the standings' order
    assert [row[0] for row in rows(wb, "Desempenho")] == [r.id for r in st.rows]
    # Vagas: each category's spots and qualified players, and the rights of "Condições"
    spots = {row[0]: row for row in rows(wb, "Vagas") if row and row[0] and row[1] and row[5] is not None}
    for cat in st.categories:
        q = cat.qualification
        assert (spots[cat.code][2], spots[cat.code][3], spots[cat.code][5]) == (q.entries, q.counted, q.spots)
        assert spots[cat.code][6] == ("Sim" if report.rights else "Não")
    rights = next(row for row in rows(wb, "Condições") if row and row[0] == "Direito a vagas")
    assert rights[2] == ("Sim" if report.rights else "Não")
    event = dict(rows(wb, "Evento"))
    assert event["Rodadas completas"] == st.rounds_completed == len(counted)
    assert event["Participantes (art. 6)"] == len(st.participation)
    return report, wb


def test_every_kind_of_round_agrees_sheet_by_sheet():
    t = import_data(every_kind())
    report, wb = check_every_sheet(t)
    snapshot = report.snapshot
    reasons = {
        off_board(snapshot, rnd, e)[0]
        for rnd in counted_rounds(snapshot)
        for e in snapshot.entries
        if e.pk not in rnd.seated()
    }
    assert reasons == set(OffBoard)  # late, withdrawn, announced, not paired, one-sided
    notes = {(row[0], row[3]): row[-1] for row in rows(wb, "Rodadas") if row[2] is None}
    points, _seen = rounds_points(wb)
    # exact points and words of each kind of round on no board (micro-match: a round is two games)
    assert (notes[(1, 8)], points[(1, 8)]) == ("bye (emparceiramento)", 4)
    assert (notes[(1, 9)], points[(1, 9)]) == ("ainda não inscrito (entrada tardia)", 0)
    assert (notes[(2, 6)], points[(2, 6)]) == ("ausência comunicada", 2)  # the tournament's setting: a draw
    # its own value, zero: a round not played at zero, which this point system makes half a point per game
    assert (notes[(2, 7)], points[(2, 7)]) == ("ausência comunicada", 1)
    assert (notes[(2, 8)], points[(2, 8)]) == ("ausência comunicada", 4)  # its own value: a win
    assert (notes[(3, 6)], points[(3, 6)]) == ("ausente (não emparceirado)", 1)  # zero_bye 0.5 per game
    assert (notes[(3, 10)], points[(3, 10)]) == ("desistente", 0)
    # one game won by forfeit, as the player's line writes it (a TRF line holds one game)
    assert notes[(3, 8)] == "registrado só na linha deste jogador no arquivo importado: vitória por W.O."
    assert points[(3, 8)] == 2
    # the draft round 4 is listed, but counts in no standing
    assert report.standings.rounds_completed == 3 and any(row[0] == 4 for row in rows(wb, "Rodadas"))


def test_the_hand_edited_file_where_five_players_were_off():
    t, _warnings = import_trf_with_warnings(hand_edited())
    report, wb = check_every_sheet(t)
    one_sided = [row for row in rows(wb, "Rodadas") if str(row[-1]).startswith("registrado só na linha")]
    # the rounds only one player's line gives: 3 (r1), 10 (r2, a second bye), 1, 2, 3, 4, 8, 10 (r3)
    assert sorted((row[0], row[3]) for row in one_sided) == [
        (1, 3),
        (2, 10),
        (3, 1),
        (3, 2),
        (3, 3),
        (3, 4),
        (3, 8),
        (3, 10),
    ]
    assert not any(
        (row[0], row[3]) in {(r[0], r[3]) for r in one_sided} and row[-1] == "ausente (não emparceirado)"
        for row in rows(wb, "Rodadas")
    )
