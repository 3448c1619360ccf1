"""Issue 12, in a real browser on a 390 px phone: an imported event's rounds kept for one player alone show on the
public round pages and the player card without widening them, and on the staff round and results pages beside the
boards, outside the results form. Screenshots in test-artifacts/ (phone390-one-sided-*)."""

import re

import pytest
from django.contrib.auth.models import Permission

from tests.tournaments.interchange.test_trf_accept import hand_edited
from tournaments.interchange import import_trf_with_warnings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-forte-123"


@pytest.fixture
def imported(django_user_model):
    user = django_user_model.objects.create_user("diretora", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    t, _warnings = import_trf_with_warnings(hand_edited(), user=user)
    return t


WIDEST = (
    "Array.from(document.querySelectorAll('main *')).filter(e => e.getBoundingClientRect().right > "
    "document.scrollingElement.clientWidth).slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + "
    "Math.round(e.getBoundingClientRect().right) + ' ' + e.textContent.slice(0, 40))"
)


def fits(page):
    return page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")


def test_the_rounds_kept_for_one_player_on_a_phone(phone, live_server, imported, shot):
    page = phone
    base = f"{live_server.url}/t/{imported.slug}/"
    three = imported.entries.get(pairing_number=3)
    for name, url in [
        ("round", "rodadas/3/"),
        ("round-alpha", "rodadas/3/alfabetico/"),
        ("rounds", "rodadas/"),
        ("player", f"jogadores/{three.pk}/"),
    ]:
        assert page.goto(base + url).status == 200
        assert "(só na linha deste jogador)" in page.inner_text("main")
        shot(page, f"phone390-one-sided-{name}")
        assert fits(page), (url, page.evaluate(WIDEST))
    # the card's table needs no sideways scroll of its own either: its points and total are in view
    page.goto(base + f"jogadores/{three.pk}/")
    assert page.evaluate(
        "(() => { const s = document.querySelector('.table-scroll'); return s.scrollWidth <= s.clientWidth; })()"
    )
    page.goto(base + "rodadas/3/")
    section = page.locator("#one-sided")
    assert section.is_visible()
    assert section.locator("li").first.inner_text() == (
        "Abreu, Ana 1 — jogada, 1-0 (só na linha deste jogador) · Adversário: Cunha, Caio 3 · 1\xa0pts"
    )

    page.goto(f"{live_server.url}/entrar/?next=/gestao/")
    page.fill("input[name=username]", "diretora")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/gestao/$"))
    for name, url in [("staff-round", "rodada/3/"), ("staff-results", "rodada/3/resultados/")]:
        assert page.goto(f"{live_server.url}/gestao/t/{imported.slug}/{url}").status == 200
        rows = page.locator("#one-sided tbody tr")
        assert rows.count() == 6
        assert "vitória por W.O. (só na linha deste jogador)" in rows.nth(1).inner_text()
        page.locator("#one-sided").scroll_into_view_if_needed()
        shot(page, f"phone390-one-sided-{name}")
    assert page.locator("#results-form #one-sided").count() == 0
    assert page.locator("#results-form tr[data-board]").count() == 2
