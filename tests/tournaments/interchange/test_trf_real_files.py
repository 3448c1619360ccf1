"""TRF files shaped as other programs write them (Swiss-Manager, lichess, Vega), byes of every kind, forfeits with
and without colours, withdrawals, encodings and line ends: imported with nothing lost, paired as the engine pairs
the same file, exported and imported again into the same tournament."""

import io
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from pairing import trf
from pairing.__main__ import check_rounds
from pairing.api import pair_trf
from tests.tournaments.interchange.helpers import row_counts
from tournaments.interchange import (
    InterchangeError,
    Upload,
    export_data,
    export_trf,
    import_trf_with_warnings,
    import_upload,
)
from tournaments.models import Absence, Board, ForbiddenPair, Player, Tournament
from tournaments.models.choices import SeatSide
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


def line(pid, name, pts, blocks, *, sex="m", title="", rating=2000, fed="", ident="", birth=""):
    """A 001 line with every field in its columns (1-based: 10 sex, 11-13 title, 15-47 name, 49-52 rating,
    54-56 federation, 58-68 ID, 70-79 birth date, 81-84 points, 92... rounds)."""
    head = f"001 {pid:>4} {sex or ' '}{title:>3} {name:<33} {rating or '':>4} {fed:<3} {ident:>11} {birth:<10} {pts:>4}"
    return head.ljust(89) + "".join(f"  {b}" for b in blocks)


def swiss_manager(points6="1.0"):
    """8 players, 3 rounds played, round 4 to pair: a colourless forfeit and one with colours, a pairing-allocated
    bye, half-point (H) and zero-point (Z) absences in the same tournament, a withdrawal (- from round 3, and in the
    round to pair), an absence announced for round 4, FIDE IDs and a placeholder, titles as letters, a blank sex,
    a year-only and an empty birth date, a team line and lines no engine uses."""
    lines = [
        "012 Open Internacional de Olinda",
        "022 Olinda",
        "032 BRA",
        "042 2020/05/29",
        "052 2020/05/31",
        "062 8",
        "092 Individual: Swiss-System",
        "102 Árbitro Conceição (FA)",
        "112 Vice Árbitro Um",
        "122 90 min + 30 sec",
        "132" + " " * 88 + "20/05/29  20/05/30  20/05/30",
        "XXR 5",
        "XXC white1",
        "XXS W=1 D=0.5",
        "### gerado pelo Swiss-Manager",
        line(
            1,
            "Carlsen, Magnus",
            "2.0",
            ["   5 w 1", "   2 b 0", "   6 w 1"],
            title="g",
            rating=2850,
            fed="NOR",
            ident="1503014",
            birth="1990/11/30",
        ),
        line(
            2,
            "Conceição, João",
            "2.0",
            ["   6 b =", "   1 w 1", "   4 w ="],
            title="IM",
            rating=2400,
            fed="BRA",
            ident="2100010",
            birth="1985/00/00",
        ),
        line(
            3,
            "Souza, Ana",
            "1.0",
            ["   7 - +", "   5 b 0", "   8 w 0"],
            sex="w",
            title="wf",
            rating=2100,
            fed="BRA",
            ident="00000000",
            birth="2001/02/03",
        ),
        line(4, "Lima, Bruno", "2.0", ["0000 - H", "   7 w +", "   2 b ="], rating=2050, fed="BRA", birth="    /  /  "),
        line(
            5,
            "Pereira, Carla",
            "1.0",
            ["   1 b 0", "   3 w 1", "0000 - Z", "0000 - H"],
            sex="w",
            rating=2000,
            fed="POR",
            ident="1960000",
        ),
        line(6, "Ramos, Davi", points6, ["   2 w =", "   8 w =", "   1 b 0"], sex="", rating=1900),
        line(7, "Teixeira, Edu", "0.0", ["   3 - -", "   4 b -", "0000 - -", "0000 - -"], rating=1850),
        line(8, "Uchoa, Fábio", "2.5", ["0000 - U", "   6 b =", "   3 b 1"], rating=0),
        "013 Clube de Olinda                    1    2",
        "XYZ uma linha que ninguém usa",
    ]
    return "\r\n".join(lines) + "\r\n"


