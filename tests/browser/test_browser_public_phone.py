"""Issue 14, public pages and printing, in a real browser: every public page fits a 390 px phone, the phone's
pairings search filters the boards, the QR code on paper never covers text, the finished tournament leads with
its final standings and winners, the game viewer's buttons draw real glyphs. Screenshots in test-artifacts/."""

from datetime import date
from pathlib import Path

import pytest

from testkit.builders import build_tournament
from tests.browser.phone_layout import broken_headers, check_scroll_shadows, edge_shadows, fits, small_fields
from tournaments.entries.services import entry_register
from tournaments.games.services import game_attach_pdn
from tournaments.models import Entry, Game
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair
from tournaments.setup.services import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture
def finished(opening_tables, django_user_model):
    """Every planned round published with every result in: the tournament is over."""
    director = django_user_model.objects.create_user("org", password="senha-forte-123")
    return build_tournament(slug="final", players=21, rounds=3, user=director, name="Etapa Final de Olinda")


@pytest.fixture
def recorded(opening_tables, django_user_model):
    """A single-game event without a tablita whose one game has its moves recorded (for the game viewer)."""
    from tournaments.models import Player

    director = django_user_model.objects.create_user("arb", password="senha-forte-123")
    t = tournament_create(
        user=director,
        name="Relâmpago",
        slug="relampago",
        start_date=date(2026, 11, 7),
        end_date=date(2026, 11, 7),
        planned_rounds=1,
        format="single-game",
        opening_table=None,
    )
    for i, name in enumerate(["Ana Lins", "Bruno Dias"]):
        player = Player.objects.create(name=name, sex="F" if i == 0 else "M", rating=1900 - i, cbjd_id=f"RL{i}")
        entry_register(tournament=t, player=player, user=director)
    rnd = round_pair(tournament=t, user=director, publish=True)
    board = rnd.boards.get()
    game_record_result(board=board, results={1: "1/2"}, expected_version=1, user=director)
    game_attach_pdn(game=Game.objects.get(board=board), pdn="1. 22-18 11-15 2. 18x11 8x15", user=director, confirm=True)
    return t


def public_pages(t):
    entry = Entry.objects.filter(tournament=t).order_by("pairing_number").first()
    base = f"/t/{t.slug}/"
    return [
        ("home", "/"),
        ("tournament", base),
        ("pairings", f"{base}emparceiramento/"),
        ("pairings-alpha", f"{base}emparceiramento/alfabetico/"),
        ("rounds", f"{base}rodadas/"),
        ("round", f"{base}rodadas/2/"),
        ("round-alpha", f"{base}rodadas/2/alfabetico/"),
        ("opening", f"{base}rodadas/2/abertura/"),
        ("board", f"{base}rodadas/2/mesas/1/"),
        ("standings", f"{base}classificacao/"),
        ("standings-category", f"{base}classificacao/FEM/"),
        ("crosstable", f"{base}tabela-cruzada/"),
        ("players", f"{base}jogadores/"),
        ("player", f"{base}jogadores/{entry.pk}/"),
        ("screen-standings", f"{base}telao/classificacao/"),
        ("screen-pairings", f"{base}telao/emparceiramento/"),
        ("print-index", f"{base}imprimir/"),
        ("print-pairings", f"{base}imprimir/rodadas/2/mesas/"),
        ("print-pairings-alpha", f"{base}imprimir/rodadas/2/alfabetico/"),
        ("print-slips", f"{base}imprimir/rodadas/2/sumulas/"),
        ("print-standings", f"{base}imprimir/classificacao/"),
        ("print-crosstable", f"{base}imprimir/tabela-cruzada/"),
        ("print-qr", f"{base}imprimir/qr/"),
        ("not-found", f"{base}rodadas/99/"),
    ]


def test_no_public_page_scrolls_sideways_on_a_phone(phone, live_server, finished, recorded, shot):
    """... nor breaks a table header inside a word (a wide table scrolls sideways in its own box instead), nor has a
    field under 16 px (the pairings search, the language choice: iOS Safari zooms the page in when one is tapped)."""
    page = phone
    pages = public_pages(finished) + [("viewer", "/t/relampago/rodadas/1/mesas/1/")]
    wide, broken, small = [], [], []
    for name, url in pages:
        response = page.goto(live_server.url + url)
        assert response.status == (404 if name == "not-found" else 200), url
        shot(page, f"phone390-{name}", full_page=False)
        if not fits(page):
            wide.append(
                (url, page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]"))
            )
        broken += [(url, header) for header in broken_headers(page)]
        small += [(url, field) for field in small_fields(page)]
    assert wide == [], f"pages wider than a 390 px phone: {wide}"
    assert broken == [], f"table headers broken inside a word: {broken}"
    assert small == [], f"fields under 16 px: {small}"


def test_a_table_wider_than_the_phone_shows_a_shadow_where_more_of_it_is(phone, live_server, finished, shot):
    """The cross table and the players scroll sideways in their boxes: a shadow at the right edge at first, at the
    left edge at the end; the standings and the pairings fit and show none; paper shows none."""
    page = phone
    for name, url in [("crosstable", "/t/final/tabela-cruzada/"), ("players", "/t/final/jogadores/")]:
        page.goto(live_server.url + url)
        check_scroll_shadows(page, page.locator("main .table-scroll"), name, shot, f"phone390-{name}-shadow")
    for url in ["/t/final/classificacao/", "/t/final/emparceiramento/"]:
        page.goto(live_server.url + url)
        box = page.locator("main .table-scroll").first
        assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), url
        assert edge_shadows(page, box) == (False, False), url


