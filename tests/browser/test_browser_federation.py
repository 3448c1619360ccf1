"""The federation's pages in a real browser (issue 29): an officer issues a credential (shown once) and revokes it,
reviews a stage (findings, spots) and homologates it; the public season page on a 390 px phone; the venue's
"Enviar à federação" with the federation out of reach. Screenshots in test-artifacts/ (federation-*)."""

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from tests.browser.phone_layout import WIDEST, broken_headers, fits, small_fields
from tests.federation.conftest import register


def venue_director(django_user_model):
    """The venue's director as `make run` makes it (issue 37.2): a director by permission, not a superuser."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("diretora", password=PASSWORD)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-forte-123"
STAGE = Path(__file__).resolve().parents[1] / "data" / "federation" / "etapa-caruaru.json"
IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend", "QUEUES": ["default"]}}


def recent_stage():
    data = json.loads(STAGE.read_text(encoding="utf-8"))
    yesterday = (timezone.localdate() - timedelta(days=1)).isoformat()
    data["tournament"]["start_date"] = data["tournament"]["end_date"] = yesterday
    return data


def login(page, base, username, next_url):
    page.goto(f"{base}/entrar/?next={next_url}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_url}")


@pytest.fixture
def officer(django_user_model, settings):
    from tournaments.registry.services import federation_group

    settings.DAMAS_ROLE = "federation"
    settings.TASKS = IMMEDIATE
    user = django_user_model.objects.create_user("oficial", password=PASSWORD)
    user.groups.add(federation_group())
    return user


@pytest.fixture
def verified(officer):
    """A stage received and verified at the federation, its players on the national list of 1 October."""
    from datetime import date

    from tournaments.entries.services import rating_list_import
    from tournaments.federation.services import credential_issue, submission_receive, submission_verify

    data = recent_stage()
    lines = ["ID CBJD;Nome;Rating;Nascimento;Sexo;UF;Clube"] + [
        f"{p['cbjd_id']};{p['name']};{p['rating'] or ''};{date.fromisoformat(p['birth_date']):%d/%m/%Y};{p['sex']};PE;"
        for p in data["players"]
    ]
    rating_list_import(
        data="\n".join(lines).encode(), filename="rating-cbjd-2026-10.csv", user=officer, list_date=date(2026, 10, 1)
    )
    credential, _token = credential_issue(label="Federação Pernambucana", user=officer)
    register(credential, data)  # a stage registered in the calendar before it started (issue 35.2)
    submission, _ = submission_receive(credential=credential, data=data, nonce="b" * 32)
    return submission_verify(submission=submission)


def test_officer_issues_a_credential_shown_once_and_revokes_it(live_server, desktop, shot, officer):
    login(desktop, live_server.url, "oficial", "/gestao/federacao/credenciais/")
    desktop.fill("#label", "Federação Paraibana")
    desktop.fill("#event_slug", "etapa-joao-pessoa-2026")
    desktop.click("#issue-form button[type=submit]")
    token = desktop.text_content("#token")
    assert token.startswith("dsw_")
    row = desktop.locator("#credentials tbody tr").first
    assert "Federação Paraibana" in row.text_content() and "etapa-joao-pessoa-2026" in row.text_content()
    shot(desktop, "federation-credentials-issued")
    desktop.goto(f"{live_server.url}/gestao/federacao/credenciais/")
    assert desktop.locator("#token").count() == 0 and token not in desktop.content()
    desktop.click("#credentials button[name=revoke]")
    assert "revogada em" in desktop.locator("#credentials tbody tr").first.text_content()
    assert "revogada: não envia mais nada" in desktop.text_content(".messages")


def test_officer_reviews_and_homologates_a_stage(live_server, desktop, shot, verified):
    login(desktop, live_server.url, "oficial", "/gestao/federacao/envios/")
    row = desktop.locator("#queue tbody tr").first
    assert "verificado sem apontamentos" in row.text_content()
    shot(desktop, "federation-queue")
    desktop.click("#queue a")
    assert desktop.text_content("#rights").strip() == "Direito a vagas: sim (nenhum apontamento impede)."
    assert desktop.locator("#spots tbody tr").count() == 3
    desktop.click("#refuse")  # no reason: refused with the message, nothing decided
    assert "Informe o motivo da recusa." in desktop.text_content(".messages")
    desktop.click("#approve")
    assert "Etapa homologada." in desktop.text_content(".messages")
    assert "homologado em" in desktop.text_content("#state")
    shot(desktop, "federation-submission-approved")


def test_queue_filters_and_approving_without_rights_needs_a_reason(live_server, desktop, phone, shot, verified):
    """Issue 36.8: the queue shows the slug and filters by situation, season and text; a stage without rights is
    approved only with the confirmation ticked and a reason; the same pages on a 390 px phone."""
    from tournaments.federation.services import submission_receive, submission_verify

    data = recent_stage()
    data["rounds"] = data["rounds"][:6]  # six rounds: no rights
    data["tournament"]["name"] = "Etapa Garanhuns sem vagas"
    data["tournament"]["slug"] = "etapa-garanhuns-2026"
    other, _ = submission_receive(credential=verified.credential, data=data, nonce="c" * 32)
    other = submission_verify(submission=other)
    assert not other.rights
    login(desktop, live_server.url, "oficial", "/gestao/federacao/envios/")
    assert desktop.locator("#queue tbody tr").count() == 2
    assert "etapa-garanhuns-2026" in desktop.text_content("#queue")
    desktop.fill("#q", "garanhuns")
    desktop.click("#queue-filter button[type=submit]")
    rows = desktop.locator("#queue tbody tr")
    assert rows.count() == 1 and "Etapa Garanhuns sem vagas" in rows.first.text_content()
    desktop.select_option("#situacao", "approved")
    desktop.click("#queue-filter button[type=submit]")
    assert "Nenhum envio com esses filtros." in desktop.text_content("#queue")
    shot(desktop, "federation-queue-filtered")
    desktop.goto(f"{live_server.url}/gestao/federacao/envios/{other.pk}/")
    assert desktop.text_content("#rights").startswith("Direito a vagas: não")
    desktop.click("#approve")  # without the confirmation: refused, nothing decided
    assert "confirme e informe o motivo" in desktop.text_content(".messages")
    desktop.check("#confirm-without-rights")
    desktop.click("#approve")  # ticked, but no reason
    assert "confirme e informe o motivo" in desktop.text_content(".messages")
    assert "homologado" not in desktop.text_content("#state")
    desktop.check("#confirm-without-rights")
    desktop.fill("#reason", "Etapa festiva: homologada sem vagas")
    desktop.click("#approve")
    assert "Etapa homologada." in desktop.text_content(".messages")
    assert "Etapa festiva: homologada sem vagas" in desktop.content()
    shot(desktop, "federation-approved-without-rights")
    login(phone, live_server.url, "oficial", "/gestao/federacao/envios/?temporada=" + str(other.start_date.year))
    assert "etapa-garanhuns-2026" in phone.text_content("#queue")
    assert fits(phone), phone.evaluate(WIDEST)
    assert small_fields(phone) == []
    shot(phone, "federation-queue-phone390")
    phone.goto(f"{live_server.url}/gestao/federacao/envios/{verified.pk}/")
    assert phone.locator("#confirm-without-rights").count() == 0  # a stage with rights: no confirmation asked
    assert fits(phone), phone.evaluate(WIDEST)
    assert small_fields(phone) == []
    shot(phone, "federation-submission-phone390")


def test_season_page_on_a_phone(live_server, phone, shot, verified, officer):
    from tournaments.federation.services import submission_decide

    submission_decide(submission=verified, user=officer, approve=True)
    phone.goto(f"{live_server.url}/circuito/{verified.start_date.year}/")
    assert "Circuito Nacional de Damas - Etapa Caruaru" in phone.text_content("#stages")
    qualifiers = phone.locator("#champ-ABS .qualifiers tbody tr")
    assert qualifiers.count() == 3
    assert verified.qualification[0]["qualified"][0]["name"] in qualifiers.first.text_content()
    assert "Abandono da etapa" in phone.text_content("#suspensions")
    assert fits(phone), phone.evaluate(WIDEST)
    assert broken_headers(phone) == []
    shot(phone, "federation-season-phone390")


def test_venue_sends_and_sees_pending_while_offline(live_server, desktop, phone, shot, django_user_model, settings):
    from tournaments.interchange import import_data

    settings.DAMAS_ROLE = "venue"
    settings.TASKS = IMMEDIATE
    settings.FEDERATION_URL = "http://127.0.0.1:9"  # nothing listens: the venue is offline
    settings.FEDERATION_TOKEN = "dsw_00000000_chave"
    director = venue_director(django_user_model)
    t = import_data(recent_stage(), user=director)  # the venue's director directs it, as an import from the page
    login(desktop, live_server.url, "diretora", f"/gestao/t/{t.slug}/")
    desktop.click("#nav-federation")
    assert "Nada enviado ainda." in desktop.text_content("#outgoing")
    desktop.click("#send-federation")
    assert "Enviado à fila" in desktop.text_content(".messages")
    state = desktop.text_content("#outgoing tbody tr")
    assert (
        "pendente (1 tentativa; sem conexão com a federação: confira a internet deste computador; próxima em" in state
    )
    shot(desktop, "federation-venue-pending")
    login(phone, live_server.url, "diretora", f"/gestao/t/{t.slug}/federacao/")
    assert fits(phone), phone.evaluate(WIDEST)
    assert small_fields(phone) == []
    shot(phone, "federation-venue-phone390")


def test_venue_downloads_the_national_list(live_server, desktop, shot, django_user_model, settings, monkeypatch):
    from tournaments.federation import client

    settings.DAMAS_ROLE = "venue"
    settings.FEDERATION_URL = "http://127.0.0.1:9"
    settings.FEDERATION_TOKEN = "dsw_00000000_chave"
    answer = {
        "list": {"name": "rating-cbjd-2026-11.csv", "date": "2026-11-01"},
        "players": [
            {
                "cbjd_id": "PE4100",
                "name": "Ana Albuquerque Esteves",
                "rating": 2350,
                "sex": "F",
                "birth_date": "2010-01-01",
                "state": "PE",
                "club": "Clube de Damas de Caruaru",
            }
        ],
        "suspensions": [],
    }
    monkeypatch.setattr(client, "national_list", lambda: answer)
    venue_director(django_user_model)
    login(desktop, live_server.url, "diretora", "/gestao/cadastro/")
    desktop.click("#registry-sync-link")
    assert desktop.text_content("#last-sync").strip() == "Nenhuma lista baixada da federação ainda."
    desktop.click("#download-list")
    assert "Lista nacional de 01/11/2026 baixada: 1 jogador, 0 suspensões em vigor." in desktop.text_content(
        ".messages"
    )
    assert "rating-cbjd-2026-11.csv de 01/11/2026" in desktop.text_content("#last-sync")
    shot(desktop, "federation-registry-sync")


def test_officer_accepts_a_stage_into_the_calendar(live_server, desktop, phone, shot, officer):
    """Issue 35.2: the stages organisers asked for, on the staff's calendar page; accepting one; a 390 px phone."""
    from tournaments.federation.calendar import stage_decide, stage_request_receive
    from tournaments.federation.services import credential_issue

    credential, _token = credential_issue(label="Federação Pernambucana", user=officer)
    asked = {
        "name": "Etapa Caruaru",
        "city": "Caruaru",
        "state": "PE",
        "start_date": "2027-03-13",
        "end_date": "2027-03-14",
        "format": "micro-match",
        "planned_rounds": 7,
        "minutes_per_game": 21,
        "venue_slug": "etapa-caruaru-2027",
    }
    stage, _ = stage_request_receive(credential=credential, data=asked)
    stage_request_receive(credential=credential, data={**asked, "name": "Etapa Recife", "venue_slug": "recife"})
    # a stage refused for its dates, asked again with them corrected: the same record, re-opened
    olinda = {**asked, "name": "Etapa Olinda", "venue_slug": "olinda"}
    refused, _ = stage_request_receive(credential=credential, data=olinda)
    stage_decide(stage=refused, user=officer, accept=False, reason="Datas tomadas pelo Estadual.")
    again = {**olinda, "start_date": "2027-03-20", "end_date": "2027-03-21", "stage_id": refused.identifier}
    stage_request_receive(credential=credential, data=again)
    login(desktop, live_server.url, "oficial", "/gestao/federacao/calendario/")
    reopened = desktop.locator(f"#stage-{refused.identifier}").text_content()
    assert "20/03/2027 – 21/03/2027" in reopened and "depois de recusada: Datas tomadas pelo Estadual." in reopened
    row = desktop.locator(f"#stage-{stage.identifier}")
    assert "Etapa Caruaru" in row.text_content() and "7 rodadas × 21 min" in row.text_content()
    assert "pedida" in row.locator(".state-requested").text_content()
    shot(desktop, "federation-calendar")
    row.locator("button.accept").click()
    assert f"Etapa {stage.identifier} aceita no calendário." in desktop.text_content(".messages")
    assert "aceita no calendário" in desktop.locator(f"#stage-{stage.identifier}").text_content()
    login(phone, live_server.url, "oficial", "/gestao/federacao/calendario/")
    assert phone.locator("#calendar tbody tr").count() == 3
    assert fits(phone), phone.evaluate(WIDEST)
    assert small_fields(phone) == []
    shot(phone, "federation-calendar-phone390")


