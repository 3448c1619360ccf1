"""Logins in a real browser (issue 25, item 15): "Sair de todos os aparelhos" on one device sends the same login's
other device to the login page. Screenshots in test-artifacts/ (accounts-*)."""

import re

import pytest
from django.contrib.auth.models import Permission

from tests.browser.phone_layout import fits

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
        r"deste login terminam, esta também\.\n\nSair de todos os aparelhos",
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