def test_the_phone_pairings_search_filters_the_boards(phone, live_server, finished, shot):
    page = phone
    page.goto(f"{live_server.url}/t/final/emparceiramento/")
    rows = page.locator("table.pairings tbody tr")
    total = rows.count()
    assert total == 11  # ten boards and the bye
    entry = Entry.objects.filter(tournament=finished).select_related("player").order_by("pairing_number")[6]
    surname = entry.player.name.split()[-1]  # the number in the name: unique
    page.fill("input[data-filter]", surname)
    visible = page.locator("table.pairings tbody tr:visible")
    assert visible.count() == 1
    assert entry.player.name in visible.first.inner_text()
    hidden = page.evaluate(
        "Array.from(document.querySelectorAll('table.pairings tbody tr')).filter(r => r.hidden)"
        ".map(r => getComputedStyle(r).display)"
    )
    assert len(hidden) == total - 1 and set(hidden) == {"none"}  # `hidden` wins over the phone's grid rows
    shot(page, "phone390-pairings-search", full_page=False)
    page.fill("input[data-filter]", "")
    assert page.locator("table.pairings tbody tr:visible").count() == total


def boxes_overlap(a, b):
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize("width", [1280, 700, 390])
def test_the_printed_qr_code_never_covers_text(browser, live_server, finished, width, shot):
    context = browser.new_context(viewport={"width": width, "height": 1100}, locale="pt-BR")
    page = context.new_page()
    try:
        page.emulate_media(media="print")
        for url in ("rodadas/3/mesas/", "rodadas/3/alfabetico/", "classificacao/"):
            page.goto(f"{live_server.url}/t/final/imprimir/{url}")
            qr = page.locator(".print-qr").bounding_box()
            assert qr and qr["width"] > 0
            texts = page.evaluate(
                """() => {
                  const out = [];
                  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
                  while (walker.nextNode()) {
                    const node = walker.currentNode;
                    if (!node.textContent.trim() || node.parentElement.closest('.print-qr')) continue;
                    const range = document.createRange();
                    range.selectNodeContents(node);
                    for (const r of range.getClientRects()) {
                      if (r.width && r.height) out.push({text: node.textContent.trim().slice(0, 40),
                        x: r.x, y: r.y, width: r.width, height: r.height});
                    }
                  }
                  return out;
                }"""
            )
            if url == "rodadas/3/mesas/":  # the title that the QR code used to cover: the opening drawn
                assert "Tablita sorteada: " in page.locator(".print-title").inner_text()
            assert any(t["text"].startswith("Etapa Final de Olinda") for t in texts)
            covered = [t["text"] for t in texts if boxes_overlap(qr, t)]
            assert covered == [], f"{url} at {width} px: the QR code covers {covered}"
            shot(page, f"print-qr-{width}-{url.strip('/').replace('/', '-')}", full_page=False)
    finally:
        context.close()


def test_the_finished_tournament_leads_with_final_standings_and_winners(desktop, phone, live_server, finished, shot):
    for device, page in (("desktop", desktop), ("phone390", phone)):
        page.goto(f"{live_server.url}/t/final/")
        assert "Torneio encerrado" in page.locator(".hero").inner_text()
        first_section = page.locator("main section").nth(1)
        assert first_section.get_attribute("id") == "final-standings"
        assert first_section.locator("h2").inner_text().startswith("Classificação final")
        winners = first_section.locator("ul.winners li")
        # the Absoluto (everyone) is the overall standings: one line under its name, not "Geral" then "Absoluto"
        # with the same winner (issue 28.16)
        assert winners.count() == 2
        lines = [winners.nth(i).inner_text() for i in range(2)]
        assert lines[0].startswith("Absoluto:") and lines[1].startswith("Feminino:")
        leader = first_section.locator("ol.top-list li").first.inner_text()
        assert leader.split()[0] in ("1", "1-2", "1-3")
        shot(page, f"{device}-finished-home", full_page=False)


def test_the_game_viewer_buttons_draw_real_glyphs(desktop, live_server, recorded, shot):
    page = desktop
    page.goto(f"{live_server.url}/t/relampago/rodadas/1/mesas/1/")
    buttons = page.locator(".viewer-controls button")
    assert [buttons.nth(i).inner_text() for i in range(4)] == ["«", "‹", "›", "»"]
    # A glyph no installed font has is drawn as the same empty box as an unassigned code point: compare pixels.
    missing = page.evaluate(
        """() => {
          const font = getComputedStyle(document.querySelector('.viewer-controls button')).font;
          const draw = (text) => {
            const c = document.createElement('canvas'); c.width = 60; c.height = 60;
            const ctx = c.getContext('2d'); ctx.font = font; ctx.fillStyle = '#000';
            ctx.fillText(text, 10, 40);
            return Array.from(ctx.getImageData(0, 0, 60, 60).data).join(',');
          };
          const tofu = draw('\\u{10FFFD}');
          return Array.from(document.querySelectorAll('.viewer-controls button'))
            .map(b => b.textContent.trim()).filter(t => draw(t) === tofu);
        }"""
    )
    assert missing == []
    assert page.locator("[data-frame]:visible").count() == 1
    buttons.nth(2).click()
    assert "22-18" in page.locator("[data-frame]:visible figcaption").inner_text()
    buttons.nth(3).click()
    assert "8x15" in page.locator("[data-frame]:visible figcaption").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".viewer").screenshot(path=str(ARTIFACTS / "viewer-buttons.png"))
