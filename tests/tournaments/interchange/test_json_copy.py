"""An exported JSON imported into the same database under another web address (issue 27): a copy, not a refusal."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournaments.interchange.helpers import import_named, row_counts
from tournaments.interchange import ImportOptions, InterchangeError, Upload, export_data, export_json, import_upload
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_same_file_again_asks_for_another_address_and_is_copied_under_it():
    original = import_named("small5.json")
    text = export_json(original).encode()
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(text, "teste-5.json"))
    assert exc.value.messages == [
        "torneio: já existe um torneio com o endereço “teste-5”; para importar uma cópia, informe outro endereço (por "
        "exemplo “teste-5-2”: campo “Endereço na web” da página de importação, ou a opção --slug do manage.py "
        "import_tournament)"
    ]
    assert row_counts() == before
    copy = import_upload(Upload(text, "teste-5.json"), options=ImportOptions(slug="teste-5-2")).tournament
    assert copy.slug == "teste-5-2" and copy.pk != original.pk
    a, b = export_data(original), export_data(copy)
    assert a["tournament"].pop("slug") == "teste-5" and b["tournament"].pop("slug") == "teste-5-2"
    # the copy says where it came from (issue 35.4): the file the import took
    assert b["tournament"].pop("provenance")["file"] == "teste-5.json" and "provenance" not in a["tournament"]
    assert a == b
    with pytest.raises(InterchangeError, match="já existe um torneio com o endereço “teste-5-2”; .*“teste-5-2-2”"):
        import_upload(Upload(text, "teste-5.json"), options=ImportOptions(slug="teste-5-2"))


def test_upload_page_takes_another_address(client, director):
    original = import_named("small5.json")
    client.force_login(director)
    text = export_json(original).encode()
    page = client.post(reverse("staff:tournament_import"), {"file": SimpleUploadedFile("t.json", text)})
    assert page.status_code == 200 and "teste-5-2" in page.content.decode()
    r = client.post(
        reverse("staff:tournament_import"), {"file": SimpleUploadedFile("t.json", text), "slug": "copia-do-teste"}
    )
    assert r.status_code == 302 and r.url == reverse("staff:tournament", kwargs={"slug": "copia-do-teste"})
    assert Tournament.objects.get(slug="copia-do-teste").entries.count() == original.entries.count()
    bad = client.post(reverse("staff:tournament_import"), {"file": SimpleUploadedFile("t.json", text), "slug": "a b"})
    assert bad.status_code == 200 and Tournament.objects.count() == 2
