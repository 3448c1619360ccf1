"""Players report from their phones, in a real browser (issue 30): two phones and the arbiter's laptop in one
test. Board 1: the first player reports, the opponent confirms on the other phone, the arbiter approves every
confirmed board in one click, and the public pairings open on a third phone change by themselves. Board 2: the
two reports differ, the arbiter's page says conflict and approval leaves it alone. Screenshots in
test-artifacts/."""

import pytest

from testkit.builders import build_tournament
from tournaments.models import Board, Game, PlayerCode, Seat
from tournaments.reporting.services import codes_issue

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-forte-123"


@pytest.fixture
def event(opening_tables, django_user_model):
    from django.contrib.auth.models import Permission

    director = django_user_model.objects.create_user("diretora", password=PASSWORD)
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    t = build_tournament(slug="relatos", players=10, rounds=3, user=director, complete_last=False, name="Etapa Relatos")
    codes_issue(tournament=t, user=director)
    return t


def players_of(t, number):
    board = Board.objects.get(round__tournament=t, round__number=3, number=number)
    first = Seat.objects.get(board=board, side="first").entry
    second = Seat.objects.get(board=board, side="second").entry
    return board, first, second


def open_my_board(page, base, t, entry):
    page.goto(f"{base}/t/{t.slug}/minha-mesa/")
    if page.locator("#id_code").count() == 0:  # signed in as another player on this phone: "Não sou eu: sair"
        page.click("text=Não sou eu: sair")
        page.wait_for_url(f"**/t/{t.slug}/minha-mesa/entrar/")
    page.fill("#id_code", PlayerCode.objects.get(entry=entry).pin.lower())
    page.click("button[type=submit]")
    page.wait_for_url(f"**/t/{t.slug}/minha-mesa/")


def report(page, game1, game2):
    page.check(f"input[name=game1][value={game1}]")
    page.check(f"input[name=game2][value={game2}]")
    page.click("form.report-form button[type=submit] >> nth=0")


@pytest.fixture
def second_phone(browser):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale="pt-BR"
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def watcher(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="pt-BR")
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def test_report_confirm_conflict_and_approve_with_two_phones_and_the_laptop(
    phone, second_phone, watcher, desktop, live_server, event, shot
):
    base, t = live_server.url, event
    board1, ana, bia = players_of(t, 1)
    board2, caio, duda = players_of(t, 2)
    watcher.goto(f"{base}/t/{t.slug}/emparceiramento/")
    row = watcher.locator("table.pairings tbody tr").filter(has_text=ana.player.name)
    before = row.inner_text()

    # Board 1: the first player reports 2 wins; the opponent sees it and confirms.
    open_my_board(phone, base, t, ana)
    assert f"Mesa {board1.number}" in phone.inner_text("main") or "mesa 1" in phone.inner_text("main").lower()
    report(phone, "W", "W")
    assert phone.locator('[data-report-state="waiting"]').is_visible()
    shot(phone, "phone390-report-sent", full_page=False)
    open_my_board(second_phone, base, t, bia)
    assert second_phone.locator('[data-report-state="to-confirm"]').is_visible()
    shot(second_phone, "phone360-report-to-confirm", full_page=False)
    second_phone.click("button[data-confirm]")
    assert second_phone.locator('[data-report-state="confirmed"]').is_visible()

    # Board 2: the two players disagree.
    open_my_board(phone, base, t, caio)  # the same phone, now signed in for another player of the tournament
    report(phone, "W", "D")
    open_my_board(second_phone, base, t, duda)
    report(second_phone, "W", "D")  # Duda also says she won game 1
    assert second_phone.locator('[data-report-state="conflict"]').is_visible()

    # The arbiter's laptop: states, then one click approves the confirmed board only.
    desktop.goto(f"{base}/entrar/?next=/gestao/t/{t.slug}/rodada/3/resultados/")
    desktop.fill("#id_username", "diretora")
    desktop.fill("#id_password", PASSWORD)
    desktop.click("button[type=submit]")
    desktop.wait_for_url("**/rodada/3/resultados/**")
    panel = desktop.locator("#relatos")
    assert panel.locator(f'tr[data-board="{board1.number}"][data-report-state="confirmed"]').is_visible()
    assert panel.locator(f'tr[data-board="{board2.number}"][data-report-state="conflict"]').is_visible()
    shot(desktop, "desktop-results-reports", full_page=False)
    desktop.click("button[data-approve-all]")
    desktop.wait_for_url("**/rodada/3/resultados/**")
    assert "1 mesa aprovada" in desktop.inner_text(".messages")
    assert dict(Game.objects.filter(board=board1).values_list("number", "result")) == {1: "1-0", 2: "0-1"}
    assert set(Game.objects.filter(board=board2).values_list("result", flat=True)) == {None}

    # The public pairings on the third phone change by themselves; the first player's page says approved.
    watcher.wait_for_function(
        "([name, before]) => Array.from(document.querySelectorAll('table.pairings tbody tr'))"
        ".some(r => r.textContent.includes(name) && r.innerText !== before)",
        arg=[ana.player.name, before],
        timeout=15000,
    )
    shot(watcher, "phone390-public-after-approval", full_page=False)
    open_my_board(phone, base, t, ana)
    assert phone.locator('[data-report-state="approved"]').is_visible()
    assert phone.locator("form.report-form").count() == 0  # nothing left to send: the arbiter has the result


