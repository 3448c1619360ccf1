"""Issue 28, point 7: the homologation workbook says its state honestly (a file downloaded before the sending is
recorded is the one a director may e-mail), shows percentages as percentages, prints on A4 fitted to the width
with its header repeated, names the conditions and the opening table in Portuguese, and carries a title and an
author. Each is read back from the saved file with openpyxl."""

import io
import math
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook

from tests.tournaments.interchange.helpers import load, make_homologable
from tournaments.domain import performances
from tournaments.homologation.conditions import CONDITION_KEYS
from tournaments.homologation.report import homologation_check
from tournaments.homologation.services import homologation_mark_exported
from tournaments.homologation.workbook import SHEETS, homologation_xlsx
from tournaments.interchange import import_data
from tournaments.interchange.synthetic import synthetic_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def reopened(tournament):
    """The workbook as the staff page downloads it, saved and opened again."""
    return load_workbook(io.BytesIO(homologation_xlsx(Tournament.objects.get(pk=tournament.pk))))


@pytest.fixture
def stage():
    data = synthetic_tournament(30, 7, seed=7, slug="papel")
    data["tournament"].update(name="Etapa Recife & Olinda", chief_arbiter="Árbitra Marta Lima")
    for p in data["players"]:
        p["rating"] += 150
    t = import_data(data)
    make_homologable(t)
    Tournament.objects.filter(pk=t.pk).update(homologation_exported_at=None)  # not recorded as sent yet
    return Tournament.objects.get(pk=t.pk)


def test_a_file_made_before_the_sending_is_recorded_says_it_is_a_draft_then_the_date(stage):
    wb = reopened(stage)
    assert wb.sheetnames[0] == "Evento"
    first = [c.value for c in wb["Evento"][2]]
    assert first == ["Estado", "rascunho — ainda não registrado como enviado à federação"]
    made = wb["Evento"].cell(3, 2)
    assert wb["Evento"].cell(3, 1).value == "Arquivo gerado em" and made.is_date
    # every printed page's header says it too
    for ws in wb.worksheets:
        assert ws.oddHeader.center.text == (
            "Etapa Recife && Olinda — Estado: rascunho — ainda não registrado como enviado à federação"
        ), ws.title
    assert wb.properties.description == "Estado: rascunho — ainda não registrado como enviado à federação"

    homologation_mark_exported(tournament=stage, when=datetime(2026, 11, 10, 1, 30, tzinfo=ZoneInfo("UTC")))
    wb = reopened(stage)
    # 01:30 UTC is still the 9th in São Paulo: the date is the tournament's local day
    assert [c.value for c in wb["Evento"][2]] == ["Estado", "enviado em 09/11/2026"]
    assert wb["Evento"].cell(2, 2).fill.fgColor.rgb.endswith("E2EFDA")  # green once sent, yellow before
    assert all(ws.oddHeader.center.text.endswith("Estado: enviado em 09/11/2026") for ws in wb.worksheets)


def test_the_performance_percentage_is_a_fraction_shown_as_a_percentage(stage):
    wb = reopened(stage)
    ws = wb["Desempenho"]
    assert ws.cell(1, 6).value == "Percentual"
    st = homologation_check(stage).standings
    perf = performances(st.data)
    cells = [ws.cell(r, 6) for r in range(2, ws.max_row + 1)]
    assert len(cells) == len(st.rows) == 30
    for row, cell in zip(st.rows, cells):
        expected = perf[row.id].percentage
        assert cell.number_format == "0.0%"
        assert isinstance(cell.value, (int, float)) and 0 <= cell.value <= 1
        assert cell.value == pytest.approx(float(expected))
    assert any(0 < c.value < 1 for c in cells)  # real fractions, not 0-100 figures nor strings


def test_every_sheet_prints_on_a4_fitted_to_the_width_with_its_header_repeated(stage):
    wb = reopened(stage)
    assert wb.sheetnames == list(SHEETS)
    orientation = {}
    for ws in wb.worksheets:
        assert int(ws.page_setup.paperSize) == int(ws.PAPERSIZE_A4) == 9, ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage is True, ws.title
        assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 0), ws.title  # as many pages tall
        assert ws.print_title_rows == "$1:$1", ws.title
        assert ws.freeze_panes == "A2", ws.title
        assert ws.oddFooter.right.text == "Página &P de &N"
        assert all(ws.column_dimensions[c].width <= 50 for c in ws.column_dimensions), ws.title
        orientation[ws.title] = ws.page_setup.orientation
    # the two-column sheet upright, the wide tables sideways
    assert orientation["Evento"] == "portrait"
    assert orientation["Desempenho"] == "portrait"
    for title in ("Condições", "Participantes", "Rodadas", "Classificação", "Vagas"):
        assert orientation[title] == "landscape", title
    # a long text wraps inside its column: the regulation's text of a condition
    quote = max((wb["Condições"].cell(r, 5) for r in range(2, 10)), key=lambda c: len(c.value))
    assert len(quote.value) > 50 and quote.alignment.wrap_text and wb["Condições"].column_dimensions["E"].width == 50
    # a header wraps between its words
    assert wb["Desempenho"].cell(1, 4).alignment.wrap_text
    assert wb["Desempenho"].column_dimensions["D"].width < len("Partidas contra adversários com rating")


