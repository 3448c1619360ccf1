"""The federation's API under abuse and load (issue 34.8-34.11, 39.6, 36.8): one body limit answered in JSON,
per-credential limits on sends and bytes, another organiser's copy refused, parallel sends of one event all
received or answered 409 with the current state, and every refusal's status taken from the error's class."""

import json
import secrets
import threading

import httpx
import pytest
from django.db import connection, connections
from django.utils import timezone

from tournaments.core.errors import (
    STATUS,
    ConflictError,
    ForbiddenError,
    RateLimitedError,
    ServiceError,
    TooLargeError,
    status_of,
)
from tournaments.models import ApiNonce, Submission

URL = "/api/federacao/v1/etapas/"


def post(client, token, body, **extra):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post(
        URL,
        data=raw,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_X_DAMAS_NONCE=secrets.token_hex(16),
        **extra,
    )


@pytest.fixture
def no_worker(settings):
    """Tasks queued and never run: the tests look at what the API received, not at the verification."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend", "QUEUES": ["default"]}}


def versions(stage, n):
    """``n`` different versions of the stage (each with another minutes-per-game)."""
    out = []
    for i in range(n):
        data = json.loads(json.dumps(stage))
        data["tournament"]["minutes_per_game"] = 10 + i
        out.append(data)
    return out


# --- 34.10: one body limit, JSON 413 ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_body_between_django_s_form_limit_and_the_documented_limit_is_read(
    client, as_federation, credential, stage_data, no_worker, settings
):
    """The documented 8 MB is the real limit: a 3 MiB file (over Django's 2.5 MiB DATA_UPLOAD_MAX_MEMORY_SIZE,
    which made it an HTML 400) is received."""
    assert settings.FEDERATION_MAX_BODY == 8 * 1024 * 1024
    _cred, token = credential
    raw = json.dumps(stage_data, indent=1).encode()
    raw = raw[:-1] + b" " * (3 * 1024 * 1024 - len(raw)) + b"}"
    assert len(raw) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    r = post(client, token, raw)
    assert r.status_code == 201, r.content[:300]
    assert r["Content-Type"] == "application/json"


@pytest.mark.django_db
@pytest.mark.parametrize("size", ["over_api", "over_site"])
def test_a_body_over_the_limit_is_a_json_413(client, as_federation, credential, settings, size):
    settings.FEDERATION_MAX_BODY = 4096
    settings.MAX_REQUEST_BYTES = 8192
    _cred, token = credential
    raw = b"{" + b" " * (5000 if size == "over_api" else 9000) + b"}"
    r = post(client, token, raw)
    assert r.status_code == 413
    assert r["Content-Type"] == "application/json"
    assert r.json() == {"detail": "Arquivo grande demais: o limite é de 4.096 bytes; nada foi gravado."}
    assert ApiNonce.objects.count() == 0


@pytest.mark.django_db
def test_a_lone_surrogate_is_refused_by_the_api_itself(client, as_federation, credential, stage_data):
    stage_data["players"][0]["name"] = "\ud800"
    _cred, token = credential
    raw = json.dumps(stage_data).encode()  # ensure_ascii: the surrogate travels as \ud800
    r = post(client, token, raw)
    assert r.status_code == 400 and "substituto isolado" in " ".join(r.json()["errors"])
    assert Submission.objects.count() == 0


# --- 34.11: another organiser's copy ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_byte_identical_copy_with_another_organiser_s_key_is_403(
    client, as_federation, credential, stage_data, federation, no_worker
):
    from tournaments.federation.services import credential_issue

    _cred, token = credential
    assert post(client, token, stage_data).status_code == 201
    _other, other_token = credential_issue(label="Outro organizador", user=federation)
    r = post(client, other_token, stage_data)
    assert r.status_code == 403
    assert r.json() == {"detail": "O evento “etapa-caruaru-2026” foi enviado por outro organizador."}
    assert Submission.objects.count() == 1


# --- 34.9: per-credential limits, deduplicated versions -------------------------------------------------------


@pytest.mark.django_db
def test_sends_over_the_credential_s_count_are_a_json_429_with_retry_after(
    client, as_federation, credential, stage_data, settings, no_worker, federation
):
    from tournaments.federation.services import credential_issue

    settings.FEDERATION_RATE_SENDS = 3
    settings.FEDERATION_RATE_WINDOW = 600
    _cred, token = credential
    answers = [post(client, token, v).status_code for v in versions(stage_data, 4)]
    assert answers == [201, 201, 201, 429]
    r = post(client, token, versions(stage_data, 5)[4])
    assert r.status_code == 429 and r["Content-Type"] == "application/json"
    assert 590 <= int(r["Retry-After"]) <= 601
    assert r.json()["detail"].startswith("Limite desta credencial atingido (3 envios em 10 minutos)")
    assert Submission.objects.count() == 3
    # the limit is the credential's: another organiser's key still sends
    _other, other_token = credential_issue(label="Outro organizador", user=federation)
    other = versions(stage_data, 1)[0]
    other["tournament"]["slug"] = "outra-etapa"
    assert post(client, other_token, other).status_code == 201


@pytest.mark.django_db
def test_bytes_over_the_credential_s_limit_are_a_429(
    client, as_federation, credential, stage_data, settings, no_worker
):
    size = len(json.dumps(versions(stage_data, 1)[0]).encode())
    settings.FEDERATION_RATE_BYTES = int(size * 2.5)
    _cred, token = credential
    answers = [post(client, token, v).status_code for v in versions(stage_data, 3)]
    assert answers == [201, 201, 429]
    assert ApiNonce.objects.count() == 2  # a refused send counts nothing


@pytest.mark.django_db
def test_the_same_content_is_stored_once(client, as_federation, credential, stage_data, no_worker):
    """Identical content sent again (other key order, other spacing, other nonce) is the version already stored:
    no second copy of the file."""
    _cred, token = credential
    assert post(client, token, stage_data).status_code == 201
    for indent in (None, 1, 4):
        raw = json.dumps(json.loads(json.dumps(stage_data, sort_keys=True)), indent=indent).encode()
        r = post(client, token, raw)
        assert r.status_code == 200 and r.json()["created"] is False and r.json()["version"] == 1
    assert Submission.objects.count() == 1


# --- 39.6 / 36.8: the status comes from the error's class ------------------------------------------------------


def test_each_status_has_one_error_class():
    assert sorted(STATUS.values()) == [400, 403, 404, 409, 413, 429]  # 404: a stage the calendar lacks (35.2)
    assert len(set(STATUS.values())) == len(STATUS)
    assert status_of(ServiceError("x")) == 400
    assert status_of(ForbiddenError("x")) == 403
    assert status_of(ConflictError("x")) == 409
    assert status_of(TooLargeError("x")) == 413
    assert status_of(RateLimitedError("x", retry_after=3)) == 429

    class Narrower(ForbiddenError):
        pass

    assert status_of(Narrower("x")) == 403


@pytest.mark.django_db
@pytest.mark.parametrize(
    "error, status",
    [
        # words that the old view searched for, in errors of another class: the class decides
        (ForbiddenError("Requisição repetida fora do prazo"), 403),
        (ConflictError("Outro envio chegou antes"), 409),
        (ServiceError("prazo"), 400),
    ],
)
def test_the_api_status_comes_from_the_error_s_class_not_its_words(
    client, as_federation, credential, stage_data, monkeypatch, error, status
):
    from tournaments.federation import services

    def refuse(**kwargs):
        raise error

    monkeypatch.setattr(services, "submission_receive", refuse)
    _cred, token = credential
    r = post(client, token, stage_data)
    assert r.status_code == status and r.json()["detail"] == error.messages[0]


def test_http_against_a_tls_federation_says_so():
    """36.8: an http:// address of a federation served over TLS gets a redirect; the venue says to use https://
    instead of reading the empty answer as "lista ausente"."""
    from tournaments.federation import client

    request = httpx.Request("GET", "http://federacao.example/api/federacao/v1/cadastro/")
    moved = httpx.Response(
        301, headers={"Location": "https://federacao.example/api/federacao/v1/cadastro/"}, request=request
    )
    with pytest.raises(client.FederationRefused, match="só atende por https: corrija FEDERATION_URL"):
        client._answer(moved)


@pytest.mark.django_db
def test_http_against_a_tls_federation_on_the_registry_page(venue, monkeypatch):
    from tournaments.federation.registry_sync import registry_download

    def redirected(self, method, url, **kwargs):
        request = httpx.Request(method, f"http://federacao.example{url}")
        return httpx.Response(301, headers={"Location": f"https://federacao.example{url}"}, request=request)

    monkeypatch.setattr(httpx.Client, "request", redirected)
    with pytest.raises(ServiceError) as caught:
        registry_download(user=None)
    message = caught.value.messages[0]
    assert "corrija FEDERATION_URL para começar com https://" in message and "ausente" not in message


# --- 34.8: parallel sends of one event -------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_100_parallel_sends_of_versions_of_one_event(
    as_federation, credential, stage_data, no_worker, settings, opening_tables_loaded
):
    """100 versions of one event sent at once by 30 threads (each its own connection: the shared PostgreSQL
    allows 100): none is a 500; each is received (201) with its own version number, or answered 409 with the
    event's current state; nothing a 201 promised is lost."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are real only on PostgreSQL (SQLite serialises writers); CI runs this on PostgreSQL")
    import queue

    from django.test import Client

    settings.FEDERATION_RATE_SENDS = 1000
    settings.FEDERATION_RATE_BYTES = 10**9
    _cred, token = credential
    bodies: queue.Queue = queue.Queue()
    for body in versions(stage_data, 100):
        bodies.put(body)
    barrier, answers = threading.Barrier(30), []

    def send():
        try:
            c = Client()
            barrier.wait()
            while True:
                try:
                    body = bodies.get_nowait()
                except queue.Empty:
                    return
                r = post(c, token, body)
                answers.append((r.status_code, r.json() if r["Content-Type"] == "application/json" else None))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(30)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=300)
    codes = sorted(code for code, _ in answers)
    assert len(codes) == 100 and set(codes) <= {201, 409}, [a for a in answers if a[0] not in (201, 409)][:2]
    created = [body for code, body in answers if code == 201]
    stored = sorted(Submission.objects.values_list("version", flat=True))
    assert stored == list(range(1, len(created) + 1))
    assert sorted(b["version"] for b in created) == stored
    for code, body in answers:
        if code == 409:
            assert body["current"]["version"] >= 1 and body["detail"].startswith("Outro envio deste evento")