def test_venue_asks_for_its_stage_while_offline(live_server, desktop, phone, shot, django_user_model, settings):
    """Issue 35.2 at the venue: "Pedir registro da etapa" queues the request; offline, the page says so."""
    from tournaments.interchange import import_data

    settings.DAMAS_ROLE = "venue"
    settings.TASKS = IMMEDIATE
    settings.FEDERATION_URL = "http://127.0.0.1:9"
    settings.FEDERATION_TOKEN = "dsw_00000000_chave"
    django_user_model.objects.create_superuser("diretora", password=PASSWORD)
    t = import_data(recent_stage())
    login(desktop, live_server.url, "diretora", f"/gestao/t/{t.slug}/federacao/")
    assert "Uma etapa do Circuito é registrada na federação antes de começar" in desktop.text_content("#stage-state")
    desktop.click("#request-stage")
    assert "Pedido de registro da etapa na fila" in desktop.text_content(".messages")
    assert "sem conexão com a federação" in desktop.text_content("#stage-state")
    shot(desktop, "federation-venue-stage-requested")
    login(phone, live_server.url, "diretora", f"/gestao/t/{t.slug}/federacao/")
    assert fits(phone), phone.evaluate(WIDEST)
    assert small_fields(phone) == []
    shot(phone, "federation-venue-stage-phone390")


