"""Hostile rating lists cannot exhaust memory or time (issue 15, item 1).

The issue's file (6,000 rows declared ``A1:XFD6000``) took 881 MB through openpyxl; here the same file is read
in a few MB. Every refusal is a Portuguese message, never a 500, and nothing is written. The time each file takes
is measured by ``bench/hostile_uploads.py``, not here.
"""

import contextlib
import tracemalloc
import zipfile
from datetime import date, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from testkit import hostile_files as H
from tournaments.core.errors import ServiceError
from tournaments.core.xlsxread import iter_rows
from tournaments.entries.services import rating_list_import
from tournaments.models import AuditEntry, Player
from tournaments.registry.ratinglist import MAX_ROWS, RatingListError, line_message, parse_rating_list

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _portuguese():
    """The messages are asserted in Portuguese, whatever language an earlier test left active."""
    with translation.override("pt-br"):
        yield


def refusal(data, filename="lista.xlsx"):
    with pytest.raises(RatingListError) as exc:
        parse_rating_list(data, filename)
    return " / ".join(line_message(line, m) for line, m in exc.value.errors)


def peak_mb(fn, *args):
    tracemalloc.start()
    with contextlib.suppress(RatingListError):
        fn(*args)
    _size, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / (1024 * 1024)


def test_the_issue_file_is_read_in_little_memory():
    data = H.declared_dimension_bomb(6000)
    assert len(data) < 200_000
    rows = parse_rating_list(data, "lista.xlsx")
    assert len(rows) == 5999 and (rows[0].cbjd_id, rows[0].name, rows[0].rating) == ("90002", "Jogador 2", 1500)
    assert rows[-1].line == 6000
    assert peak_mb(parse_rating_list, data, "lista.xlsx") < 40  # openpyxl, padding to XFD: 881 MB


def test_a_million_rows_are_refused_at_the_row_limit_while_reading():
    data = H.million_rows()
    assert refusal(data) == f"Linhas demais (no máximo {MAX_ROWS})."
    assert peak_mb(parse_rating_list, data, "lista.xlsx") < 40


def test_a_million_full_rows_are_refused_by_their_unpacked_size_before_parsing():
    data = H.million_rows_declared_sizes()
    message = refusal(data)
    assert "grande demais" in message and "xl/worksheets/sheet1.xml" in message
    assert peak_mb(parse_rating_list, data, "lista.xlsx") < 5


def test_a_far_row_number_does_not_make_a_million_rows():
    assert "Linhas demais" in refusal(H.far_row())


def test_a_row_of_millions_of_cells():
    assert "(linha 2 tem mais de 1024 células)" in refusal(H.wide_row(200_000))


@pytest.mark.parametrize(
    "build,fragment",
    [
        (H.inflating_member, "xl/media/zeros.bin: 40 MB"),
        (H.many_members, "(> 200 arquivos dentro)"),
        (H.huge_cell, "texto com mais de 32767 caracteres"),
    ],
)
def test_limits_say_what_is_too_large(build, fragment):
    message = refusal(build())
    assert "grande demais" in message and fragment in message, message


@pytest.mark.parametrize("build", [H.lying_member, H.entity_expansion, H.bad_shared_string_index, H.rows_backwards])
def test_malformed_workbooks_are_invalid(build):
    assert refusal(build()) == "O arquivo não é uma planilha XLSX válida."


def test_lying_member_never_inflates_past_its_declared_size():
    assert peak_mb(parse_rating_list, H.lying_member(), "lista.xlsx") < 5


def test_not_finite_ratings_in_a_workbook():
    message = refusal(H.not_finite_numbers())
    assert "linha 2: rating inválido “NaN”" in message and "linha 3: rating inválido “INF”" in message


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-Infinity", "1e999"])
def test_not_finite_ratings_in_a_csv(text):
    message = refusal(f"CBJD;Nome;Rating;Sexo\n1;Ana;{text};F\n".encode(), "lista.csv")
    assert message in (f"linha 2: rating inválido “{text}”", f"linha 2: rating {text} fora do intervalo (0 a 3000)"), (
        message
    )


def test_csv_line_of_millions_of_separators():
    message = refusal(H.csv_long_line(), "lista.csv")
    assert message == "linha 3: linha com mais de 4096 caracteres: isto não é uma lista de rating"


