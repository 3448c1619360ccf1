"""Issue 14, the whole day at the venue in a real browser: the director sets the tournament up, enters the field
in one go (a pasted list), adds the Feminino category by rule, creates an arbiter's account (invite link); the arbiter types results (a bad cell is marked, nothing saved), corrects one with a reason;
the director records a withdrawal with its reason, checks the draft of the next round (who sits out, scores before,
ratings), undoes it after confirming, pairs again and publishes; a player finds their board on a 390 px phone; the
audit log tells the day in sentences. Screenshots of every step in test-artifacts/ (desktop and 390 px)."""

import re

import pytest
from django.contrib.auth.models import Permission

from tournaments.models import AuditEntry, Game, Player, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def pair_next(page):
    """The dashboard's "Emparceirar a próxima rodada", then who is present: nobody absent here (issue 28.12)."""
    page.click("#pair-next")
    page.click("#confirm-presence")


PASSWORD = "senha-forte-123"
SLUG = "etapa-caruaru"
NAMES = [
    "Ana Beatriz Lins",
    "Bruno Cavalcanti",
    "Carla Souza",
    "Davi Araújo",
    "Édson Monteiro",
    "Fábio Dias",
    "Gabriela Farias",
    "Heitor Nascimento",
    "Íris Campos",
    "João Araújo",
]


@pytest.fixture
def people(django_user_model):
    director = django_user_model.objects.create_user("diretora", password=PASSWORD, first_name="Marta")
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    for i, name in enumerate(NAMES):
        Player.objects.create(
            name=name,
            sex="F" if name.split()[0][-1] == "a" or name.startswith("Íris") else "M",
            rating=2100 - 40 * i,
            cbjd_id=f"PE{i:04d}",
            state="PE",
            club="Clube de Damas de Caruaru",
        )
    return director


def log_in(page, base, username):
    page.goto(f"{base}/entrar/?next=/gestao/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]:not(.link-button)")
    page.wait_for_url(re.compile(r"/gestao/$"))


def messages_text(page):
    return " ".join(page.locator(".messages").all_inner_texts()) if page.locator(".messages").count() else ""


