"""Issue 35.2 and 36.5: a stage is registered in the federation's calendar before it starts (the API, the staff's
calendar page), the venue's event is bound to its identifier and every submission carries it; one stage is one
record whatever slug the venue uses (the season counts it once); only the organiser who asked for it sends it;
a venue offline since before the event asks at sending time and the stage says it was registered late."""

import json
import secrets

import pytest
from django.utils import timezone

from tests.federation.conftest import register
from tournaments.core.errors import ForbiddenError, NotFoundError
from tournaments.federation import client, outbox
from tournaments.federation.services import credential_issue, submission_decide, submission_receive, submission_verify
from tournaments.models import Stage, StageRequest, Submission, Tournament

CALENDAR = "/api/federacao/v1/calendario/"


def post(api, token, url, body):
    return api.post(
        url,
        data=json.dumps(body).encode(),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_X_DAMAS_NONCE=secrets.token_hex(16),
        HTTP_X_DAMAS_SENT_AT=timezone.now().isoformat(),
    )


def ask(data):
    t = data["tournament"]
    return {
        "name": t["name"],
        "city": "Caruaru",
        "state": "PE",
        "start_date": t["start_date"],
        "end_date": t["end_date"],
        "format": "micro-match",
        "planned_rounds": 7,
        "minutes_per_game": 21,
        "venue_slug": t["slug"],
    }


def receive(credential, data):
    submission, created = submission_receive(
        credential=credential, data=data, nonce=secrets.token_hex(16), sent_at=timezone.now()
    )
    return submission_verify(submission=submission) if created else submission, created