def test_csv_of_a_million_rows():
    assert "Linhas demais" in refusal(H.csv_million_rows(), "lista.csv")


def test_the_streaming_reader_reads_what_openpyxl_wrote():
    rows = list(iter_rows(H.good_workbook(), max_columns=40))
    assert rows == [
        ["ID CBJD", "Nome", "Rating", "Nascimento", "Sexo", "UF", "Clube"],
        [7001, "João Araújo", 2105, datetime(1990, 2, 1), "M", "PE", "Clube Recife"],
        [7002, "Ana Conceição", 1988.0, None, "F", "SP"],
    ]
    assert list(iter_rows(H.good_workbook(), max_columns=2))[1] == [7001, "João Araújo"]
    parsed = parse_rating_list(H.good_workbook(), "lista.xlsx")
    assert [(r.cbjd_id, r.rating, r.birth_date) for r in parsed] == [
        ("7001", 2105, date(1990, 2, 1)),
        ("7002", 1988, None),
    ]


def test_gaps_keep_the_spreadsheet_row_numbers():
    data = H.with_sheet(H.HEADER_ROW + H.player_row(4) + b'<row r="7"><c r="A7"><v>1</v></c></row>')
    assert list(iter_rows(data, max_columns=4)) == [
        ["CBJD", "Nome", "Rating", "Sexo"],
        [],
        [],
        [90004, "Jogador 4", 1500, "M"],
        [],
        [],
        [1],
    ]
    assert refusal(data) == "linha 7: nome ausente"  # the error names the row the spreadsheet shows


def test_the_upload_page_refuses_a_bomb_with_a_message(client, federation):
    client.force_login(federation)  # importing rating lists is the federation's (issue 15.5)
    response = client.post(reverse("staff:rating_import"), {"file": SimpleUploadedFile("lista.xlsx", H.million_rows())})
    assert response.status_code == 200
    assert "Linhas demais" in response.content.decode()
    assert not Player.objects.exists() and not AuditEntry.objects.exists()


def test_the_service_is_all_or_nothing_on_a_bomb():
    with pytest.raises(ServiceError):
        rating_list_import(data=H.inflating_member(), filename="lista.xlsx", user=None)
    assert not Player.objects.exists()


# ------------------------------------------------------------------------------------------ size limits, every upload


def oversized(limit):
    return SimpleUploadedFile("grande.csv", b"x" * (limit + 1))


@pytest.mark.parametrize(
    "url,field_data,limit,message",
    [
        ("staff:rating_import", {}, 10 * 1024 * 1024, "O arquivo é grande demais (no máximo 10 MB)."),
        ("staff:opening_tables", {"variant": "international-100"}, 2 * 1024 * 1024, "no máximo 2 MB"),
        ("staff:tournament_import", {}, 20 * 1024 * 1024, "no máximo 20 MB"),
    ],
)
def test_every_upload_form_has_its_limit(client, director, url, field_data, limit, message):
    from django.contrib.auth.models import Permission

    director.user_permissions.add(
        *Permission.objects.filter(codename__in=["add_openingtable", "add_tournament", "add_ratinglist"])
    )
    client.force_login(director)
    response = client.post(reverse(url), {**field_data, "file": oversized(limit)})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Player.objects.exists() and not AuditEntry.objects.exists()


def test_no_request_body_over_the_global_limit(client, federation, settings):
    settings.MAX_REQUEST_BYTES = 1024 * 1024
    client.force_login(federation)
    body = SimpleUploadedFile("l.csv", b"x" * 1024 * 1024)
    response = client.post(reverse("staff:rating_import"), {"file": body})
    assert response.status_code == 413
    assert response.content.decode() == "A requisição é grande demais (no máximo 1 MB)."
    assert not Player.objects.exists()
    small = b"CBJD;Nome;Rating;Sexo\n1;Ana;1500;F\n"
    assert client.post(reverse("staff:rating_import"), {"file": SimpleUploadedFile("l.csv", small)}).status_code == 302


# ------------------------------------------------------------------------------------------ any zip upload


def test_a_flood_of_zip_entries_is_refused_before_zipfile_reads_the_directory():
    data = H.directory_flood()
    assert "arquivos dentro" in refusal(data)
    assert peak_mb(parse_rating_list, data, "lista.xlsx") < 2


