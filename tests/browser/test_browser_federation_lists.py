"""Issue 28 items 2 and 3 in a real browser: a federation officer uploads the rating list as published (title
lines above the header, a "Situação" column) and reads what it did, then enters a tribunal's suspension by CBJD
ID on the national suspensions page, sees whom the ID names, confirms, and finds it in force. Screenshots in
test-artifacts/ (federation-*)."""

import re

import pytest

from tests.tournaments.services.test_ratinglist_as_published import published_xlsx
from tournaments.models import Suspension

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-forte-123"


@pytest.fixture
def officer(django_user_model):
    from tournaments.registry.services import federation_group

    user = django_user_model.objects.create_user("federacao", password=PASSWORD)
    user.groups.add(federation_group())
    return user


def log_in(page, base, url):
    page.goto(f"{base}/entrar/?next={url}")
    page.fill("input[name=username]", "federacao")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(re.escape(url) + "$"))


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_list_as_published_and_a_tribunal_suspension(request, device, live_server, officer, shot, tmp_path):
    page = request.getfixturevalue(device)
    base = live_server.url
    log_in(page, base, "/gestao/lista-de-rating/")
    path = tmp_path / "rating-cbjd-dez-2026.xlsx"
    path.write_bytes(published_xlsx())
    page.set_input_files("input[type=file]", str(path))
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    text = page.locator(".messages").inner_text()
    shot(page, f"federation-{device}-list-imported")
    assert "Lista de rating importada: 5 jogadores novos, 0 atualizados." in text
    assert "1 suspensão lida da coluna “Situação”: Caio Duarte." in text
    assert "Linha 8: a situação “Inativo” não foi lida como suspensão; confira." in text
    assert "Linha 9: a situação “Suspensa” não foi lida como suspensão; confira." in text
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    # the tribunal's suspension of another player, by CBJD ID
    page.goto(f"{base}/gestao/cadastro/")
    page.click("#national-suspensions-link")
    page.wait_for_url(re.compile(r"/gestao/cadastro/suspensoes/$"))
    assert "Caio Duarte" in page.locator("#in-force").inner_text()
    page.fill("#id_cbjd_id", "30104")
    page.fill("#id_start_date", "2026-12-10")
    page.fill("#id_end_date", "2027-06-09")
    page.fill("#id_reason", "STJD, processo 31/2026: conduta antidesportiva")
    page.click("#check-suspension")
    page.wait_for_load_state()
    assert (
        "Suspender Rui Sales (ID CBJD 30104) de 10/12/2026 a 09/06/2027?"
        in page.locator("#confirm-suspension").inner_text()
    )
    assert Suspension.objects.filter(player__cbjd_id="30104").count() == 0
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    shot(page, f"federation-{device}-suspension-check")
    page.click("#save-suspension")
    page.wait_for_load_state()
    assert (
        "Rui Sales (ID CBJD 30104): suspensão de 10/12/2026 a 09/06/2027 registrada."
        in page.locator(".messages").inner_text()
    )
    rows = page.locator("#in-force").inner_text()
    assert "Rui Sales" in rows and "10/12/2026 – 09/06/2027" in rows and "conduta antidesportiva" in rows
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    shot(page, f"federation-{device}-suspensions")