def test_a_row_whose_text_wraps_is_tall_enough_for_its_lines(stage):
    """LibreOffice (seen printing the demo's workbook) keeps a row one line tall whatever wraps in it, and the
    wrapped lines printed over the rows below: every row holding text wider than its column says its height, at
    least a line (15 points) for each line the text needs even at the widest, and its cells start at the top.
    A row of short texts keeps the default height."""
    wb = reopened(stage)
    tall = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            height = ws.row_dimensions[row[0].row].height
            wrapping = [c for c in row if isinstance(c.value, str) and c.alignment.wrap_text and c.value.strip()]
            # at most 1.3 characters of ordinary text per unit of the column's width, however narrow the letters
            needed = max(
                (len(c.value) / (1.3 * ws.column_dimensions[c.column_letter].width) for c in wrapping), default=0
            )
            if needed > 1:
                tall += 1
                assert height is not None and height >= 15 * math.ceil(needed), (ws.title, row[0].row, height)
                assert all(c.alignment.vertical == "top" for c in row), (ws.title, row[0].row)
            elif not any(isinstance(c.value, str) and len(c.value) > 20 for c in row):
                assert height is None, (ws.title, row[0].row, height)
    assert tall > 10  # the regulation's texts, the conditions' details, the headers


def test_conditions_are_named_in_portuguese_without_internal_keys(stage):
    wb = reopened(stage)
    co = wb["Condições"]
    assert [c.value for c in co[1]] == ["Condição", "Artigo", "Cumprida", "Detalhe", "Texto do regulamento"]
    names = [co.cell(r, 1).value for r in range(2, 2 + len(CONDITION_KEYS))]
    assert names == [
        "Número mínimo de participantes",
        "Rodadas e tempo de jogo",
        "Nenhum participante suspenso",
        "Rodada 1 emparceirada por rating",
        "Programa de emparceiramento",
        "Desempate pelo perfil CBJD",
        "Datas de nascimento dos participantes com menos de 21 anos",
        "Resultados enviados em até 2 dias",
    ]
    text = {str(v) for row in co.iter_rows(values_only=True) for v in row if v is not None}
    for key in (*CONDITION_KEYS, "rights", "deadline_date", "exported_at"):
        assert key not in text, key
    assert [co.cell(r, 1).value for r in range(11, 14)] == [
        "Direito a vagas",
        "Prazo para envio dos resultados",
        "Exportado em",
    ]
    # not sent: a short "Não" in the column of the verdicts, the sentence in the detail's
    sent = [c.value for c in co[13]]
    assert sent[1:3] == ["art. 11", "Não"] and sent[3].startswith("Não enviado: arquivo gerado antes de o envio")
    assert co.column_dimensions["C"].width < 15


def test_the_opening_table_is_named_and_the_document_has_a_title_and_an_author(stage):
    wb = reopened(stage)
    event = dict(wb["Evento"].iter_rows(min_row=2, values_only=True))
    assert event["Tabela de aberturas (tablita)"] == "Tabela oficial IDF (64 casas) (código IDF-64)"
    assert wb.properties.title == "Homologação — Etapa Recife & Olinda"
    assert wb.properties.creator == "Árbitra Marta Lima"
    assert wb.properties.subject == "Relatório de homologação de etapa (CBJD)"
    assert wb.properties.language == "pt-BR"


def test_free_openings_and_no_chief_arbiter_are_said():
    data = load("small5.json")
    data["tournament"].update(opening_table=None, chief_arbiter="")  # an event played with free openings
    for r in data["rounds"]:
        r["opening"] = None
    t = import_data(data)
    wb = reopened(t)
    event = dict(wb["Evento"].iter_rows(min_row=2, values_only=True))
    assert event["Tabela de aberturas (tablita)"] == "nenhuma (aberturas livres)"
    assert wb.properties.creator == "damas-swiss"
