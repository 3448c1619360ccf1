"""Issue 28.6 in a real browser: the director edits a draft pairing by picking players by name ("nº — Nome (pts)");
choosing a player who sits on another board swaps the two in one choice; a pairing that breaks an absolute rule is
refused whole, in Portuguese, naming the players. Screenshots in test-artifacts/ (round-edit-*)."""

import re

import pytest

from tests.browser.events import PASSWORD, first_round_played, staff_event
from tournaments.models import Round
from tournaments.rounds.selectors import board_pair, rounds_with_boards
from tournaments.rounds.services import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event(django_user_model, make_player):
    t, director = staff_event(django_user_model, make_player, rating_step=10)
    first_round_played(t, director, {1: "1-0", 2: "1/2"})
    round_pair(tournament=t, user=director)
    return t


def names(t, number):
    rnd = rounds_with_boards(t, number=number)[0]
    return [tuple(e.player.name for e in board_pair(b)) for b in rnd.boards.all()]


def label_of(page, selector):
    return page.eval_on_selector(selector, "s => s.options[s.selectedIndex].text")


def test_a_swap_by_name_and_a_refusal_in_portuguese(desktop, live_server, event, shot):
    page, base = desktop, live_server.url
    before = names(event, 2)
    page.goto(f"{base}/entrar/?next=/gestao/t/etapa/rodada/2/")
    page.fill("input[name=username]", "diretora")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/rodada/2/$"))
    page.click("text=Editar à mão")
    page.wait_for_url(re.compile(r"/rodada/2/editar/$"))
    assert re.fullmatch(r"\d+ — Jogador \d\d \(\d\)", label_of(page, "#b1-first"))
    board2_first = label_of(page, "#b2-first")
    board1_first = label_of(page, "#b1-first")
    page.select_option("#b1-first", label=board2_first)  # one choice: the two players change places
    assert label_of(page, "#b2-first") == board1_first
    shot(page, "round-edit-swapped")
    page.click("#save-edit")
    page.wait_for_url(re.compile(r"/rodada/2/$"))
    assert "Emparceiramento manual salvo." in page.locator(".messages").inner_text()
    after = names(event, 2)
    assert after[0] == (before[1][0], before[0][1]) and after[1] == (before[0][0], before[1][1])
    assert Round.objects.get(tournament=event, number=2).manually_edited

    # a player left out: nothing is saved, the page says who and keeps what was chosen
    page.click("text=Editar à mão")
    page.wait_for_url(re.compile(r"/rodada/2/editar/$"))
    page.select_option("#b3-second", value="")
    left_out = before[2][1]
    page.click("#save-edit")
    page.wait_for_load_state()
    text = page.locator(".messages").inner_text()
    assert "Nada foi salvo: corrija o emparceiramento e salve de novo." in text
    assert "Mesa 3: escolha os dois jogadores." in text
    assert label_of(page, "#b3-second") == "—"
    shot(page, "round-edit-refused")
    assert names(event, 2) == after
    assert left_out in [n for pair in after for n in pair]
