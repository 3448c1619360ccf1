"""Issue 12: the public round pages (by board, by name, results by round, the printed pairings) and the player card
show the rounds an imported file recorded for one player alone (``models.OneSidedRound``), in the same words:
who, what that player's line says, the points, and that it is on that line alone. A round without any is as it
was."""

import html as htmllib
import re

import pytest
from django.urls import reverse

from tests.tournaments.interchange.test_trf_accept import hand_edited
from tournaments.interchange import import_trf_with_warnings
from tournaments.rounds.services import round_pair, round_publish

pytestmark = pytest.mark.django_db

NOTE = (
    "O arquivo importado registrou estas rodadas só na linha do próprio jogador: a linha do adversário diz outra "
    "coisa (ou nada), ou a rodada já tinha o seu BYE. Cada uma conta para esse jogador como foi escrita; não está "
    "em nenhuma mesa e não tem resultado a lançar."
)


@pytest.fixture
def imported(director):
    """Round 1: 3's forfeit win 8's line does not show; round 2: a second bye (10); round 3: contradicting results
    beside two boards. Single games, win 1, draw ½ (see ``hand_edited``)."""
    t, _warnings = import_trf_with_warnings(hand_edited(), user=director)
    return t


def text(fragment):
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def page(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def listed(html):
    """The items of the round page's list of rounds kept for one player alone, and the note under it."""
    match = re.search(r'<section id="one-sided">(.*?)</section>', html, re.S)
    if match is None:
        return None
    body = match.group(1)
    items = [text(li) for li in re.findall(r"<li>(.*?)</li>", body)]
    return items, text(re.search(r"<p[^>]*>(.*?)</p>", body).group(1))


def test_the_round_page_by_board_lists_them_under_the_boards(client, imported):
    t = imported
    assert listed(page(client, "public:round", t.slug, 1)) == (
        ["Cunha, Caio 3 — vitória por W.O. (só na linha deste jogador) · Adversário: Hora, Hugo 8 · 1 pts"],
        NOTE,
    )
    assert listed(page(client, "public:round", t.slug, 2))[0] == [
        "Jardim, Jó 10 — BYE (só na linha deste jogador) · 1 pts"
    ]
    html = page(client, "public:round", t.slug, 3)
    assert listed(html)[0] == [
        "Abreu, Ana 1 — jogada, 1-0 (só na linha deste jogador) · Adversário: Cunha, Caio 3 · 1 pts",
        "Barros, Bia 2 — vitória por W.O. (só na linha deste jogador) · Adversário: Dias, Davi 4 · 1 pts",
        "Cunha, Caio 3 — jogada, 1-0 (só na linha deste jogador) · Adversário: Abreu, Ana 1 · 1 pts",
        "Dias, Davi 4 — vitória por W.O. (só na linha deste jogador) · Adversário: Barros, Bia 2 · 1 pts",
        "Hora, Hugo 8 — jogada, 0-1 (só na linha deste jogador) · Adversário: Jardim, Jó 10 · 0 pts",
        "Jardim, Jó 10 — jogada, ½-½ (só na linha deste jogador) · Adversário: Hora, Hugo 8 · 0,5 pts",
    ]
    # not as boards, and not as "not paired" either
    assert len(re.findall(r'<tr data-search="[^"]*">\s*<td class="num"><a', html)) == 2
    assert "Não emparceirados nesta rodada" not in html


def test_the_round_page_by_name_and_the_printouts_say_them(client, imported, director):
    t = imported
    html = page(client, "public:round_alpha", t.slug, 1)
    rows = {text(r) for r in re.findall(r"<tr data-search[^>]*>(.*?)</tr>", html, re.S)}
    assert "Cunha, Caio Nº 3 · 0 pts – vitória por W.O. (só na linha deste jogador) · Hora, Hugo 8" in rows
    assert "Hora, Hugo Nº 8 · 0 pts – ausente" in rows
    client.force_login(director)
    printed = text(page(client, "public:print_pairings", t.slug, 3))
    assert (
        "Rodadas registradas para um só jogador: Abreu, Ana (jogada, 1-0 (só na linha deste jogador), Adversário: "
        "Cunha, Caio; 1 pts); Barros, Bia (vitória por W.O. (só na linha deste jogador), Adversário: Dias, Davi; "
        "1 pts);"
    ) in printed
    printed = text(page(client, "public:print_pairings_alpha", t.slug, 2))
    assert "Ilha, Íris 9 0 – BYE Jardim, Jó 10 0 – BYE (só na linha deste jogador)" in printed


def test_results_by_round_shows_them_in_the_last_round(client, imported):
    items, note = listed(page(client, "public:rounds", imported.slug))
    assert items[0] == "Abreu, Ana 1 — jogada, 1-0 (só na linha deste jogador) · Adversário: Cunha, Caio 3 · 1 pts"
    assert items[-1] == "Jardim, Jó 10 — jogada, ½-½ (só na linha deste jogador) · Adversário: Hora, Hugo 8 · 0,5 pts"
    assert len(items) == 6 and note == NOTE


def test_the_player_card_says_them_in_the_same_words(client, imported):
    t = imported
    three = t.entries.get(pairing_number=3)
    html = page(client, "public:player", t.slug, three.pk)
    cells = [text(c) for c in re.findall(r'<td class="games-cell">(.*?)</td>', html, re.S)]
    assert cells == [
        "Brancas +/- vitória por W.O. (só na linha deste jogador)",
        "Pretas ½-½",
        "Pretas 1-0 jogada, 1-0 (só na linha deste jogador)",
    ]
    # a game its line gives is shown with its outcome, not as a game still to be played
    assert re.findall(r'<span class="game (\w+)"><span class="piece (white|black)"', html) == [
        ("win", "white"),
        ("draw", "black"),
        ("win", "black"),
    ]
    ten = t.entries.get(pairing_number=10)
    html = page(client, "public:player", t.slug, ten.pk)
    assert "BYE (só na linha deste jogador)" in html


def test_a_round_without_them_is_as_it_was(client, imported, director):
    t = imported
    rnd = round_pair(tournament=t, user=director)
    round_publish(round=rnd, user=director)
    html = page(client, "public:round", t.slug, 4)
    assert listed(html) is None and "só na linha" not in html
    assert "Não emparceirados nesta rodada" in html and "Hora, Hugo</a> — ausente" in html
    assert "só na linha" not in page(client, "public:round_alpha", t.slug, 4)
    assert "one-sided" not in page(client, "public:rounds", t.slug)  # the last round, 4, has none
