"""Issue 12: the player card shows the rounds an imported file recorded for one player alone
(``models.OneSidedRound``): what that player's line says, and that it is on that line alone."""

import html as htmllib
import re

import pytest
from django.urls import reverse

from tests.tournaments.interchange.test_trf_accept import hand_edited
from tournaments.interchange import import_trf_with_warnings

pytestmark = pytest.mark.django_db


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
