"""Issue 28, the arbiter's phone and the small things (items 9, 14, 16), at 390 px: the round's opening diagram is
folded so the pairings come first; the Portuguese of the pages (agreement, plurals); the categories before round 1,
the player's current place, the tab bar that shows it scrolls. Screenshots in test-artifacts/ (ui-*)."""

import re

import pytest

from tests.browser.events import PASSWORD, staff_event
from tournaments.models import Round
from tournaments.rounds.services import round_pair
from tournaments.setup.openings import opening_draw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event(django_user_model, make_player):
    def player(i):
        return make_player(name=f"Jogador{'a' if i % 2 else ''} {i + 1:02d}", sex="F" if i % 2 else "M")

    return staff_event(django_user_model, make_player, name="Etapa Natal", player=player)[0]


def log_in(page, base, url):
    page.goto(f"{base}/entrar/?next={url}")
    page.fill("input[name=username]", "diretora")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(url) + "$"))


def fits(page):
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")


def test_the_opening_diagram_is_folded_below_its_code(phone, live_server, event, shot):
    """Issue 28.9: on the round page the opening's code and moves show, its diagram is folded, so the pairings come
    up a screen sooner on a phone; a tap opens the diagram."""
    director = event.roles.get().user
    round_pair(tournament=event, user=director, publish=True)
    opening_draw(round=Round.objects.get(tournament=event, number=1), user=director, seed="fixo")
    log_in(phone, live_server.url, "/gestao/t/etapa/rodada/1/")
    diagram = phone.locator("#opening-diagram .opening-diagram svg")
    assert phone.locator("#opening-diagram").get_attribute("open") is None and not diagram.is_visible()
    shot(phone, "ui-round-opening-folded")
    code = Round.objects.get(tournament=event, number=1).opening.code
    assert code in phone.locator("main section.card", has_text="Abertura (tablita)").inner_text()
    folded = phone.locator("main table").first.bounding_box()["y"]
    phone.click("#opening-diagram summary")
    assert diagram.is_visible()
    # folded, the diagram (the width of the phone's column, 280 px at most) no longer pushes the pairings down
    assert phone.locator("main table").first.bounding_box()["y"] - folded >= 250
    assert fits(phone)
    shot(phone, "ui-round-opening-open")


def test_small_things_on_a_phone(phone, live_server, event, shot):
    """Issue 28.16 at 390 px: the categories page before round 1 names nobody ahead; the player card says the
    current place; the public tab bar shows it scrolls (a glow at the edge where more tabs are); issue 28.14: a
    female player's refusal agrees ("inscrita"), said once with her name."""
    director = event.roles.get().user
    log_in(phone, live_server.url, "/gestao/t/etapa/categorias/")
    cells = phone.locator('#categories tr[data-code="ABS"] td')
    assert cells.nth(6).inner_text() == "—"
    assert fits(phone)
    shot(phone, "ui-categories-before-round-1")

    phone.goto(f"{live_server.url}/gestao/t/etapa/inscritos/?q=Jogadora 02")
    assert phone.locator("#found li").first.locator("em").inner_text() == "já inscrita"
    shot(phone, "ui-entries-already-entered-female")

    round_pair(tournament=event, user=director, publish=True)
    rnd = Round.objects.get(tournament=event, number=1)
    from tournaments.rounds.results import round_record_results

    rows = [(b.pk, b.version, {1: "1-0", 2: "0-1"}) for b in rnd.boards.order_by("number")]
    round_record_results(round=rnd, rows=rows, user=director)
    first = rnd.boards.get(number=1).seats.get(side="first").entry
    phone.goto(f"{live_server.url}/t/etapa/jogadores/{first.pk}/")
    for _attempt in range(20):  # served stale while the page is rebuilt after the writes (issue 25.9)
        if phone.locator("#player-place").count():
            break
        phone.wait_for_timeout(500)
        phone.reload()
    assert phone.locator("#player-place").inner_text() == "Colocação 1-4 de 8 após a rodada 1 · 4 pontos"
    assert fits(phone)
    shot(phone, "ui-player-card-place")

    tabs = phone.locator(".subnav-links")
    assert tabs.evaluate("t => t.scrollWidth > t.clientWidth")  # more tabs than the screen shows
    images = tabs.evaluate("t => getComputedStyle(t).backgroundImage")
    attachments = tabs.evaluate("t => getComputedStyle(t).backgroundAttachment")
    assert images.count("linear-gradient") == 4 and attachments.startswith("local, local, scroll, scroll")
    shot(phone, "ui-tab-bar-start", full_page=False)
    tabs.evaluate("t => t.scrollLeft = t.scrollWidth")
    shot(phone, "ui-tab-bar-end", full_page=False)
