"""The federation's rating list as published (issue 28 item 2): title lines above the header, in XLSX and CSV; a CSV
saved by Excel on a Portuguese Windows (Windows-1252: en dashes and curly quotes); a "Situação" column read as a
national suspension ("Suspenso até 15/02/2027 (abandono)"), and any standing it cannot read reported, never
dropped. The files are written here the way the federation's spreadsheet and Excel write them."""

import io
from datetime import date

import pytest
from openpyxl import Workbook
from openpyxl.styles import Font

from tournaments.core.errors import ServiceError
from tournaments.entries.services import rating_list_import, rating_list_import_report
from tournaments.models import AuditEntry, Player, Suspension
from tournaments.models.choices import SuspensionSource
from tournaments.registry.ratinglist import parse_rating_list

pytestmark = pytest.mark.django_db

TITLE = ["Confederação Brasileira de Jogo de Damas – CBJD", "Lista de rating nacional — dezembro de 2026"]
HEADER = ["ID CBJD", "Nome", "Rating", "Nascimento", "Sexo", "UF", "Clube", "Situação"]
ROWS = [
    ["30101", "João Araújo", "2105", "01/02/1990", "M", "PE", "Clube “Dama de Ouro”", "Ativo"],
    ["30102", "Inês Peçanha", "1933", "", "F", "SP", "Associação Paulista – Capital", ""],
    ["30103", "Caio Duarte", "1870", "", "M", "RN", "", "Suspenso até 15/02/2027 (abandono)"],
    ["30104", "Rui Sales", "1711", "", "M", "PB", "", "Inativo"],
    ["30105", "Lia Matos", "1650", "", "F", "CE", "", "Suspensa"],
]


def published_xlsx():
    """As the federation's spreadsheet lays it out: two title lines (the first bold, merged across the table),
    an empty row, then the header."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Rating dez-2026"
    ws.append([TITLE[0]])
    ws["A1"].font = Font(bold=True, size=14)
    ws.merge_cells("A1:H1")
    ws.append([TITLE[1]])
    ws.append([])
    ws.append(HEADER)
    for row in ROWS:
        ws.append([int(row[0]), row[1], int(row[2]), *row[3:]])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def excel_csv():
    """What Excel's "CSV (separado por vírgulas)" writes on a Portuguese Windows: Windows-1252, ';', CRLF, the
    title lines padded with separators."""
    lines = [f"{TITLE[0]};;;;;;;", f"{TITLE[1]};;;;;;;", ";;;;;;;", ";".join(HEADER)]
    lines += [";".join(row) for row in ROWS]
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


@pytest.mark.parametrize("name,data", [("lista.xlsx", published_xlsx), ("lista.csv", excel_csv)])
def test_the_list_as_published_goes_in(name, data):
    rows = parse_rating_list(data(), name)
    assert [r.cbjd_id for r in rows] == ["30101", "30102", "30103", "30104", "30105"]
    assert rows[0].line == 5  # the file's own line: two titles, an empty row and the header above
    report = rating_list_import_report(data=data(), filename=name, user=None, list_date=date(2026, 12, 1))
    assert (report.created, report.updated) == (5, 0)
    assert Player.objects.get(cbjd_id="30101").club == "Clube “Dama de Ouro”"
    assert Player.objects.get(cbjd_id="30102").club == "Associação Paulista – Capital"
    assert report.suspended == ["Caio Duarte"]
    suspension = Suspension.objects.get()
    assert (suspension.player.cbjd_id, suspension.start_date, suspension.end_date) == (
        "30103",
        date(2026, 12, 1),
        date(2027, 2, 15),
    )
    # from the list's "Situação" column, said as such (issue 37.9: it read "Tribunal nacional")
    assert suspension.source == SuspensionSource.RATING_LIST and suspension.reason == "abandono"
    assert suspension.get_source_display() == "Lista de rating da federação (coluna Situação)"
    assert report.unread == [(8, "Inativo"), (9, "Suspensa")]  # said, not dropped
    entry = AuditEntry.objects.get(action="suspension.create")
    assert entry.new["via"] == name and entry.new["end"] == "2027-02-15"


def test_importing_the_list_again_adds_no_second_suspension():
    rating_list_import(data=excel_csv(), filename="lista.csv", user=None, list_date=date(2026, 12, 1))
    report = rating_list_import_report(data=excel_csv(), filename="lista.csv", user=None, list_date=date(2026, 12, 1))
    assert (report.created, report.updated, report.suspended) == (0, 5, [])
    assert Suspension.objects.count() == 1


def test_a_suspension_already_over_is_reported_not_stored():
    report = rating_list_import_report(data=excel_csv(), filename="lista.csv", user=None, list_date=date(2027, 3, 1))
    assert report.suspended == [] and Suspension.objects.count() == 0
    assert (7, "Suspenso até 15/02/2027 (abandono) (já encerrada na data da lista)") in report.unread


def test_a_bad_date_in_the_standing_is_a_line_error_and_nothing_is_written():
    data = excel_csv().replace(b"15/02/2027", b"31/02/2027")
    with pytest.raises(ServiceError) as refused:
        rating_list_import(data=data, filename="lista.csv", user=None)
    assert refused.value.messages == [
        "linha 7: data inválida na situação “Suspenso até 31/02/2027 (abandono)” (use dd/mm/aaaa)"
    ]
    assert Player.objects.count() == 0 and Suspension.objects.count() == 0


def test_a_list_without_a_header_row_still_names_the_missing_columns():
    data = b"Lista de rating\nJogador;Pontos\nAna;1800\n"
    with pytest.raises(ServiceError) as refused:
        rating_list_import(data=data, filename="x.csv", user=None)
    assert refused.value.messages[0].startswith("linha 1: colunas ausentes")


def test_windows_1252_punctuation_is_text_not_damage():
    data = "ID CBJD;Nome;Rating;Sexo;Clube\n1;Zé “Dama” Lima;1800;M;Clube – Recife…\n".encode("cp1252")
    rating_list_import(data=data, filename="x.csv", user=None)
    assert Player.objects.get(cbjd_id="1").name == "Zé “Dama” Lima"
    assert Player.objects.get(cbjd_id="1").club == "Clube – Recife…"