def test_venue_asks_again_for_a_stage_refused_in_the_calendar(
    live_server, desktop, phone, shot, django_user_model, settings
):
    """Issue 35.2 at the venue: the event is bound to a stage the federation refused; the page says why and offers
    "Pedir registro de novo"; offline, the new request waits in the queue and the page says so."""
    from tournaments.interchange import import_data
    from tournaments.models import StageRequest, Tournament, TournamentRole

    settings.DAMAS_ROLE = "venue"
    settings.TASKS = IMMEDIATE
    settings.FEDERATION_URL = "http://127.0.0.1:9"
    settings.FEDERATION_TOKEN = "dsw_00000000_chave"
    t = import_data(recent_stage())
    TournamentRole.objects.create(tournament=t, user=venue_director(django_user_model), role="director")
    Tournament.objects.filter(pk=t.pk).update(stage_id="CBJD-2026-004")
    StageRequest.objects.create(
        tournament=t,
        stage_id="CBJD-2026-004",
        status="received",
        remote_status="refused",
        decision_reason="Cidade errada.",
    )
    login(desktop, live_server.url, "diretora", f"/gestao/t/{t.slug}/federacao/")
    assert "A federação recusou a etapa no calendário: Cidade errada." in desktop.text_content("#calendar-state")
    assert desktop.text_content("#request-stage") == "Pedir registro de novo"
    desktop.click("#request-stage")
    assert "Pedido de registro da etapa na fila" in desktop.text_content(".messages")
    state = desktop.text_content("#calendar-state")
    assert "Novo pedido de registro da etapa CBJD-2026-004 na fila" in state and "sem conexão com a federação" in state
    assert desktop.locator("#request-stage").count() == 0
    shot(desktop, "federation-venue-stage-asked-again")
    login(phone, live_server.url, "diretora", f"/gestao/t/{t.slug}/federacao/")
    assert fits(phone), phone.evaluate(WIDEST)
    assert small_fields(phone) == []
    shot(phone, "federation-venue-stage-asked-again-phone390")


def test_the_public_round_page_shows_the_fingerprint_on_a_phone(live_server, phone, shot, django_user_model):
    """Issue 35.4: the round's fingerprints on its public page, readable at 390 px."""
    from tests.browser.events import first_round_played, staff_event
    from tournaments.models import Player, Round

    made = iter(range(100))

    def player(i):
        n = next(made)
        return Player.objects.create(name=f"Jogador {n + 1:02d}", sex="M", rating=2000 - n, cbjd_id=f"FP{n:04d}")

    t, director = staff_event(django_user_model, None, player=player)
    first_round_played(t, director, {1: "1-0", 2: "0-1"})
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.pairing_fingerprint and rnd.results_fingerprint
    phone.goto(f"{live_server.url}/t/{t.slug}/rodadas/1/")
    assert phone.text_content("#round-fingerprint .print-pairing") == rnd.pairing_fingerprint
    assert phone.text_content("#round-fingerprint .print-results") == rnd.results_fingerprint
    assert fits(phone), phone.evaluate(WIDEST)
    shot(phone, "public-round-fingerprint-phone390")
