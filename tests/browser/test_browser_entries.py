"""Entries, the registry, categories and staff accounts in a real browser (issue 14), on a desktop and at 390 px:
the web address filled from the name, form errors on their fields, bulk entry, duplicates, editing a player,
late entries, categories, a new arbiter's account."""

import re

import pytest
from django.contrib.auth.models import Permission

from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-forte-123"


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
    assert page.input_value("#id_slug") == "aberto-olinda-2a-etapa"  # short: without "de" (issue 28.16)
    page.fill("#id_name", "Circuito Nacional de Damas - Etapa Recife - Campeonato Aberto 2026")
    assert page.input_value("#id_slug") == "etapa-recife-aberto-2026"  # at most 24 characters, the year kept
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


@pytest.fixture
def registry_players(transactional_db):
    from datetime import date

    from tournaments.models import Player

    people = [
        ("João Araújo", "30101", "M", date(1990, 4, 5)),
        ("Joana Lima", "30102", "F", date(2008, 2, 1)),
        ("Carlos Silva", "30103", "M", None),
        ("Carlos Silva", "30104", "M", None),
        ("Édson Monteiro", "30105", "M", None),
        ("Maria Conceição", "30106", "F", date(2011, 6, 7)),
    ]
    return {
        cbjd: Player.objects.create(name=n, cbjd_id=cbjd, sex=s, birth_date=b, rating=2000 - i * 20, state="PE")
        for i, (n, cbjd, s, b) in enumerate(people)
    }


@pytest.fixture
def aberto(director_user):
    from datetime import date

    from tournaments.setup.services import tournament_create

    return tournament_create(
        user=director_user,
        name="Aberto do Recife",
        slug="aberto-recife",
        start_date=date(2026, 11, 7),
        end_date=date(2026, 11, 8),
        planned_rounds=5,
    )


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_bulk_entry_from_a_search_and_from_a_pasted_list(request, device, live_server, aberto, registry_players, shot):
    page = request.getfixturevalue(device)
    base = live_server.url
    login(page, base)
    # a search without accents finds João and Joana; both marked and entered at once
    page.goto(f"{base}/gestao/t/aberto-recife/inscritos/?q=jo")
    assert page.locator("#found li").count() == 2
    page.check("input[data-check-all]")
    assert page.locator("input.pick:checked").count() == 2
    shot(page, f"staff-entries-search-{device}")
    page.click("#enter-picked")
    page.wait_for_load_state()
    assert "2 jogadores inscritos" in page.locator(".messages").inner_text()
    assert page.locator("#found li em").count() == 2  # both now "já inscrito"
    # a pasted list with an ambiguous and an unknown line: nobody entered, the lines explained, the list kept
    page.goto(f"{base}/gestao/t/aberto-recife/inscritos/")
    page.click("#paste summary")
    page.fill("#id_lines", "Carlos Silva\nedson monteiro\nFulano de Tal\n30101")
    page.click("#enter-list")
    page.wait_for_load_state()
    assert "Ninguém foi inscrito: 3 de 4 linhas precisam de correção" in page.locator(".messages").inner_text()
    bad = page.locator(".bulk-report tr.bad-line")
    assert bad.count() == 3
    assert "corresponde a vários jogadores" in bad.nth(0).inner_text() and "30104" in bad.nth(0).inner_text()
    assert "não corresponde a nenhum jogador" in bad.nth(1).inner_text()
    assert "João Araújo: já inscrito" in bad.nth(2).inner_text()  # the name once (issue 28.14)
    assert page.input_value("#id_lines") == "Carlos Silva\nedson monteiro\nFulano de Tal\n30101"
    assert no_horizontal_scroll(page)
    page.locator(".bulk-report").scroll_into_view_if_needed()
    shot(page, f"staff-entries-paste-report-{device}")
    page.fill("#id_lines", "30104\nedson monteiro")
    page.click("#enter-list")
    page.wait_for_load_state()
    assert "2 jogadores inscritos" in page.locator(".messages").inner_text()
    assert aberto.entries.count() == 4


def test_a_duplicate_warning_then_a_player_edited_by_the_federation_with_its_history(
    desktop, live_server, aberto, registry_players, django_user_model, shot
):
    from tournaments.registry.services import federation_group

    page = desktop
    base = live_server.url
    login(page, base)
    page.goto(f"{base}/gestao/t/aberto-recife/inscritos/")
    page.click("#new-player summary")
    page.fill("form.form-grid #id_name", "Joao Araujo")
    page.select_option("form.form-grid #id_sex", "M")
    page.click("form.form-grid button[type=submit]")
    page.wait_for_load_state()
    assert "30101" in page.locator("#duplicates").inner_text()
    assert page.input_value("form.form-grid #id_name") == "Joao Araujo"
    shot(page, "staff-entries-duplicate-warning")
    page.locator("#duplicates button").click()  # it was him: enter the registered player
    page.wait_for_load_state()
    assert aberto.entries.get().player.cbjd_id == "30101"
    # the director may not edit the registry
    page.goto(f"{base}/gestao/cadastro/?q=joao")
    page.click("#registry a:text('João Araújo')")
    assert page.locator("#save-player").count() == 0
    page.click("form[action$='/sair/'] button, .topbar .link-button")
    page.wait_for_load_state()
    # the federation edits him; the history says who changed what
    fed = django_user_model.objects.create_user("cbjd", password=PASSWORD)
    fed.groups.add(federation_group())
    login(page, base, username="cbjd", next_url="/gestao/cadastro/")
    page.fill("input[name=q]", "araujo")
    page.press("input[name=q]", "Enter")
    page.wait_for_load_state()
    page.click("#registry a:text('João Araújo')")
    page.fill("#id_name", "João Batista Araújo")
    page.fill("#id_club", "Clube Recifense")
    page.click("#save-player")
    page.wait_for_load_state()
    history = page.locator("#history").inner_text()
    assert "cbjd · Alterado" in history
    assert "Nome completo: João Araújo → João Batista Araújo" in history
    assert "Clube: — → Clube Recifense" in history
    shot(page, "staff-player-history")


