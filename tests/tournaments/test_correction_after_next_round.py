"""Correcting a round after the next one is paired (issue 28 item 4): the results page warns that the next round
was paired on the old scores and, while that round is the last and has no result, undoes it and pairs it again on
the corrected scores in one confirmed click."""

import re

import pytest
from django.urls import reverse

from tournaments.models import AuditEntry, Game, OpeningDraw, Round
from tournaments.models.choices import RoundStatus
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


def messages_of(html):
    return [re.sub(r"\s+", " ", m).strip() for m in re.findall(r'<li class="msg[^"]*"[^>]*>(.*?)</li>', html, re.S)]


@pytest.fixture
def two_rounds(field, director, client):
    t, _entries = field(6)
    rnd = round_pair(tournament=t, user=director, publish=True)
    for board in rnd.boards.order_by("number"):
        game_record_result(board=board, results={1: "1-0", 2: "0-1"}, expected_version=1, user=director)
    round_pair(tournament=t, user=director, publish=True)
    client.force_login(director)
    return t, rnd


def correct_board_1(client, t, rnd):
    board = rnd.boards.get(number=1)
    data = {f"b{board.pk}_v": board.version, f"b{board.pk}_g1": "0-2", f"b{board.pk}_g2": "2-0"}
    data |= {"reason": "súmula assinada", "confirm_correction": "1"}
    return client.post(reverse("staff:results", args=[t.slug, 1]), data, follow=True)


def test_the_page_warns_and_the_correction_says_the_next_round_used_the_old_scores(two_rounds, client):
    t, rnd = two_rounds
    page = client.get(reverse("staff:results", args=[t.slug, 1])).content.decode()
    banner = re.search(r'<section class="card msg msg-warning" id="next-round-paired">.*?</section>', page, re.S)
    assert "A rodada 2 já foi emparceirada, com a pontuação desta rodada como estava então" in banner.group(0)
    assert f'action="/gestao/t/{t.slug}/rodada/2/emparceirar-de-novo/"' in banner.group(0)
    assert 'id="next-round-paired"' not in client.get(reverse("staff:results", args=[t.slug, 2])).content.decode()
    html = correct_board_1(client, t, rnd).content.decode()
    assert (
        "A rodada 2 foi emparceirada com a pontuação de antes desta alteração: o emparceiramento dela fica como "
        "está, a menos que você o desfaça e emparceire de novo. Ela ainda não tem resultados: o botão no alto desta "
        "página faz isso."
    ) in messages_of(html)


def test_undo_and_pair_again_needs_the_box_then_pairs_on_the_corrected_scores(two_rounds, client, director):
    t, rnd = two_rounds
    correct_board_1(client, t, rnd)
    old = Round.objects.get(tournament=t, number=2)
    url = reverse("staff:round_repair", args=[t.slug, 2])
    r = client.post(url, {}, follow=True)
    assert "Nada foi desfeito: marque a caixa que confirma desfazer o emparceiramento da rodada 2." in messages_of(
        r.content.decode()
    )
    assert Round.objects.filter(pk=old.pk).exists()
    r = client.post(url, {"confirm": "1"}, follow=True)
    assert "Rodada 2 desfeita e emparceirada de novo com a pontuação corrigida." in messages_of(r.content.decode())
    new = Round.objects.get(tournament=t, number=2)
    # A draft like any pairing (issue 37.4: it was published at once, with no opening drawn)
    assert new.pk != old.pk and new.status == RoundStatus.DRAFT
    assert "Rodada 2 emparceirada: revise, sorteie a tablita e publique." in messages_of(r.content.decode())
    assert r.redirect_chain[-1][0] == reverse("staff:round", args=[t.slug, 2])
    assert not OpeningDraw.objects.filter(round=new).exists()
    assert AuditEntry.objects.filter(action="round.undo").count() == 1


def test_a_next_round_with_results_is_only_warned_about(two_rounds, client, director):
    t, rnd = two_rounds
    board = Round.objects.get(tournament=t, number=2).boards.get(number=1)
    game_record_result(board=board, results={1: "1/2"}, expected_version=1, user=director)
    page = client.get(reverse("staff:results", args=[t.slug, 1])).content.decode()
    assert "A rodada 2 já tem resultados: o emparceiramento dela fica." in page
    assert "emparceirar-de-novo" not in page
    html = correct_board_1(client, t, rnd).content.decode()
    assert any(m.startswith("A rodada 2 foi emparceirada com a pontuação de antes") for m in messages_of(html))
    assert not any("o botão no alto" in m for m in messages_of(html))
    r = client.post(reverse("staff:round_repair", args=[t.slug, 2]), {"confirm": "1"}, follow=True)
    assert "A rodada 2 já tem resultados: não pode mais ser desfeita." in messages_of(r.content.decode())
    assert Game.objects.filter(board__round__tournament=t, board__round__number=2, result="1/2").count() == 1
