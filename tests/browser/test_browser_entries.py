"""Entries, the registry, categories and staff accounts in a real browser (issue 14), on a desktop and at 390 px:
the web address filled from the name, form errors on their fields, bulk entry, duplicates, editing a player,
late entries, categories, a new arbiter's account."""

import re

import pytest
from django.contrib.auth.models import Permission

from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-forte-123"


@pytest.fixture(autouse=True)
def opening_tables(transactional_db):
    from tournaments.models import Opening, OpeningTable
    from tournaments.openings_data import load_opening_tables

    if not OpeningTable.objects.exists():
        load_opening_tables(OpeningTable, Opening)


@pytest.fixture
def director_user(django_user_model):
    user = django_user_model.objects.create_user("diretora", password=PASSWORD, first_name="Diana")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def login(page, base, username="diretora", password=PASSWORD, next_url="/gestao/"):
    page.goto(f"{base}/entrar/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(next_url) + "$"))


def no_horizontal_scroll(page):
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_web_address_follows_the_name_and_errors_stay_on_their_fields(
    request, device, live_server, director_user, shot
):
    page = request.getfixturevalue(device)
    base = live_server.url
    login(page, base)
    page.goto(f"{base}/gestao/novo/")
    assert page.locator("label[for=id_slug]").inner_text() == "Endereço na web"
    page.fill("#id_name", "Aberto de Olinda – 2ª Etapa")
    assert page.input_value("#id_slug") == "aberto-de-olinda-2a-etapa"
    # the director's own address is kept when the name changes again
    page.fill("#id_slug", "olinda")
    page.fill("#id_name", "Aberto de Olinda – 3ª Etapa")
    assert page.input_value("#id_slug") == "olinda"
    page.fill("#id_start_date", "2026-11-08")
    page.fill("#id_end_date", "2026-11-07")
    page.fill("#id_city", "Olinda")
    page.click("form.form-grid button[type=submit]")
    page.wait_for_load_state()
    error = page.locator(".field.has-error").filter(has=page.locator("#id_end_date"))
    assert "A data de término não pode ser anterior à data de início." in error.inner_text()
    assert "tournament_dates_ordered" not in page.content()
    assert page.input_value("#id_name") == "Aberto de Olinda – 3ª Etapa"
    assert page.input_value("#id_slug") == "olinda"
    assert page.input_value("#id_city") == "Olinda"
    assert no_horizontal_scroll(page) or device == "desktop"
    error.scroll_into_view_if_needed()
    shot(page, f"staff-tournament-form-error-{device}", full_page=False)
    page.fill("#id_end_date", "2026-11-09")
    page.click("form.form-grid button[type=submit]")
    page.wait_for_url(re.compile(r"/gestao/t/olinda/$"))
    assert Tournament.objects.get(slug="olinda").name == "Aberto de Olinda – 3ª Etapa"
