"""One entry point for every tournament file (the staff page and the command): the type is decided once, by the
content when it says it clearly, else by the extension."""

import ast
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournaments.interchange.helpers import DATA, row_counts
from tournaments.interchange import InterchangeError, Upload, export_json, file_type_of, import_file, import_upload
from tournaments.models import Tournament, TournamentRole

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]

TRF = (
    "012 Aberto de Olinda\n"
    "042 2026/03/01\n"
    "XXR 3\n"
    "001    1      Silva, João                       2000                              1.0       "
    "   2 w 1\n"
    "001    2      Lima, Ana                         1900                              0.0       "
    "   1 b 0\n"
)


@pytest.mark.parametrize(
    "name,data,key",
    [
        ("a.json", b'{"format": "damas-swiss/1"}', "json"),
        ("a.txt", b'\xef\xbb\xbf  {"format": "damas-swiss/1"}', "json"),  # content decides (BOM and blanks first)
        ("a.trf", TRF.encode(), "trf"),
        ("a.TAB", TRF.encode(), "trf"),
        ("a.trfx", TRF.encode(), "trf"),
        ("a.txt", TRF.encode("latin-1"), "trf"),
        ("semextensao", TRF.replace("\n", "\r").encode(), "trf"),  # CR-only line ends
        ("a.json", TRF.encode(), "trf"),  # a TRF saved with the wrong extension
        ("a.trf", b"lixo sem linhas de jogador", "trf"),  # content unclear: the extension decides
    ],
)
def test_the_file_type_is_decided_by_content_then_extension(name, data, key):
    assert file_type_of(Upload(data, name)).key == key


def test_an_unknown_file_is_refused_naming_the_accepted_types():
    before = row_counts()
    with pytest.raises(InterchangeError, match=r"planilha\.xlsx: tipo de arquivo não reconhecido \(aceitos: .*TRF"):
        import_upload(Upload(b"PK\x03\x04 not a tournament", "planilha.xlsx"))
    with pytest.raises(InterchangeError, match="vazio"):
        import_upload(Upload(b"  \n", "a.trf"))
    assert row_counts() == before


def test_import_file_and_import_upload_give_the_tournament(tmp_path):
    path = tmp_path / "olinda.tab"
    path.write_bytes(TRF.encode("latin-1"))
    imported = import_file(path)
    assert imported.file_type == "trf" and imported.tournament.name == "Aberto de Olinda"
    copy = import_upload(Upload((DATA / "small5.json").read_bytes(), "copia.txt"))
    assert copy.file_type == "json" and copy.tournament.slug == "teste-5"


def test_the_staff_page_imports_any_accepted_type(client, director):
    client.force_login(director)
    r = client.post(reverse("staff:tournament_import"), {"file": SimpleUploadedFile("olinda.tab", TRF.encode())})
    assert r.status_code == 302
    t = Tournament.objects.get(name="Aberto de Olinda")
    assert TournamentRole.objects.get(tournament=t, user=director).role == "director"
    assert r["Location"] == reverse("staff:tournament", args=[t.slug])
    text = export_json(t).replace(t.slug, "copia")
    r = client.post(reverse("staff:tournament_import"), {"file": SimpleUploadedFile("copia.bak", text.encode())})
    assert r.status_code == 302 and Tournament.objects.filter(slug="copia").exists()


def test_services_do_not_import_the_interchange_package():
    """The services are below the interchange package (which calls them): no import back, not even inside a
    function."""
    writes = [*(ROOT / "tournaments").glob("*/services.py"), *(ROOT / "tournaments" / "rounds").glob("*.py")]
    assert len(writes) > 8  # the feature folders' services, and the rounds folder's writes (results, pairing jobs)
    for path in sorted(writes):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                assert "interchange" not in module, f"{path.name} imports {module}"
            elif isinstance(node, ast.Import):
                assert not any("interchange" in a.name for a in node.names), path.name