def engine_pairs(text):
    p = trf.parse(text)
    res = pair_trf(p)
    return [tuple(b) for b in res.boards], res.bye


def app_pairs(t, user=None):
    rnd = round_pair(tournament=t, user=user)
    boards = {}
    bye = None
    for s in rnd.seats.select_related("entry", "board"):
        if s.side == SeatSide.BYE:
            bye = s.entry.pairing_number
        else:
            boards.setdefault(s.board.number, {})[s.side] = s.entry.pairing_number
    return [(b[SeatSide.FIRST], b[SeatSide.SECOND]) for _n, b in sorted(boards.items())], bye


def same_tournament(a, b):
    da, db = export_data(a), export_data(b)
    for d in (da, db):
        d["tournament"].pop("slug")
        # where each came from (issue 35.4: the file the import page took, or none for a text read directly)
        d["tournament"].pop("provenance", None)
    for key in da:
        assert da[key] == db[key], key
    return da == db


def round_trip(t):
    again, _w = import_trf_with_warnings(export_trf(t))
    assert same_tournament(t, again)
    return again


def test_swiss_manager_file_keeps_every_field(director):
    text = swiss_manager()
    Player.objects.create(name="Homônimo registrado", sex="M", cbjd_id="1503014")  # a CBJD ID equal to a FIDE ID
    t, warnings = import_trf_with_warnings(text.encode("latin-1"), user=director)
    assert t.name == "Open Internacional de Olinda" and t.city == "Olinda"
    assert (t.start_date, t.end_date, t.start_date_unknown) == (date(2020, 5, 29), date(2020, 5, 31), False)
    assert t.time_control == "90 min + 30 sec" and t.minutes_per_game == 90 and t.planned_rounds == 5
    assert t.chief_arbiter == "Árbitro Conceição (FA)" and t.absence_value == "zero"
    assert t.trf_header == {
        "032": "BRA",
        "092": "Individual: Swiss-System",
        "112": ["Vice Árbitro Um"],
        "132": ["20/05/29", "20/05/30", "20/05/30"],
    }
    players = {e.pairing_number: e.player for e in t.entries.select_related("player")}
    carlsen = players[1]
    assert carlsen.name == "Carlsen, Magnus" and carlsen.federation == "NOR" and carlsen.foreign_id == "1503014"
    assert carlsen.cbjd_id is None and carlsen.title == "GMI" and carlsen.title_as_written == "g"
    assert carlsen.birth_date == date(1990, 11, 30)
    assert Player.objects.filter(foreign_id="1503014").count() == 1  # not matched with the registry's 1503014
    assert players[2].name == "Conceição, João" and players[2].birth_year == 1985 and players[2].birth_date is None
    assert (players[2].title, players[2].title_as_written) == ("MI", "IM")
    assert players[3].foreign_id == "" and players[3].sex == "F" and players[3].title == "MFF"
    assert players[4].birth_date is None and players[4].birth_year is None
    assert players[6].sex == "" and players[5].federation == "POR"
    assert t.entries.get(pairing_number=8).rating is None

    absences = sorted(
        Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number", "value")
    )
    assert absences == [(4, 1, "draw"), (5, 3, "zero"), (5, 4, "draw"), (7, 4, "zero")]
    forfeit = Board.objects.get(round__tournament=t, round__number=1, seats__entry__pairing_number=3)
    assert forfeit.colourless and forfeit.games.get().result == "+/-"
    with_colours = Board.objects.get(round__tournament=t, round__number=2, seats__entry__pairing_number=7)
    assert not with_colours.colourless and with_colours.games.get().result == "+/-"
    assert with_colours.seats.get(side=SeatSide.FIRST).entry.pairing_number == 4
    assert t.rounds.get(number=1).seats.get(side=SeatSide.BYE).entry.pairing_number == 8

    assert any("linha 24: equipe (013) ignorada" in w for w in warnings), warnings
    assert any("linha 25: código “XYZ” desconhecido" in w for w in warnings), warnings
    assert any("XXS" in w for w in warnings), warnings

    again = round_trip(t)
    assert engine_pairs(text) == app_pairs(t, director) == app_pairs(again, director)


