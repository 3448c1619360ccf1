"""Issue 25, item 7 in a real browser: an abandonment read from an imported file is in force for that tournament
only and waits for national confirmation. The federation's officer confirms it on the national suspensions page
(on a desktop and on a 390 px phone); the director of the event confirms it on the event's suspensions page.
Screenshots in test-artifacts/ (suspension-*)."""

import re
from datetime import timedelta

import pytest

from tests.browser.phone_layout import fits
from tournaments.entries.services import blocking_suspension, entry_withdraw
from tournaments.interchange import import_upload
from tournaments.interchange.dispatch import Upload
from tournaments.interchange.trf import export_trf
from tournaments.models import AuditEntry, Suspension
from tournaments.rounds.services import round_pair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-forte-123"
PENDING = "em vigor neste torneio; aguarda confirmação nacional"
CONFIRMED = "Suspensão confirmada: agora recusa as inscrições do jogador em todos os torneios."


def log_in(page, base, username, url):
    page.goto(f"{base}/entrar/?next={url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(url) + "$"))


@pytest.fixture
def imported_abandonment(field, director, django_user_model):
    """A real player (CBJD ID) abandoned an event; another director imports its TRF: the suspension waits."""
    t, entries = field(4, slug="origem", name="Etapa de Origem", format="single-game")
    round_pair(tournament=t, user=director)
    entry_withdraw(entry=entries[1], from_round=2, kind="abandonment", user=director)
    text = export_trf(t)
    player = entries[1].player
    Suspension.objects.all().delete()
    t.delete()
    importer = django_user_model.objects.create_user("diretor.b", password=PASSWORD)
    imported = import_upload(Upload(text.encode(), "etapa.trf"), user=importer).tournament
    suspension = Suspension.objects.get(player=player)
    assert suspension.national_pending and suspension.tournament == imported
    return suspension, imported, importer


def in_view(page, button):
    """The button shows whole on the screen, without scrolling its table sideways."""
    box = button.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]


def blocks_elsewhere(suspension):
    """Whether it refuses an entry in another event a day into it."""
    day = suspension.start_date + timedelta(days=1)
    return blocking_suspension(suspension.player, day, day) == suspension


def confirmed_nationally(suspension, user):
    suspension.refresh_from_db()
    return (
        not suspension.national_pending
        and suspension.confirmed_by == user
        and blocks_elsewhere(suspension)
        and AuditEntry.objects.filter(action="suspension.confirm", object_id=str(suspension.pk)).count() == 1
    )


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_federation_confirms_an_imported_abandonment_on_the_national_page(
    request, device, live_server, imported_abandonment, federation, shot
):
    page = request.getfixturevalue(device)
    suspension, imported, _importer = imported_abandonment
    url = "/gestao/cadastro/suspensoes/"
    log_in(page, live_server.url, "federacao", url)
    row = page.locator("#in-force tbody tr").filter(has_text=suspension.player.name).first
    assert f"Abandono (regulamento, art. 10) ({imported.name})\n{PENDING}" in row.inner_text()
    confirm = page.locator("#in-force button:has-text('Confirmar nacionalmente')")
    assert confirm.count() == 1 and in_view(page, confirm)
    assert not blocks_elsewhere(suspension)
    if device == "phone":
        assert fits(page)
    shot(page, f"suspension-national-pending-{device}")

    confirm.click()
    page.wait_for_url(re.compile(re.escape(url) + "$"))
    assert page.locator("ul.messages").inner_text() == CONFIRMED
    row = page.locator("#in-force tbody tr").filter(has_text=suspension.player.name).first
    assert PENDING not in row.inner_text()
    assert confirm.count() == 0
    assert confirmed_nationally(suspension, federation)
    shot(page, f"suspension-national-confirmed-{device}")


def test_the_director_of_the_event_confirms_it_on_the_event_suspensions_page(
    phone, live_server, imported_abandonment, shot
):
    suspension, imported, importer = imported_abandonment
    url = f"/gestao/t/{imported.slug}/suspensoes/"
    log_in(phone, live_server.url, "diretor.b", url)
    row = phone.locator("main table tbody tr").filter(has_text=suspension.player.name).first
    assert row.inner_text().split("\t")[-1] == PENDING
    confirm = phone.locator("main table button:has-text('Confirmar nacionalmente')")
    assert confirm.count() == 1 and in_view(phone, confirm)
    assert fits(phone)
    shot(phone, "suspension-event-pending")
    confirm.click()
    phone.wait_for_url(re.compile(re.escape(url) + "$"))
    assert phone.locator("ul.messages").inner_text() == CONFIRMED
    row = phone.locator("main table tbody tr").filter(has_text=suspension.player.name).first
    assert row.inner_text().split("\t")[-1] == "em vigor"
    assert confirm.count() == 0
    assert confirmed_nationally(suspension, importer)
    assert AuditEntry.objects.get(action="suspension.confirm").tournament == imported
    shot(phone, "suspension-event-confirmed")
