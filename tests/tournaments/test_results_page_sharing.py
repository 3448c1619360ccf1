"""The results page shared by two arbiters (issue 28 item 1) and big rounds (issue 25 item 2).

An out-of-date form's blank boxes are "no change"; only a board where a typed value differs from a value stored
meanwhile is flagged, the rest is saved and the page says so. The page's script sends only the changed boards,
packed in one field, so a round of any size stays under Django's 1,000-field limit.
"""

import json
import random
import re
from datetime import date

import pytest
from django.urls import reverse

from tournaments.models import AuditEntry, Entry, Game, Player, Round
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


def games(board):
    return [g.result for g in Game.objects.filter(board=board).order_by("number")]


def form_of(board, g1="", g2=""):
    """The boxes of one board as the page posts them without its script."""
    return {f"b{board.pk}_v": board.version, f"b{board.pk}_g1": g1, f"b{board.pk}_g2": g2}


def messages_of(html):
    return [re.sub(r"\s+", " ", m).strip() for m in re.findall(r'<li class="msg[^"]*"[^>]*>(.*?)</li>', html, re.S)]


@pytest.fixture
def shared_round(field, director, client):
    t, _entries = field(8)
    rnd = round_pair(tournament=t, user=director, publish=True)
    client.force_login(director)
    boards = list(rnd.boards.order_by("number"))
    return t, rnd, boards, reverse("staff:results", args=[t.slug, 1])


def test_the_second_arbiter_saves_her_boards_over_a_form_the_first_made_stale(shared_round, client, director):
    t, rnd, (b1, b2, b3, b4), url = shared_round
    # both open the page (every board at version 1, blank); the laptop's arbiter saves boards 1 and 2
    laptop = {**form_of(b1, "2-0", "1-1"), **form_of(b2, "0-2", "0-2"), **form_of(b3), **form_of(b4)}
    phone = {**form_of(b1), **form_of(b2), **form_of(b3, "1-1", "2-0"), **form_of(b4, "+", "+")}
    assert client.post(url, laptop).status_code == 302
    r = client.post(url, phone, follow=True)  # her form shows boards 1 and 2 blank: no change there
    html = r.content.decode()
    assert r.redirect_chain and "2 mesas salvas (3, 4)." in messages_of(html)
    assert games(b1) == ["1-0", "1/2"] and games(b2) == ["0-1", "1-0"]
    assert games(b3) == ["1/2", "0-1"] and games(b4) == ["+/-", "-/+"]
    assert "outro árbitro" not in html and 'class="stale"' not in html


def test_only_the_board_typed_differently_is_flagged_and_the_rest_is_saved(shared_round, client, director):
    t, rnd, (b1, b2, b3, b4), url = shared_round
    game_record_result(board=b1, results={1: "1-0", 2: "1/2"}, expected_version=1, user=director)
    game_record_result(board=b2, results={1: "0-1"}, expected_version=1, user=director)
    # her form, opened before: board 1 typed the same (fine), board 2 game 1 typed differently (flagged) and game 2
    # typed over an empty game, board 3 hers
    phone = {**form_of(b1, "2-0", "1-1"), **form_of(b2, "2-0", "2-0"), **form_of(b3, "1-1", "1-1"), **form_of(b4)}
    phone[f"b{b2.pk}_v"] = phone[f"b{b1.pk}_v"] = 1
    r = client.post(url, phone)
    html = r.content.decode()
    assert r.status_code == 409
    assert messages_of(html) == [
        "1 mesa salva (3).",
        "1 mesa não foi salva: outro árbitro salvou outros resultados nela enquanto você digitava. Ela está marcada "
        "abaixo com o que está gravado agora; confira e salve de novo.",
        "A mesa 2 não foi salva: outro árbitro salvou 1: 0-2 / 2: … enquanto você digitava 1: 2-0 / 2: 2-0. "
        "Confira e salve de novo.",
    ]
    assert games(b2) == ["0-1", None] and games(b3) == ["1/2", "1/2"] and games(b1) == ["1-0", "1/2"]
    row = re.search(r'<tr data-board="2" class="stale"[^>]*>.*?</tr>', html, re.S).group(0)
    assert f'name="b{b2.pk}_v" value="2"' in row and f'name="b{b2.pk}_g1" value="0-2"' in row  # stored now
    note = re.search(r'<tr class="stale-note" data-note-for="2">.*?</tr>', html, re.S).group(0)
    assert "A mesa 2 não foi salva" in note and html.count('class="stale-note"') == 1
    assert f'name="b{b3.pk}_v" value="2"' in html and f'name="b{b3.pk}_g1" value="1-1"' in html  # saved: as stored
    # saving the page again (board 2 as now stored, game 2 typed) saves game 2 only
    again = {**form_of(b2.__class__.objects.get(pk=b2.pk), "0-2", "1-1")}
    assert client.post(url, again).status_code == 302 and games(b2) == ["0-1", "1/2"]


