"""Issue 28, points 7, 10 and 13 in a real browser: the staff round table on a 1366 px laptop (a board a line, the
names whole on it, "s/r" for an unrated player, a whole round on few screens); the staff standings (the table
first, the regulation's readings folded, print and export links, "(rascunhos incluídos)" only while a counted
round is a draft) on the laptop and on a 390 px phone; the homologation page saying the workbook's state around
its download, and the file downloaded saying the same. Screenshots in test-artifacts/ (laptop1366-*, phone390-*)."""

import io
import re

import pytest
from openpyxl import load_workbook

from tests.browser.conftest import watch_csp
from tests.browser.phone_layout import fits
from tournaments.models import Entry, Game, Round, Tournament
from tournaments.models.tournament import facts_changed
from tournaments.rounds.services import round_pair
from tournaments.setup.demo import DEMO_USERNAME, load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-forte-123"
LAPTOP = {"width": 1366, "height": 768}

# each row of the page's pairing table: its height, and whether a player's name sits on one line and whole
ROW_BOXES = """() => Array.from(document.querySelectorAll('main table.round-table tbody tr')).map(tr => {
  const names = Array.from(tr.querySelectorAll('td.name')).map(td => {
    const range = document.createRange();
    range.selectNodeContents(td);
    const lines = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
    return [td.textContent.trim(), lines.size, td.scrollWidth <= td.clientWidth + 1];
  });
  return [tr.getBoundingClientRect().height, names];
})"""


@pytest.fixture
def demo(django_user_model):
    """The demo (40 players, 4 rounds played), its director able to log in; one player unrated."""
    t, _created = load_demo()
    user = django_user_model.objects.get(username=DEMO_USERNAME)
    user.set_password(PASSWORD)
    user.save()
    with facts_changed("jogador sem rating na lista"):  # issue 35.3: after round 1, only with a reason
        Entry.objects.filter(tournament=t, pairing_number=39).update(rating=None)
    return Tournament.objects.get(pk=t.pk), user


def downloaded(info):
    """The workbook a download gave (its temporary file has no extension: read as bytes)."""
    return load_workbook(io.BytesIO(info.value.path().read_bytes()))


def log_in(page, base):
    page.goto(f"{base}/entrar/?next=/gestao/")
    page.fill("input[name=username]", DEMO_USERNAME)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/gestao/$"))


