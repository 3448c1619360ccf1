"""Issue 28.12 and 28.8 in a real browser: pairing asks who is present first (one click on a name marks an absentee,
who is then not paired and gets the round's absence), a late entrant is paired with the number its rating gives,
the audit log says which role paired; whether an arbiter pairs is set by the director on the Equipe page (an
arbiter without it has no pair button and gets 403). Screenshots in test-artifacts/ (presence-*)."""

import re

import pytest

from tests.browser.events import PASSWORD, first_round_played, staff_event
from tournaments.entries.services import entry_register
from tournaments.models import Absence, Entry, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event(django_user_model, make_player):
    t, director = staff_event(django_user_model, make_player, arbiter=True, rating_step=100)
    first_round_played(t, director, {1: "1-0", 2: "1/2"})
    return t


def log_in(page, base, username, target):
    page.goto(f"{base}/entrar/?next={target}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(target) + "$"))


def test_who_is_present_then_pair_with_the_late_entrant_at_its_rating_place(
    desktop, live_server, event, shot, make_player
):
    page, base = desktop, live_server.url
    late = entry_register(
        tournament=event,
        player=make_player(name="Tardia Forte", rating=1850),
        user=event.roles.get(role="director").user,
    )
    assert late.pairing_number == 9
    log_in(page, base, "diretora", "/gestao/t/etapa/")
    page.click("#pair-next")
    page.wait_for_url(re.compile(r"/emparceirar/$"))
    assert page.locator("h1").inner_text() == "Quem está presente na rodada 2"
    assert page.locator("#presence-table tbody tr").count() == 9
    page.fill("#presence-filter", "jogador 05")
    assert page.locator("#presence-table tbody tr:visible").count() == 1
    page.click("#presence-table label:has-text('Jogador 05')")  # one click on the name marks the absentee
    page.fill("#presence-filter", "")
    assert page.locator("#presence-table input:checked").count() == 1
    shot(page, "presence-marked")
    page.click("#confirm-presence")
    page.wait_for_url(re.compile(r"/rodada/2/$"))
    absentee = Entry.objects.get(tournament=event, player__name="Jogador 05")
    assert list(Absence.objects.filter(round_number=2).values_list("entry_id", flat=True)) == [absentee.pk]
    out = page.locator("#not-paired").inner_text()
    assert "6\tJogador 05\tausente\t1\t0" in out  # no. 6 now (the late entrant is no. 3), 0 for the absence
    late.refresh_from_db()
    assert late.pairing_number == 3  # 2000, 1900, then 1850
    assert "Tardia Forte" in page.locator("main table.table").first.inner_text()
    shot(page, "presence-round2")
    page.goto(f"{base}/gestao/t/etapa/auditoria/")
    log = page.locator("table.audit").inner_text()
    assert "Rodada 2 emparceirada pelo diretor diretora" in log
    assert "Tardia Forte 9 → 3" in log
    assert "Ausência comunicada pelo diretor diretora: Jogador 05: 2" in log


def test_an_arbiter_pairs_on_her_phone_only_when_the_director_allows_it(desktop, phone, live_server, event, shot):
    base = live_server.url
    log_in(desktop, base, "diretora", "/gestao/t/etapa/equipe/")
    assert desktop.locator("#arbiters-may-pair").is_checked()  # the default: arbiters pair
    desktop.uncheck("#arbiters-may-pair")
    desktop.click("#save-pairing-permission")
    desktop.wait_for_load_state()
    assert "Agora só o diretor emparceira as rodadas." in desktop.locator(".messages").inner_text()

    log_in(phone, base, "arbitra", "/gestao/t/etapa/")
    assert phone.locator("#pair-next").count() == 0
    assert (
        phone.locator("#pairing-by-director").inner_text() == "Neste torneio, quem emparceira as rodadas é o diretor."
    )
    shot(phone, "presence-arbiter-not-allowed")
    response = phone.goto(f"{base}/gestao/t/etapa/emparceirar/")
    assert response.status == 403

    desktop.check("#arbiters-may-pair")
    desktop.click("#save-pairing-permission")
    desktop.wait_for_load_state()
    phone.goto(f"{base}/gestao/t/etapa/")
    phone.click("#pair-next")
    phone.wait_for_url(re.compile(r"/emparceirar/$"))
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the presence list is wider than the phone: {width}px"
    shot(phone, "presence-arbiter-phone")
    phone.click("#confirm-presence")
    phone.wait_for_url(re.compile(r"/rodada/2/$"))
    phone.click("#publish")
    phone.wait_for_load_state()
    assert Round.objects.get(tournament=event, number=2).status == "published"
    desktop.goto(f"{base}/gestao/t/etapa/auditoria/")
    log = desktop.locator("table.audit").inner_text()
    assert "Rodada 2 emparceirada pelo árbitro arbitra" in log
    assert "Rodada 2 publicada pelo árbitro arbitra" in log
    assert "Árbitros autorizados a emparceirar, publicar, editar e desfazer rodadas pelo diretor diretora" in log
