"""The federation's pages through the test client (issue 29): credentials shown once, the review queue and a
decision, the venue's "Enviar à federação", the season page."""

import re

import pytest

from tournaments.models import ApiCredential, Submission


@pytest.mark.django_db
def test_credential_shown_once_then_revoked(client, as_federation, federation):
    client.force_login(federation)
    r = client.post("/gestao/federacao/credenciais/", {"label": "Federação Paraibana", "event_slug": ""})
    token = re.search(r'<code class="token" id="token">(dsw_[^<]+)</code>', r.content.decode()).group(1)
    credential = ApiCredential.objects.get()
    assert credential.label == "Federação Paraibana" and token.split("_")[1] == credential.prefix
    assert token not in client.get("/gestao/federacao/credenciais/").content.decode()  # never shown again
    assert r["Cache-Control"] == "private, no-store"
    client.post("/gestao/federacao/credenciais/", {"revoke": credential.pk})
    credential.refresh_from_db()
    assert credential.revoked_at is not None


@pytest.mark.django_db
def test_only_federation_officers_and_only_at_the_federation(client, settings, director, federation):
    settings.DAMAS_ROLE = "federation"
    client.force_login(director)
    assert client.get("/gestao/federacao/envios/").status_code == 403
    settings.DAMAS_ROLE = "venue"
    client.force_login(federation)
    assert client.get("/gestao/federacao/envios/").status_code == 404
    assert client.get("/circuito/2026/").status_code == 404


@pytest.mark.django_db
def test_queue_refuse_needs_a_reason_then_approve_and_season(client, received, federation):
    client.force_login(federation)
    assert 'id="federation-home-link"' in client.get("/gestao/").content.decode()
    page = client.get("/gestao/federacao/envios/").content.decode()
    assert "Circuito Nacional de Damas - Etapa Caruaru" in page and "verificado sem apontamentos" in page
    url = f"/gestao/federacao/envios/{received.pk}/"
    r = client.post(url, {"decision": "refuse", "reason": "  "}, follow=True)
    assert "Informe o motivo da recusa." in r.content.decode()
    received.refresh_from_db()
    assert received.status == "verified"
    client.post(url, {"decision": "approve", "reason": ""})
    received.refresh_from_db()
    assert received.status == "approved" and received.decided_by == federation
    # the abandonment of round 5 suspends the player for 3 months at every venue (art. 10)
    season = client.get(f"/circuito/{received.start_date.year}/").content.decode()
    assert "Etapa Caruaru" in season and "Campeonato Brasileiro · Absoluto" in season
    assert "Abandono da etapa Circuito Nacional de Damas - Etapa Caruaru (art. 10)" in season
    assert Submission.objects.get().qualification[0]["qualified"][0]["name"] in season


@pytest.mark.django_db
def test_venue_send_button_queues_and_shows_the_state(client, venue, venue_event, director):
    from tournaments.models import TournamentRole

    TournamentRole.objects.create(tournament=venue_event, user=director, role="director")
    client.force_login(director)
    page = client.get(f"/gestao/t/{venue_event.slug}/federacao/").content.decode()
    assert "Nada enviado ainda." in page and 'id="send-federation"' in page
    r = client.post(f"/gestao/t/{venue_event.slug}/federacao/", {"action": "send"}, follow=True)
    page = r.content.decode()
    assert "Enviado à fila: segue para a federação assim que houver conexão." in page
    assert "pendente (1 tentativa; sem conexão com a federação: confira a internet deste computador" in page


@pytest.mark.django_db
def test_a_verification_that_fails_is_said_not_left_received(
    as_federation, credential, national_list, recent_stage, monkeypatch, caplog
):

    from tournaments.federation import services

    def broken(*args, **kwargs):
        raise RuntimeError("falha simulada")

    monkeypatch.setattr(services, "verify", broken)
    cred, _token = credential
    submission, _ = services.submission_receive(credential=cred, data=recent_stage, nonce="c" * 32)
    submission = services.submission_verify(submission=submission)
    assert submission.status == "verified" and submission.rights is False
    assert [f["code"] for f in submission.findings] == ["verification_failed"]
    assert "the verification of submission" in caplog.text and "falha simulada" in caplog.text


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/gestao/federacao/credenciais/", "/gestao/federacao/envios/", "/gestao/federacao/envios/1/"]
)
def test_anonymous_visitors_are_sent_to_the_login_by_every_federation_staff_page(client, as_federation, url):
    """Issue 34.1: the staff mixin's ``View`` base ended the dispatch chain before the login check ran."""
    for response in (client.get(url), client.post(url, {"label": "x", "decision": "approve", "revoke": "1"})):
        assert response.status_code == 302 and response["Location"].startswith("/entrar/")
    assert not ApiCredential.objects.exists()


@pytest.mark.django_db
def test_queue_shows_the_slug_filters_and_pages(client, received, federation):
    """Issue 36.8: the slug in the queue, a filter by situation, season and text, and pages of 50."""
    from tournaments.federation.views import QueueView

    client.force_login(federation)
    page = client.get("/gestao/federacao/envios/").content.decode()
    assert f"<code>{received.event_slug}</code>" in page
    assert f'<option value="{received.start_date.year}">' in page
    assert "Etapa Caruaru" in client.get("/gestao/federacao/envios/?q=caruaru").content.decode()
    assert "Etapa Caruaru" in client.get(f"/gestao/federacao/envios/?q={received.event_slug}").content.decode()
    none = client.get("/gestao/federacao/envios/?q=natal").content.decode()
    assert "Etapa Caruaru" not in none and "Nenhum envio com esses filtros." in none
    assert "Etapa Caruaru" not in client.get("/gestao/federacao/envios/?situacao=approved").content.decode()
    assert "Etapa Caruaru" in client.get("/gestao/federacao/envios/?situacao=verified").content.decode()
    assert "Etapa Caruaru" not in client.get("/gestao/federacao/envios/?temporada=2019").content.decode()
    # 51 events: two pages, the filter kept in the links
    for n in range(50):
        Submission.objects.create(
            credential=received.credential,
            event_slug=f"etapa-{n}",
            event_name=f"Etapa {n}",
            start_date=received.start_date,
            end_date=received.end_date,
            version=1,
            sha256=f"{n:064d}",
            payload={},
        )
    assert QueueView.PER_PAGE == 50
    first = client.get("/gestao/federacao/envios/?q=etapa").content.decode()
    assert first.count('<td class="slug">') == 50 and "Página 1 de 2" in first
    assert 'href="?q=etapa&amp;pagina=2"' in first
    second = client.get("/gestao/federacao/envios/?q=etapa&pagina=2").content.decode()
    assert second.count('<td class="slug">') == 1
