"""The staff pages' downloads as a director in Brazil opens them (issue 28, item 11): CSV for Excel pt-BR (a BOM,
``;`` between cells, dates dd/mm/aaaa, a decimal comma in a fractional number), XLSX with a named sheet, numbers
and dates typed, unique headers; and no empty PDN file: the page says "nenhuma partida registrada"."""

import csv
import io
from datetime import date, datetime
from decimal import Decimal

import openpyxl
import pytest
from django.urls import reverse

from tests.tournaments.interchange.helpers import import_named
from tournaments.core.exports import csv_cell, sheet_title, unique_headers
from tournaments.games.services import game_attach_pdn
from tournaments.models import Game, TournamentRole
from tournaments.models.choices import StaffRole

pytestmark = pytest.mark.django_db


def players():
    return [
        {"id": 1, "cbjd_id": "81001", "name": "João Conceição", "sex": "M", "birth_date": "1990-03-01",
         "state": "PE", "club": "Clube X", "rating": 2100, "categories": ["ABS"]},
        {"id": 2, "cbjd_id": "81002", "name": "Ana Souza", "sex": "F", "birth_date": "2009-11-25",
         "state": "PE", "club": "", "rating": 2000, "categories": ["ABS", "FEM"]},
        {"id": 3, "cbjd_id": "81003", "name": "Bruno Lima", "sex": "M", "birth_date": None,
         "state": "PB", "club": "", "rating": None, "categories": ["ABS"]},
        {"id": 4, "cbjd_id": "81004", "name": "Carla Dias", "sex": "F", "birth_date": "1975-01-15",
         "state": "RN", "club": "Clube Y", "rating": 1800, "categories": ["ABS", "FEM"]},
    ]  # fmt: skip


@pytest.fixture
def event(director):
    """A single-game event counted 1 / ½ / 0 (fractional points), two rounds, no game record."""
    t = import_named(
        {
            "format": "damas-swiss/1",
            "tournament": {
                "name": "Aberto de Olinda",
                "slug": "olinda-baixar",
                "variant": "brazilian-64",
                "format": "single-game",
                "rounds": 3,
                "minutes_per_game": 21,
                "start_date": "2026-11-07",
                "end_date": "2026-11-08",
                "scoring": {"win": 1, "draw": "0.5", "loss": 0},
                "bye": "win",
                "acceleration": "none",
                "tiebreaks": "cbjd",
                "min_participants": 30,
            },
            "categories": [{"code": "ABS", "name": "Absoluto"}, {"code": "FEM", "name": "Feminino", "sex": "F"}],
            "players": players(),
            "rounds": [
                {
                    "number": 1,
                    "boards": [
                        {"board": 1, "first": 1, "second": 3, "games": ["1/2"]},
                        {"board": 2, "first": 4, "second": 2, "games": ["0-1"]},
                    ],
                },
                {
                    "number": 2,
                    "boards": [
                        {"board": 1, "first": 2, "second": 1, "games": ["1/2"]},
                        {"board": 2, "first": 3, "second": 4, "games": ["1-0"]},
                    ],
                },
            ],
        }
    )
    TournamentRole.objects.create(tournament=t, user=director, role=StaffRole.DIRECTOR)
    return t


def csv_rows(response):
    body = response.content
    assert body.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads UTF-8
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert b"\r\n" in body
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline=""), delimiter=";"))


def workbook(response):
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    return openpyxl.load_workbook(io.BytesIO(response.content))


def get(client, director, name, *args, query=""):
    client.force_login(director)
    return client.get(reverse(name, args=args) + query)


