"""In a real browser: the new-tournament form fills the web address from a name in Cyrillic or Greek as the server
makes it (issue 27.17), and leaves it to the server for a script it cannot write in Latin letters; the staff
standings download a CSV Excel pt-BR opens, and a round without a game record says so instead of an empty PDN
(issue 28.11)."""

import csv
import io
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission

from testkit.builders import build_tournament
from tournaments.core.slugs import readable_slug, short_slug
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-forte-123"


def log_in(page, base, username):
    page.goto(f"{base}/entrar/?next=/gestao/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/gestao/$"))


@pytest.fixture
def director(django_user_model):
    user = django_user_model.objects.create_user("diretora", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def fill_the_rest(page):
    page.fill("#id_planned_rounds", "5")
    page.fill("#id_start_date", "2026-11-07")
    page.fill("#id_end_date", "2026-11-08")
    page.fill("#id_city", "Recife")


def test_a_cyrillic_or_greek_name_gives_the_servers_readable_address(desktop, live_server, director, shot):
    page = desktop
    log_in(page, live_server.url, "diretora")
    page.goto(f"{live_server.url}/gestao/novo/")
    for name, address in [
        ("Πρωτάθλημα Ελλάδας 2024", "protathlima-elladas-2024"),
        ("Straße Łódź – 1º Aberto", "strasse-lodz-1o-aberto"),
    ]:
        page.fill("#id_name", "")
        page.locator("#id_name").press_sequentially(name)  # typed: an input event per letter
        assert page.input_value("#id_slug") == address == readable_slug(name, "")
    name = "Чемпионат России по шашкам 2024"
    page.fill("#id_name", "")
    page.locator("#id_name").press_sequentially(name)
    # the readable address, shortened to 24 characters between words (issue 37.9), as the server shortens it
    assert readable_slug(name, "") == "chempionat-rossii-po-shashkam-2024"
    assert page.input_value("#id_slug") == "chempionat-rossii-2024" == short_slug(name, "")
    shot(page, "new-tournament-cyrillic-address")
    fill_the_rest(page)
    page.click("form.form-grid button[type=submit]")
    page.wait_for_url(re.compile(r"/gestao/t/chempionat-rossii-2024/$"))
    assert Tournament.objects.get(slug="chempionat-rossii-2024").name == name


def test_a_name_the_page_cannot_write_in_latin_letters_gets_its_address_from_the_server(desktop, live_server, director):
    page = desktop
    log_in(page, live_server.url, "diretora")
    page.goto(f"{live_server.url}/gestao/novo/")
    name = "全国跳棋锦标赛 2026"
    page.locator("#id_name").press_sequentially(name)
    assert page.input_value("#id_slug") == ""  # not "2026": the server makes the readable one
    fill_the_rest(page)
    page.click("form.form-grid button[type=submit]")
    address = readable_slug(name, "")
    assert address.startswith("quanguo") and address.endswith("-2026")
    page.wait_for_url(re.compile(rf"/gestao/t/{address}/$"))


@pytest.fixture
def running(django_user_model):
    user = django_user_model.objects.create_user("org", password=PASSWORD)
    build_tournament(slug="circuito", players=9, rounds=2, user=user, name="Circuito Pernambucano", planned_rounds=5)
    return user


def test_standings_csv_for_excel_and_no_empty_pdn(desktop, live_server, running, shot):
    page = desktop
    log_in(page, live_server.url, "org")
    page.goto(f"{live_server.url}/gestao/t/circuito/classificacao/")
    with page.expect_download() as info:
        page.locator("#standings-files a", has_text="CSV").click()
    download = info.value
    assert download.suggested_filename == "circuito-classificacao.csv"
    data = Path(download.path()).read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert rows[0][:4] == ["#", "Nº", "Nome", "Pontos"] and len(rows) == 10

    page.goto(f"{live_server.url}/gestao/t/circuito/rodada/2/")
    page.locator("summary", has_text="Súmulas das partidas").click()
    page.click("#pdn-round")
    page.wait_for_url(re.compile(r"/gestao/t/circuito/rodada/2/$"))
    message = page.locator(".messages li")
    assert message.inner_text() == "Nenhuma partida registrada na rodada 2: não há arquivo PDN para baixar."
    shot(page, "round-without-game-records")
