"""A player's rating estimate on a phone (issue 40.2, 40.4): the player page shows "Rtg +/-" and the games that
counted, each with the opponent's rating, the expected score and its share, without sideways scrolling."""

import pytest

from tests.browser.events import first_round_played, staff_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_page_explains_the_rating_change_on_a_phone(live_server, phone, make_player, django_user_model, shot):
    t, director = staff_event(django_user_model, make_player, players=4, rating_step=100)
    first_round_played(t, director, {1: "1-0", 2: "1/2"})
    entry = t.entries.get(player__name="Jogador 01")
    phone.goto(f"{live_server.url}/t/{t.slug}/jogadores/{entry.pk}/")
    section = phone.locator("#player-rating")
    assert "Rtg +/-" in section.inner_text()
    rows = phone.locator("#rating-games tbody tr")
    assert rows.count() == 2  # the micro-match's two games
    assert "Jogador 03" in rows.first.inner_text() and "1800" in rows.first.inner_text()
    assert phone.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")
    section.scroll_into_view_if_needed()
    shot(phone, "phone-player-rating-390", full_page=False)