def test_the_packed_post_sends_only_changed_boxes_with_what_they_showed(shared_round, client, director):
    t, rnd, (b1, b2, b3, b4), url = shared_round
    game_record_result(board=b1, results={1: "1-0", 2: "1/2"}, expected_version=1, user=director)
    page = client.get(url).content.decode()
    assert re.search(rf'name="b{b1.pk}_g1" value="2-0" data-shown="2-0"', page)
    assert re.search(rf'name="b{b3.pk}_g1" value="" data-shown=""', page)
    # another arbiter corrects board 1 game 2 meanwhile; this page's box still shows 1-1, untouched
    game_record_result(board=b1, results={2: "0-1"}, expected_version=2, user=director, reason="súmula")
    packed = {
        f"b{b1.pk}_v": "2",  # board 1: game 1 corrected here from 2-0 to 0-2; game 2 untouched (showed 1-1)
        f"b{b1.pk}_g1": "0-2",
        f"b{b1.pk}_s1": "2-0",
        f"b{b1.pk}_s2": "1-1",
        f"b{b3.pk}_v": "1",
        f"b{b3.pk}_g1": "2-0",
        f"b{b3.pk}_g2": "0-2",
        f"b{b3.pk}_s1": "",
        f"b{b3.pk}_s2": "",
    }
    r = client.post(url, {"packed": json.dumps(packed)})
    assert r.status_code == 409 and "Mesa 1: partida 1 de 2-0 para 0-2" in r.content.decode()
    r = client.post(url, {"packed": json.dumps(packed), "reason": "súmula", "confirm_correction": "1"}, follow=True)
    assert "2 mesas salvas (1, 3)." in messages_of(r.content.decode())
    assert games(b1) == ["0-1", "0-1"]  # game 2 keeps the other arbiter's correction
    assert games(b3) == ["1-0", "1-0"] and games(b2) == [None, None]
    assert AuditEntry.objects.filter(action="result.correct").count() == 2


@pytest.mark.parametrize(
    "packed",
    [
        "not json",
        "[1, 2]",
        '{"b1_v": 1}',
        json.dumps({"b1_v": "1", "b1_g1": "2-0\x00"}),
        '{"b1_v": "1", "b1_g1": "\\ud800"}',
        json.dumps({"b1_v": "x" * 50}),
    ],
)
def test_a_damaged_packed_field_saves_nothing(shared_round, client, packed):
    t, rnd, boards, url = shared_round
    r = client.post(url, {"packed": packed})
    assert r.status_code == 409
    assert "O formulário chegou danificado: recarregue a página e digite os resultados de novo." in r.content.decode()
    assert Game.objects.filter(board__round=rnd, result__isnull=False).count() == 0


def big_round(director, players):
    from tournaments.setup.services import tournament_create

    rng = random.Random(3)
    t = tournament_create(
        user=director, name="Grande", slug="grande", start_date=date(2026, 1, 1), end_date=date(2026, 1, 2)
    )
    people = Player.objects.bulk_create(
        [Player(name=f"Jogador {i:04d}", sex="M", rating=rng.randint(1400, 2400)) for i in range(players)]
    )
    Entry.objects.bulk_create([Entry(tournament=t, player=p, rating=p.rating) for p in people])
    return t, round_pair(tournament=t, user=director, publish=True)


