"""A player on a phone finds their board whatever apostrophe they type (issue 37.5): "Sant'Anna" typed finds the
"Sant’Anna" of the pairings, in the page's own search box (static/js/site.js folds as the server does)."""

import pytest

from tests.browser.events import first_round_played, staff_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Márcia Sant’Anna", "Pedro Sant‘Anna", "Élton Reis", "Ícaro Souza"]


def test_find_my_board_across_apostrophes_on_a_phone(live_server, phone, make_player, django_user_model, shot):
    t, director = staff_event(
        django_user_model, make_player, players=4, player=lambda i: make_player(name=NAMES[i], rating=1900 - i)
    )
    first_round_played(t, director, {1: "1-0", 2: "0-1"})
    page = phone
    page.goto(f"{live_server.url}/t/{t.slug}/emparceiramento/")
    rows = page.locator("table.pairings tbody tr")
    assert rows.count() == 2
    for typed, expected in (("sant'anna", 2), ("Marcia Sant'Anna", 1), ("SANTANNA", 2), ("elton", 1), ("icaro", 1)):
        page.fill("input[data-filter]", typed)
        visible = page.locator("table.pairings tbody tr:visible")
        assert visible.count() == expected, typed
    page.fill("input[data-filter]", "Marcia Sant'Anna")
    assert "Márcia Sant’Anna" in page.locator("table.pairings tbody tr:visible").first.inner_text()
    shot(page, "phone-find-board-apostrophe-390", full_page=False)