def test_deleting_an_entry_made_by_mistake_asks_first(desktop, live_server, aberto, registry_players, director_user):
    from tournaments.entries.services import entry_register

    entry = entry_register(tournament=aberto, player=registry_players["30105"], user=director_user)
    page = desktop
    login(page, live_server.url)
    page.goto(f"{live_server.url}/gestao/t/aberto-recife/inscritos/{entry.pk}/")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("#delete-entry")
    assert aberto.entries.count() == 1  # dismissed: nothing happens
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#delete-entry")
    page.wait_for_url(re.compile(r"/inscritos/$"))
    assert "A inscrição de Édson Monteiro foi excluída." in page.locator(".messages").inner_text()
    assert aberto.entries.count() == 0


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_categories_by_rule_with_their_spots_and_standings(
    request, device, live_server, aberto, registry_players, director_user, shot
):
    from tournaments.entries.services import entries_register_many

    entries_register_many(tournament=aberto, players=list(registry_players.values()), user=director_user)
    page = request.getfixturevalue(device)
    base = live_server.url
    login(page, base)
    page.goto(f"{base}/gestao/t/aberto-recife/categorias/")
    page.click("#preset-FEM")
    page.wait_for_load_state()
    assert "Categoria Feminino salva: 2 inscritos seguem a regra." in page.locator(".messages").inner_text()
    # a custom rule typed wrong: the message on the field, the form kept
    page.fill("#id_code", "S21")
    page.fill("#id_name", "Sub-21")
    page.fill("#id_min_age", "25")
    page.fill("#id_max_age", "20")
    page.click("#category-form button[type=submit]")
    page.wait_for_load_state()
    field = page.locator(".field.has-error").filter(has=page.locator("#id_max_age"))
    assert "A idade máxima não pode ser menor que a idade mínima." in field.inner_text()
    assert page.input_value("#id_name") == "Sub-21"
    page.fill("#id_min_age", "")
    page.click("#category-form button[type=submit]")
    page.wait_for_load_state()
    row = page.locator("#categories tr[data-code=S21]")
    assert "até 20 anos em 31/12/2026" in row.inner_text()
    assert row.locator("td").nth(3).inner_text() == "2"  # Joana (2008) and Maria (2011)
    assert no_horizontal_scroll(page)
    shot(page, f"staff-categories-{device}")
    row.get_by_role("link", name="Classificação").click()
    page.wait_for_load_state()
    assert "Sub-21: 2 inscritos" in page.locator("#category-spots").inner_text()
    shot(page, f"staff-standings-category-{device}")


def test_a_new_arbiter_account_from_the_staff_page(browser, desktop, live_server, aberto, shot):
    page = desktop
    base = live_server.url
    login(page, base)
    page.goto(f"{base}/gestao/t/aberto-recife/equipe/")
    page.fill("#account_full_name", "Maria da Penha Souza")
    page.fill("#account_username", "maria.souza")
    page.click("#create-account")
    page.wait_for_load_state()
    assert "Conta maria.souza criada" in page.locator(".messages").inner_text()
    invite = page.input_value("#invite-url")
    assert "maria.souza" in page.locator("#staff-table").inner_text()
    assert page.input_value("#id_username") == "" and page.input_value("#account_username") == ""
    shot(page, "staff-account-invite")
    # the arbiter, on her phone, opens the link and chooses a password: she is logged in at once, on the
    # tournament (issue 28.9)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="pt-BR").new_page()
    phone.goto(invite)
    assert "maria.souza" in phone.locator("main").inner_text()
    phone.fill("#id_new_password1", "Tabuleiro-64!")
    phone.fill("#id_new_password2", "Tabuleiro-64!")
    shot(phone, "staff-account-choose-password-phone")
    phone.click("#set-password")
    phone.wait_for_url(re.compile(r"/gestao/t/aberto-recife/$"))
    assert phone.locator(".messages").inner_text().strip() == "Senha definida. Você entrou como maria.souza."
    assert "Aberto do Recife" in phone.locator("h1").first.inner_text()
    assert phone.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    shot(phone, "staff-account-logged-in-phone")
    phone.goto(invite)
    assert phone.locator("#invalid-invite").count() == 1
    phone.context.close()
