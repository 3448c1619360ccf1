"""The whole event in a real browser: a director runs a round through the staff pages; players follow it on
their phones; the venue prints and projects it."""

import re

import pytest
from django.contrib.auth.models import Permission

from testkit.builders import build_tournament
from tournaments.models import Player, Tournament
from tournaments.registry.services import federation_group

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pair_next(page):
    """The dashboard's "Emparceirar a próxima rodada", then who is present: nobody absent here (issue 28.12)."""
    page.click("#pair-next")
    page.click("#confirm-presence")


PASSWORD = "senha-forte-123"


@pytest.fixture
def director_login(django_user_model):
    user = django_user_model.objects.create_user("diretora", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    # she enters a new player with a CBJD ID and a rating: national data, the federation's (issue 25, item 7)
    user.groups.add(federation_group())
    return user


def no_horizontal_scroll(page):
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")


def test_a_director_runs_a_round_and_the_public_sees_it(desktop, live_server, director_login, shot):
    page = desktop
    base = live_server.url
    for i, name in enumerate(
        [
            "Ana Beatriz Lins",
            "Bruno Cavalcanti",
            "Carla Souza",
            "Davi Araújo",
            "Édson Monteiro",
            "Fábio Dias",
            "Gabriela Farias",
        ]
    ):
        Player.objects.create(
            name=name,
            sex="F" if name.split()[0].endswith("a") else "M",
            rating=2000 - 37 * i,
            cbjd_id=f"BR{i:04d}",
            state="PE",
            club="Clube de Damas do Recife",
        )

    # log in
    page.goto(f"{base}/entrar/?next=/gestao/")
    page.fill("input[name=username]", "diretora")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/gestao/$"))

    # create the tournament
    page.goto(f"{base}/gestao/novo/")
    page.fill("#id_name", "Aberto do Recife")
    page.fill("#id_slug", "aberto-recife")
    page.fill("#id_planned_rounds", "3")
    page.fill("#id_start_date", "2026-11-07")
    page.fill("#id_end_date", "2026-11-08")
    page.fill("#id_city", "Recife")
    idf = page.locator("#id_opening_table option").filter(has_text=re.compile("IDF")).first.get_attribute("value")
    page.select_option("#id_opening_table", idf)
    page.click("form.form-grid button[type=submit]")
    page.wait_for_url(re.compile(r"/gestao/t/aberto-recife/$"))
    assert Tournament.objects.filter(slug="aberto-recife").exists()

    # enter players: seven from the registry, one new
    for i in range(7):
        page.goto(f"{base}/gestao/t/aberto-recife/inscritos/?q=BR{i:04d}")
        page.locator("form[action$='/inscritos/adicionar/'].inline button[type=submit]").first.click()
        page.wait_for_load_state()
    page.goto(f"{base}/gestao/t/aberto-recife/inscritos/")
    page.click("details summary")
    page.fill("form.form-grid #id_name", "Heitor Nascimento")
    page.select_option("form.form-grid #id_sex", "M")
    page.fill("form.form-grid #id_rating", "1750")
    page.fill("form.form-grid #id_cbjd_id", "BR9999")
    page.click("form.form-grid button[type=submit]")
    page.wait_for_load_state()
    assert Tournament.objects.get(slug="aberto-recife").entries.count() == 8
    shot(page, "staff-entries")

    # pair round 1, draw the opening, publish
    page.goto(f"{base}/gestao/t/aberto-recife/")
    pair_next(page)
    page.wait_for_url(re.compile(r"/rodada/1/$"))
    page.click("#draw-opening")
    page.wait_for_load_state()
    page.click("#publish")
    page.wait_for_load_state()
    shot(page, "staff-round")

    # the public pairings show the round before any result
    page.goto(f"{base}/t/aberto-recife/emparceiramento/")
    assert page.locator("h1").first.inner_text().startswith("Rodada 1")
    assert page.locator("table.pairings tbody tr").count() == 4

    # enter the results: first player wins game 1, game 2 drawn
    page.goto(f"{base}/gestao/t/aberto-recife/rodada/1/resultados/")
    inputs = page.locator("input.result-input")
    for i in range(inputs.count()):
        inputs.nth(i).fill("2-0" if i % 2 == 0 else "1-1")
    page.click("#save-results")
    page.wait_for_load_state()
    shot(page, "staff-results")

    # the public pages follow at once (cache dropped by the save)
    page.goto(f"{base}/t/aberto-recife/emparceiramento/")
    assert page.locator("table.pairings tbody tr td.result strong").first.inner_text().replace("\xa0", " ") == "3 – 1"
    page.goto(f"{base}/t/aberto-recife/classificacao/")
    rows = page.locator("#standings-table tbody tr:not(.tie-group)")
    assert rows.count() == 8
    assert rows.first.locator("td.points").inner_text() == "3"
    shot(page, "public-standings-desktop")
    page.goto(f"{base}/t/aberto-recife/")
    shot(page, "public-tournament")


@pytest.fixture
def running(opening_tables, django_user_model):
    director = django_user_model.objects.create_user("org", password=PASSWORD)
    return build_tournament(
        slug="circuito",
        players=41,
        rounds=3,
        user=director,
        name="Circuito Pernambucano",
        draft_round=False,
        planned_rounds=5,
    )


def test_a_player_finds_their_board_on_a_phone(phone, live_server, running, shot):
    page = phone
    entry = running.entries.select_related("player").order_by("pairing_number")[17]
    name = entry.player.name
    page.goto(f"{live_server.url}/t/circuito/classificacao/")
    assert no_horizontal_scroll(page), "the standings page must not scroll sideways on a phone"
    page.fill("#filter-standings", name.split()[-1])
    visible = page.locator("#standings-table tbody tr:visible")
    assert visible.count() >= 1
    assert name in visible.first.inner_text()
    shot(page, "phone-standings-search")

    # "Find my board": type part of the name, without accents, in lower case
    page.click("text=Achar minha mesa")
    page.wait_for_url(re.compile(r"/emparceiramento/alfabetico/$"))
    assert no_horizontal_scroll(page)
    typed = name.split()[-1].lower()
    page.fill("input[type=search]", typed)
    rows = page.locator("table.alpha tbody tr:visible")
    assert rows.count() >= 1
    row = rows.filter(has_text=name)
    assert row.count() == 1
    board = row.locator("td.board-number").inner_text().strip()
    assert board.isdigit()
    seat = entry.seats.get(round__number=3)
    assert int(board) == seat.board.number
    shot(page, "phone-find-my-board", full_page=False)

    # the board number leads to the board and its opening diagram
    row.locator("td.board-number a").click()
    page.wait_for_url(re.compile(r"/rodadas/3/mesas/\d+/$"))
    assert page.locator("svg").count() >= 1
    page.goto(f"{live_server.url}/t/circuito/emparceiramento/")
    assert no_horizontal_scroll(page)
    shot(page, "phone-pairings", full_page=False)
    page.goto(f"{live_server.url}/t/circuito/jogadores/{entry.pk}/")
    assert page.locator("table.card-table tbody tr").count() == 3
    shot(page, "phone-player-card")


def test_the_printouts_and_the_venue_screen(desktop, live_server, running, shot):
    page = desktop
    base = f"{live_server.url}/t/circuito"
    page.goto(f"{base}/rodadas/2/abertura/")
    assert page.locator(".diagram svg").count() == 1
    shot(page, "public-opening")
    page.goto(f"{base}/tabela-cruzada/")
    shot(page, "public-crosstable")
    page.goto(f"{base}/imprimir/rodadas/3/sumulas/")
    assert page.locator(".slip").count() == 20
    page.emulate_media(media="print")
    assert page.locator(".print-toolbar").is_hidden(), "no navigation on paper"
    shot(page, "print-slips")
    for name, url in [
        ("print-pairings", "rodadas/3/mesas/"),
        ("print-pairings-alpha", "rodadas/3/alfabetico/"),
        ("print-standings", "classificacao/"),
    ]:
        page.goto(f"{base}/imprimir/{url}")
        assert page.locator(".site-header, .subnav, .print-toolbar").first.is_hidden()
        shot(page, name)
    page.emulate_media(media="screen")
    page.goto(f"{base}/imprimir/qr/")
    assert page.locator(".qr-code svg").count() == 1
    shot(page, "print-qr")
    page.goto(f"{base}/telao/classificacao/")
    assert page.locator("meta[http-equiv=refresh]").count() == 1
    shot(page, "venue-screen-standings", full_page=False)
    # language switch, as a visitor would do it
    page.goto(f"{base}/classificacao/")
    with page.expect_navigation():
        page.select_option("#lang-select", "en")
    assert page.locator("h1").first.inner_text().startswith("Standings")
    with page.expect_navigation():
        page.select_option("#lang-select", "pt-br")
    assert page.locator("h1").first.inner_text().startswith("Classificação")