def test_a_thousand_player_round_is_saved_whole_and_corrected_one_board(director, client):
    t, rnd = big_round(director, 1000)
    boards = list(rnd.boards.order_by("number"))
    assert len(boards) == 500
    client.force_login(director)
    url = reverse("staff:results", args=[t.slug, 1])
    packed = {}
    for b in boards:
        packed |= {f"b{b.pk}_v": "1", f"b{b.pk}_g1": "2-0", f"b{b.pk}_g2": "1-1", f"b{b.pk}_s1": "", f"b{b.pk}_s2": ""}
    r = client.post(url, {"packed": json.dumps(packed)}, follow=True)
    assert r.status_code == 200 and "500 mesas salvas." in messages_of(r.content.decode())
    assert Game.objects.filter(board__round=rnd, result="1-0").count() == 500
    assert Game.objects.filter(board__round=rnd, result="1/2").count() == 500
    # a correction of one board: the page's script posts that board alone, in one field (without the script every
    # box would be a field, over Django's limit: see the next test)
    last = Round.objects.get(pk=rnd.pk).boards.get(number=500)
    one = {
        f"b{last.pk}_v": str(last.version),
        f"b{last.pk}_g1": "0-2",
        f"b{last.pk}_s1": "2-0",
        f"b{last.pk}_s2": "1-1",
    }
    r = client.post(url, {"packed": json.dumps(one), "reason": "súmula", "confirm_correction": "1"}, follow=True)
    assert "1 mesa salva (500)." in messages_of(r.content.decode())
    assert games(last) == ["0-1", "1/2"]


def test_a_big_round_posted_without_the_script_is_refused_saying_why_and_nothing_is_saved(director, client):
    """Without the page's script every box is a field: over Django's 1,000 fields (350 micro-match boards here) the
    post is refused before anything is read, with the reason and what to do in Portuguese, not a bare 400."""
    t, rnd = big_round(director, 700)
    client.force_login(director)
    fields = {}
    for b in rnd.boards.all():
        fields |= {f"b{b.pk}_v": str(b.version), f"b{b.pk}_g1": "2-0", f"b{b.pk}_g2": "1-1"}
    assert len(fields) > 1000
    r = client.post(reverse("staff:results", args=[t.slug, 1]), fields)
    assert r.status_code == 400
    page = r.content.decode()
    assert "O formulário enviado tem campos demais" in page and "ative-o no navegador" in page
    assert Game.objects.filter(board__round=rnd, result__isnull=False).count() == 0


def test_my_boards_shows_only_the_boards_an_arbiter_keeps_and_the_save_keeps_them(shared_round, client):
    """Issue 28.9: "minhas mesas" (a range, or the boards she picks), a jump to each board, phone keypad."""
    t, rnd, (b1, b2, b3, b4), url = shared_round
    page = client.get(url, {"mesas": "2, 4"}).content.decode()
    assert re.findall(r'<tr data-board="(\d+)"', page) == ["2", "4"]
    assert '<a href="#mesa-2">2</a> <a href="#mesa-4">4</a>' in page and 'id="mesa-4"' in page
    assert 'name="mesas" value="2, 4"' in page and 'inputmode="tel"' in page
    data = {**form_of(b2, "2-0", "2-0"), "mesas": "2, 4"}
    r = client.post(url, data)
    assert r.status_code == 302 and r["Location"] == f"{url}?mesas=2%2C+4"
    assert games(b2) == ["1-0", "0-1"]
    assert re.findall(r'<tr data-board="(\d+)"', client.get(url, {"mesas": "1-3"}).content.decode()) == ["1", "2", "3"]
    page = client.get(url, {"mesas": "um a três"}).content.decode()
    assert "Não entendi: todas as mesas estão à mostra (escreva 1-12 ou 3, 5, 9-11)." in page
    assert re.findall(r'<tr data-board="(\d+)"', page) == ["1", "2", "3", "4"]
