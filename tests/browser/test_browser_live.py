"""Live public pages in a real browser (issue 30): a phone showing the pairings sees a result the arbiter saves
appear by itself within a few seconds, without a reload, keeping the name typed in its search box; an idle page
only asks the small version endpoint (304s) and never fetches the page again."""

import pytest

from testkit.builders import build_tournament
from tournaments.models import Board, Entry
from tournaments.rounds.results import game_record_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def playing(opening_tables, django_user_model):
    director = django_user_model.objects.create_user("arbitra", password="senha-forte-123")
    t = build_tournament(slug="ao-vivo", players=10, rounds=3, user=director, complete_last=False, name="Etapa ao Vivo")
    return t, director


def test_a_saved_result_appears_on_the_phone_without_a_reload(phone, live_server, playing, shot):
    t, director = playing
    requests = []
    phone.on("request", lambda r: requests.append(r.url))
    phone.goto(f"{live_server.url}/t/{t.slug}/emparceiramento/")
    board = Board.objects.get(round__tournament=t, round__number=3, number=1)
    first = Entry.objects.get(seats__board=board, seats__side="first").player.name
    row = phone.locator("table.pairings tbody tr").filter(has_text=first)
    before = row.inner_text()
    phone.fill("input[data-filter]", first.split()[-1])
    assert phone.locator("table.pairings tbody tr:visible").count() == 1
    phone.evaluate("window.__notReloaded = true")

    game_record_result(board=board, results={1: "1-0", 2: "1-0"}, expected_version=board.version, user=director)

    phone.wait_for_function(
        "([name, before]) => Array.from(document.querySelectorAll('table.pairings tbody tr'))"
        ".some(r => r.textContent.includes(name) && r.innerText !== before)",
        arg=[first, before],
        timeout=15000,
    )
    assert phone.evaluate("window.__notReloaded === true")  # the same document: updated in place
    assert phone.input_value("input[data-filter]") == first.split()[-1]  # the search typed is kept...
    assert phone.locator("table.pairings tbody tr:visible").count() == 1  # ...and still applied
    shot(phone, "phone390-live-result", full_page=False)
    assert sum(1 for url in requests if url.endswith("/versao/")) >= 1


def test_an_idle_page_only_asks_the_version(phone, live_server, playing):
    t, _director = playing
    responses = []
    phone.on("response", lambda r: responses.append((r.url, r.status)))
    phone.goto(f"{live_server.url}/t/{t.slug}/classificacao/")
    phone.wait_for_timeout(11500)  # two checks at the 5-second pace
    checks = [status for url, status in responses if url.endswith("/versao/")]
    assert len(checks) >= 2
    pages = [url for url, _status in responses if url.endswith("/classificacao/")]
    assert len(pages) == 1  # nothing changed: the page itself was not fetched again