def test_tournament_files_zipped_are_checked_the_same_way():
    from tests.tournaments.interchange.helpers import row_counts
    from tournaments.interchange import InterchangeError, import_upload
    from tournaments.interchange.dispatch import Upload

    before = row_counts()
    for data in (H.directory_flood(), H.corrupt_deflate_sp_zip()):
        with pytest.raises(InterchangeError) as exc:
            import_upload(Upload(data, "evento.zip"))
        assert exc.value.messages[0].startswith(("Swiss Perfect, evento.zip: ", "arquivo evento.zip")), exc.value
    assert row_counts() == before


# ------------------------------------------------------------------------ bombs of every compression (issue 25, item 5)

BOMB_BYTES = 32 * 1024 * 1024  # zeros behind each bomb here; bench/zip_bombs.py measures 256 MB ones


def peak_of(fn, *args, errors=(Exception,)):
    tracemalloc.start()
    try:
        fn(*args)
    except errors as exc:
        outcome = exc
    else:
        outcome = None
    _size, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return outcome, peak / (1024 * 1024)


@pytest.mark.parametrize(
    ("compression", "method"), [(zipfile.ZIP_BZIP2, "bzip2"), (zipfile.ZIP_LZMA, "LZMA")], ids=["bzip2", "lzma"]
)
def test_a_swiss_perfect_zip_bomb_of_another_compression_is_refused_unread(compression, method):
    from tests.tournaments.interchange.helpers import row_counts
    from tournaments.interchange import InterchangeError, import_upload
    from tournaments.interchange.dispatch import Upload

    data = H.sp_zip_bomb(compression, BOMB_BYTES)
    assert len(data) < 50_000
    before = row_counts()
    outcome, peak = peak_of(import_upload, Upload(data, "evento.zip"), errors=(InterchangeError,))
    assert isinstance(outcome, InterchangeError)
    assert outcome.messages == [
        f"Swiss Perfect, evento.zip: evento.sco está comprimido com {method}; salve o zip com a compressão "
        "padrão (deflate) ou sem compressão"
    ]
    assert peak < 5, f"{peak:.1f} MB"
    assert row_counts() == before


def test_a_deflated_swiss_perfect_member_lying_about_its_size_is_read_in_pieces():
    """A whole ``read()`` of a deflated member inflates all its compressed bytes at once, whatever its declared
    size: the three members are read 64 KB at a time."""
    from tournaments.interchange import InterchangeError, import_upload
    from tournaments.interchange.dispatch import Upload

    data = H.sp_zip_bomb(zipfile.ZIP_DEFLATED, BOMB_BYTES)
    outcome, peak = peak_of(import_upload, Upload(data, "evento.zip"), errors=(InterchangeError,))
    assert outcome.messages[0].startswith("Swiss Perfect, evento.zip: não foi possível descompactar (Bad CRC-32")
    assert peak < 5, f"{peak:.1f} MB"


@pytest.mark.parametrize("compression", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA], ids=["bzip2", "lzma"])
def test_a_workbook_bomb_of_another_compression_is_refused_unread(compression):
    data = H.xlsx_bomb(compression, BOMB_BYTES)
    outcome, peak = peak_of(parse_rating_list, data, "lista.xlsx", errors=(RatingListError,))
    assert isinstance(outcome, RatingListError)
    assert " / ".join(line_message(line, m) for line, m in outcome.errors) == (
        "O arquivo não é uma planilha XLSX válida: xl/worksheets/sheet1.xml usa uma compressão que o Excel não usa."
    )
    assert peak < 5, f"{peak:.1f} MB"


def test_a_nested_zip_inside_a_workbook_is_never_opened():
    data = H.nested_zip_bomb()
    outcome, peak = peak_of(parse_rating_list, data, "lista.xlsx", errors=(RatingListError,))
    assert outcome is None or "Linhas" not in str(outcome.errors)
    assert peak < 5, f"{peak:.1f} MB"


def test_the_upload_page_refuses_a_bzip2_tournament_zip(client, director):
    client.force_login(director)
    response = client.post(
        reverse("staff:tournament_import"),
        {"file": SimpleUploadedFile("evento.zip", H.sp_zip_bomb(zipfile.ZIP_BZIP2, BOMB_BYTES))},
    )
    assert response.status_code == 200
    assert "evento.sco está comprimido com bzip2" in response.content.decode()
