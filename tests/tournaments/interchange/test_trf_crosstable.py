"""TRF-2026 for single-game tournaments, and the Swiss Perfect style cross table."""

import pytest

from tests.tournaments.interchange.helpers import import_named, load, row_counts
from tournaments.interchange import InterchangeError, crosstable_sp, export_data, export_trf, import_trf, parse_trf

pytestmark = pytest.mark.django_db


def single_game_file():
    """5 players, 3 single-game rounds: a forfeit, a double forfeit, an announced absence, byes."""
    data = load("small5.json")
    t = data["tournament"]
    t.update(slug="partida-unica", format="single-game", rounds=4, opening_table=None)
    for r in data["rounds"]:
        r["opening"] = None
    data["rounds"] = [
        {
            "number": 1,
            "boards": [
                {"board": 1, "first": 1, "second": 3, "games": ["1-0"]},
                {"board": 2, "first": 4, "second": 2, "games": ["1/2"]},
            ],
            "bye": 5,
            "absent": [],
        },
        {
            "number": 2,
            "boards": [
                {"board": 1, "first": 5, "second": 1, "games": ["0-1"]},
                {"board": 2, "first": 2, "second": 3, "games": ["+/-"]},
            ],
            "bye": 4,
            "absent": [],
        },
        {
            "number": 3,
            "boards": [
                {"board": 1, "first": 2, "second": 1, "games": ["-/+"]},
                {"board": 2, "first": 3, "second": 4, "games": ["-/-"]},
            ],
            "bye": None,
            "absent": [5],
        },
    ]
    return data


def _comparable(data):
    players = [{k: p[k] for k in ("id", "cbjd_id", "name", "sex", "birth_date", "rating")} for p in data["players"]]
    rounds = [
        (r["number"], sorted((b["first"], b["second"], tuple(b["games"])) for b in r["boards"]), r["bye"], r["absent"])
        for r in data["rounds"]
    ]
    return players, rounds


def test_trf_export_then_import_keeps_players_pairings_and_results():
    t = import_named(single_game_file())
    text = export_trf(t)
    lines = text.splitlines()
    assert "142 4" in lines and "042 2026/11/07" in lines and lines[0].startswith("012 ")
    ana = next(line for line in lines if line.startswith("001    1"))
    assert ana[9] == "w" and ana[14:47].rstrip() == "Ana Souza" and ana[48:52] == "2100"
    # the ID column is for FIDE (or another federation's) IDs: the CBJD ID goes in the product's own DSW line
    assert ana[57:68].strip() == "" and "DSW CBJD 1 90001" in lines
    assert ana[69:79] == "1990/03/01" and ana[80:84] == " 6.0"
    assert ana[91:99] == "   3 w 1" and ana[101:109] == "   5 b 1" and ana[111:119] == "   2 b +"
    carla = next(line for line in lines if line.startswith("001    5"))
    assert carla[91:99] == "0000 - U" and carla[111:119] == "0000 - Z"
    copy = import_trf(text, slug="copia")
    assert copy.format == "single-game" and copy.planned_rounds == 4
    assert _comparable(export_data(copy)) == _comparable(export_data(t))


def test_trf_export_refuses_micro_matches():
    t = import_named("small5.json")
    with pytest.raises(InterchangeError, match="partida única"):
        export_trf(t)


def _line(pid, sex, name, rating, blocks, birth="1990/01/01"):
    head = f"001 {pid:>4} {sex}    {name:<33} {rating:>4} BRA {pid:>11} {birth} {0:>4.1f}     "
    return head[:89] + "".join(f"  {b}" for b in blocks)


def test_trf_written_by_another_program_is_read():
    text = (
        "\n".join(
            [
                "012 Aberto de Olinda",
                "042 2026/03/01",
                "052 2026/03/02",
                "XXR 2",
                "162  W 1.0    D 0.5",
                _line(1, "m", "Silva, João", 2000, ["   2 w 1", "   3 b ="]),
                _line(2, "w", "Lima, Ana", 1900, ["   1 b 0", "0000 - U"]),
                _line(3, "m", "Costa, Rui", 1800, ["0000 - U", "   1 w ="]),
            ]
        )
        + "\n"
    )
    data = parse_trf(text)
    assert data["tournament"]["rounds"] == 2 and data["tournament"]["scoring"]["win"] == "1.0"
    assert [p["name"] for p in data["players"]] == ["Silva, João", "Lima, Ana", "Costa, Rui"]  # as written
    assert data["rounds"][0]["boards"] == [{"board": 1, "first": 1, "second": 2, "games": ["1-0"]}]
    assert data["rounds"][1]["boards"] == [{"board": 1, "first": 3, "second": 1, "games": ["1/2"]}]
    assert data["rounds"][0]["bye"] == 3 and data["rounds"][1]["bye"] == 2
    t = import_trf(text)
    assert t.slug == "aberto-de-olinda" and float(t.score_win) == 1.0 and float(t.score_draw) == 0.5


