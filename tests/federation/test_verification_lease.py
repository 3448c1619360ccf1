"""A stage whose verification was interrupted (issue 34.5): the worker verifying it holds a lease; killed in the
middle, it leaves the stage "recebido" with a lease that expires, and the stage is then verified again (by the
sweep of the supervised worker, ``manage.py federation_resume``, or a resend of the same file). Meanwhile it
cannot be approved."""

import json
import secrets

import pytest
from django.core.management import call_command
from django.utils import timezone

from tournaments.core.errors import ServiceError
from tournaments.federation import services, tasks
from tournaments.federation.tasks import verify_submission
from tournaments.models import Submission

URL = "/api/federacao/v1/etapas/"


class WorkerKilled(BaseException):
    """What a SIGKILL looks like from inside: nothing after it runs, no ``except Exception`` catches it."""


@pytest.fixture
def stuck(as_federation, credential, national_list, recent_stage, registered, monkeypatch):
    """A stage received, whose worker died in the middle of its verification (after taking the lease)."""
    real = services.verify

    def dies(*args, **kwargs):
        raise WorkerKilled

    monkeypatch.setattr(services, "verify", dies)
    cred, token = credential
    submission, created = services.submission_receive(credential=cred, data=recent_stage, nonce="k" * 32)
    assert created
    with pytest.raises(WorkerKilled):
        verify_submission.call(submission.pk)
    monkeypatch.setattr(services, "verify", real)
    submission.refresh_from_db()
    return submission, token


def expire(submission):
    past = timezone.now() - timezone.timedelta(seconds=1)
    Submission.objects.filter(pk=submission.pk).update(verification_lease_until=past)


@pytest.mark.django_db
def test_a_killed_verification_is_taken_up_again_when_its_lease_expires(stuck):
    submission, _token = stuck
    assert submission.status == "received" and submission.verified_at is None
    assert submission.verification_lease_until > timezone.now()
    # another copy of the task, while the lease is alive, does nothing (no two workers verify one stage)
    assert verify_submission.call(submission.pk) is False
    assert tasks.verification_resume() == 0
    expire(submission)
    call_command("federation_resume")  # the sweep: at the worker's start, and every minute while it runs
    submission.refresh_from_db()
    assert submission.status == "verified" and submission.findings == [] and submission.rights is True
    assert submission.verification_lease_until is None
    assert tasks.verification_resume() == 0  # nothing left


@pytest.mark.django_db
def test_a_stage_whose_task_was_lost_is_verified_after_a_lease_s_time(
    as_federation, credential, national_list, recent_stage
):
    cred, _token = credential
    submission, _ = services.submission_receive(credential=cred, data=recent_stage, nonce="l" * 32)
    assert services.unverified_due() == []  # just received: its task is in the queue
    Submission.objects.filter(pk=submission.pk).update(received_at=timezone.now() - timezone.timedelta(hours=1))
    assert tasks.verification_resume() == 1
    submission.refresh_from_db()
    assert submission.status == "verified"


@pytest.mark.django_db
def test_resending_returns_the_state_and_takes_up_an_expired_verification(
    client, stuck, recent_stage, django_capture_on_commit_callbacks
):
    submission, token = stuck
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    raw = json.dumps(recent_stage).encode()

    def resend():
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(
                URL, data=raw, content_type="application/json", HTTP_X_DAMAS_NONCE=secrets.token_hex(16), **headers
            )

    r = resend()  # the lease is alive: the state as it is, nothing started twice
    assert r.status_code == 200 and r.json()["status"] == "received" and r.json()["created"] is False
    expire(submission)
    r = resend()
    assert r.status_code == 200
    submission.refresh_from_db()
    assert submission.status == "verified"
    state = client.get(URL + f"{submission.event_slug}/", **headers).json()
    assert [v["status"] for v in state["versions"]] == ["verified"]


@pytest.mark.django_db
def test_an_unverified_stage_cannot_be_approved(client, stuck, federation):
    submission, _token = stuck
    with pytest.raises(ServiceError, match="ainda não foi verificada"):
        services.submission_decide(submission=submission, user=federation, approve=True)
    client.force_login(federation)
    page = client.get(f"/gestao/federacao/envios/{submission.pk}/").content.decode()
    assert 'id="not-verified"' in page and 'id="approve"' not in page and 'id="refuse"' in page
    r = client.post(f"/gestao/federacao/envios/{submission.pk}/", {"decision": "approve"}, follow=True)
    assert "ainda não foi verificada" in r.content.decode()
    submission.refresh_from_db()
    assert submission.status == "received" and submission.decided_at is None
    # refusing it stays possible (with a reason)
    services.submission_decide(submission=submission, user=federation, approve=False, reason="Arquivo incompleto")
    submission.refresh_from_db()
    assert submission.status == "refused"