def test_entries_csv_for_excel_pt_br(client, director, event):
    r = get(client, director, "staff:entries", event.slug, query="?_export=csv")
    assert r["Content-Disposition"] == 'attachment; filename="olinda-baixar-inscritos.csv"'
    rows = csv_rows(r)
    assert rows[0] == [
        "Nº",
        "nome",
        "CBJD",
        "rating",
        "sexo",
        "data de nascimento",
        "estado (UF)",
        "clube",
        "categorias",
        "situação",
    ]
    assert rows[1] == [
        "1",
        "João Conceição",
        "81001",
        "2100",
        "Masculino",
        "01/03/1990",
        "PE",
        "Clube X",
        "ABS",
        "ativa",
    ]
    assert rows[3][:6] == ["3", "Bruno Lima", "81003", "", "Masculino", ""]  # unrated, no birth date: empty, not "—"
    assert len(rows) == 5


def test_entries_xlsx_has_a_named_sheet_numbers_and_dates(client, director, event):
    wb = workbook(get(client, director, "staff:entries", event.slug, query="?_export=xlsx"))
    assert wb.sheetnames == ["Inscrições"]
    ws = wb["Inscrições"]
    header = [c.value for c in ws[1]]
    assert len(set(header)) == len(header) and header[0] == "Nº"
    number, name, cbjd, rating, _sex, born = ws[2][:6]
    assert (number.value, number.data_type) == (1, "n")
    assert (rating.value, rating.data_type) == (2100, "n")
    assert (name.value, name.data_type) == ("João Conceição", "s")
    assert (cbjd.value, cbjd.data_type) == ("81001", "s")  # an ID, kept as written
    assert born.is_date and born.value == datetime(1990, 3, 1) and born.number_format == "DD/MM/YYYY"
    assert ws.cell(row=4, column=4).value is None  # unrated


def test_round_csv_has_unique_headers_and_a_decimal_comma(client, director, event):
    r = get(client, director, "staff:round", event.slug, 2, query="?_export=csv")
    assert r["Content-Disposition"] == 'attachment; filename="olinda-baixar-rodada-2.csv"'
    rows = csv_rows(r)
    assert rows[0] == [
        "mesa",
        "Nº (brancas, partida 1)",
        "Brancas (partida 1)",
        "rating (brancas, partida 1)",
        "pts antes (brancas, partida 1)",
        "pts (brancas, partida 1)",
        "resultado",
        "pts (pretas, partida 1)",
        "pts antes (pretas, partida 1)",
        "rating (pretas, partida 1)",
        "Pretas (partida 1)",
        "Nº (pretas, partida 1)",
        "partidas",
        "tablita",
    ]
    # Ana (1 point) - João (½) drew: points before 1 and 0,5, then 0,5 each
    assert rows[1] == [
        "1",
        "2",
        "Ana Souza",
        "2000",
        "1",
        "0,5",
        "0,5 - 0,5",
        "0,5",
        "0,5",
        "2100",
        "João Conceição",
        "1",
        "½-½",
        "",
    ]
    assert rows[2][:6] == ["2", "3", "Bruno Lima", "", "0,5", "1"]  # unrated: an empty cell


def test_round_xlsx_sheet_is_named_for_the_round_and_numbers_are_numbers(client, director, event):
    wb = workbook(get(client, director, "staff:round", event.slug, 2, query="?_export=xlsx"))
    assert wb.sheetnames == ["Rodada 2"]
    ws = wb["Rodada 2"]
    header = [c.value for c in ws[1]]
    assert len(set(header)) == len(header) == 14
    row = dict(zip(header, ws[2]))
    for key, value in [
        ("mesa", 1),
        ("Nº (brancas, partida 1)", 2),
        ("rating (brancas, partida 1)", 2000),
        ("pts antes (brancas, partida 1)", 1),
        ("pts (brancas, partida 1)", 0.5),
        ("pts antes (pretas, partida 1)", 0.5),
        ("Nº (pretas, partida 1)", 1),
    ]:
        assert (row[key].value, row[key].data_type) == (value, "n"), key
    assert (row["Brancas (partida 1)"].value, row["Brancas (partida 1)"].data_type) == ("Ana Souza", "s")
    assert row["resultado"].data_type == "s"


