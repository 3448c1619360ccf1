"""Issue 12: the staff round and results pages show the rounds an imported file recorded for one player alone
(``models.OneSidedRound``): who, what the line says, the points, and why it is on no board. Read only: the results
form has the round's boards and nothing else, and saves all or nothing as before. Rounds without such rounds show
no such section."""

import html as htmllib
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tests.tournaments.interchange.test_trf_accept import hand_edited
from tournaments.interchange import import_trf_with_warnings
from tournaments.models import Game
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db

NOTE = (
    "O arquivo importado registrou estas rodadas só na linha do próprio jogador: a linha do adversário diz outra "
    "coisa (ou nada), ou a rodada já tinha o seu BYE. Cada uma conta para esse jogador como foi escrita; não está "
    "em nenhuma mesa e não tem resultado a lançar."
)


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


@pytest.fixture
def imported(director, client):
    """``hand_edited``: round 1, 3's forfeit win that 8's line does not show; round 2, a second bye (10); round 3,
    contradicting results (1 and 3 both won, 2 and 4 both claim the forfeit, 8 lost to 10 who says it was a draw)
    beside two boards (5-7 and the double forfeit 9-6). Single games, win 1, draw ½."""
    t, _warnings = import_trf_with_warnings(hand_edited(), user=director)
    client.force_login(director)
    return t


def text(fragment):
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def section(page, ident="one-sided"):
    match = re.search(rf'<section class="card" id="{ident}">(.*?)</section>', page, re.S)
    return match.group(1) if match else None


def rows(fragment):
    cells = r"<t[dh]>(.*?)</t[dh]>"
    return [[text(c) for c in re.findall(cells, r, re.S)] for r in re.findall(r"<tr>(.*?)</tr>", fragment)]