def test_trf_with_inconsistent_results_is_rejected_naming_the_line():
    text = (
        "\n".join(
            [
                "012 Torneio",
                "042 2026/03/01",
                _line(1, "m", "A", 2000, ["   2 w 1"]),
                _line(2, "m", "B", 1900, ["   2 b 1"]),
            ]
        )
        + "\n"
    )
    before = row_counts()
    with pytest.raises(InterchangeError, match="TRF, linha 4: jogador emparceirado consigo mesmo na rodada 1"):
        import_trf(text)
    assert row_counts() == before


def test_crosstable_in_swiss_perfect_layout():
    """As Swiss Perfect writes its text export: tab-separated columns padded to their widest value, round headers
    right-aligned to the width of No plus two spaces, CRLF, a blank line after the header, players by number; a
    micro-match round shows each game's letter from the player's side, game 1 first (issue 27.10: read back so)."""
    t = import_named("small5.json")
    assert crosstable_sp(t) == (
        "No\tName      \tFeder\tIntl Id\tLoc Id\tRtg\tLoc \tTitle\tTotal\t 1  \t 2  \t 3  \r\n"
        "\r\n"
        "1 \tAna Souza \tPE   \t       \t90001 \t   \t2100\t     \t8    \t3:WD\t5:WD\t2:DD\r\n"
        "2 \tBruno Lima\tPE   \t       \t90002 \t   \t2000\t     \t8    \t4:DD\t3:WW\t1:DD\r\n"
        "3 \tCarla Dias\tPB   \t       \t90003 \t   \t1900\t     \t5    \t1:LD\t2:LL\t 0:W\r\n"
        "4 \tDavi Rocha\tRN   \t       \t90004 \t   \t1800\t     \t7    \t2:DD\t 0:W\t5:LD\r\n"
        "5 \tEdu Gomes \tPE   \t       \t90005 \t   \t1700\t     \t8    \t 0:W\t1:LD\t4:WD\r\n"
    )


def _next_round_file():
    """4 players, round 1 played, round 2 announced: player 4 absent (the column holds only that)."""
    return (
        "\n".join(
            [
                "012 Aberto de Caruaru",
                "042 2026/05/01",
                "XXR 3",
                "XXC black1",
                _line(1, "m", "Alfa", 2000, ["   3 b 1"]),
                _line(2, "m", "Beta", 1900, ["   4 w 1"]),
                _line(3, "m", "Gama", 1800, ["   1 w 0"]),
                _line(4, "m", "Delta", 1700, ["   2 b 0", "0000 - Z"]),
            ]
        )
        + "\n"
    )


def test_trf_initial_colour_and_absences_announced_for_the_next_round(director):
    from tournaments.models import Absence
    from tournaments.rounds.services import round_pair

    data = parse_trf(_next_round_file())
    assert data["tournament"]["initial_colour"] == "black"
    assert [r["number"] for r in data["rounds"]] == [1]
    assert data["absences"] == [{"round": 2, "player": 4, "value": "zero"}]
    t = import_trf(_next_round_file(), user=director)
    assert t.initial_colour == "black" and t.rounds.count() == 1
    assert list(Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number")) == [
        (4, 2)
    ]
    second = round_pair(tournament=t, user=director)
    paired = {s.entry.pairing_number for s in second.seats.all()}
    assert 4 not in paired and paired == {1, 2, 3}  # 3 present: two play, one has the bye

    # Exported after pairing round 2: the absence is written in that round's column.
    exported = export_trf(t).splitlines()
    assert "152 B" in exported
    delta = next(line for line in exported if line.startswith("001    4"))
    assert delta[101:109] == "0000 - Z"


def test_trf_export_writes_absences_of_rounds_not_paired_yet():
    from tournaments.models import Absence

    t = import_trf(_next_round_file())
    entry = t.entries.get(pairing_number=1)
    Absence.objects.create(entry=entry, round_number=3)
    lines = export_trf(t).splitlines()
    alfa = next(line for line in lines if line.startswith("001    1"))
    delta = next(line for line in lines if line.startswith("001    4"))
    # The round to pair (2) in its column; a later round in a 240 line (a column of its own would tell the engine
    # that round 2 was played).
    assert alfa[101:].strip() == "" and "240 Z   3    1" in lines
    assert delta[101:109] == "0000 - Z"
    copy = import_trf("\n".join(lines), slug="copia")
    assert sorted(
        Absence.objects.filter(entry__tournament=copy).values_list("entry__pairing_number", "round_number")
    ) == [(1, 3), (4, 2)]
