"""A long pairing in a real browser: the director sees its progress move, then lands on the paired round."""

import re

import pytest
from playwright.sync_api import expect

from tournaments.models import PairingJob
from tournaments.models.choices import PairingJobStatus
from tournaments.rounds.services import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_progress_page_follows_the_job_and_opens_the_round(desktop, live_server, field, director, shot):
    page = desktop
    base = live_server.url
    t, entries = field(6)
    job = PairingJob.objects.create(tournament=t, round_number=1, created_by=director, paired=2, total=6)

    page.goto(f"{base}/entrar/?next=/gestao/")
    page.fill("input[name=username]", "diretor")
    page.fill("input[name=password]", "senha-forte-123")
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/gestao/$"))

    page.goto(f"{base}/gestao/t/{t.slug}/emparceirar/{job.pk}/")
    assert page.locator("h1").inner_text() == "Emparceirando a rodada 1"
    assert page.locator("#pairing-progress").get_attribute("value") == "33"
    assert page.locator("#pairing-label").inner_text() == "2 de 6 jogadores emparceirados (33%)"

    # the engine moves on: the page follows without being reloaded
    page.evaluate("window.__samePage = true")
    PairingJob.objects.filter(pk=job.pk).update(paired=4)
    # expect() polls from Python: wait_for_function would eval a string in the page, which the CSP forbids.
    expect(page.locator("#pairing-label")).to_have_text(re.compile(r"^4 de 6"))
    assert page.evaluate("document.getElementById('pairing-progress').value") == 66
    assert page.evaluate("window.__samePage") is True
    shot(page, "pairing-job-progress")

    # done: the round opens with the usual message
    rnd = round_pair(tournament=t, user=director)
    PairingJob.objects.filter(pk=job.pk).update(status=PairingJobStatus.DONE, round=rnd, paired=6)
    page.wait_for_url(re.compile(rf"/gestao/t/{t.slug}/rodada/1/$"))
    assert "Rodada 1 emparceirada: revise, sorteie a tablita e publique." in page.locator(".messages").inner_text()


def test_a_failed_pairing_returns_to_the_dashboard_with_the_reason(desktop, live_server, field, director):
    page = desktop
    base = live_server.url
    t, entries = field(4)
    job = PairingJob.objects.create(tournament=t, round_number=1, created_by=director)

    page.goto(f"{base}/entrar/?next=/gestao/")
    page.fill("input[name=username]", "diretor")
    page.fill("input[name=password]", "senha-forte-123")
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/gestao/$"))

    page.goto(f"{base}/gestao/t/{t.slug}/emparceirar/{job.pk}/")
    assert page.locator("#pairing-label").inner_text() == "Preparando o emparceiramento da rodada 1…"
    PairingJob.objects.filter(pk=job.pk).update(
        status=PairingJobStatus.FAILED, message="Não existe emparceiramento válido para a rodada 1."
    )
    page.wait_for_url(re.compile(rf"/gestao/t/{t.slug}/$"))
    assert "Não existe emparceiramento válido para a rodada 1." in page.locator(".messages").inner_text()