def test_declared_points_that_disagree_are_named_not_changed(director):
    text = swiss_manager(points6="1.5")
    t, warnings = import_trf_with_warnings(text)
    assert "linha 21: o jogador 6 declara 1.5 pontos, mas os resultados somam 1.0; vale a soma dos resultados" in (
        warnings
    )
    from tournaments.standings import tournament_standings

    st = tournament_standings(t, public=False, rights=False)
    assert {row.id: row.points for row in st.rows}[6] == 1


def test_withdrawn_player_is_not_paired_again(director):
    t, _w = import_trf_with_warnings(swiss_manager())
    boards, bye = app_pairs(t, director)
    paired = {x for b in boards for x in b} | ({bye} - {None})
    assert 7 not in paired and 5 not in paired and paired == {1, 2, 3, 4, 6, 8}


@pytest.mark.parametrize(
    "encoding,ending,bom",
    [("latin-1", "\r\n", b""), ("utf-8", "\r", b"\xef\xbb\xbf"), ("utf-8", "\n", b""), ("cp1252", "\r", b"")],
)
def test_encodings_and_line_ends(encoding, ending, bom):
    text = swiss_manager().replace("\r\n", ending)
    t, _w = import_trf_with_warnings(bom + text.encode(encoding))
    assert t.entries.get(pairing_number=2).player.name == "Conceição, João"
    assert t.chief_arbiter == "Árbitro Conceição (FA)"


def lichess():
    """lichess Swiss export: usernames, ``-`` for a player absent (colour blank, or nothing but the result),
    ``H`` for a late join, ``U`` byes, the round to pair marked for the absent player."""
    lines = [
        "012 Lichess Swiss Arena",
        "022 https://lichess.org/swiss/abcdEFGH",
        "032 lichess",
        "042 May 29, 2020",
        "052 May 29, 2020",
        "062 6",
        "092 Swiss",
        "102 lichess.org",
        "XXR 7",
        "XXC white1",
        line(1, "magnuscarlsen", "2.0", ["   4 w 1", "   2 b 1"], rating=2900),
        line(2, "hikaru", "1.0", ["   5 b 1", "   1 w 0"], rating=2890),
        line(3, "alireza2003", "1.0", ["0000   -", "0000 - U", "0000   -"], rating=2880),
        line(4, "penguingim1", "0.0", ["   1 b 0", "   5 w 0"], rating=2700),
        line(5, "zhigalko_sergei", "1.0", ["   2 w 0", "   4 b 1"], rating=2650),
        line(6, "late_joiner", "0.5", ["0000 - H", "       -"], rating=1500),
    ]
    return "\n".join(lines) + "\n"


def test_lichess_file(director):
    text = lichess()
    t, warnings = import_trf_with_warnings(text, user=director)
    assert t.start_date == date(2020, 5, 29) and t.trf_header["032"] == "lichess"
    assert sorted(
        Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number", "value")
    ) == [(3, 3, "zero"), (6, 1, "draw")]
    assert t.rounds.get(number=2).seats.get(side=SeatSide.BYE).entry.pairing_number == 3
    round_trip(t)
    boards, bye = app_pairs(t, director)
    assert (boards, bye) == engine_pairs(text)
    assert 3 not in {x for b in boards for x in b}


def vega():
    """Vega: dates with dots (and spaces), 2-digit years in round dates, letters for titles, UTF-8 with BOM."""
    lines = [
        "012 Torneio Aberto de Caruaru",
        "022 Caruaru",
        "042 28. 07. 2005",
        "052 29.07.2005",
        "122 60'",
        "132" + " " * 88 + "28.07.05  28.07.05",
        "XXR 4",
        "XXC black1",
        line(1, "Almeida Rui", "1.5", ["   3 b 1", "   2 w ="], title="f", birth="10.09.1973"),
        line(2, "Barros Iara", "1.5", ["   4 w 1", "   1 b ="], sex="w", title="m", birth="1.2.1980"),
        line(3, "Castro Leo", "0.0", ["   1 w 0", "   4 b 0"], birth="10.09.13"),
        line(4, "Dias Noé", "1.0", ["   2 b 0", "   3 w 1"], birth=". ."),
    ]
    return "\r".join(lines) + "\r"


