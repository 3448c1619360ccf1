"""Result slips print four to an A4 page (issue 28 item 5): chromium prints the slips page to PDF, as the browser's
print dialog does (A4 from the page's own @page rule), and the PDF has one page per four boards: 24 boards on 6
sheets, not 12. Also with the opening drawn and the players' QR (reporting on), the slips' fullest form, and for
single-game events. The PDF is kept in test-artifacts/ (slips-*.pdf)."""

import re

import pytest

from tests.browser.conftest import ARTIFACTS
from tournaments.entries.services import entry_register
from tournaments.rounds.services import round_pair
from tournaments.setup.services import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pdf_pages(data: bytes) -> int:
    """The number of pages of a PDF chromium wrote (its page objects: /Type /Page, not /Pages)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def event(director, make_player, players, **settings):
    from datetime import date

    t = tournament_create(
        user=director,
        name="Circuito Nacional de Damas – Etapa Recife (Clube Português do Recife)",
        slug="etapa",
        start_date=date(2026, 11, 8),
        end_date=date(2026, 11, 9),
        **settings,
    )
    for i in range(players):
        name = f"Maria Eduarda Cavalcanti de Albuquerque {i + 1:02d}" if i % 3 == 0 else f"Jogador {i + 1:02d}"
        entry_register(tournament=t, player=make_player(name=name, rating=2000 - i), user=director)
    return t, round_pair(tournament=t, user=director, publish=True)


# slips whose content is taller than their quarter of the page (it would run into the next one), as printed
OVERFLOWING = """() => Array.from(document.querySelectorAll('.slip'))
  .filter(s => s.scrollHeight > s.clientHeight + 1).map(s => s.querySelector('.slip-board').textContent)"""


def print_pdf(page, url, name):
    page.goto(url)
    page.emulate_media(media="print")
    data = page.pdf(prefer_css_page_size=True, print_background=True)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"{name}.pdf").write_bytes(data)
    assert page.evaluate(OVERFLOWING) == []
    return data


@pytest.mark.parametrize("players,sheets", [(48, 6), (47, 6), (8, 1), (10, 2)])
def test_four_slips_to_a_page(desktop, live_server, director, make_player, players, sheets):
    t, rnd = event(director, make_player, players)
    url = f"{live_server.url}/t/{t.slug}/imprimir/rodadas/1/sumulas/"
    data = print_pdf(desktop, url, f"slips-{players}")
    assert desktop.locator(".slip").count() == players // 2
    assert pdf_pages(data) == sheets


def test_four_slips_to_a_page_with_the_opening_and_the_players_qr(desktop, live_server, director, make_player, shot):
    from tournaments.setup.openings import opening_draw

    t, rnd = event(director, make_player, 16)
    opening_draw(round=rnd, user=director)  # reporting is on unless the director turns it off: the QR is printed
    url = f"{live_server.url}/t/{t.slug}/imprimir/rodadas/1/sumulas/"
    data = print_pdf(desktop, url, "slips-opening-qr")
    assert desktop.locator(".slip .slip-qr svg").count() == 8 and desktop.locator(".slip-opening").count() == 8
    assert pdf_pages(data) == 2
    shot(desktop, "slips-opening-qr-print")