# --- 34.12: the director sees why -----------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "status, detail, shown",
    [
        (
            403,
            "O evento “etapa-caruaru-2026” foi enviado por outro organizador.",
            "A federação recusou: O evento “etapa-caruaru-2026” foi enviado por outro organizador.",
        ),
        (
            429,
            "Limite desta credencial atingido (30 envios em 60 minutos): tente de novo em 12 s; nada foi gravado.",
            "a federação respondeu 429: Limite desta credencial atingido (30 envios em 60 minutos)",
        ),
        (409, "Requisição repetida: já recebida uma vez.", "a federação respondeu 409: Requisição repetida"),
    ],
)
def test_the_director_sees_the_cause_of_a_refusal_in_portuguese(
    client, venue, venue_event, director, monkeypatch, status, detail, shown
):
    from tournaments.models import OutgoingSubmission, TournamentRole

    def answer(self, method, url, **kwargs):
        request = httpx.Request(method, f"http://127.0.0.1:9{url}")
        return httpx.Response(status, json={"detail": detail}, request=request)

    monkeypatch.setattr(httpx.Client, "request", answer)
    TournamentRole.objects.create(tournament=venue_event, user=director, role="director")
    client.force_login(director)
    page = client.post(f"/gestao/t/{venue_event.slug}/federacao/", {"action": "send"}, follow=True).content.decode()
    assert shown in page
    outgoing = OutgoingSubmission.objects.get()
    assert outgoing.status == "pending"
    # a refusal waits an hour; a conflict or a limit is tried again with the usual growing wait
    wait = (outgoing.next_attempt_at - timezone.now()).total_seconds()
    assert (3500 < wait <= 3600) if status == 403 else (20 < wait <= 30)
