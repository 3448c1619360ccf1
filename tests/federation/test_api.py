"""The federation's API (issue 29): a stage is received once per file, a later version supersedes with what
changed; forged or revoked credentials, replayed or stale requests, oversized or malformed bodies are refused
and nothing is written."""

import json
import secrets

import pytest
from django.utils import timezone

from tournaments.models import ApiNonce, AuditEntry, Submission

URL = "/api/federacao/v1/etapas/"


def post(client, token, body, nonce=None, sent_at=None, **extra):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post(
        URL,
        data=raw,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_X_DAMAS_NONCE=nonce or secrets.token_hex(16),
        HTTP_X_DAMAS_SENT_AT=(sent_at or timezone.now()).isoformat(),
        **extra,
    )


def written():
    return Submission.objects.count(), ApiNonce.objects.count()


@pytest.mark.django_db
def test_stage_received_verified_and_same_file_is_one_submission(
    client, as_federation, credential, national_list, recent_stage, registered, django_capture_on_commit_callbacks
):
    stage_data = recent_stage
    cred, token = credential
    with django_capture_on_commit_callbacks(execute=True):
        r = post(client, token, stage_data)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["created"] is True and body["version"] == 1 and body["status"] == "received"
    s = Submission.objects.get()
    assert s.event_slug == "etapa-caruaru-2026" and s.credential == cred and s.payload == stage_data
    assert s.status == "verified" and s.findings == [] and s.rights is True  # verified by the task
    assert str(s.registry_date) == "2026-10-01"
    # the same file again (keys in another order, another nonce): the same submission
    reordered = json.loads(json.dumps(stage_data, sort_keys=True))
    r2 = post(client, token, reordered)
    assert r2.status_code == 200 and r2.json()["created"] is False and r2.json()["version"] == 1
    assert Submission.objects.count() == 1
    state = client.get(URL + "etapa-caruaru-2026/", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [(v["version"], v["status"], v["findings_count"], v["rights"]) for v in state["versions"]] == [
        (1, "verified", 0, True)
    ]


@pytest.mark.django_db
def test_later_version_supersedes_and_says_what_changed(
    client, as_federation, credential, national_list, stage_data, django_capture_on_commit_callbacks
):
    _cred, token = credential
    with django_capture_on_commit_callbacks(execute=True):
        assert post(client, token, stage_data).status_code == 201
    board = stage_data["rounds"][6]["boards"][2]
    before = list(board["games"])
    board["games"] = ["0-1", "0-1"] if before != ["0-1", "0-1"] else ["1-0", "1-0"]
    stage_data["tournament"]["minutes_per_game"] = 25
    with django_capture_on_commit_callbacks(execute=True):
        r = post(client, token, stage_data)
    assert r.status_code == 201 and r.json()["version"] == 2
    v1, v2 = Submission.objects.order_by("version")
    assert v1.status == "superseded" and v2.supersedes == v1
    assert v2.changes == [
        {"kind": "setting", "what": "minutes_per_game", "before": 21, "after": 25},
        {
            "kind": "result",
            "what": "rodada 7, mesa 3",
            "before": f"{board['first']}×{board['second']} {' '.join(before)}",
            "after": f"{board['first']}×{board['second']} {' '.join(board['games'])}",
        },
    ]


@pytest.mark.django_db
def test_forged_and_revoked_credentials_are_refused(client, as_federation, credential, stage_data, federation):
    from tournaments.federation.services import credential_revoke

    cred, token = credential
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    for bad in (forged, "dsw_00000000_x", "", "qualquer coisa"):
        r = post(client, bad, stage_data)
        assert r.status_code == 401, bad
        assert r.json()["detail"] in (
            "Credencial inválida ou revogada.",
            "Credencial ausente: envie Authorization: Bearer <chave>.",
        )
    credential_revoke(credential=cred, user=federation)
    r = post(client, token, stage_data)
    assert r.status_code == 401 and r.json() == {"detail": "Credencial inválida ou revogada."}
    assert written() == (0, 0)


@pytest.mark.django_db
def test_replayed_and_stale_requests_are_refused_nothing_written(
    client, as_federation, credential, national_list, stage_data, django_capture_on_commit_callbacks
):
    _cred, token = credential
    nonce = secrets.token_hex(16)
    with django_capture_on_commit_callbacks(execute=True):
        assert post(client, token, stage_data, nonce=nonce).status_code == 201
    before = written()
    stage_data["rounds"][6]["boards"][0]["games"] = ["0-1", "0-1"]  # even a changed body: the nonce is spent
    r = post(client, token, stage_data, nonce=nonce)
    assert r.status_code == 409 and r.json() == {"detail": "Requisição repetida: já recebida uma vez."}
    assert written() == before


@pytest.mark.django_db
@pytest.mark.parametrize("hours_off", [-3, 26, -24 * 400])
def test_a_venue_with_a_wrong_clock_delivers(
    client, as_federation, credential, national_list, stage_data, hours_off, django_capture_on_commit_callbacks
):
    """Issue 34.12: replay protection is the nonce the federation remembers, not the venue's clock (the old
    10-minute window refused every try of a laptop whose clock was off). This test replaced the old assertion
    that a request an hour off was refused."""
    _cred, token = credential
    wrong = timezone.now() + timezone.timedelta(hours=hours_off)
    with django_capture_on_commit_callbacks(execute=True):
        r = post(client, token, stage_data, sent_at=wrong, HTTP_X_DAMAS_CREATED_AT=wrong.isoformat())
    assert r.status_code == 201, r.content
    s = Submission.objects.get()
    assert abs((s.received_at - timezone.now()).total_seconds()) < 60  # the federation's clock decides
    assert s.venue_created_at == wrong.replace(microsecond=wrong.microsecond)  # the venue's word, only shown
    # no header at all is fine too; the nonce still refuses a replay
    nonce = secrets.token_hex(16)
    raw = json.dumps(stage_data).encode()
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}", "HTTP_X_DAMAS_NONCE": nonce}
    assert client.post(URL, data=raw, content_type="application/json", **headers).status_code == 200
    again = client.post(URL, data=raw, content_type="application/json", **headers)
    assert again.status_code == 409 and again.json() == {"detail": "Requisição repetida: já recebida uma vez."}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, status, detail",
    [
        (b"{not json", 400, "arquivo: JSON inválido na linha 1, coluna 2"),
        (b'{"format": "damas-swiss/1", "tournament": {"rating": NaN}}', 400, "NaN"),
        (b"[1, 2, 3]", 400, "não é um objeto JSON"),
        (b'{"format": "damas-swiss/1", "players": [], "rounds": []}', 400, "tournament"),
        ("\ufeff{}".encode("utf-16"), 400, "UTF-8"),
    ],
)
def test_malformed_bodies_are_refused(client, as_federation, credential, body, status, detail):
    _cred, token = credential
    r = post(client, token, body)
    assert r.status_code == status
    assert detail in " ".join(r.json()["errors"])
    assert written() == (0, 0)