def test_vega_file_through_the_staff_page(client, director):
    client.force_login(director)
    data = b"\xef\xbb\xbf" + vega().encode("utf-8")
    r = client.post(reverse("staff:tournament_import"), {"file": SimpleUploadedFile("caruaru.txt", data)}, follow=True)
    assert r.status_code == 200
    t = Tournament.objects.get(name="Torneio Aberto de Caruaru")
    assert (t.start_date, t.end_date, t.initial_colour, t.minutes_per_game) == (
        date(2005, 7, 28),
        date(2005, 7, 29),
        "black",
        60,
    )
    births = {e.pairing_number: e.player.birth_date for e in t.entries.select_related("player")}
    assert births == {1: date(1973, 9, 10), 2: date(1980, 2, 1), 3: date(2013, 9, 10), 4: None}
    assert t.entries.get(pairing_number=2).player.title == "MI"
    round_trip(t)
    assert app_pairs(t, director) == engine_pairs(vega())


def test_missing_start_date_is_asked_later(client, director):
    text = vega().replace("042 28. 07. 2005\r", "")
    t, warnings = import_trf_with_warnings(text, user=director)
    assert t.start_date_unknown and t.start_date == date(2005, 7, 28)  # the first round's date stands in
    assert any("sem data de início (linha 042)" in w for w in warnings)
    client.force_login(director)
    page = client.get(reverse("staff:tournament", args=[t.slug])).content.decode()
    assert "configura" in page.lower() and reverse("staff:settings", args=[t.slug]) in page
    round_trip(t)


def test_unreadable_birth_date_is_a_warning_not_a_refusal():
    text = vega().replace("10.09.1973", "31.02.1973")
    t, warnings = import_trf_with_warnings(text)
    assert t.entries.get(pairing_number=1).player.birth_date is None
    assert any("data de nascimento “31.02.1973” do jogador 1 ilegível" in w for w in warnings), warnings


def test_command_prints_the_warnings_and_the_slug(tmp_path):
    path = tmp_path / "olinda.trfx"
    path.write_bytes(swiss_manager().encode("latin-1"))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), stdout=out, stderr=err)
    assert out.getvalue().strip() == "open-internacional-de-olinda"
    assert "aviso: linha 24: equipe (013) ignorada" in err.getvalue()


def baku(n=12):
    lines = ["012 Aberto acelerado", "042 2026/01/10", "XXR 7", "XXC white1", "192 FIDE_DUTCH_2025_BAKU"]
    lines += [line(i, f"Jogador {i:02d}", "0.0", [], rating=2400 - 10 * i) for i in range(1, n + 1)]
    return "\n".join(lines) + "\n"


def test_baku_acceleration_is_kept_and_paired_as_the_engine(director):
    text = baku()
    t, _w = import_trf_with_warnings(text, user=director)
    assert t.acceleration == "baku"
    accelerated = {e.pairing_number: e.accelerations for e in t.entries.all() if e.accelerations}
    assert sorted(accelerated) == [1, 2, 3, 4, 5, 6] and accelerated[1] == ["1.0", "1.0", "0.5", "0.5"]
    round_trip(t)
    assert app_pairs(t, director) == engine_pairs(text)


def test_manual_accelerations_and_forbidden_pairs(director):
    text = baku(8).replace("192 FIDE_DUTCH_2025_BAKU\n", "") + "XXA    8  1.0\nXXP 1 5\n260   1   7    2    6\n"
    t, _w = import_trf_with_warnings(text, user=director)
    assert t.entries.get(pairing_number=8).accelerations == ["1.0"]
    pairs = sorted(
        ForbiddenPair.objects.filter(tournament=t).values_list(
            "entry_a__pairing_number", "entry_b__pairing_number", "from_round", "to_round"
        )
    )
    assert pairs == [(1, 5, None, None), (2, 6, 1, 7)]
    round_trip(t)
    assert app_pairs(t, director) == engine_pairs(text)


