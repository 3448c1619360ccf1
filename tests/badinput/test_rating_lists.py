"""Broken rating lists (tests/badinput/corpus/ratings_*): a clear Portuguese message, through the service and
through the staff upload page, never a 500, and nothing written (no player, no audit entry).

The huge file (over the 10 MB limit) is generated here, not committed.

These four cases first failed on the rating-list reader (fixed in badca7c): binary garbage (csv.Error, a 500),
a NUL byte (a 500 on PostgreSQL, stored on SQLite), a stray control byte and a UTF-8 file with one Latin-1 line
(garbled names stored).
"""

import html
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.core.errors import ServiceError
from tournaments.entries.services import rating_list_import
from tournaments.models import AuditEntry, Player
from tournaments.registry.ratinglist import MAX_BYTES

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parent / "corpus"


def huge_csv():
    """A well-formed list just over the size limit: refused for its size, before any row is read."""
    header = b"ID CBJD;Nome;Rating;Sexo\n"
    row = b"40000;Jogador de Teste com um Nome Bem Comprido;1800;M\n"
    return header + row * (MAX_BYTES // len(row) + 2)


# file name -> (bytes, a fragment every message list must contain: Portuguese, and naming the line when known)
CASES = {
    "ratings_truncated.csv": ("linha 3",),
    "ratings_latin1_stray_byte.csv": ("linha 3",),
    "ratings_mixed_encoding.csv": ("linha 3",),
    "ratings_nul_byte.csv": ("linha 2",),
    "ratings_wrong_columns.csv": ("colunas ausentes", "CBJD"),
    "ratings_empty.csv": ("vazio",),
    "ratings_only_separators.csv": ("vazio",),
    "ratings_header_only.csv": ("não tem jogadores",),
    "ratings_binary_garbage.csv": (),
    "ratings_truncated.xlsx": ("XLSX válida",),
    "ratings_zip_not_workbook.xlsx": ("XLSX válida",),
    "ratings_wrong_headers.xlsx": ("colunas ausentes",),
    "ratings_text_in_rating.xlsx": ("linha 2", "rating inválido", "dois mil"),
    "huge.csv": ("grande demais", "10 MB"),
}

# English source texts that must never reach the user (the pt-BR catalogue translates them all).
ENGLISH = ("line ", "missing columns", "The file", "invalid rating", "Too many rows", "is not a valid")


def corpus_bytes(name):
    return huge_csv() if name == "huge.csv" else (CORPUS / name).read_bytes()


def assert_clear(messages, fragments):
    assert messages, "no message at all"
    text = " | ".join(messages)
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"
    for english in ENGLISH:
        assert english not in text, f"untranslated message: {text!r}"
    assert all(len(m) < 500 for m in messages), "a message is not short enough to read"
    assert "Traceback" not in text and "Error" not in text


def nothing_written():
    assert Player.objects.count() == 0
    assert not AuditEntry.objects.filter(action="ratinglist.import").exists()


@pytest.mark.parametrize("name", sorted(CASES))
def test_service_refuses_with_a_clear_message(name):
    with pytest.raises(ServiceError) as exc:
        rating_list_import(data=corpus_bytes(name), filename=name, user=None)
    assert_clear(exc.value.messages, CASES[name])
    nothing_written()


@pytest.mark.parametrize("name", sorted(CASES))
def test_upload_page_refuses_with_a_clear_message(client, federation, name):
    client.force_login(federation)
    upload = SimpleUploadedFile(name, corpus_bytes(name), content_type="application/octet-stream")
    response = client.post(reverse("staff:rating_import"), {"file": upload})
    assert response.status_code == 200  # the form again, with the messages
    # The service's messages; an empty upload is already refused by the form field ("O arquivo enviado está vazio").
    shown = [str(m) for m in response.context["messages"]] + response.context["form"].errors.get("file", [])
    assert_clear(shown, CASES[name])
    page = html.unescape(response.content.decode())
    assert all(m in page for m in shown)
    nothing_written()


def test_a_good_list_still_imports(client, federation):
    """The corpus cases fail for what is wrong in them, not because every upload fails."""
    client.force_login(federation)
    good = "ID CBJD;Nome;Rating;Sexo\n30101;João Araújo;2105;M\n".encode("latin-1")
    response = client.post(reverse("staff:rating_import"), {"file": SimpleUploadedFile("boa.csv", good)})
    assert response.status_code == 302
    assert Player.objects.get(cbjd_id="30101").name == "João Araújo"


def test_upload_without_a_file_is_a_form_error(client, federation):
    client.force_login(federation)
    response = client.post(reverse("staff:rating_import"), {})
    assert response.status_code == 200
    assert response.context["form"].errors
    nothing_written()
