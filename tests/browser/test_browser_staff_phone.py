"""The staff pages a director opens at the venue, on a 390 px phone: no page is wider than the screen, no table
header breaks inside a word ("m/e/s/a"), no result box cuts its value, no field typed into is under 16 px (iOS Safari
zooms the page in when one is tapped); the round's pairing table shows the board, both players and the result in view
(the numbers, ratings and points beside each player are left out on a phone's screen, never on paper), and the
results form the board, both players and the games. A wider table scrolls sideways inside its own box, a shadow at
the edge where more of it is. Screenshots in test-artifacts/ (phone390-staff-*)."""

import re

import pytest

from tests.browser.phone_layout import (
    WIDEST,
    broken_headers,
    check_scroll_shadows,
    cut_inputs,
    edge_shadows,
    fits,
    small_fields,
)
from tournaments.entries.services import entry_withdraw
from tournaments.models import ForbiddenPair
from tournaments.models.choices import WithdrawalKind
from tournaments.rounds.services import round_pair
from tournaments.setup.demo import DEMO_USERNAME, load_demo

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-forte-123"

PAIRING_HEADERS = [
    "mesa",
    "Nº",
    "Brancas (partida 1)",
    "rating",
    "pts antes",
    "pts",
    "resultado",
    "pts",
    "pts antes",
    "rating",
    "Pretas (partida 1)",
    "Nº",
    "partidas",
    "tablita",
]
# every result a box shows or is typed with: the micro-match games', the single games', the forfeits'
RESULT_LABELS = ["2-0", "1-1", "0-2", "1-0", "½-½", "1/2", "0-1", "+/-", "-/+", "-/-"]
FONT_SIZES = "selector => Array.from(document.querySelectorAll(selector)).map(f => getComputedStyle(f).fontSize)"
# each header of the page's first table: its text, whether it shows, whether it ends inside the screen
HEADERS = """() => Array.from(document.querySelector('main table').querySelectorAll('thead th')).map(th => [
  th.textContent.trim().replace(/\\s+/g, ' '), th.getClientRects().length > 0,
  th.getBoundingClientRect().right <= document.scrollingElement.clientWidth])"""


@pytest.fixture
def demo(django_user_model):
    """The demo tournament (4 rounds played, a bye, a forfeit, a withdrawal), round 5 paired as a draft, an
    abandonment (a suspension) and a forbidden pair; the demo's director can log in."""
    t, _created = load_demo()
    user = django_user_model.objects.get(username=DEMO_USERNAME)
    user.set_password(PASSWORD)
    user.save()
    entries = list(t.entries.filter(withdrawn_from_round__isnull=True).order_by("pairing_number"))
    entry_withdraw(entry=entries[-1], from_round=5, kind=WithdrawalKind.ABANDONMENT, user=user)
    ForbiddenPair.objects.create(tournament=t, entry_a=entries[0], entry_b=entries[1], reason="mesmo clube")
    round_pair(tournament=t, user=user, publish=False)
    return t


def staff_pages(t):
    entry = t.entries.order_by("pairing_number").first()
    category = t.categories.order_by("pk").first()
    base = f"/gestao/t/{t.slug}/"
    return [
        ("home", "/gestao/"),
        ("dashboard", base),
        ("entries", f"{base}inscritos/"),
        ("entry", f"{base}inscritos/{entry.pk}/"),
        ("ratings", f"{base}ratings/"),
        ("round", f"{base}rodada/4/"),
        ("round-draft", f"{base}rodada/5/"),
        ("round-edit", f"{base}rodada/5/editar/"),
        ("results", f"{base}rodada/4/resultados/"),
        ("results-forfeit", f"{base}rodada/2/resultados/"),
        ("standings", f"{base}classificacao/"),
        ("categories", f"{base}categorias/"),
        ("category", f"{base}categorias/{category.pk}/"),
        ("homologation", f"{base}homologacao/"),
        ("forbidden-pairs", f"{base}pares-proibidos/"),
        ("suspensions", f"{base}suspensoes/"),
        ("roles", f"{base}equipe/"),
        ("audit", f"{base}auditoria/"),
        ("registry", "/gestao/cadastro/"),
        ("player", f"/gestao/cadastro/{entry.player_id}/"),
        ("opening-tables", "/gestao/tabelas-de-aberturas/"),
    ]


def log_in(page, base):
    page.goto(f"{base}/entrar/?next=/gestao/")
    page.fill("input[name=username]", DEMO_USERNAME)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/gestao/$"))


def test_staff_pages_fit_a_phone_and_their_headers_keep_their_words(phone, live_server, demo, shot):
    page = phone
    log_in(page, live_server.url)
    problems = {}
    for name, url in staff_pages(demo):
        assert page.goto(live_server.url + url).status == 200, url
        # every <details> open, so that the tables inside them are measured too
        page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
        shot(page, f"phone390-staff-{name}")
        found = {"wider than the screen": [] if fits(page) else page.evaluate(WIDEST)}
        found.update({"headers broken inside a word": broken_headers(page), "inputs cut": cut_inputs(page)})
        found["fields under 16 px"] = small_fields(page)
        if any(found.values()):
            problems[name] = found
    assert not problems, "\n".join(f"{name}: {found}" for name, found in problems.items())