@pytest.mark.django_db
def test_an_organiser_asks_the_staff_accept_and_the_identifier_is_the_stage(
    client, as_federation, credential, federation, stage_data
):
    cred, token = credential
    data = ask(stage_data)
    r = post(client, token, CALENDAR, data)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["stage_id"] == "CBJD-2026-001" and body["status"] == "requested" and body["created"] is True
    # the same request again is the same stage; a second stage is numbered after it
    again = post(client, token, CALENDAR, data)
    assert again.status_code == 200 and again.json()["stage_id"] == "CBJD-2026-001"
    other = post(client, token, CALENDAR, {**data, "venue_slug": "outra-etapa", "name": "Etapa Recife"})
    assert other.json()["stage_id"] == "CBJD-2026-002"
    # hostile requests: nothing is written
    assert post(client, token, CALENDAR, {**data, "venue_slug": "x", "format": "blitz"}).status_code == 400
    assert post(client, token, CALENDAR, {**data, "venue_slug": "y", "end_date": "2020-01-01"}).status_code == 400
    assert Stage.objects.count() == 2
    # the staff's calendar page accepts it
    client.force_login(federation)
    page = client.get("/gestao/federacao/calendario/").content.decode()
    assert "CBJD-2026-001" in page and "Federação Pernambucana" in page and "pedida" in page
    stage = Stage.objects.get(identifier="CBJD-2026-001")
    r = client.post("/gestao/federacao/calendario/", {"stage": stage.pk, "decision": "accept"}, follow=True)
    assert "Etapa CBJD-2026-001 aceita no calendário." in r.content.decode()
    stage.refresh_from_db()
    assert stage.status == "accepted" and stage.decided_by == federation
    # the organiser reads its state; another organiser cannot
    client.logout()
    state = client.get(CALENDAR + "CBJD-2026-001/", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert state["status"] == "accepted"
    _other, other_token = credential_issue(label="Federação Paraibana", user=federation)
    assert client.get(CALENDAR + "CBJD-2026-001/", HTTP_AUTHORIZATION=f"Bearer {other_token}").status_code == 403


@pytest.mark.django_db
def test_the_same_stage_under_a_second_slug_is_one_record_and_the_season_counts_it_once(
    as_federation, credential, national_list, recent_stage, federation
):
    """Issue 36.5: before, the second slug was a second event, approved twice, and the season counted it twice."""
    cred, _token = credential
    stage = register(cred, recent_stage)
    first, _ = receive(cred, recent_stage)
    assert first.stage == stage and first.rights is True
    submission_decide(submission=first, user=federation, approve=True)
    copy = json.loads(json.dumps(recent_stage))
    copy["tournament"]["slug"] = "etapa-caruaru-copia"
    second, created = receive(cred, copy)
    assert created and second.stage == stage and second.version == 2 and second.supersedes == first, second.findings
    assert second.rights, second.findings
    submission_decide(submission=second, user=federation, approve=True)
    first.refresh_from_db()
    assert first.status == "superseded"
    from tournaments.federation.selectors import season_stages

    year = int(recent_stage["tournament"]["start_date"][:4])
    assert [(s.stage.identifier, s.version) for s in season_stages(year)] == [(stage.identifier, 2)]


@pytest.mark.django_db
def test_another_organiser_cannot_send_a_stage_it_did_not_ask_for(as_federation, credential, recent_stage, federation):
    cred, _token = credential
    register(cred, recent_stage)
    other, _ = credential_issue(label="Federação Paraibana", user=federation)
    with pytest.raises(ForbiddenError, match="registrada por outro organizador"):
        submission_receive(credential=other, data=recent_stage, nonce="o" * 32, sent_at=timezone.now())
    recent_stage["tournament"]["stage_id"] = "CBJD-2026-999"
    with pytest.raises(NotFoundError, match="não consta do calendário"):
        submission_receive(credential=cred, data=recent_stage, nonce="p" * 32, sent_at=timezone.now())
    assert Submission.objects.count() == 0


@pytest.mark.django_db
def test_a_stage_not_accepted_is_not_homologated_and_a_refused_one_is_not_received(
    as_federation, credential, national_list, recent_stage, federation
):
    from tournaments.core.errors import ServiceError
    from tournaments.federation.calendar import stage_decide

    cred, _token = credential
    stage = register(cred, recent_stage, accepted=False)
    submission, _ = receive(cred, recent_stage)
    assert [f["code"] for f in submission.findings] == ["stage_not_accepted"] and submission.rights is True
    with pytest.raises(ServiceError, match="ainda não foi aceita no calendário"):
        submission_decide(submission=submission, user=federation, approve=True)
    stage_decide(stage=stage, user=federation, accept=False, reason="fora do calendário")
    with pytest.raises(
        ServiceError, match=r"foi recusada no calendário \(fora do calendário\): não pode ser homologada"
    ):
        submission_decide(submission=submission, user=federation, approve=True)
    recent_stage["tournament"]["minutes_per_game"] = 22
    with pytest.raises(ServiceError, match="recusada no calendário"):
        receive(cred, recent_stage)


@pytest.mark.django_db
def test_a_venue_offline_since_before_the_event_asks_at_sending_time_and_the_stage_is_late(
    as_federation, settings, credential, national_list, recent_stage, monkeypatch, django_capture_on_commit_callbacks
):
    """The venue's queue, against the federation's services: the event never bound to a stage is sent; the
    request goes first (the federation marks it late, the event is bound), then the file with the identifier."""
    from tournaments.federation import calendar
    from tournaments.federation.api_calendar import stage_state
    from tournaments.interchange import import_data

    cred, token = credential
    settings.FEDERATION_URL, settings.FEDERATION_TOKEN = "http://127.0.0.1:9", token
    event = import_data(recent_stage)
    assert event.stage_id == ""

    def request_stage(data):
        stage, _created = calendar.stage_request_receive(credential=cred, data=data)
        return stage_state(stage)

    def send_stage(payload, created_at):
        submission, _ = submission_receive(
            credential=cred, data=json.loads(payload), nonce=secrets.token_hex(16), sent_at=timezone.now()
        )
        return {"status": submission.status, "version": submission.version}

    offline = outbox.submission_queue(tournament=event, user=None)[0]
    assert StageRequest.objects.get(tournament=event).status == "pending"
    outbox.send_due()  # nothing listens: both wait, the file says why
    offline.refresh_from_db()
    assert offline.status == "pending" and "sem conexão com a federação" in offline.last_error
    monkeypatch.setattr(client, "request_stage", request_stage)
    monkeypatch.setattr(client, "send_stage", send_stage)
    monkeypatch.setattr(client, "send_fingerprint", lambda identifier, data: {})
    type(offline).objects.filter(pk=offline.pk).update(next_attempt_at=None)  # due again (connection back)
    StageRequest.objects.update(next_attempt_at=None)
    outbox.send_due()
    event.refresh_from_db()
    stage = Stage.objects.get()
    assert event.stage_id == stage.identifier and stage.late and StageRequest.objects.get().late
    submission = Submission.objects.get()
    assert submission.stage == stage and submission.payload["tournament"]["stage_id"] == stage.identifier
    submission_verify(submission=submission)
    submission.refresh_from_db()
    codes = [f["code"] for f in submission.findings]
    assert "stage_late" in codes and "stage_unregistered" not in codes
    assert Tournament.objects.get(pk=event.pk).stage_id == stage.identifier


@pytest.mark.django_db
def test_the_venue_page_asks_for_the_stage(client, venue, recent_stage, director):
    from tournaments.interchange import import_data
    from tournaments.models import TournamentRole

    event = import_data(recent_stage)
    TournamentRole.objects.create(tournament=event, user=director, role="director")
    client.force_login(director)
    url = f"/gestao/t/{event.slug}/federacao/"
    page = client.get(url).content.decode()
    assert 'id="request-stage"' in page and "Pedir registro da etapa" in page
    r = client.post(url, {"action": "stage"}, follow=True)
    text = r.content.decode()
    assert "Pedido de registro da etapa na fila" in text
    assert StageRequest.objects.get(tournament=event).attempts == 1  # tried at once, no connection
    assert "sem conexão com a federação" in text


@pytest.fixture
def federation_in_process(monkeypatch, settings, credential):
    """The venue's HTTP client talks to this process's own federation (its API views, through Django's test
    client, which keeps the test's database connection), with the credential's key: the client's calls and
    answers are the real ones, without a second server."""
    import httpx
    from django.test import Client

    class ThisProcess(httpx.BaseTransport):
        def handle_request(self, request):
            headers = {
                "HTTP_" + k.upper().replace("-", "_"): v
                for k, v in request.headers.items()
                if k.lower() not in ("host", "content-type", "content-length")
            }
            r = Client().generic(
                request.method,
                request.url.raw_path.decode(),
                data=request.read(),
                content_type=request.headers.get("content-type", ""),
                **headers,
            )
            return httpx.Response(r.status_code, headers=dict(r.items()), content=r.content, request=request)

    settings.FEDERATION_URL, settings.FEDERATION_TOKEN = "http://testserver", credential[1]
    real = httpx.Client
    monkeypatch.setattr(httpx, "Client", lambda **kw: real(transport=ThisProcess(), **kw))
    return credential[0]


@pytest.mark.django_db
def test_the_director_asks_before_the_start_and_the_venue_learns_the_calendars_decision(
    client, as_federation, federation_in_process, director, federation
):
    """Issue 35.2: the director creates the next stage ten days ahead and asks for it on its page; the request
    goes at once (not late). The federation's decision reaches the venue when it asks ("Atualizar situação"):
    before, the venue never asked the calendar again, so its page said nothing of an acceptance or a refusal."""
    from datetime import timedelta

    from django.urls import reverse

    from tests.tournaments.test_form_errors import VALID
    from tournaments.federation.calendar import stage_decide
    from tournaments.models import OpeningTable

    start = timezone.localdate() + timedelta(days=10)
    client.force_login(director)
    table = OpeningTable.objects.get(code="IDF-64").pk
    pages = {}
    for slug, city in (("etapa-garanhuns", "Garanhuns"), ("etapa-olinda", "Olinda")):
        data = dict(VALID, slug=slug, name=f"Etapa {city}", city=city, opening_table=table)
        data.update(start_date=start.isoformat(), end_date=start.isoformat())
        assert client.post(reverse("staff:tournament_create"), data).status_code == 302
        url = f"/gestao/t/{slug}/federacao/"
        page = client.post(url, {"action": "stage"}, follow=True).content.decode()
        assert "Pedido de registro da etapa na fila" in page  # queued, then sent by the (immediate) worker
        pages[slug] = url
    first, second = (Stage.objects.get(venue_slug=s) for s in pages)
    assert [first.identifier, second.identifier] == [f"CBJD-{start.year}-001", f"CBJD-{start.year}-002"]
    assert not first.late and first.credential == federation_in_process
    page = client.get(pages["etapa-garanhuns"]).content.decode()
    assert f'<strong class="stage-id">{first.identifier}</strong>' in page and "registrada tarde" not in page
    assert "Aguardando a federação aceitar a etapa no calendário da temporada" in page
    stage_decide(stage=first, user=federation, accept=True)
    stage_decide(stage=second, user=federation, accept=False, reason="Data tomada pelo Estadual.")
    assert "Aguardando a federação aceitar" in client.get(pages["etapa-garanhuns"]).content.decode()  # not asked yet
    client.post(pages["etapa-garanhuns"], {"action": "sync"})
    accepted = client.get(pages["etapa-garanhuns"]).content.decode()
    assert "A federação aceitou a etapa no calendário da temporada." in accepted
    assert "Aguardando" not in accepted
    refused = client.get(pages["etapa-olinda"]).content.decode()
    assert (
        "A federação recusou a etapa no calendário: Data tomada pelo Estadual. Uma etapa recusada não é recebida "
        "nem homologada: corrija o que a recusa aponta (datas, nome, cidade, formato) e peça o registro de novo; a "
        "federação decide outra vez a mesma etapa." in refused
    )
    assert [(r.remote_status, r.decision_reason) for r in StageRequest.objects.order_by("pk")] == [
        ("accepted", ""),
        ("refused", "Data tomada pelo Estadual."),
    ]


@pytest.mark.django_db
def test_the_calendar_state_of_another_organisers_stage_is_left_as_it_was(
    as_federation, federation_in_process, venue_event, federation
):
    """A stage the federation does not give this credential (another organiser's): the sync logs it and goes on."""
    from tournaments.federation import stage_outbox
    from tournaments.federation.calendar import stage_request_receive

    other, _token = credential_issue(label="Federação Paraibana", user=federation)
    day = venue_event.start_date.isoformat()
    theirs = {"name": "Etapa João Pessoa", "start_date": day, "end_date": day, "slug": "etapa-joao-pessoa"}
    stage, _ = stage_request_receive(credential=other, data=ask({"tournament": theirs}))
    StageRequest.objects.create(tournament=venue_event, stage_id=stage.identifier, status="received")
    assert stage_outbox.sync_calendar_states() == 0
    assert StageRequest.objects.get().remote_status == ""


@pytest.mark.django_db
def test_federation_resume_sends_a_pending_stage_request(venue, venue_event):
    """`make run` resumes the queue at start: a stage request left pending (the laptop closed before it went) is
    tried again. Before, only the files were counted, and a request alone waited for a send that never came."""
    from io import StringIO

    from django.core.management import call_command

    from tournaments.federation import stage_outbox

    Tournament.objects.filter(pk=venue_event.pk).update(stage_id="")
    venue_event.refresh_from_db()
    request, _created = stage_outbox.stage_request_queue(tournament=venue_event, user=None)
    out = StringIO()
    call_command("federation_resume", stdout=out)
    assert out.getvalue() == "envios pendentes: 1; aguardando decisão: 0\n"
    request.refresh_from_db()
    assert request.attempts == 1 and request.last_error.startswith("sem conexão com a federação")


def settings_post(client, slug, **changes):
    """The event's settings page, as the director submits it: every field as shown, with ``changes``."""
    from django.urls import reverse

    url = reverse("staff:settings", args=[slug])
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data.update(opening_table=form.initial.get("opening_table") or "", **changes)
    assert client.post(url, data).status_code == 302


def create_ahead(client, slug, city, start):
    """The director creates the next stage on the staff page (as the page fills the form), dated ``start``."""
    from django.urls import reverse

    from tests.tournaments.test_form_errors import VALID
    from tournaments.models import OpeningTable

    data = dict(VALID, slug=slug, name=f"Etapa {city}", city=city, start_date=start, end_date=start)
    data.update(opening_table=OpeningTable.objects.get(code="IDF-64").pk)
    assert client.post(reverse("staff:tournament_create"), data).status_code == 302
    return f"/gestao/t/{slug}/federacao/"


def audited_on_both_sides(stage, director, refusal, start, later):
    """The venue's second request (by the director) and the federation's re-opening, with the facts it refused."""
    from tournaments.models import AuditEntry

    venue_side = AuditEntry.objects.filter(tournament__slug=stage.venue_slug, action="federation.stage_request")
    assert [e.summary for e in venue_side.order_by("pk")] == [
        stage.name,
        f"{stage.name}: etapa {stage.identifier} pedida de novo depois de recusada ({refusal})",
    ]
    assert venue_side.order_by("pk").last().username == director.username
    again = AuditEntry.objects.get(action="stage.ask_again")
    assert again.summary == f"{stage} pedida de novo depois de recusada ({refusal})"
    assert (again.old["start_date"], again.old["refusal"], again.new["start_date"]) == (
        start.isoformat(),
        refusal,
        later.isoformat(),
    )


@pytest.mark.django_db
def test_a_stage_refused_in_the_calendar_is_asked_again_corrected_and_stays_one_record(
    client, as_federation, federation_in_process, director, federation
):
    """Issue 35.2: a stage refused in the calendar (wrong dates) left the venue's event bound to the refused
    identifier, and "Pedir registro" was hidden since the event had one: the director could not ask again. Now the
    page offers "Pedir registro de novo"; the request names the stage, and the federation re-opens the same record
    (its identifier) with the dates as corrected, for its staff to decide again. Both sides audit it."""
    from datetime import timedelta

    from tournaments.federation.calendar import stage_decide

    start = timezone.localdate() + timedelta(days=10)
    client.force_login(director)
    url = create_ahead(client, "etapa-garanhuns", "Garanhuns", start)
    client.post(url, {"action": "stage"})
    stage = Stage.objects.get()
    refusal = "Datas erradas: a etapa é no sábado seguinte."
    stage_decide(stage=stage, user=federation, accept=False, reason=refusal)
    client.post(url, {"action": "sync"})
    page = client.get(url).content.decode()
    assert f"A federação recusou a etapa no calendário: {refusal} Uma etapa recusada não é recebida" in page
    assert (
        '<button type="submit" name="action" value="stage" id="request-stage">Pedir registro de novo</button>' in page
    )
    later = start + timedelta(days=7)
    settings_post(client, "etapa-garanhuns", start_date=later, end_date=later)  # the director corrects the dates
    page = client.post(url, {"action": "stage"}, follow=True).content.decode()
    assert "Pedido de registro da etapa na fila" in page  # and sent at once by the (immediate) worker
    assert "Aguardando a federação aceitar a etapa no calendário da temporada" in page
    assert 'id="request-stage"' not in page and "A federação recusou" not in page
    # the same record re-opened: its identifier, the corrected dates, undecided, the refusal kept
    stage.refresh_from_db()
    assert Stage.objects.count() == 1 and stage.identifier == f"CBJD-{start.year}-001"
    assert (stage.status, stage.start_date, stage.end_date, stage.decision_reason) == ("requested", later, later, "")
    assert stage.previous_refusal == refusal and stage.asked_again_at is not None and not stage.late
    assert Tournament.objects.get(slug="etapa-garanhuns").stage_id == stage.identifier
    request = StageRequest.objects.get()
    assert (request.status, request.stage_id, request.remote_status, request.decision_reason, request.attempts) == (
        "received",
        stage.identifier,
        "requested",
        "",
        1,
    )
    audited_on_both_sides(stage, director, refusal, start, later)
    # the staff see it asked again, and decide again
    client.force_login(federation)
    assert f"depois de recusada: {refusal}" in client.get("/gestao/federacao/calendario/").content.decode()
    r = client.post("/gestao/federacao/calendario/", {"stage": stage.pk, "decision": "accept"}, follow=True)
    assert f"Etapa {stage.identifier} aceita no calendário." in r.content.decode()
    client.force_login(director)
    client.post(url, {"action": "sync"})
    page = client.get(url).content.decode()
    assert "A federação aceitou a etapa no calendário da temporada." in page and 'id="request-stage"' not in page
    # an accepted stage is not asked for again
    page = client.post(url, {"action": "stage"}, follow=True).content.decode()
    assert f"Este evento já é a etapa {stage.identifier} do calendário da federação." in page
    assert StageRequest.objects.get().remote_status == "accepted"


@pytest.mark.django_db
def test_a_file_sent_for_a_refused_stage_is_refused_and_leaves_again_once_the_stage_is_asked_again(
    client, as_federation, federation_in_process, national_list, recent_stage, director, federation, monkeypatch
):
    """A file naming a stage the federation refused in its calendar is refused, nothing written, and the venue's
    page says why and what to do. Asked again (offline first: the request waits, and the sync does not take the old
    refusal for an answer), the same stage is re-opened and the file leaves in the same pass, received into it."""
    from tournaments.federation.calendar import stage_decide
    from tournaments.interchange import import_data
    from tournaments.models import TournamentRole

    event = import_data(recent_stage)
    TournamentRole.objects.create(tournament=event, user=director, role="director")
    client.force_login(director)
    url = f"/gestao/t/{event.slug}/federacao/"
    client.post(url, {"action": "stage"})
    stage = Stage.objects.get()
    assert stage.late  # asked after the event
    stage_decide(stage=stage, user=federation, accept=False, reason="Cidade errada.")
    client.post(url, {"action": "send"})
    assert Submission.objects.count() == 0
    page = client.get(url).content.decode()
    assert (
        f"A federação recusou: A etapa {stage.identifier} foi recusada no calendário da federação (Cidade errada.): "
        "nada foi gravado. Corrija o que a recusa aponta e peça o registro de novo (“Enviar à federação”); aceita a "
        "etapa, envie outra vez." in page
    )
    # the verification and the officer say it too, for a file received while the stage was undecided
    from tournaments.federation.provenance import StageFacts, calendar_findings

    data = {"tournament": {"stage_id": stage.identifier}}
    [note] = calendar_findings(data, StageFacts(identifier=stage.identifier, status="refused"))
    assert (note.code, note.blocking) == ("stage_refused", True)
    client.post(url, {"action": "sync"})
    assert "Pedir registro de novo" in client.get(url).content.decode()

    from tournaments.federation import client as client_module

    def offline(data):
        raise client_module.FederationUnreachable("sem conexão com a federação (teste)")

    real = client_module.request_stage
    monkeypatch.setattr(client_module, "request_stage", offline)
    page = client.post(url, {"action": "stage"}, follow=True).content.decode()
    assert "Novo pedido de registro da etapa" in page and "depois da recusa da federação (Cidade errada.)" in page
    client.post(url, {"action": "sync"})  # the calendar still says refused: not taken for the new request's answer
    request = StageRequest.objects.get()
    assert (request.status, request.remote_status) == ("pending", "refused")
    monkeypatch.setattr(client_module, "request_stage", real)
    StageRequest.objects.update(next_attempt_at=None)  # the connection is back
    outbox.send_due()
    stage.refresh_from_db()
    assert (stage.status, stage.late, Stage.objects.count()) == ("requested", True, 1)
    submission = Submission.objects.get()
    assert submission.stage == stage and submission.payload["tournament"]["stage_id"] == stage.identifier
    submission = submission_verify(submission=submission)
    assert [f["code"] for f in submission.findings if f["code"].startswith("stage_")] == [
        "stage_late",
        "stage_not_accepted",
    ]
    with pytest.raises(ForbiddenError, match="registrada por outro organizador"):
        from tournaments.federation.calendar import stage_request_receive

        other, _ = credential_issue(label="Federação Paraibana", user=federation)
        stage_request_receive(credential=other, data={**ask(recent_stage), "stage_id": stage.identifier})


@pytest.mark.django_db
def test_asking_again_twice_is_one_request_and_an_answer_naming_another_stage_is_refused(
    as_federation, settings, credential, venue_event, federation, monkeypatch
):
    """The venue asks again for its refused stage: asked twice before it leaves, it is one request (tried at once);
    a federation that answers with another stage than the one named (a second record for the same event) is not
    taken: the event stays bound to its stage and the page says to talk to the federation. At the federation, a
    stage named that is not refused is answered as it is, its facts untouched."""
    from tournaments.federation import stage_outbox
    from tournaments.federation.calendar import stage_decide, stage_request_receive

    cred, token = credential
    settings.FEDERATION_URL, settings.FEDERATION_TOKEN = "http://127.0.0.1:9", token
    day = venue_event.start_date.isoformat()
    stage, _ = stage_request_receive(
        credential=cred,
        data=ask({"tournament": {"name": "Etapa", "start_date": day, "end_date": day, "slug": venue_event.slug}}),
    )
    stage_decide(stage=stage, user=federation, accept=True)
    moved = ask({"tournament": {"name": "Outra", "start_date": day, "end_date": day, "slug": venue_event.slug}})
    assert stage_request_receive(credential=cred, data={**moved, "stage_id": stage.identifier}) == (stage, False)
    stage.refresh_from_db()
    assert (stage.name, stage.status, stage.asked_again_at) == ("Etapa", "accepted", None)
    Tournament.objects.filter(pk=venue_event.pk).update(stage_id=stage.identifier)
    venue_event.refresh_from_db()
    StageRequest.objects.create(
        tournament=venue_event,
        stage_id=stage.identifier,
        status="received",
        remote_status="refused",
        decision_reason="x",
    )
    first, created = stage_outbox.stage_request_queue(tournament=venue_event, user=None)
    assert created and first.status == "pending"
    StageRequest.objects.update(next_attempt_at=timezone.now())
    second, created = stage_outbox.stage_request_queue(tournament=venue_event, user=None)
    assert (second.pk, created, second.next_attempt_at) == (first.pk, False, None)
    monkeypatch.setattr(client, "request_stage", lambda data: {"stage_id": "CBJD-2026-099", "status": "requested"})
    stage_outbox.send_stage_requests()
    request = StageRequest.objects.get()
    assert (request.status, request.stage_id, request.remote_status) == ("refused", stage.identifier, "refused")
    assert request.last_error == (
        f"A federação recusou: a federação respondeu com a etapa “CBJD-2026-099” em vez de reabrir a "
        f"{stage.identifier}: fale com a federação"
    )
    assert Tournament.objects.get(pk=venue_event.pk).stage_id == stage.identifier