@pytest.fixture
def laptop(browser):
    context = browser.new_context(viewport=LAPTOP, locale="pt-BR", accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    violations = watch_csp(page)
    yield page
    context.close()
    assert not violations, violations


def test_the_round_table_shows_a_round_on_few_screens_of_a_laptop(laptop, live_server, demo, shot):
    t, _user = demo
    page = laptop
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/gestao/t/{t.slug}/rodada/4/")
    boards = Round.objects.get(tournament=t, number=4).boards.count()
    rows = page.evaluate(ROW_BOXES)
    assert len(rows) == boards == 19  # 40 entries, one withdrawn, a bye
    heights = [h for h, _names in rows]
    names = [n for _h, pair in rows for n in pair]
    assert len(names) == 38
    # every name on one line, whole (none cut by its cell)
    assert [n for n in names if n[1] != 1 or not n[2]] == []
    # compact rows: a board a line of at most 30 px, so 19 boards take under one 768 px screen's height
    assert max(heights) <= 30, heights
    assert sum(heights) < LAPTOP["height"]
    assert fits(page)
    table = page.locator("main table.round-table")
    assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth + 1"), "the table scrolls sideways"
    # rows per screen: the table's rows visible at once below its header once it is scrolled to
    table.evaluate("t => t.scrollIntoView()")
    in_view = page.evaluate(
        "Array.from(document.querySelectorAll('main table.round-table tbody tr'))"
        ".filter(tr => tr.getBoundingClientRect().bottom <= window.innerHeight).length"
    )
    assert in_view == boards
    shot(page, "laptop1366-staff-round-table", full_page=False)
    shot(page, "laptop1366-staff-round")

    # an unrated player: "s/r", as the public standings say it
    unrated = Entry.objects.get(tournament=t, pairing_number=39)
    row = page.locator("main table.round-table tbody tr", has_text=unrated.player.name)
    assert "s/r" in row.locator("td.rating").all_inner_texts()
    assert "s/r" in page.goto(f"{live_server.url}/t/{t.slug}/classificacao/").text()


def standings_checks(page, base, t):
    page.goto(f"{base}/gestao/t/{t.slug}/classificacao/")
    # the table comes first, right under the title and the links; the readings below it, folded
    order = page.evaluate(
        "['#staff-standings', '#readings'].map(s => document.querySelector(s).getBoundingClientRect().top)"
    )
    assert order[0] < order[1]
    assert page.locator("#readings").get_attribute("open") is None
    assert not page.locator("#readings li").first.is_visible()
    page.locator("#readings summary").click()
    assert page.locator("#readings li").first.is_visible()
    assert page.locator("#standings-state").inner_text() == "após a rodada 4"  # every counted round published
    links = page.locator("#standings-files a")
    assert links.all_inner_texts() == ["classificação publicada", "CSV", "XLSX"]
    assert links.first.get_attribute("href") == f"/t/{t.slug}/imprimir/classificacao/"
    assert fits(page)


def test_the_staff_standings_table_first_readings_folded_print_and_export(laptop, live_server, demo, shot):
    t, user = demo
    page = laptop
    log_in(page, live_server.url)
    standings_checks(page, live_server.url, t)
    shot(page, "laptop1366-staff-standings")
    with page.expect_download() as info:
        page.locator("#standings-files a", has_text="XLSX").click()
    ws = downloaded(info).active
    assert ws.title == "Classificação"
    assert [c.value for c in ws[1]][:4] == ["#", "Nº", "Nome", "Pontos"]
    assert ws.max_row == 41 and isinstance(ws.cell(2, 4).value, (int, float))
    assert page.locator("#staff-standings tbody tr").first.locator("td").nth(2).inner_text() == ws.cell(2, 3).value

    # round 5 paired as a draft and its results in: counted, and said to be a draft
    rnd = round_pair(tournament=t, user=user, publish=False)
    Game.objects.filter(board__round=rnd).update(result="1/2")
    page.goto(f"{live_server.url}/gestao/t/{t.slug}/classificacao/")
    assert page.locator("#standings-state").inner_text() == "após a rodada 5 (rascunhos incluídos)"
    assert "rodada 5 é rascunho" in page.locator("#standings-files").inner_text()
    # a category's export keeps to the category
    page.goto(f"{live_server.url}/gestao/t/{t.slug}/classificacao/?categoria=FEM")
    with page.expect_download() as info:
        page.locator("#standings-files a", has_text="CSV").click()
    women = Entry.objects.filter(tournament=t, categories__code="FEM").count()
    assert len(info.value.path().read_text(encoding="utf-8-sig").strip().splitlines()) == women + 1


def test_the_staff_standings_on_a_phone(phone, live_server, demo, shot):
    t, _user = demo
    log_in(phone, live_server.url)
    standings_checks(phone, live_server.url, t)
    phone.goto(f"{live_server.url}/gestao/t/{t.slug}/classificacao/")
    phone.evaluate("window.scrollTo(0, 0)")
    # the first screen of a phone shows the links and the table's first rows (the readings, folded, after it)
    bottom = phone.locator("#staff-standings tbody tr").nth(1).evaluate("tr => tr.getBoundingClientRect().bottom")
    shot(phone, "phone390-staff-standings-top", full_page=False)
    assert 0 < bottom <= 844


def test_the_homologation_page_says_the_workbooks_state_around_its_download(laptop, live_server, demo, shot):
    t, user = demo
    page = laptop
    log_in(page, live_server.url)
    # every planned round played, so the sending can be recorded
    for _n in range(t.rounds.count(), t.planned_rounds):
        rnd = round_pair(tournament=t, user=user, publish=True)
        Game.objects.filter(board__round=rnd).update(result="1/2")
    page.goto(f"{live_server.url}/gestao/t/{t.slug}/homologacao/")
    state = page.locator("#workbook-state")
    assert state.inner_text().startswith("Estado: rascunho, ainda não registrado como enviado.")
    page.locator("#workbook").scroll_into_view_if_needed()
    shot(page, "laptop1366-staff-homologation-draft", full_page=False)
    with page.expect_download() as info:
        page.click("#workbook-download")
    first = [c.value for c in downloaded(info)["Evento"][2]]
    assert first == ["Estado", "rascunho — ainda não registrado como enviado à federação"]

    page.click("#workbook button[type=submit]")
    page.wait_for_url(re.compile(r"/homologacao/#workbook$"))  # back on the workbook's part of the page
    sent = Tournament.objects.get(pk=t.pk).homologation_exported_at
    assert sent is not None
    day = sent.astimezone(__import__("zoneinfo").ZoneInfo(t.time_zone)).strftime("%d/%m/%Y")
    assert page.locator("#workbook-state").inner_text().startswith(f"Registrada como enviada à federação em {day}")
    shot(page, "laptop1366-staff-homologation-sent", full_page=False)
    with page.expect_download() as info:
        page.click("#workbook-download")
    wb = downloaded(info)
    assert [c.value for c in wb["Evento"][2]] == ["Estado", f"enviado em {day}"]