def test_the_round_and_results_tables_keep_the_boards_in_view(phone, live_server, demo, shot):
    page = phone
    log_in(page, live_server.url)
    base = f"{live_server.url}/gestao/t/{demo.slug}/"
    page.goto(base + "rodada/4/")
    headers = page.evaluate(HEADERS)
    assert [h[0] for h in headers] == PAIRING_HEADERS
    shown = {text: in_view for text, visible, in_view in headers if visible}
    # board, White, result, Black in view; games and opening to their right, in the table's own sideways scroll
    assert shown == {
        "mesa": True,
        "Brancas (partida 1)": True,
        "resultado": True,
        "Pretas (partida 1)": True,
        "partidas": False,
        "tablita": False,
    }
    assert page.locator("main tbody tr").first.locator("td:visible").all_inner_texts()[:4] == [
        "1",
        "Marcos Lima Silva",
        "3 - 1",
        "Mateus Carvalho Pereira",
    ]
    page.locator("main table").first.evaluate("t => t.scrollIntoView()")
    shot(page, "phone390-staff-round-table", full_page=False)
    # on paper (printed from the phone), and on a wide screen, every column
    page.emulate_media(media="print")
    assert all(visible for _text, visible, _in_view in page.evaluate(HEADERS))
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert all(visible and in_view for _text, visible, in_view in page.evaluate(HEADERS))
    page.set_viewport_size({"width": 390, "height": 844})

    page.goto(base + "rodada/4/resultados/")
    headers = page.evaluate(HEADERS)
    assert [h[0] for h in headers] == [
        "Mesa",
        "Primeiro (brancas na partida 1)",
        "Partida 1",
        "Partida 2",
        "Segundo",
        "Placar",
    ]
    # the score, the games' sum, is what a phone leaves out: the boxes typed in and both players are in view
    assert [(text, visible and in_view) for text, visible, in_view in headers] == [
        ("Mesa", True),
        ("Primeiro (brancas na partida 1)", True),
        ("Partida 1", True),
        ("Partida 2", True),
        ("Segundo", True),
        ("Placar", False),
    ]
    assert page.input_value("#results-form tr[data-board='1'] input.result-input >> nth=0") == "2-0"
    page.locator("#results-form").evaluate("f => f.scrollIntoView()")
    shot(page, "phone390-staff-results-table", full_page=False)
    page.emulate_media(media="print")
    assert all(visible for _text, visible, _in_view in page.evaluate(HEADERS))


def test_the_results_and_the_entry_forms_type_at_16px(phone, live_server, demo, shot):
    """The arbiter types results board after board, the director searches and enters players: every one of those
    fields is 16 px (under that, iOS Safari zooms the page in at each tap), and a result box still shows each result
    whole in a results form that fits the screen."""
    page = phone
    log_in(page, live_server.url)
    base = f"{live_server.url}/gestao/t/{demo.slug}/"
    page.goto(base + "rodada/4/resultados/")
    sizes = page.evaluate(FONT_SIZES, "#results-form input.result-input")
    assert len(sizes) == 2 * demo.rounds.get(number=4).boards.count()
    assert set(sizes) == {"16px"}
    box = page.locator("#results-form tr[data-board='1'] input.result-input").first
    for label in RESULT_LABELS:
        box.fill(label)
        assert cut_inputs(page) == [], label
    assert fits(page)
    assert page.evaluate("(b => b.scrollWidth <= b.clientWidth)(document.querySelector('#results-form .table-scroll'))")
    box.fill("½-½")  # the widest, beside the suggestions' arrow of the focused box
    page.locator("#results-form").evaluate("f => f.scrollIntoView()")
    shot(page, "phone390-staff-results-typed", full_page=False)

    # entering players: the search, the new player's form (text, date, choice) and the pasted list
    page.goto(base + "inscritos/?q=silva")
    page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
    for selector in [
        "input[type=search][name=q]",
        "#id_name",
        "#id_sex",
        "#id_birth_date",
        "#id_rating",
        "textarea[name=lines]",
        ".lang-form select",
    ]:
        assert page.evaluate(FONT_SIZES, selector) == ["16px"], selector
    page.goto(f"{live_server.url}/gestao/cadastro/")
    assert page.evaluate(FONT_SIZES, "main input[type=search]") == ["16px"]


def test_a_table_wider_than_the_phone_shows_a_shadow_where_more_of_it_is(phone, live_server, demo, shot):
    """The round's pairings, the entries and the standings scroll sideways in their boxes: a shadow at the right edge
    at first, at both edges half way, at the left edge at the end. A table that fits (the results form, the
    tournaments) shows none, nor does paper."""
    page = phone
    log_in(page, live_server.url)
    base = f"{live_server.url}/gestao/t/{demo.slug}/"
    wide = [
        ("round", base + "rodada/4/", "main .table-container"),
        ("entries", base + "inscritos/", "main .table-container"),
        ("standings", base + "classificacao/", "main .table-scroll:has(#staff-standings)"),
    ]
    for name, url, selector in wide:
        page.goto(url)
        check_scroll_shadows(page, page.locator(selector), name, shot, f"phone390-staff-{name}-table-shadow")
    for url, selector in [(base + "rodada/4/resultados/", "#results-form .table-scroll"), (base, "main .table-scroll")]:
        page.goto(url)
        box = page.locator(selector).first
        assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), url
        assert edge_shadows(page, box) == (False, False), url