def test_the_director_prints_the_players_cards_and_reissues_a_code(desktop, live_server, event, shot):
    base, t = live_server.url, event
    desktop.goto(f"{base}/entrar/?next=/gestao/t/{t.slug}/relatos/")
    desktop.fill("#id_username", "diretora")
    desktop.fill("#id_password", PASSWORD)
    desktop.click("button[type=submit]")
    desktop.wait_for_url(f"**/gestao/t/{t.slug}/relatos/")
    shot(desktop, "desktop-reporting-settings", full_page=False)
    _board, ana, _bia = players_of(t, 1)
    old = PlayerCode.objects.get(entry=ana).pin
    desktop.locator("tr", has_text=ana.player.name).locator("button", has_text="Novo código").click()
    desktop.wait_for_url(f"**/gestao/t/{t.slug}/relatos/")
    assert "não funcionam mais" in desktop.inner_text(".messages")
    assert PlayerCode.objects.get(entry=ana).pin != old
    desktop.goto(f"{base}/gestao/t/{t.slug}/relatos/cartoes/")
    cards = desktop.locator(".player-card")
    assert cards.count() == 10
    assert cards.first.locator("svg").count() == 1
    assert PlayerCode.objects.get(entry=ana).pin[:3] in desktop.inner_text(".player-cards")
    shot(desktop, "desktop-player-cards")


def director_login(page, base, next_url):
    page.goto(f"{base}/entrar/?next={next_url}")
    page.fill("#id_username", "diretora")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_url}")


def test_wrong_codes_make_the_phone_wait_and_the_arbiter_sees_and_clears_them(
    phone, second_phone, desktop, live_server, event, shot
):
    """Issue 34.2: a phone typing wrong codes waits (growing waits, told in Portuguese); the reporting page lists
    its address with the counts, on the laptop and on a phone's width; one click clears it and the right code
    signs in at once."""
    base, t = live_server.url, event
    _board, ana, _bia = players_of(t, 1)
    phone.goto(f"{base}/t/{t.slug}/minha-mesa/entrar/")
    for _ in range(12):  # five are free, then 2 s, 4 s, 8 s...: a try soon meets a wait, however slow the machine
        phone.fill("#id_code", "ZZZ-ZZZ")
        phone.click("button[type=submit]")
        phone.wait_for_load_state()
        if "Tente de novo em" in phone.inner_text("main"):
            break
    text = phone.inner_text("main")
    assert "Muitos códigos errados desta conexão. Tente de novo em" in text
    assert "leia o QR do seu cartão ou procure o árbitro" in text
    shot(phone, "phone390-wrong-codes-wait", full_page=False)

    director_login(desktop, base, f"/gestao/t/{t.slug}/relatos/")
    row = desktop.locator('#code-attempts-table tr[data-address="127.0.0.1"]')
    assert row.is_visible()
    cells = row.locator("td").all_inner_texts()
    assert int(cells[1]) >= 6 and int(cells[2]) >= 1  # wrong codes read, and tries refused while waiting
    shot(desktop, "desktop-reporting-wrong-codes", full_page=False)

    director_login(second_phone, base, f"/gestao/t/{t.slug}/relatos/")  # the arbiter on a phone's width
    assert second_phone.locator('#code-attempts-table tr[data-address="127.0.0.1"]').count() == 1
    assert second_phone.locator("#code-attempts-table").is_visible()
    overflow = second_phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, overflow  # the table scrolls inside its box, the page does not
    shot(second_phone, "phone360-reporting-wrong-codes")

    row.locator("button", has_text="Liberar").click()
    desktop.wait_for_url(f"**/gestao/t/{t.slug}/relatos/")
    assert "Códigos errados de 127.0.0.1 liberados" in desktop.inner_text(".messages")
    assert "Nenhum código errado na última hora." in desktop.inner_text("#code-attempts")

    phone.fill("#id_code", PlayerCode.objects.get(entry=ana).pin)  # the right code: at once
    phone.click("button[type=submit]")
    phone.wait_for_url(f"**/t/{t.slug}/minha-mesa/")
