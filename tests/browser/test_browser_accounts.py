"""Logins in a real browser (issue 25, items 1 and 15): a director offers a tournament's role to an existing login
on the Equipe page and that login accepts it on its phone; "Sair de todos os aparelhos" on one device sends the
same login's other device to the login page. Screenshots in test-artifacts/ (accounts-*)."""

import re

import pytest
from django.contrib.auth.models import Permission

from tests.browser.phone_layout import fits
from tournaments.models import RoleOffer, TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-forte-123"


def login(page, base, username, next_url="/gestao/"):
    page.goto(f"{base}/entrar/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(next_url) + "$"))


def messages(page):
    return page.locator("ul.messages").inner_text()


@pytest.fixture
def director_user(django_user_model):
    user = django_user_model.objects.create_user("diretora", password=PASSWORD, first_name="Diana")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return django_user_model.objects.get(pk=user.pk)


@pytest.fixture
def tournament(director_user):
    from datetime import date

    from tournaments.setup.services import tournament_create

    return tournament_create(
        user=director_user,
        name="Aberto de Olinda",
        slug="aberto-olinda",
        start_date=date(2026, 11, 8),
        end_date=date(2026, 11, 9),
        planned_rounds=5,
    )


def test_a_role_offered_on_the_equipe_page_starts_when_the_login_accepts_it_on_its_phone(
    desktop, phone, live_server, director_user, tournament, django_user_model, shot
):
    base = live_server.url
    django_user_model.objects.create_user("arbitro.bruno", password=PASSWORD, first_name="Bruno")
    equipe = f"/gestao/t/{tournament.slug}/equipe/"

    # the director offers the arbiter's role to an existing login, and to a name nobody has: the same answer
    login(desktop, base, "diretora", next_url=equipe)
    for name in ("arbitro.bruno", "ninguem.aqui"):
        desktop.fill("#offer-form input[name=username]", name)
        desktop.select_option("#offer-form select[name=role]", "arbiter")
        desktop.click("#offer-form button[type=submit]")
        desktop.wait_for_url(re.compile(re.escape(equipe) + "$"))
        assert messages(desktop) == (
            f"Acesso oferecido a “{name}”: vale quando esse login o aceitar em “Meus torneios”."
        )
    rows = desktop.locator("#offers-table tbody tr")
    assert rows.all_inner_texts() == [
        "arbitro.bruno\tÁrbitro\tRetirar a oferta",
        "ninguem.aqui\tÁrbitro\tRetirar a oferta",
    ]
    assert desktop.locator("#staff-table").inner_text().count("arbitro.bruno") == 0  # not staff until it accepts
    shot(desktop, "accounts-equipe-offers")
    # the offer to nobody is withdrawn
    rows.filter(has_text="ninguem.aqui").locator("button").click()
    desktop.wait_for_url(re.compile(re.escape(equipe) + "$"))
    assert messages(desktop) == "Oferta retirada."
    assert desktop.locator("#offers-table tbody tr").all_inner_texts() == ["arbitro.bruno\tÁrbitro\tRetirar a oferta"]

    # the arbiter, on a phone, finds the offer on "Meus torneios" and accepts it
    login(phone, base, "arbitro.bruno")
    offers = phone.locator("#role-offers")
    assert "Aberto de Olinda, como Árbitro" in offers.inner_text()
    assert phone.locator("main table tbody").inner_text().strip() == "Nenhum torneio ainda."
    assert fits(phone)
    shot(phone, "accounts-phone-offer")
    offers.locator("button[name=accept]").click()
    phone.wait_for_url(re.compile(r"/gestao/$"))
    assert messages(phone) == "Agora você trabalha em Aberto de Olinda como Árbitro."
    assert phone.locator("#role-offers").count() == 0
    phone.click("main table a:has-text('Aberto de Olinda')")
    phone.wait_for_url(re.compile(rf"/gestao/t/{tournament.slug}/$"))
    assert phone.locator("h1").first.inner_text().startswith("Aberto de Olinda")
    assert TournamentRole.objects.filter(tournament=tournament, user__username="arbitro.bruno", role="arbiter").exists()
    assert not RoleOffer.objects.exists()

    # the director sees the arbiter on the staff list, with no invite link to make (the login has its password),
    # and removes the access after confirming
    desktop.goto(base + equipe)
    row = desktop.locator("#staff-table tbody tr").filter(has_text="arbitro.bruno")
    assert row.inner_text().split("\t")[:3] == ["arbitro.bruno", "Bruno", "Árbitro"]
    assert row.locator("button:has-text('Novo link de convite')").count() == 0
    assert desktop.locator("#offers-table").count() == 0
    desktop.once("dialog", lambda dialog: dialog.dismiss())
    row.locator("button:has-text('Remover')").click()
    assert desktop.locator("#staff-table tbody tr").filter(has_text="arbitro.bruno").count() == 1  # dismissed
    desktop.once("dialog", lambda dialog: dialog.accept())
    row.locator("button:has-text('Remover')").click()
    desktop.wait_for_url(re.compile(re.escape(equipe) + "$"))
    assert messages(desktop) == "Acesso removido."
    assert desktop.locator("#staff-table tbody tr").filter(has_text="arbitro.bruno").count() == 0
    shot(desktop, "accounts-equipe-removed")
    # and the arbiter's phone no longer opens the tournament
    response = phone.goto(f"{base}/gestao/t/{tournament.slug}/")
    assert response.status in (403, 404)


def test_leaving_every_device_sends_the_other_device_to_the_login_page(
    desktop, phone, live_server, django_user_model, shot
):
    base = live_server.url
    django_user_model.objects.create_user("arbitra", password=PASSWORD)
    # the same login on the venue's laptop and on the arbiter's phone
    login(desktop, base, "arbitra")
    login(phone, base, "arbitra")
    section = phone.locator("#my-sessions")
    assert re.fullmatch(
        r"Sua sessão\n\nEsta sessão termina em \d\d/\d\d/\d{4} às \d\d:\d\d; entre de novo depois disso\. Num computador "
        r"compartilhado, saia ao terminar\. Se esqueceu de sair em algum aparelho, saia de todos: todas as sessões "
        r"deste login terminam, esta também\.\n\nTrocar a senha\n\nSair de todos os aparelhos",  # (issue 37.2)
        section.inner_text(),
    ), section.inner_text()
    assert fits(phone)
    shot(phone, "accounts-phone-sessions")

    # from the phone: leave every device
    phone.click("#logout-everywhere")
    phone.wait_for_url(re.compile(r"/entrar/$"))
    assert messages(phone) == "Você saiu de todos os aparelhos. Entre de novo para continuar."
    shot(phone, "accounts-phone-left-everywhere")

    # the laptop, on its next request, is at the login page and says why
    desktop.goto(f"{base}/gestao/")
    desktop.wait_for_url(re.compile(r"/entrar/\?next=/gestao/$"))
    assert messages(desktop) == "Sua sessão terminou: entre de novo."
    assert desktop.locator("header").get_by_text("Entrar").count() == 1
    shot(desktop, "accounts-laptop-sent-to-login")
    # logging in again works on both
    login(desktop, base, "arbitra")
    login(phone, base, "arbitra")
    assert desktop.locator("h1").inner_text() == "Meus torneios"


def test_the_venue_director_changes_the_password_on_a_phone(phone, live_server, shot):
    """Issue 37.2: the login `make run` makes (its password shown once) is changed on a page under /gestao/, and
    the change sticks through the next `make run`."""
    import io

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    base = live_server.url
    out = io.StringIO()
    call_command("demo_login", "--url", f"{base}/", stdout=out)
    first = re.search(r"Senha:\s+(\S+)\n", out.getvalue()).group(1)
    phone.goto(f"{base}/entrar/?next=/gestao/")
    phone.fill("input[name=username]", "diretor")
    phone.fill("input[name=password]", first)
    phone.click("form button[type=submit]:not(.link-button)")
    phone.wait_for_url(re.compile(r"/gestao/$"))
    phone.click("#password-change-link")
    phone.wait_for_url(re.compile(r"/gestao/senha/$"))
    assert phone.locator("h1").inner_text() == "Trocar a senha"
    assert fits(phone)
    phone.fill("#id_old_password", first)
    phone.fill("#id_new_password1", "tablita-do-recife-7")
    phone.fill("#id_new_password2", "tablita-do-recife-7")
    shot(phone, "director-password-change-phone")
    phone.click("#change-password")
    phone.wait_for_url(re.compile(r"/gestao/$"))
    assert "Senha trocada." in messages(phone)
    call_command("demo_login", "--url", f"{base}/", stdout=io.StringIO())  # the next `make run`
    user = get_user_model().objects.get(username="diretor")
    assert user.check_password("tablita-do-recife-7") and not user.is_superuser