def test_staff_standings_download_overall_and_by_category(client, director, event):
    rows = csv_rows(get(client, director, "staff:standings", event.slug, query="?_export=csv"))
    assert rows[0][:4] == ["#", "Nº", "Nome", "Pontos"] and len(set(rows[0])) == len(rows[0])
    points = {row[2]: row[3] for row in rows[1:]}
    assert points == {"Ana Souza": "1,5", "João Conceição": "1", "Bruno Lima": "1,5", "Carla Dias": "0"}
    wb = workbook(get(client, director, "staff:standings", event.slug, query="?categoria=FEM&_export=xlsx"))
    assert wb.sheetnames == ["Feminino"]
    ws = wb["Feminino"]
    assert [c.value for c in ws[2]][:4] == [1, 2, "Ana Souza", 1.5]
    assert ws.cell(row=2, column=4).data_type == "n" and ws.max_row == 3
    page = get(client, director, "staff:standings", event.slug).content.decode()
    assert 'href="?_export=csv">CSV</a>' in page and 'href="?_export=xlsx">XLSX</a>' in page


def test_no_pdn_download_without_a_game_recorded(client, director, event):
    # the whole tournament: back to the page the link was on, with the message
    client.force_login(director)
    where = reverse("staff:homologation", args=[event.slug])
    r = client.get(reverse("staff:pdn_export", args=[event.slug]), HTTP_REFERER="http://testserver" + where)
    assert r.status_code == 302 and r["Location"] == where
    page = client.get(where).content.decode()
    assert "Nenhuma partida registrada neste torneio: não há arquivo PDN para baixar." in page
    # one round: back to the round's page
    r = client.get(reverse("staff:pdn_export", args=[event.slug]) + "?rodada=2", follow=True)
    assert r.redirect_chain == [(reverse("staff:round", args=[event.slug, 2]), 302)]
    assert "Nenhuma partida registrada na rodada 2: não há arquivo PDN para baixar." in r.content.decode()
    assert 'id="pdn-round"' in r.content.decode()
    # a referer from elsewhere is not followed
    r = client.get(reverse("staff:pdn_export", args=[event.slug]), HTTP_REFERER="http://evil.example/x")
    assert r["Location"] == reverse("staff:tournament", args=[event.slug])


def test_a_round_with_a_game_recorded_downloads_it_and_another_round_says_none(client, director, event):
    game = Game.objects.get(board__round__tournament=event, board__round__number=1, board__number=1)
    game_attach_pdn(game=game, pdn="1. 22-18 11-15 2. 18x11 8x15", user=director)
    client.force_login(director)
    r = client.get(reverse("staff:pdn_export", args=[event.slug]) + "?rodada=1")
    assert r.status_code == 200
    assert r["Content-Disposition"] == 'attachment; filename="olinda-baixar-rodada-1.pdn"'
    assert b"1. c3-d4 f6-e5 2. d4xf6 g7xe5" in r.content
    assert client.get(reverse("staff:pdn_export", args=[event.slug])).content == r.content
    r = client.get(reverse("staff:pdn_export", args=[event.slug]) + "?rodada=2")
    assert r.status_code == 302


def test_cells_and_headers():
    assert [csv_cell(v) for v in (None, 3, Decimal("2.50"), Decimal("4.0"), 0.25, date(2026, 1, 5))] == [
        "",
        "3",
        "2,5",
        "4",
        "0,25",
        "05/01/2026",
    ]
    assert csv_cell("=1+1") == "'=1+1"  # never a formula
    assert unique_headers(["pts", "nome", "pts", "pts"]) == ["pts", "nome", "pts (2)", "pts (3)"]
    assert sheet_title("Sub-18 [A/B]: fase*1?") == "Sub-18  A B   fase 1"
    assert sheet_title("x" * 40) == "x" * 31
