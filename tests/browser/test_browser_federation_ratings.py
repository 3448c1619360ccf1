"""The rating officer's page in a real browser (issue 40.3): a period chosen, the stage rated, the list published
and downloaded; on a desktop and on a 390 px phone. Screenshots in test-artifacts/ (federation-ratings-*)."""

from datetime import date

import pytest
from django.utils import timezone

from tests.browser.phone_layout import WIDEST, broken_headers, fits
from tests.browser.test_browser_federation import login, officer, verified  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_officer_rates_a_period_and_publishes_the_list(request, device, live_server, shot, verified, officer):  # noqa: F811
    from tournaments.federation.services import submission_decide
    from tournaments.models import Player, RatingRelease

    submission_decide(submission=verified, user=officer, approve=True)
    page = request.getfixturevalue(device)
    login(page, live_server.url, "oficial", "/gestao/federacao/rating/")
    page.fill("#id_inicio", "2026-10-01")
    page.fill("#id_fim", timezone.localdate().isoformat())
    page.click("#rating-period button[type=submit]")
    assert "Circuito Nacional de Damas - Etapa Caruaru" in page.text_content("#rating-stages")
    assert page.locator("#rating-changes tbody tr").count() > 20
    if device == "phone":
        assert fits(page), page.evaluate(WIDEST)
        assert broken_headers(page) == []
    shot(page, f"federation-ratings-preview-{device}")
    before = dict(Player.objects.values_list("cbjd_id", "rating"))
    page.click("#rating-publish button[type=submit]")
    assert "publicada e aplicada ao cadastro nacional" in page.text_content(".messages")
    release = RatingRelease.objects.get()
    assert release.period_start == date(2026, 10, 1)
    assert dict(Player.objects.values_list("cbjd_id", "rating")) != before
    with page.expect_download() as info:
        page.click("#rating-releases a:text('CSV')")
    assert info.value.suggested_filename == f"lista-cbjd-{release.list_date:%Y-%m-%d}.csv"
    shot(page, f"federation-ratings-published-{device}")
