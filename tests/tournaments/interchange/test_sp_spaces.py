"""Swiss Perfect cross tables laid out with spaces instead of tabs, names kept as written, ``0:L`` written back as
``0:L``, lines that disagree refused naming both, and a file of neither format never blamed on the wrong one
(issue 27). The files are written for these tests in the shapes Swiss Perfect's text export takes."""

import pytest

from tests.tournaments.interchange.helpers import row_counts
from tournaments.interchange import InterchangeError, Upload, crosstable_sp, import_upload
from tournaments.models import Absence, Entry

pytestmark = pytest.mark.django_db

# Laid out with spaces: left-aligned names, two-word headers (Intl Id, Loc Id), ratings right-aligned so they start
# left of their header, a round without a record written " : ", a round without a game worth nothing "0:L".
SPACED = (
    "No  Name                 Feder Intl Id   Loc Id  Rtg   Loc  Title Total    1     2     3\r\n"
    "\r\n"
    "1   Gondo, Alex          BRA     2345678 10001   2100  1950       2        3:W   2:W   0:L\r\n"
    "2   Souza, Ana           PE              10002         1800       1.5      4:W   1:L   3:D\r\n"
    "3   Lima, Bruno                                        1700       1.5      1:L   0:W   2:D\r\n"
    "4   Dias, Carla                                             MF    0        2:L    :     : \r\n"
).encode("cp1252")


def test_cross_table_laid_out_with_spaces():
    imported = import_upload(Upload(SPACED, "Aberto de Garanhuns.txt"))
    t = imported.tournament
    assert imported.file_type == "swissperfect-text" and t.name == "Aberto de Garanhuns"
    rows = Entry.objects.filter(tournament=t).order_by("pairing_number")
    assert [
        (e.pairing_number, e.player.name, e.player.federation, e.player.state, e.player.cbjd_id, e.player.foreign_id)
        for e in rows.select_related("player")
    ] == [
        (1, "Gondo, Alex", "BRA", "", "10001", "2345678"),
        (2, "Souza, Ana", "", "PE", "10002", ""),
        (3, "Lima, Bruno", "", "", None, ""),
        (4, "Dias, Carla", "", "", None, ""),
    ]
    assert [(e.fmjd_rating, e.rating, e.player.title) for e in rows] == [
        (2100, 1950, ""),
        (None, 1800, ""),
        (None, 1700, ""),
        (None, None, "MF"),
    ]
    assert Entry.objects.get(tournament=t, pairing_number=4).withdrawn_from_round == 2
    absences = Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number", "value")
    assert list(absences) == [(1, 3, "zero")]
    lines = crosstable_sp(t).split("\r\n")
    assert lines[2].split("\t")[1].strip() == "Gondo, Alex"
    assert [c.strip() for c in lines[2].split("\t")[-3:]] == ["3:W", "2:W", "0:L"]  # 0:L written back as 0:L
    again = import_upload(Upload(crosstable_sp(t).encode("cp1252"), "de-novo.txt"))
    assert crosstable_sp(again.tournament) == crosstable_sp(t)


def test_lines_that_disagree_are_refused_naming_both_lines():
    text = SPACED.replace(b"1.5      1:L   0:W", b"1.5      4:L   0:W")
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(text, "x.txt"))
    assert exc.value.messages[0] == (
        "Swiss Perfect (texto), x, linha 3, rodada 1: Gondo, Alex (nº 1) enfrenta o nº 3, mas a linha 5 (nº 3) mostra "
        "o jogador 4 nessa rodada"
    )
    assert row_counts() == before


def test_a_text_file_of_neither_format_is_not_blamed_on_one():
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload("Classificação final\r\n1. Gondo, Alex 2\r\n".encode("cp1252"), "final.txt"))
    assert exc.value.messages == [
        "arquivo final.txt: o conteúdo não é de nenhum dos formatos .txt aceitos (TRF (.trf, .trfx, .txt, .tab); "
        "tabela cruzada exportada pelo Swiss Perfect (.txt)): um TRF tem linhas 001 de jogadores, a tabela cruzada do "
        "Swiss Perfect começa pelo cabeçalho “No Name …”"
    ]