def test_export_of_a_round_paired_but_not_played_reads_back_everywhere(director, tmp_path):
    t, _w = import_trf_with_warnings(swiss_manager(), user=director)
    paired = app_pairs(t, director)
    text = export_trf(t)
    # the product's importer: the same tournament, round 4 paired and waiting for its results
    again, _w = import_trf_with_warnings(text)
    assert same_tournament(t, again) and again.rounds.get(number=4).boards.count() == 3
    # the engine pairs round 4 as it was paired
    assert engine_pairs(text) == paired
    # and the command line reads it: -p the same pairing, -c re-pairs the rounds played
    path = tmp_path / "exportado.trf"
    path.write_text(text, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pairing", "--dutch", str(path), "-c"], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr
    assert isinstance(check_rounds(trf.parse(text)), list)


def test_bye_columns_of_the_round_to_pair_are_read_as_the_engine_reads_them(director):
    """``0000 - +`` (a bye written with +), ``0000 - =``, ``F``, ``U``, ``Z`` and a bare ``-`` in the round to
    pair's column: the app's next pairing is the engine's."""
    base = [
        "012 Colunas",
        "042 2026/02/01",
        "XXR 5",
        "XXC white1",
    ]
    players = [
        line(1, "A", "1.0", ["   2 w 1", "0000 - ="]),
        line(2, "B", "0.0", ["   1 b 0", "0000 - F"]),
        line(3, "C", "1.0", ["   4 w 1", "       -"]),
        line(4, "D", "0.0", ["   3 b 0", "0000 - Z"]),
        line(5, "E", "1.0", ["   6 w 1"]),
        line(6, "F", "0.0", ["   5 b 0"]),
        line(7, "G", "1.0", ["   8 w 1"]),
        line(8, "H", "0.0", ["   7 b 0"]),
    ]
    text = "\n".join(base + players) + "\n"
    t, _w = import_trf_with_warnings(text, user=director)
    assert sorted(
        Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number", "value")
    ) == [(1, 2, "draw"), (2, 2, "win"), (3, 2, "zero"), (4, 2, "zero")]
    assert app_pairs(t, director) == engine_pairs(text)

    # ``0000 - +`` in that column: the engine counts it as a bye already given, so that round is played
    plus = (
        text.replace(line(5, "E", "1.0", ["   6 w 1"]), line(5, "E", "2.0", ["   6 w 1", "0000 - +"]))
        .replace(line(1, "A", "1.0", ["   2 w 1", "0000 - ="]), line(1, "A", "1.5", ["   2 w 1", "0000 - ="]))
        .replace(line(2, "B", "0.0", ["   1 b 0", "0000 - F"]), line(2, "B", "1.0", ["   1 b 0", "0000 - F"]))
    )
    t2, _w = import_trf_with_warnings(plus, user=director)
    assert t2.rounds.count() == 2 and t2.rounds.get(number=2).seats.get(side=SeatSide.BYE).entry.pairing_number == 5
    assert app_pairs(t2, director) == engine_pairs(plus)


def test_a_refused_file_names_the_line_and_writes_nothing():
    text = swiss_manager().replace("   5 w 1", "   5 w x", 1)
    before = row_counts()
    with pytest.raises(InterchangeError, match="TRF, linha 16: resultado 'x' inválido na rodada 1"):
        import_upload(Upload(text.encode("latin-1"), "olinda.trf"))
    assert row_counts() == before


def test_the_staff_page_shows_the_warnings(client, director):
    client.force_login(director)
    upload = SimpleUploadedFile("olinda.tab", swiss_manager().encode("latin-1"))
    page = client.post(reverse("staff:tournament_import"), {"file": upload}, follow=True).content.decode()
    assert "linha 24: equipe (013) ignorada" in page and "linha 25: código “XYZ” desconhecido" in page
