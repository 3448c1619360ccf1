"""The import page in a real browser (issue 38.2), on a desktop and at 390 px: the two TRF readings offered as
options with their effect, and after the import every warning shown on the tournament's page, one folded list per
consequence, what changes points first (open) and the 44 unreadable birth dates after it (folded, with their count).
Screenshots in test-artifacts/ (import-warnings-*)."""

import re

import pytest

from tests.browser.phone_layout import WIDEST, fits, small_fields
from tests.browser.test_browser_entries import director_user, login  # noqa: F401 (director_user: a fixture)
from tests.tournaments.interchange.round_four_files import rating_system
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("director_user")
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_import_shows_every_warning_sorted_and_folded(request, device, live_server, shot, tmp_path):
    page = request.getfixturevalue(device)
    base = live_server.url
    login(page, base, next_url="/gestao/importar/")
    follow = page.locator("#id_follow_declared_points")
    leave_out = page.locator("#id_leave_out_round_in_progress")
    assert follow.is_visible() and leave_out.is_visible() and not follow.is_checked()
    assert page.locator("label[for=id_follow_declared_points]").inner_text().strip().rstrip(":") == (
        "seguir os pontos declarados"
    )
    assert "pontos fora das partidas" in page.locator("main form").inner_text()
    assert fits(page), page.evaluate(WIDEST)
    assert device == "desktop" or small_fields(page) == []  # nothing an iPhone zooms into
    shot(page, f"import-warnings-{device}-form")
    path = tmp_path / "estadual.trf"
    path.write_bytes(rating_system(extra_births=44).encode("latin-1"))
    page.set_input_files("input[type=file]", str(path))
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/gestao/t/campeonato-estadual-absoluto/$"))
    groups = page.locator("details.import-warnings")
    assert groups.count() == 2
    points, rights = groups.nth(0), groups.nth(1)
    assert points.locator("summary").inner_text() == "4 avisos que mudam pontos"
    assert points.get_attribute("open") is not None
    items = points.locator("li")
    assert items.count() == 4 and all(items.nth(i).is_visible() for i in range(4))
    assert "o jogador 6 declara 1.5 pontos, mas os resultados somam 1.0; vale a soma dos resultados" in (
        points.inner_text()
    )
    assert "seguir os pontos declarados" in points.inner_text()
    # the 44 birth dates: folded, their count in the summary, all there when unfolded
    assert rights.locator("summary").inner_text() == "44 avisos que mudam direitos (categorias, vagas)"
    assert rights.get_attribute("open") is None and not rights.locator("li").first.is_visible()
    assert fits(page), page.evaluate(WIDEST)
    shot(page, f"import-warnings-{device}-folded")
    rights.locator("summary").click()
    assert rights.locator("li").count() == 44 and rights.locator("li").nth(43).is_visible()
    assert fits(page), page.evaluate(WIDEST)
    shot(page, f"import-warnings-{device}-unfolded")
    # the option: the declared points count
    page.goto(f"{base}/gestao/importar/")
    page.set_input_files("input[type=file]", str(path))
    page.check("#id_follow_declared_points")
    page.fill("#id_slug", "seguindo")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/gestao/t/seguindo/$"))
    assert "valem os pontos declarados" in page.locator("details.import-warnings").first.inner_text()
    assert Tournament.objects.get(slug="seguindo").entries.get(pairing_number=6).points_adjustment == 0.5
