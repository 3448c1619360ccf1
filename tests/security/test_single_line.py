"""Line breaks and control characters in names and other one-line fields are refused with a clear Portuguese
message, wherever they come in: the staff forms, the interchange JSON, a TRF, a rating list (issue 15, item 3).
That exports never fail on such text stored before, and that a name with a line break never starts a line of its
own in a TRF or a PDN, is tests/security/test_exports.py.
"""

import io
import json

import pytest
from django.urls import reverse
from openpyxl import Workbook

from tests.tournaments.interchange.helpers import load, row_counts
from tests.tournaments.test_form_errors import VALID
from tournaments.core.errors import ServiceError
from tournaments.entries.services import suspension_lift
from tournaments.interchange import InterchangeError, import_json, import_upload
from tournaments.interchange.dispatch import Upload
from tournaments.models import OpeningTable, Player, Tournament
from tournaments.registry.ratinglist import RatingListError, line_message, parse_rating_list

pytestmark = pytest.mark.django_db

FORM_MESSAGE = "Quebras de linha e caracteres de controle (invisíveis) não são permitidos neste campo."
BAD = [
    "Aberto\n012 Torneio Falso",
    "Aberto\r\nX",
    "Ana\x00",
    "Ana\x0bBia",
    "Ana\u2028Bia",
    "Ana\u202eaiB",
    "Ana\x85Bia",
]


@pytest.mark.parametrize("text", BAD)
@pytest.mark.parametrize("field", ["name", "city", "venue", "chief_arbiter"])
def test_tournament_form(client, director, field, text):
    client.force_login(director)
    data = dict(VALID, opening_table=OpeningTable.objects.get(code="IDF-64").pk, **{field: text})
    response = client.post(reverse("staff:tournament_create"), data)
    assert response.status_code == 200
    assert FORM_MESSAGE in [str(e) for e in response.context["form"].errors[field]]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("text", BAD)
def test_player_form(client, director, make_tournament, text):
    t = make_tournament()
    client.force_login(director)
    data = {"name": text, "sex": "F", "state": "PE", "club": "Clube", "cbjd_id": "", "rating": "1500"}
    response = client.post(reverse("staff:entry_add", args=[t.slug]), data, follow=True)
    assert FORM_MESSAGE in response.content.decode()
    assert not Player.objects.exists()
    data.update(name="Ana Souza", club=text)
    assert FORM_MESSAGE in client.post(reverse("staff:entry_add", args=[t.slug]), data, follow=True).content.decode()
    assert not Player.objects.exists()


def test_the_form_still_takes_a_plain_name(client, director, make_tournament):
    t = make_tournament()
    client.force_login(director)
    # no rating: a player's national data is the federation's to enter (issue 25, item 7)
    data = {"name": "Ana  Souza", "sex": "F", "state": "PE", "club": "", "cbjd_id": "", "rating": ""}
    client.post(reverse("staff:entry_add", args=[t.slug]), data)
    assert Player.objects.get().name == "Ana  Souza"


def test_suspension_lift_reason(make_tournament, make_player, director):
    from tournaments.models import Suspension

    t = make_tournament()
    suspension = Suspension.objects.create(
        tournament=t, player=make_player(), start_date=t.start_date, end_date=t.end_date, source="tribunal"
    )
    with pytest.raises(ServiceError) as exc:
        suspension_lift(suspension=suspension, user=director, reason="engano\x00")
    assert exc.value.messages == [FORM_MESSAGE]
    suspension.refresh_from_db()
    assert suspension.lifted_at is None


@pytest.mark.parametrize(
    "path,where",
    [
        (("tournament", "name"), "tournament.name"),
        (("tournament", "city"), "tournament.city"),
        (("players", 2, "name"), "players[2].name"),
        (("players", 0, "club"), "players[0].club"),
        (("categories", 1, "name"), "categories[1].name"),
    ],
)
def test_interchange_json(path, where):
    data = load("small5.json")
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = "Nome\n012 Injetado"
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_json(json.dumps(data))
    assert (
        f"{where}: quebra de linha ou caractere de controle (invisível) em “Nome 012 Injetado”: nomes e demais "
        "campos de uma linha não os admitem"
    ) in exc.value.messages, exc.value.messages
    assert row_counts() == before


@pytest.mark.parametrize("char", ["\x01", "\x1b", "\x7f", "\x9b", "\u202e"])
def test_trf_names(char):
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(trf_with_name(f"Jogador{char}1").encode("utf-8"), "t.trf"))
    assert any("quebra de linha ou caractere de controle" in m for m in exc.value.messages), exc.value.messages
    assert row_counts() == before


@pytest.mark.parametrize("char", ["\x0b", "\x0c", "\x1c", "\x85", "\u2028"])
def test_trf_names_with_a_line_separator_read_it_as_a_space(char):
    """Characters Python counts as whitespace (vertical tab, form feed, NEL, the line separator) are read as the
    space they stand for: the name cannot leave its column."""
    tournament = import_upload(Upload(trf_with_name(f"Jogador{char}1").encode("utf-8"), "t.trf")).tournament
    assert sorted(tournament.entries.values_list("player__name", flat=True)) == ["Jogador 1", "Jogador 2"]


def trf_with_name(name):
    return (
        "012 Aberto de Teste\n042 2026/11/07\nXXR 5\n"
        f"001    1      {name:<33} 2000                             1.0          2 w 1\n"
        "001    2      Jogador 2                         2000                             0.0          1 b 0\n"
    )


def rating_refusal(data, filename):
    with pytest.raises(RatingListError) as exc:
        parse_rating_list(data, filename)
    return [line_message(line, m) for line, m in exc.value.errors]


def test_rating_list_csv():
    data = 'CBJD;Nome;Rating;Sexo\n1;"Ana\n001 Injetada";1500;F\n2;Bia\u2028;1500;F\n'.encode()
    assert rating_refusal(data, "lista.csv") == [
        "linha 2: quebra de linha ou caractere de controle (invisível) na coluna “Nome”",
        "linha 3: quebra de linha ou caractere de controle (invisível) na coluna “Nome”",  # the CSV record
    ]


def test_rating_list_xlsx():
    wb = Workbook()
    wb.active.append(["CBJD", "Nome", "Rating", "Sexo", "Clube"])
    wb.active.append([1, "Ana", 1500, "F", "Clube\nX"])
    buf = io.BytesIO()
    wb.save(buf)
    assert rating_refusal(buf.getvalue(), "lista.xlsx") == [
        "linha 2: quebra de linha ou caractere de controle (invisível) na coluna “Clube”"
    ]
