"""Issue 28 item 4 in a real browser: the director corrects a round-1 result after round 2 is paired; the page warns
that round 2 used the old scores, and undoing round 2 and pairing it again is one confirmed click that ends on the
new round 2, a draft to publish. Screenshots in test-artifacts/ (correction-next-round-*)."""

import re

import pytest

from tests.browser.events import PASSWORD, first_round_played, staff_event
from tournaments.models import AuditEntry, Round
from tournaments.models.choices import RoundStatus
from tournaments.rounds.services import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event(django_user_model, make_player):
    t, director = staff_event(django_user_model, make_player)
    first_round_played(t, director, {1: "1-0", 2: "0-1"})
    round_pair(tournament=t, user=director, publish=True)
    return t


def test_a_correction_after_the_next_round_is_paired(desktop, live_server, event, shot):
    page, base = desktop, live_server.url
    page.goto(f"{base}/entrar/?next=/gestao/t/etapa/rodada/1/resultados/")
    page.fill("input[name=username]", "diretora")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/rodada/1/resultados/$"))
    assert "A rodada 2 já foi emparceirada" in page.locator("#next-round-paired").inner_text()
    first = page.locator('tr[data-board="1"] input.result-input')
    first.nth(0).fill("0-2")
    first.nth(1).fill("2-0")
    page.click("#save-results")
    page.wait_for_load_state()
    page.fill("#reason", "súmula assinada")
    page.check("input[name=confirm_correction]")
    page.click("#save-results")
    page.wait_for_load_state()
    text = page.locator(".messages").inner_text()
    assert "A rodada 2 foi emparceirada com a pontuação de antes desta alteração" in text
    shot(page, "correction-next-round-warned")
    old = Round.objects.get(tournament=event, number=2).pk
    page.check("#next-round-paired input[name=confirm]")
    page.click("#repair-next-round")
    page.wait_for_url(re.compile(r"/rodada/2/$"))
    assert (
        "Rodada 2 desfeita e emparceirada de novo com a pontuação corrigida." in page.locator(".messages").inner_text()
    )
    # a draft like any pairing (issue 37.4): reviewed, its opening drawn, then published
    assert "revise, sorteie a tablita e publique" in page.locator(".messages").inner_text()
    shot(page, "correction-next-round-paired-again")
    again = Round.objects.get(tournament=event, number=2)
    assert again.pk != old and again.status == RoundStatus.DRAFT
    if page.locator("#draw-opening").count():
        page.click("#draw-opening")
        page.wait_for_load_state()
    page.click("#publish")
    page.wait_for_load_state()
    assert Round.objects.get(pk=again.pk).status == RoundStatus.PUBLISHED
    assert AuditEntry.objects.filter(action="round.undo").count() == 1
