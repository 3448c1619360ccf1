"""Rating lists: CSV (UTF-8, Latin-1) and XLSX; all-or-nothing with line-numbered errors."""

import io
from datetime import date

import pytest
from openpyxl import Workbook

from tournaments.core.errors import ServiceError
from tournaments.entries.services import rating_list_import
from tournaments.models import Player

pytestmark = pytest.mark.django_db

CSV = "ID CBJD;Nome;Rating;Nascimento;Sexo;UF;Clube\n1001;João Araújo;2105;01/02/1990;M;PE;Clube Recife\n1002;Ana Conceição;1988;;F;SP;\n"


def test_utf8_csv_creates_players():
    created, updated = rating_list_import(data=CSV.encode("utf-8"), filename="lista.csv", user=None)
    assert (created, updated) == (2, 0)
    joao = Player.objects.get(cbjd_id="1001")
    assert (joao.name, joao.rating, joao.birth_date, joao.state, joao.club) == (
        "João Araújo",
        2105,
        date(1990, 2, 1),
        "PE",
        "Clube Recife",
    )


def test_latin1_csv_reads_accents():
    rating_list_import(data=CSV.encode("latin-1"), filename="lista.csv", user=None)
    assert Player.objects.get(cbjd_id="1002").name == "Ana Conceição"


def test_updates_by_cbjd_id():
    rating_list_import(data=CSV.encode(), filename="a.csv", user=None)
    second = "cbjd,nome,rating\n1001,João Araújo,2150\n1003,Novo Jogador,1700\n"
    with pytest.raises(ServiceError):  # a new player without sex cannot be created
        rating_list_import(data=second.encode(), filename="b.csv", user=None)
    assert Player.objects.get(cbjd_id="1001").rating == 2105  # nothing written
    third = "cbjd,nome,rating,sexo\n1001,João Araújo,2150,\n1003,Novo Jogador,1700,M\n"
    assert rating_list_import(data=third.encode(), filename="c.csv", user=None) == (1, 1)
    assert Player.objects.get(cbjd_id="1001").rating == 2150
    assert Player.objects.get(cbjd_id="1001").birth_date == date(1990, 2, 1)  # kept


def test_bad_lines_named_and_nothing_written():
    bad = "cbjd;nome;rating;sexo\n1;Ok;1800;M\n2;Sem Rating;abc;M\n3;;1700;F\n1;Repetido;1900;M\n"
    with pytest.raises(ServiceError) as exc:
        rating_list_import(data=bad.encode(), filename="x.csv", user=None)
    msgs = exc.value.messages
    assert any(m.startswith("linha 3") and "abc" in m for m in msgs)
    assert any(m.startswith("linha 4") for m in msgs)
    assert any(m.startswith("linha 5") and "linha 2" in m for m in msgs)
    assert Player.objects.count() == 0


def test_missing_columns():
    with pytest.raises(ServiceError) as exc:
        rating_list_import(data=b"nome;clube\nA;B\n", filename="x.csv", user=None)
    assert "CBJD" in exc.value.messages[0] and "rating" in exc.value.messages[0]


def test_xlsx():
    wb = Workbook()
    ws = wb.active
    ws.append(["CBJD", "Nome", "Rating", "Nascimento", "Sexo"])
    ws.append([5001, "Maria Lins", 2001, date(2010, 5, 6), "F"])
    buf = io.BytesIO()
    wb.save(buf)
    assert rating_list_import(data=buf.getvalue(), filename="lista.xlsx", user=None) == (1, 0)
    p = Player.objects.get(cbjd_id="5001")
    assert (p.rating, p.birth_date, p.sex) == (2001, date(2010, 5, 6), "F")


def test_not_an_xlsx():
    with pytest.raises(ServiceError):
        rating_list_import(data=b"PK\x03\x04garbage", filename="lista.xlsx", user=None)