def test_a_whole_day_at_the_venue(browser, live_server, people, shot):
    base = live_server.url
    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR")
    phone_ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="pt-BR"
    )
    arb_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, locale="pt-BR")
    try:
        page = desk.new_page()
        page.set_default_timeout(20000)
        log_in(page, base, "diretora")

        # -- the tournament
        page.goto(f"{base}/gestao/novo/")
        page.fill("#id_name", "Etapa Caruaru")
        page.fill("#id_slug", SLUG)
        page.fill("#id_planned_rounds", "3")
        page.fill("#id_start_date", "2026-11-07")
        page.fill("#id_end_date", "2026-11-08")
        page.fill("#id_city", "Caruaru")
        idf = page.locator("#id_opening_table option").filter(has_text=re.compile("IDF")).first
        page.select_option("#id_opening_table", idf.get_attribute("value"))
        page.click("form.form-grid button[type=submit]")
        page.wait_for_url(re.compile(rf"/gestao/t/{SLUG}/$"))
        t = Tournament.objects.get(slug=SLUG)

        # -- the field, from the registry, in one go: a pasted list of CBJD IDs
        page.goto(f"{base}/gestao/t/{SLUG}/inscritos/")
        page.click("#paste summary")
        page.fill("#id_lines", "\n".join(f"PE{i:04d}" for i in range(len(NAMES))))
        page.click("#enter-list")
        page.wait_for_load_state()
        assert "10 jogadores inscritos" in messages_text(page)
        assert t.entries.count() == 10
        shot(page, "day-01-entries")

        # -- categories: the ready-made Feminino takes its entries by rule
        page.goto(f"{base}/gestao/t/{SLUG}/categorias/")
        page.click("#preset-FEM")
        page.wait_for_load_state()
        assert "Categoria Feminino salva: 4 inscritos seguem a regra." in messages_text(page)

        # -- an arbiter account from the Equipe page, with its one-time invite link
        page.goto(f"{base}/gestao/t/{SLUG}/equipe/")
        page.fill("#account_full_name", "Paulo Árbitro")
        page.fill("#account_username", "arbitro")
        page.click("#create-account")
        page.wait_for_load_state()
        invite = page.input_value("#invite-url")
        assert "arbitro" in page.locator("#staff-table").inner_text()

        # -- round 1: pair, draw the opening, publish; the print links are on the round page
        page.goto(f"{base}/gestao/t/{SLUG}/")
        pair_next(page)
        page.wait_for_url(re.compile(r"/rodada/1/$"))
        page.click("#draw-opening")
        page.wait_for_load_state()
        assert page.locator(".print-links a").count() == 3
        page.click("#publish")
        page.wait_for_load_state()
        shot(page, "day-02-round1")

        # -- the arbiter types the results on a phone: a bad cell is marked and nothing is saved
        arb = arb_ctx.new_page()
        arb.set_default_timeout(20000)
        arb.goto(invite)
        arb.fill("#id_new_password1", PASSWORD)
        arb.fill("#id_new_password2", PASSWORD)
        arb.click("#set-password")
        arb.wait_for_url(re.compile(rf"/gestao/t/{SLUG}/$"))  # logged in at once (issue 28.9)
        arb.goto(f"{base}/gestao/t/{SLUG}/rodada/1/resultados/")
        inputs = arb.locator("input.result-input")
        assert inputs.count() == 10  # five boards, two games each
        for i in range(10):
            inputs.nth(i).fill(["2-0", "1-1"][i % 2])
        inputs.nth(3).fill("3-0")
        arb.click("#save-results")
        arb.wait_for_load_state()
        assert "Nada foi salvo: corrija o erro abaixo e salve de novo." in messages_text(arb)
        bad = arb.locator("td.cell-error input")
        assert bad.count() == 1 and bad.get_attribute("aria-invalid") == "true" and bad.input_value() == "3-0"
        assert not Game.objects.filter(board__round__tournament=t, result__isnull=False).exists()
        shot(arb, "day-03-results-error-390")
        bad.fill("0-2")
        arb.click("#save-results")
        arb.wait_for_load_state()
        assert "5 mesa" in messages_text(arb)
        assert Game.objects.filter(board__round__tournament=t, result__isnull=False).count() == 10

        # -- a correction: confirmed, with its reason
        arb.locator("input.result-input").nth(1).fill("0-2")
        arb.click("#save-results")
        arb.wait_for_load_state()
        panel = arb.locator("#corrections")
        assert "Mesa 1: partida 2 de 1-1 para 0-2" in panel.inner_text()
        shot(arb, "day-04-correction-confirm-390")
        arb.click("#save-results")  # the browser refuses: the reason and the box are required
        assert arb.locator("#corrections").count() == 1
        arb.fill("#reason", "súmula assinada pelos dois jogadores")
        arb.check("input[name=confirm_correction]")
        arb.click("#save-results")
        arb.wait_for_load_state()
        assert "1 mesa" in messages_text(arb)
        correction = AuditEntry.objects.get(action="result.correct")
        assert correction.reason == "súmula assinada pelos dois jogadores" and correction.username == "arbitro"

        # -- a withdrawal, with its reason and confirmation
        quitter = t.entries.select_related("player").get(player__name="Fábio Dias")
        page.goto(f"{base}/gestao/t/{SLUG}/inscritos/{quitter.pk}/")
        page.fill("#id_from_round", "2")
        page.fill("#id_note", "passou mal")
        page.check("#id_confirm")
        page.click("form:has(input[value=withdraw]) button[type=submit]")
        page.wait_for_load_state()
        quitter.refresh_from_db()
        assert quitter.withdrawn_from_round == 2

        # -- round 2 draft: who sits out and why, scores before the round, ratings
        page.goto(f"{base}/gestao/t/{SLUG}/")
        pair_next(page)
        page.wait_for_url(re.compile(r"/rodada/2/$"))
        out = page.locator("#not-paired").inner_text()
        assert "Fábio Dias" in out and "desistente" in out and "BYE" in out
        header = page.locator("main table.table").first.locator("thead").inner_text().lower()
        assert "rating" in header and "pts antes" in header
        shot(page, "day-05-round2-draft")

        # -- undo, after confirming
        page.click("#undo summary")
        page.click("#undo-round")  # not ticked: the browser keeps the form
        assert Round.objects.filter(tournament=t, number=2).exists()
        page.check("#undo input[name=confirm]")
        page.click("#undo-round")
        page.wait_for_url(re.compile(rf"/gestao/t/{SLUG}/$"))
        assert not Round.objects.filter(tournament=t, number=2).exists()
        pair_next(page)
        page.wait_for_url(re.compile(r"/rodada/2/$"))
        page.click("#draw-opening")
        page.wait_for_load_state()
        page.click("#publish")
        page.wait_for_load_state()

        # -- a player finds their board on a phone
        phone = phone_ctx.new_page()
        phone.goto(f"{base}/t/{SLUG}/emparceiramento/")
        rows = phone.locator("table.pairings tbody tr")
        assert rows.count() == 5  # nine players: four boards and the bye
        phone.fill("input[data-filter]", "joao araujo")
        visible = phone.locator("table.pairings tbody tr:visible")
        assert visible.count() == 1 and "João Araújo" in visible.first.inner_text()
        assert phone.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth")
        shot(phone, "day-06-phone-search-390", full_page=False)

        # -- the audit log tells the day
        page.goto(f"{base}/gestao/t/{SLUG}/auditoria/")
        log = page.locator("table.audit").inner_text()
        assert (
            "Rodada 1, mesa 1: partida 2 corrigida de 1-1 para 0-2 pelo árbitro arbitro, motivo: súmula assinada" in log
        )
        assert "Emparceiramento da rodada 2 desfeito pelo diretor diretora." in log
        assert "Desistência de Fábio Dias a partir da rodada 2" in log and "motivo: passou mal" in log
        assert "{" not in log and "result.correct" not in log
        shot(page, "day-07-audit")
    finally:
        desk.close()
        phone_ctx.close()
        arb_ctx.close()
