"""Issue 28 item 1 in a real browser: a director on a laptop and an arbiter on a 390 px phone split one round's
boards, both pages opened before either saves. The one who saves second has all her boards saved (the boxes she
left blank on the other's boards change nothing), and only a board she typed differently from what the other saved
is marked, with both values; the page's script posted only the boards she changed (issue 25 item 2). Screenshots in
test-artifacts/ (results-sharing-*)."""

import re

import pytest

from tests.browser.events import PASSWORD, staff_event
from tournaments.models import Game, Round
from tournaments.rounds.services import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event(django_user_model, make_player):
    t, director = staff_event(django_user_model, make_player, players=12, arbiter=True)
    round_pair(tournament=t, user=director, publish=True)
    return t


def log_in(page, base, username, url):
    page.goto(f"{base}/entrar/?next={url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(url) + "$"))


def box(page, board, game):
    return page.locator(f'tr[data-board="{board}"] input.result-input').nth(game - 1)


def results(t, number):
    board = Round.objects.get(tournament=t, number=1).boards.get(number=number)
    return [g.result for g in Game.objects.filter(board=board).order_by("number")]


def director_saves_boards_1_to_4(laptop):
    """The director types boards 1-3 and board 4's first game, and saves."""
    for board, (g1, g2) in {1: ("2-0", "1-1"), 2: ("0-2", "2-0"), 3: ("1-1", "1-1")}.items():
        box(laptop, board, 1).fill(g1)
        box(laptop, board, 2).fill(g2)
    box(laptop, 4, 1).fill("2-0")
    laptop.click("#save-results")
    laptop.wait_for_load_state()
    assert "4 mesas salvas (1, 2, 3, 4)." in laptop.locator(".messages").inner_text()


def arbiter_saves_over_a_stale_page(phone, event, shot):
    """The arbiter, on a page opened before that save: board 3 typed differently, board 4's second game, 5, 6."""
    box(phone, 3, 1).fill("2-0")
    box(phone, 3, 2).fill("1-1")
    box(phone, 4, 2).fill("0-2")
    for board in (5, 6):
        box(phone, board, 1).fill("1-1")
        box(phone, board, 2).fill("+")
    phone.click("#save-results")
    phone.wait_for_load_state()
    text = phone.locator(".messages").inner_text()
    shot(phone, "results-sharing-phone-after-save")
    assert "3 mesas salvas (4, 5, 6)." in text
    assert "1 mesa não foi salva: outro árbitro salvou outros resultados nela enquanto você digitava." in text
    assert (
        "A mesa 3 não foi salva: outro árbitro salvou 1: 1-1 / 2: 1-1 enquanto você digitava 1: 2-0 / 2: 1-1." in text
    )
    assert "stale" in phone.locator('tr[data-board="3"]').get_attribute("class")
    assert box(phone, 3, 1).input_value() == "1-1"  # what is stored now, to check against the slip
    assert [results(event, n) for n in (1, 4, 5, 6)] == [
        ["1-0", "1/2"],
        ["1-0", "1-0"],
        ["1/2", "-/+"],
        ["1/2", "-/+"],
    ]
    assert results(event, 3) == ["1/2", "1/2"] and results(event, 2) == ["0-1", "0-1"]


def posted_boards(posts, event):
    """The boards the phone's save posted: one packed field, never a box of its own."""
    from urllib.parse import parse_qs

    form = [p for p in posts if p and "packed=" in p][0]
    assert form.count("packed=") == 1 and "_g1=" not in form
    ids = set(re.findall(r'"b(\d+)_v"', parse_qs(form)["packed"][0]))
    boards = Round.objects.get(tournament=event, number=1).boards.all()
    return sorted(b.number for b in boards if str(b.pk) in ids)


def arbiter_corrects_board_3(phone, event, shot):
    """The arbiter agrees with the slip: the page, now up to date, saves board 3 as she types it (a correction)."""
    box(phone, 3, 1).fill("2-0")
    phone.click("#save-results")
    phone.wait_for_load_state()
    assert "Mesa 3: partida 1 de 1-1 para 2-0" in phone.locator("#corrections").inner_text()
    phone.fill("#reason", "súmula assinada")
    phone.check("input[name=confirm_correction]")
    phone.click("#save-results")
    phone.wait_for_load_state()
    shot(phone, "results-sharing-phone-corrected")
    assert "1 mesa salva (3)." in phone.locator(".messages").inner_text()
    assert results(event, 3) == ["1-0", "1/2"]


def test_two_arbiters_enter_one_round_at_once(browser, live_server, event, shot):
    base, url = live_server.url, "/gestao/t/etapa/rodada/1/resultados/"
    laptop_ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="pt-BR")
    phone_ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="pt-BR"
    )
    try:
        laptop, phone = laptop_ctx.new_page(), phone_ctx.new_page()
        log_in(laptop, base, "diretora", url)
        log_in(phone, base, "arbitra", url)  # both pages open before either saves
        posts = []
        phone.on("request", lambda r: posts.append(r.post_data) if r.method == "POST" else None)
        director_saves_boards_1_to_4(laptop)
        arbiter_saves_over_a_stale_page(phone, event, shot)
        assert posted_boards(posts, event) == [3, 4, 5, 6]  # not board 1 or 2, left blank on her page
        arbiter_corrects_board_3(phone, event, shot)
        shot(laptop, "results-sharing-laptop")
    finally:
        laptop_ctx.close()
        phone_ctx.close()


def test_my_boards_on_a_phone(phone, live_server, event, shot):
    """Issue 28.9: the arbiter keeps to her boards ("minhas mesas" 4-6), jumps to one, types with the phone's
    keypad (inputmode), saves, and stays on her boards."""
    url = "/gestao/t/etapa/rodada/1/resultados/"
    log_in(phone, live_server.url, "arbitra", url)
    phone.fill("#mesas", "4-6")
    phone.click("#my-boards button[type=submit]")
    phone.wait_for_url(re.compile(r"\?mesas=4-6$"))
    assert phone.locator("tr[data-board]").evaluate_all("rows => rows.map(r => r.dataset.board)") == ["4", "5", "6"]
    assert box(phone, 5, 1).get_attribute("inputmode") == "tel"
    phone.click('.board-jump a[href="#mesa-6"]')
    assert phone.evaluate("location.hash") == "#mesa-6"
    box(phone, 6, 1).fill("1")
    box(phone, 6, 2).fill("0")
    with phone.expect_navigation():
        phone.click("#save-results")
    assert re.search(r"\?mesas=4-6(#mesa-6)?$", phone.url)  # still on her boards
    assert "1 mesa salva (6)." in phone.locator(".messages").inner_text()
    assert results(event, 6) == ["1/2", "1-0"]
    assert phone.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    shot(phone, "results-my-boards-phone")
