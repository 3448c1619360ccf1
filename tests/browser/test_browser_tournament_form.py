"""Issue 28.15: the new-tournament form without a JSON box. The custom tiebreak list is a list of selects from the
catalogue (add, remove, move up and down with the page's script; without script, plain selects that still save),
the advanced settings folded, and no select's text cut off at 390 px and at 1366 px. Screenshots in
test-artifacts/ (tournament-form-*)."""

import re

import pytest
from django.contrib.auth.models import Permission

from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-forte-123"
# each select of the form: the text of its chosen option (what the closed select shows), as the select's own font
# draws it, against the room the select gives its text (its width less its padding and the arrow); the long
# readings' full text is in the list the select opens
CUT_SELECTS = """() => {
  const canvas = document.createElement('canvas').getContext('2d');
  return Array.from(document.querySelectorAll('form select')).filter(s => s.checkVisibility()).map(s => {
    const st = getComputedStyle(s);
    canvas.font = st.font;
    const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 20;
    const widest = canvas.measureText(s.options[s.selectedIndex].text).width;
    return [s.name, s.options[s.selectedIndex].text, Math.round(widest), Math.round(room)];
  }).filter(([name, text, widest, room]) => widest > room);
}"""


# advanced readings whose choices are sentences: radio lists on the page, so nothing is cut on a phone
SENTENCE_READINGS = ("top3_order", "participant_rule", "spot_tie_rule", "pairing_program_rule")
NO_SIDEWAYS = "document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"


@pytest.fixture
def director(django_user_model):
    user = django_user_model.objects.create_user("diretora", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def log_in(page, base):
    page.goto(f"{base}/entrar/?next=/gestao/novo/")
    page.fill("input[name=username]", "diretora")
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/gestao/novo/$"))


def fill_the_event(page, name):
    page.fill("#id_name", name)
    page.fill("#id_planned_rounds", "7")
    page.fill("#id_start_date", "2026-11-07")
    page.fill("#id_end_date", "2026-11-08")
    page.fill("#id_city", "Natal")
    page.select_option("#id_tiebreak_profile", "custom")


def test_the_tiebreak_list_is_chosen_not_typed(browser, live_server, director, shot):
    for width in (390, 1366):
        context = browser.new_context(viewport={"width": width, "height": 900}, locale="pt-BR")
        page = context.new_page()
        try:
            log_in(page, live_server.url)
            assert page.locator("textarea[name=tiebreak_keys], input[name=tiebreak_keys]").count() == 0
            advanced = page.locator("#advanced-settings")
            assert advanced.get_attribute("open") is None and not page.locator("#id_score_win").is_visible()
            assert page.evaluate(CUT_SELECTS) == []
            page.evaluate("document.querySelector('#advanced-settings').open = true")
            shot(page, f"tournament-form-advanced-{width}")
            assert page.evaluate(CUT_SELECTS) == []
            for name in SENTENCE_READINGS:
                assert page.locator(f"#advanced-settings input[type=radio][name={name}]").count() >= 2, name
                assert page.locator(f"#advanced-settings input[type=radio][name={name}]:checked").count() == 1, name
            assert page.evaluate(NO_SIDEWAYS)
            page.evaluate("document.querySelector('#advanced-settings').open = false")
            fill_the_event(page, f"Etapa Natal {width}")
            editor = page.locator("ol.tiebreak-editor")
            assert editor.locator("li:visible").count() == 0  # the empty selects wait behind "add"
            for key in ("buchholz", "progressive", "matches_won"):
                page.click("button.tb-add")
                editor.locator("li:visible select").last.select_option(key)
            shot(page, f"tournament-form-tiebreaks-{width}")
            assert page.evaluate(CUT_SELECTS) == []  # the chosen tiebreaks' names whole beside their buttons
            editor.locator("li:visible").nth(2).locator(".tb-up").click()  # matches won above progressive
            editor.locator("li:visible").nth(0).locator(".tb-remove").click()  # buchholz out
            chosen = editor.locator("li:visible select").evaluate_all("ss => ss.map(s => s.value)")
            assert chosen == ["matches_won", "progressive"]
            assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
            page.click("form.tournament-form > p button[type=submit]")
            page.wait_for_url(re.compile(r"/gestao/t/[\w-]+/$"))
            t = Tournament.objects.get(name=f"Etapa Natal {width}")
            assert (t.tiebreak_profile, t.tiebreak_keys) == ("custom", ["matches_won", "progressive"])
        finally:
            context.close()


def test_without_script_the_selects_still_save_and_a_repeat_is_refused(browser, live_server, director, shot):
    context = browser.new_context(viewport={"width": 390, "height": 900}, locale="pt-BR", java_script_enabled=False)
    page = context.new_page()
    try:
        log_in(page, live_server.url)
        fill_the_event(page, "Etapa sem script")
        page.fill("#id_slug", "etapa-sem-script")
        selects = page.locator("ol.tiebreak-editor select")
        assert selects.count() == 3 and all(selects.nth(i).is_visible() for i in range(3))
        selects.nth(0).select_option("buchholz")
        selects.nth(1).select_option("buchholz")
        page.click("form.tournament-form > p button[type=submit]")
        page.wait_for_load_state()
        error = page.locator("#field-tiebreak_keys .errorlist").inner_text()
        assert error == "O desempate “buchholz” aparece duas vezes."
        shot(page, "tournament-form-no-script-error")
        selects = page.locator("ol.tiebreak-editor select")
        assert selects.count() == 5  # the two chosen, kept, and three empty
        selects.nth(1).select_option("direct_encounter")
        page.click("form.tournament-form > p button[type=submit]")
        page.wait_for_url(re.compile(r"/gestao/t/etapa-sem-script/$"))
        t = Tournament.objects.get(slug="etapa-sem-script")
        assert t.tiebreak_keys == ["buchholz", "direct_encounter"]
    finally:
        context.close()