def get(client, name, t, number):
    response = client.get(reverse(name, args=[t.slug, number]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_round_page_lists_each_round_kept_for_one_player(client, imported):
    t = imported
    page = get(client, "staff:round", t, 1)
    assert rows(section(page)) == [
        ["Nº", "Jogador", "Adversário", "Registrado", "pts antes", "pts na rodada"],
        ["3", "Cunha, Caio", "8. Hora, Hugo", "vitória por W.O. (só na linha deste jogador)", "0", "1"],
    ]
    assert text(section(page)).startswith("Rodadas registradas para um só jogador " + NOTE)
    # 8's own line says absent (Z): that stays in "not paired"; 3 is no longer there
    assert rows(section(page, "not-paired")) == [
        ["Nº", "Jogador", "Motivo", "pts antes", "pts na rodada"],
        ["8", "Hora, Hugo", "ausente", "0", "0"],
    ]
    page = get(client, "staff:round", t, 2)
    assert rows(section(page))[1:] == [
        ["10", "Jardim, Jó", "—", "BYE (só na linha deste jogador)", "0", "1"],
    ]
    assert rows(section(page, "not-paired"))[1:] == [["9", "Ilha, Íris", "BYE", "0", "1"]]
    page = get(client, "staff:round", t, 3)
    assert rows(section(page))[1:] == [
        ["1", "Abreu, Ana", "3. Cunha, Caio", "jogada, 1-0 (só na linha deste jogador)", "1", "1"],
        ["2", "Barros, Bia", "4. Dias, Davi", "vitória por W.O. (só na linha deste jogador)", "1,5", "1"],
        ["3", "Cunha, Caio", "1. Abreu, Ana", "jogada, 1-0 (só na linha deste jogador)", "1,5", "1"],
        ["4", "Dias, Davi", "2. Barros, Bia", "vitória por W.O. (só na linha deste jogador)", "1,5", "1"],
        ["8", "Hora, Hugo", "10. Jardim, Jó", "jogada, 0-1 (só na linha deste jogador)", "0", "0"],
        ["10", "Jardim, Jó", "8. Hora, Hugo", "jogada, ½-½ (só na linha deste jogador)", "1", "0,5"],
    ]
    assert "Todos estão emparceirados." in section(page, "not-paired")
    # the round has its two boards only
    assert re.findall(r"<li>Mesa (\d+):", page) == ["1", "2"]


def test_the_results_page_shows_them_read_only_beside_the_boards(client, imported):
    t = imported
    page = get(client, "staff:results", t, 3)
    assert rows(section(page))[0] == ["Nº", "Jogador", "Adversário", "Registrado", "pts na rodada"]
    assert rows(section(page))[1:] == [
        ["1", "Abreu, Ana", "3. Cunha, Caio", "jogada, 1-0 (só na linha deste jogador)", "1"],
        ["2", "Barros, Bia", "4. Dias, Davi", "vitória por W.O. (só na linha deste jogador)", "1"],
        ["3", "Cunha, Caio", "1. Abreu, Ana", "jogada, 1-0 (só na linha deste jogador)", "1"],
        ["4", "Dias, Davi", "2. Barros, Bia", "vitória por W.O. (só na linha deste jogador)", "1"],
        ["8", "Hora, Hugo", "10. Jardim, Jó", "jogada, 0-1 (só na linha deste jogador)", "0"],
        ["10", "Jardim, Jó", "8. Hora, Hugo", "jogada, ½-½ (só na linha deste jogador)", "0,5"],
    ]
    assert NOTE in text(section(page))
    # outside the form, no field of its own, no empty board: the form has the round's two boards
    form = re.search(r'<form method="post" id="results-form">(.*?)</form>', page, re.S).group(1)
    assert 'id="one-sided"' not in form
    assert re.findall(r'<tr data-board="(\d+)"', form) == ["1", "2"]
    assert len(re.findall(r'name="b\d+_v"', form)) == 2 and len(re.findall(r'name="b\d+_g1"', form)) == 2
    assert rows(section(get(client, "staff:results", t, 1)))[1:] == [
        ["3", "Cunha, Caio", "8. Hora, Hugo", "vitória por W.O. (só na linha deste jogador)", "1"]
    ]
    assert rows(section(get(client, "staff:results", t, 2)))[1:] == [
        ["10", "Jardim, Jó", "—", "BYE (só na linha deste jogador)", "1"]
    ]


def test_the_results_form_saves_all_or_nothing_as_before(client, imported):
    t = imported
    rnd = t.rounds.get(number=3)
    boards = {b.number: b for b in rnd.boards.all()}
    stored = sorted(Game.objects.filter(board__round=rnd).values_list("board__number", "result"))
    data = {}
    for number, board in boards.items():
        data[f"b{board.pk}_v"] = board.version
        data[f"b{board.pk}_g1"] = {1: "0-1", 2: "x"}[number]  # board 1 changed, board 2 as stored
    data[f"b{boards[2].pk}_g1"] = "9-9"  # an error: nothing is saved
    response = client.post(reverse("staff:results", args=[t.slug, 3]), data)
    assert response.status_code == 409
    assert sorted(Game.objects.filter(board__round=rnd).values_list("board__number", "result")) == stored
    page = response.content.decode()
    assert "Nada foi salvo" in page and len(rows(section(page))) == 7
    data[f"b{boards[2].pk}_g1"] = "x"
    data.update(reason="erro de digitação", confirm_correction="1")
    response = client.post(reverse("staff:results", args=[t.slug, 3]), data)
    assert response.status_code == 302
    assert sorted(Game.objects.filter(board__round=rnd).values_list("board__number", "result")) == [
        (1, "0-1"),
        (2, "-/-"),
    ]
    assert stored == [(1, "1-0"), (2, "-/-")]
    # the rounds kept for one player alone are untouched and still shown
    assert rows(section(get(client, "staff:results", t, 3)))[1][3] == "jogada, 1-0 (só na linha deste jogador)"


def test_a_round_without_them_shows_no_such_section(client, imported, director):
    t = imported
    round_pair(tournament=t, user=director)  # round 4: 8 withdrew (announced absence), everyone else paired
    for name in ("staff:round", "staff:results"):
        page = get(client, name, t, 4)
        assert 'id="one-sided"' not in page and "só na linha" not in page
    assert rows(section(get(client, "staff:round", t, 4), "not-paired"))[1:] == [
        ["6", "Faria, Fia", "BYE", "1", "1"],
        ["8", "Hora, Hugo", "ausente", "0", "0"],
    ]


def test_the_query_count_does_not_grow_with_them(client, imported):
    """Round 1 has one, round 3 six (and their opponents): the same number of queries."""
    t = imported
    for name in ("staff:round", "staff:results"):
        counts = []
        for number in (1, 3):
            with CaptureQueriesContext(connection) as ctx:
                get(client, name, t, number)
            counts.append(len(ctx.captured_queries))
        assert counts[0] == counts[1], (name, counts)


def test_english(client, imported):
    t = imported
    with translation.override("en"):
        client.post(reverse("set_language"), {"language": "en", "next": "/"})
        page = get(client, "staff:round", t, 1)
    assert rows(section(page))[1] == [
        "3",
        "Cunha, Caio",
        "8. Hora, Hugo",
        "won by forfeit (W.O.) (only on this player's line)",
        "0",
        "1",
    ]
    assert "Rounds recorded for one player alone The imported file recorded these rounds" in text(section(page))
