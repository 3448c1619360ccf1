"""Issue 37.11: results are typed with the phone's keypad (inputmode="tel"). An iPhone's phone pad has the digits,
"+", "*", "#", "," and ";" only, so "-/+" (W.O. for the second player) and "-/-" (double W.O.) could not be typed
at all; Android's has "-" and "/" too. While a box has the focus the page offers a bar with every result as it
writes them; a tap fills the box and goes to the next. Checked here on Playwright's emulated iPhone 13 and
Pixel 7 (their screens, user agents and touch): every result the page accepts is reachable on each keypad, by
typing or by a button, and an arbiter enters a whole round that way. Screenshots: results-keypad-*."""

import re

import pytest

from tests.browser.events import PASSWORD, staff_event
from tournaments.models import Game, Round
from tournaments.rounds.scoring import ENTRY_TOKENS, parse_entry
from tournaments.rounds.services import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What each phone's keypad for inputmode="tel" can type (lowercase; the page reads tokens without case).
KEYPADS = {
    "iPhone 13": set("0123456789+*#,;"),  # iOS phone pad: the digits, then its "+*#" page: + * # pause(,) wait(;)
    "Pixel 7": set("0123456789+*#,;.-()/n "),  # Gboard's phone pad and its symbols
}


def outcome(text):
    """The outcome a token stands for (first, draw, second, first_wo, second_wo, double_wo)."""
    token = text.strip().lower().replace(" ", "")
    return next(name for name, tokens in ENTRY_TOKENS.items() if token in tokens)


@pytest.fixture
def event(django_user_model, make_player):
    t, director = staff_event(django_user_model, make_player, players=8, arbiter=True)
    round_pair(tournament=t, user=director, publish=True)
    return t


@pytest.fixture(params=list(KEYPADS))
def handset(request, browser, devices):
    descriptor = {k: v for k, v in devices[request.param].items() if k != "default_browser_type"}
    context = browser.new_context(**descriptor, locale="pt-BR")
    page = context.new_page()
    page.set_default_timeout(15000)
    yield request.param, page
    context.close()


def box(page, board, game):
    return page.locator(f'tr[data-board="{board}"] input.result-input').nth(game - 1)


def test_every_result_is_reachable_on_the_phones_keypad_or_its_buttons(handset, live_server, event, shot):
    name, page = handset
    url = "/gestao/t/etapa/rodada/1/resultados/"
    page.goto(f"{live_server.url}/entrar/?next={url}")
    page.fill("input[name=username]", "arbitra")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(url) + "$"))
    assert box(page, 1, 1).get_attribute("inputmode") == "tel"
    keys = page.locator("#result-keys")
    assert keys.is_hidden()
    box(page, 1, 1).tap()
    assert keys.is_visible()
    buttons = keys.locator("button").all_inner_texts()
    assert buttons == page.locator("#result-codes option").evaluate_all("os => os.map(o => o.value)")
    typable = {outcome(t) for tokens in ENTRY_TOKENS.values() for t in tokens if set(t) <= KEYPADS[name]}
    offered = {outcome(b) for b in buttons}
    assert typable | offered == set(ENTRY_TOKENS), (name, set(ENTRY_TOKENS) - typable - offered)
    assert offered == set(ENTRY_TOKENS)  # the bar has them all, whatever the keypad
    if name == "iPhone 13":
        assert {"second_wo", "double_wo"} - typable == {"second_wo", "double_wo"}  # only the buttons give these
    shot(page, f"results-keypad-{name.replace(' ', '-').lower()}")

    # Board 1 by the keypad (digits are on every one), boards 2-4 by the buttons; the focus moves on each tap.
    page.keyboard.type("2")
    box(page, 1, 2).tap()
    page.keyboard.type("1")
    box(page, 2, 1).tap()
    for label, then in [("-/+", "b"), ("-/+", "b"), ("-/-", "b"), ("-/-", "b"), ("+/-", "b"), ("0-2", "same")]:
        focused = page.evaluate("document.activeElement.name")
        keys.locator("button", has_text=re.compile(f"^{re.escape(label)}$")).tap()
        now = page.evaluate("document.activeElement.name")
        assert (now != focused) if then == "b" else (now == focused)  # the next box; the last box keeps it
    assert keys.is_visible()
    with page.expect_navigation():
        page.click("#save-results")
    assert "4 mesas salvas" in page.locator(".messages").inner_text()
    rnd = Round.objects.get(tournament=event, number=1)
    stored = {
        b.number: [g.result for g in Game.objects.filter(board=b).order_by("number")]
        for b in rnd.boards.filter(number__lte=4)
    }
    expected = {1: ["2", "1"], 2: ["-/+", "-/+"], 3: ["-/-", "-/-"], 4: ["+/-", "0-2"]}
    assert stored == {
        number: [parse_entry(game, text) for game, text in enumerate(texts, start=1)]
        for number, texts in expected.items()
    }
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
