"""NaN, Infinity and numbers no field can hold, in the JSON interchange file, a TRF and a rating list: a clear
Portuguese error, nothing written, never a 500 (issue 15, item 6).

Python's json reads ``NaN`` and ``Infinity`` as floats and ``1e999`` as infinity; ``Decimal(NaN) < 0`` raises,
and ``int("²")`` fails although ``"²".isdigit()``: each was a 500 before.
"""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournaments.interchange.helpers import load, row_counts
from tournaments.interchange import InterchangeError, import_json, import_upload
from tournaments.interchange.dispatch import Upload

pytestmark = pytest.mark.django_db


def with_literal(path, literal, name="small5.json"):
    """The interchange file ``name`` with the value at ``path`` written as the raw JSON ``literal``."""
    data = load(name)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = "__X__"
    return json.dumps(data, indent=1).replace('"__X__"', literal)


def refused(text):
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_json(text)
    assert row_counts() == before
    return exc.value.messages


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize(
    "path", [("tournament", "scoring", "win"), ("players", 0, "rating"), ("rounds", 0, "boards", 0, "board")]
)
def test_json_constants_are_refused_with_their_line(path, literal):
    text = with_literal(path, literal)
    line = text[: text.index(literal)].count("\n") + 1
    assert refused(text) == [
        f"arquivo: número inválido “{literal}” na linha {line}: o arquivo de intercâmbio só admite números finitos "
        "(nada de NaN ou Infinity)"
    ]


@pytest.mark.parametrize("literal", ["1e999", "-1e999", "9" * 19, "9" * 5000])
def test_json_numbers_too_large(literal):
    messages = refused(with_literal(("tournament", "scoring", "draw"), literal))
    assert len(messages) == 1 and messages[0].startswith("arquivo: número inválido “")
    assert messages[0].endswith(": número grande demais")


@pytest.mark.parametrize(
    "path,literal,message",
    [
        (("rounds", 0, "boards", 0, "board"), "2147483648", "campo obrigatório “board” ausente ou inválido"),
        (("categories", 1, "min_age"), "999999999999", "idade inválida em “min_age”: 999999999999 (de 0 a 120)"),
    ],
)
def test_json_integers_out_of_the_columns_range(path, literal, message):
    """Caught by validation, not by the database (PostgreSQL: 'out of range for type smallint', a 500)."""
    assert any(message in m for m in refused(with_literal(path, literal)))


def test_points_given_as_a_nan_in_a_dict_are_refused_too():
    """import_data is also called with a dict built in Python (the TRF importer): a float NaN gets a message."""
    from tournaments.interchange import import_data

    data = load("small5.json")
    data["tournament"]["scoring"]["win"] = float("nan")
    with pytest.raises(InterchangeError) as exc:
        import_data(data)
    assert exc.value.messages == ["torneio: valor inválido em “scoring.win”: nan"]


TRF = (
    "012 Aberto de Teste\n042 2026/11/07\nXXR 5\n"
    "001    1      Jogador 1                         2000                             1.0          2 w 1\n"
    "001    2      Jogador 2                         2000                             0.0          1 b 0\n"
)


@pytest.mark.parametrize(
    "old,new,fragment",
    [
        ("XXR 5", "XXR ²", "linha 3"),
        ("001    1", "001    ²", "linha 4"),
        ("2000   ", "２０００   ", "linha 4"),
        ("1.0   ", "nan   ", "linha 4"),
    ],
)
def test_trf_numbers_that_are_not_ascii_digits(old, new, fragment):
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(TRF.replace(old, new, 1).encode(), "t.trf"))
    assert fragment in " ".join(exc.value.messages), exc.value.messages
    assert row_counts() == before


def test_the_staff_page_shows_the_message(client, director):
    client.force_login(director)
    upload = SimpleUploadedFile("t.json", with_literal(("tournament", "scoring", "win"), "NaN").encode())
    response = client.post(reverse("staff:tournament_import"), {"file": upload})
    assert response.status_code == 200
    assert "número inválido “NaN”" in response.content.decode()