@pytest.mark.django_db
def test_oversized_body_refused_before_reading(client, as_federation, credential, stage_data, settings):
    settings.FEDERATION_MAX_BODY = 10_000
    _cred, token = credential
    expected = {"detail": "Arquivo grande demais: o limite é de 10.000 bytes; nada foi gravado."}
    r = post(client, token, stage_data)
    assert r.status_code == 413 and r.json() == expected
    assert written() == (0, 0)


@pytest.mark.django_db
def test_event_credential_sends_only_its_event(client, as_federation, stage_data, federation):
    from tournaments.federation.services import credential_issue

    _cred, token = credential_issue(label="Etapa Natal", event_slug="etapa-natal-2026", user=federation)
    r = post(client, token, stage_data)
    assert r.status_code == 403 and r.json() == {"detail": "Esta credencial só envia o evento “etapa-natal-2026”."}
    assert Submission.objects.count() == 0


@pytest.mark.django_db
def test_api_is_off_at_a_venue(client, settings, credential, stage_data):
    settings.DAMAS_ROLE = "venue"
    _cred, token = credential
    assert post(client, token, stage_data).status_code == 404
    assert client.get("/api/federacao/v1/cadastro/", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 404


@pytest.mark.django_db
def test_national_list_and_suspensions_in_force(client, as_federation, credential, national_list):
    from datetime import date, timedelta

    from tournaments.models import Player, Suspension

    today = timezone.localdate()
    p = Player.objects.get(cbjd_id="PE4107")
    Suspension.objects.create(
        player=p,
        start_date=today - timedelta(days=3),
        end_date=today + timedelta(days=30),
        source="tribunal",
        reason="Decisão do tribunal",
    )
    Suspension.objects.create(player=p, start_date=date(2020, 1, 1), end_date=date(2020, 2, 1), source="tribunal")
    _cred, token = credential
    body = client.get("/api/federacao/v1/cadastro/", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert body["list"] == {"name": "rating-cbjd-2026-10.csv", "date": "2026-10-01"}
    assert len(body["players"]) == 34
    assert body["players"][0] == {
        "cbjd_id": "PE4100",
        "name": "Ana Albuquerque Esteves",
        "rating": 2350,
        "sex": "F",
        "birth_date": "2010-01-01",
        "state": "PE",
        "club": "Clube",
        "rated_games": 0,  # the rated games the list counts (issue 40: the rating method's K)
    }
    assert body["suspensions"] == [
        {
            "cbjd_id": "PE4107",
            "start": str(today - timedelta(days=3)),
            "end": str(today + timedelta(days=30)),
            "source": "tribunal",
            "reason": "Decisão do tribunal",
        }
    ]
    assert AuditEntry.objects.filter(action="submission.receive").count() == 0
