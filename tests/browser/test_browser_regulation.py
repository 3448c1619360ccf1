"""The regulation's pages in a real browser, on a desktop and on a phone: the ratings round 1 will use (art. 4),
the homologation page with its deadline and the rating list used (art. 6 and 11), lifting a suspension (art. 10)
and loading a 100-square opening table."""

import re
from datetime import date

import pytest
from django.contrib.auth.models import Permission

from tests.browser.conftest import ARTIFACTS
from tournaments.entries.services import entry_register, entry_withdraw, rating_list_import
from tournaments.models import Player, Suspension, Tournament
from tournaments.setup.services import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "senha-forte-123"


@pytest.fixture
def event(django_user_model):
    user = django_user_model.objects.create_user("diretora", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    t = tournament_create(
        user=user,
        name="Etapa de Caruaru",
        slug="caruaru",
        start_date=date(2026, 11, 7),
        end_date=date(2026, 11, 8),
        planned_rounds=5,
    )
    players = [
        Player.objects.create(name=f"Jogador Número {i}", sex="M", rating=1900 - 10 * i, cbjd_id=f"CA{i:03d}")
        for i in range(6)
    ]
    entries = [entry_register(tournament=t, player=p, user=user) for p in players]
    rating_list_import(
        data="ID CBJD;Nome;Rating;Sexo\nCA005;Jogador Número 5;2250;M\n".encode(),
        filename="cbjd-novembro.csv",
        user=user,
        list_date=date(2026, 11, 1),
    )
    entry_withdraw(entry=entries[0], from_round=1, kind="abandonment", user=user)
    return t, entries


def login(page, base, next_url):
    page.goto(f"{base}/entrar/?next={next_url}")
    page.fill("input[name=username]", "diretora")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(next_url) + "$"))


def fits(page):
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_regulation_pages(device, request, live_server, event, shot):
    page = request.getfixturevalue(device)
    t, entries = event
    base = live_server.url
    login(page, base, f"/gestao/t/{t.slug}/ratings/")

    # art. 4: the entry whose registry rating changed; the director keeps the old one, with the reason
    changed = entries[5]
    assert "2250" in page.locator(f"#rating-{changed.pk}").inner_text()
    page.fill(f"#keep-{changed.pk}", "lista chegou depois do congresso técnico")
    page.locator(f"form:has(#keep-{changed.pk}) button[type=submit]").click()
    page.wait_for_load_state()
    assert "lista chegou depois do congresso técnico" in page.content()
    assert fits(page), "ratings page scrolls sideways"
    shot(page, f"staff-ratings-{device}")

    # art. 10: the abandonment's suspension, lifted with a reason
    page.goto(f"{base}/gestao/t/{t.slug}/suspensoes/")
    page.fill("input[name=reason]", "atestado médico apresentado")
    page.click("form.stacked button[type=submit]")
    page.wait_for_load_state()
    assert Suspension.objects.get(player=entries[0].player).lift_reason == "atestado médico apresentado"
    assert fits(page), "suspensions page scrolls sideways"
    shot(page, f"staff-suspensions-{device}")

    # the homologation page: every condition with its article, the deadline, the rating list
    page.goto(f"{base}/gestao/t/{t.slug}/homologacao/")
    assert page.locator("#condition-deadline").count() == 1
    assert "art. 6, 11" in page.locator("#condition-deadline").inner_text()
    assert "10/11/2026" in page.locator("#deadline").inner_text()
    assert fits(page), "homologation page scrolls sideways"
    shot(page, f"staff-homologation-{device}")
    page.locator("#condition-deadline").screenshot(path=str(ARTIFACTS / f"staff-homologation-deadline-{device}.png"))
    page.click("button:has-text('Registrar agora o envio da planilha')")
    page.wait_for_load_state()
    # no round played yet: the sending waits for complete results (issue 26, point 4; art. 11)
    assert Tournament.objects.get(pk=t.pk).homologation_exported_at is None
    assert "O envio só pode ser registrado quando os resultados estão completos" in page.content()

    # the opening tables page
    page.goto(f"{base}/gestao/tabelas-de-aberturas/")
    assert "IDF-64" in page.content()
    assert fits(page), "opening tables page scrolls sideways"
    shot(page, f"staff-opening-tables-{device}")
