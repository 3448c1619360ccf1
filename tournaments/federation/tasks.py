"""Background work of the federation's side (django-tasks; the queue is a database table, django-tasks-db).

At the venue, :func:`send_pending` sends the queued stages, stage requests and fingerprints and schedules itself
again for the next due try; :func:`sync_pending` asks the federation what became of the sent stages and whether
it accepted the stages asked for in its calendar, and checks again later while a decision is awaited. At the
federation, :func:`verify_submission` verifies a received stage.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.utils import timezone
from django_tasks import task

from tournaments.federation import client, outbox, stage_outbox

log = logging.getLogger(__name__)

SYNC_EVERY = timedelta(minutes=15)


def schedule_send(run_after: datetime | None = None) -> None:
    """Ask the worker to send what is due (once: a send already waiting in the queue is enough)."""
    if run_after is None and _waiting(send_pending.module_path, soon=True):
        return
    queued = send_pending
    if run_after is not None:
        from django_tasks import task_backends

        if not task_backends[queued.backend].supports_defer:
            return  # an immediate backend (tests): the caller runs send_due again
        queued = queued.using(run_after=run_after)
    queued.enqueue()


def _waiting(path: str, soon: bool) -> bool:
    try:
        from django_tasks_db.models import DBTaskResult
    except ImportError:  # pragma: no cover - django-tasks-db is in requirements.txt
        return False
    from django_tasks import TaskResultStatus

    queued = DBTaskResult.objects.filter(task_path=path, status=TaskResultStatus.READY)
    if soon:
        queued = queued.filter(run_after__lte=timezone.now() + outbox.first_wait())
    return queued.exists()


def on_fingerprint_sealed(sender: object, **kwargs: object) -> None:
    """A round's fingerprint was stored at the venue: send it with the queue (issue 35.4)."""
    if client.configured():
        schedule_send()


def schedule_sync() -> None:
    """Ask the worker to ask the federation again in ``SYNC_EVERY`` (once: a sync already waiting is enough)."""
    from django_tasks import task_backends

    if task_backends[sync_pending.backend].supports_defer and not _waiting(sync_pending.module_path, soon=False):
        sync_pending.using(run_after=timezone.now() + SYNC_EVERY).enqueue()


def awaiting_decision() -> bool:
    """A sent stage or a stage asked for in the calendar that the federation has not decided yet."""
    return (
        outbox.OutgoingSubmission.objects.filter(status__in=outbox.OPEN).exists() or stage_outbox.undecided().exists()
    )


@task()
def send_pending() -> str:
    following = outbox.send_due()
    if following is not None:
        schedule_send(max(following, timezone.now()))
    if stage_outbox.undecided().exists():
        schedule_sync()  # a stage asked for: the venue learns when the federation accepts it in its calendar
    return "next try " + following.isoformat() if following else "nothing pending"


@task()
def sync_pending() -> int:
    changed = 0
    for sync in (stage_outbox.sync_calendar_states, outbox.sync_states):
        try:
            changed += sync()
        except client.FederationUnreachable:
            break  # offline: the next sync asks again
    if awaiting_decision():
        schedule_sync()
    return changed


@task()
def verify_submission(submission_id: int) -> bool:
    """Verify a received stage under a lease (issue 34.5): a worker killed in the middle leaves the lease to
    expire, and ``tasks.verification_resume`` queues the stage again; a copy of this task that finds the
    stage verified, or another worker's lease alive, does nothing."""
    from tournaments.federation.services import submission_verify, verification_claim
    from tournaments.models import Submission

    if not verification_claim(submission_id):
        return False
    submission = Submission.objects.get(pk=submission_id)
    return bool(submission_verify(submission=submission).rights)


def verification_resume(event_slug: str | None = None) -> int:
    """Give every stage left unverified (``services.unverified_due``) to the worker again. Called by the supervised
    worker (``manage.py run_worker``) when it starts and every minute, and by the API when an event is sent again.
    Returns how many were queued. A verification queued twice runs once (``services.verification_claim``).
    Here, beside the task it queues, so that the services never import the tasks (no import cycle)."""
    from tournaments.federation.services import unverified_due

    due = unverified_due(event_slug)
    for pk in due:
        log.warning("federation: the verification of submission %s was left unfinished; queued again", pk)
        verify_submission.enqueue(pk)
    return len(due)
