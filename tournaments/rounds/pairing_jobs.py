"""Pairing a round outside the request: a PairingJob row holds the state and the progress.

The engine runs in a background worker process (django-tasks, its queue a table of the same database:
``manage.py db_worker``, which ``make run`` starts beside the server), never in the web server's processes, so
a gunicorn worker recycled (``max_requests``) or killed by its request timeout cannot take a pairing with it. No
broker: the same on a laptop with SQLite and on several servers with PostgreSQL. The request waits a moment, so
a small event comes back already paired when a worker is free; a large one goes on while the director's page
polls the job row, which any server can read. The round itself is written by ``round_pair`` (all or nothing);
the job only records how it went. A job whose worker died stops renewing its heartbeat and is then reported as
interrupted; one no worker took within ``QUEUED_PATIENCE`` is reported so (no worker running?); both free the
tournament for a new pairing.
"""

import logging
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from tournaments.core.errors import ServiceError
from tournaments.models import PairingJob, Round, Tournament
from tournaments.models.choices import PairingJobStatus
from tournaments.rounds.services import round_pair

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5  # how often a running job says it is alive
STALE_AFTER = timedelta(seconds=60)  # a running job silent for this long died with its process
PROGRESS_SECONDS = 0.3  # at most one progress write per this many seconds
WAIT_IN_REQUEST = 1.5  # seconds the request waits for the job: small events come back paired
QUEUED_PATIENCE = timedelta(minutes=5)  # a job no worker took for this long is reported (no worker running?)
DATABASE_ERRORS = (OperationalError, InterfaceError)  # the connection failed, was lost or was refused
OUTAGE_WAIT = 300.0  # how long a job whose database went away waits for it to come back to say so
RETRY_PAUSE = 2.0  # seconds between two tries to reach the database again


def pairing_job_start(*, tournament: Tournament, user: Any, publish: bool = False) -> PairingJob:
    """Start pairing the next round. Returns the job (already finished when the pairing was quick).

    Refused (ServiceError) while another pairing of the tournament is running. When called inside a
    transaction (tests, or a caller's atomic block) a worker could not see the uncommitted rows: the
    job then runs in the caller's thread, as it does with ``PAIRING_IN_BACKGROUND = False``."""
    expire_stale_jobs(tournament)
    number = _next_round_number(tournament)
    try:
        with transaction.atomic():
            job = PairingJob.objects.create(
                tournament=tournament,
                round_number=number,
                publish=publish,
                created_by=user if getattr(user, "pk", None) else None,
            )
    except IntegrityError:
        raise ServiceError(_("A pairing of this tournament is already running: wait for it to finish.")) from None
    if connection.in_atomic_block or not getattr(settings, "PAIRING_IN_BACKGROUND", True):
        run_pairing_job(job.pk)
    else:
        pair_in_background.enqueue(job.pk)
        deadline = time.monotonic() + WAIT_IN_REQUEST
        while time.monotonic() < deadline:
            time.sleep(0.1)
            if not PairingJob.objects.filter(pk=job.pk, status=PairingJobStatus.RUNNING).exists():
                break
    job.refresh_from_db()
    return job


def _next_round_number(tournament: Tournament) -> int:
    from django.db.models import Max

    return (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


@task()
def pair_in_background(job_id: int) -> str:
    """The worker's task: run the job to its end (``run_pairing_job``, with a heartbeat); returns its status."""
    from django.db import close_old_connections

    try:
        run_pairing_job(job_id, heartbeat=True)
    finally:
        close_old_connections()
    return str(PairingJob.objects.filter(pk=job_id).values_list("status", flat=True).first())


def run_pairing_job(job_id: int, heartbeat: bool = False) -> None:
    """Run one job to its end: the round paired (status done) or nothing written (status failed, with the
    reason for the director). Never raises."""
    job = PairingJob.objects.select_related("tournament", "created_by").get(pk=job_id)
    if job.status != PairingJobStatus.RUNNING or job.started_at is not None:
        logger.warning("pairing job %s: already %s, not run again", job_id, job.status)
        return
    PairingJob.objects.filter(pk=job_id).update(started_at=timezone.now(), heartbeat=timezone.now())
    stop = threading.Event()
    if heartbeat:
        threading.Thread(target=_beat, args=(job_id, stop), name=f"pairing-job-{job_id}-heartbeat", daemon=True).start()
    last = [0.0]

    def progress(paired: int, total: int) -> None:
        now = time.monotonic()
        if paired < total and now - last[0] < PROGRESS_SECONDS:
            return
        last[0] = now
        PairingJob.objects.filter(pk=job_id).update(paired=paired, total=total, heartbeat=timezone.now())

    try:
        rnd = round_pair(tournament=job.tournament, user=job.created_by, publish=job.publish, progress=progress)
    except ServiceError as exc:  # the user's error: shown to the director, logged as information
        logger.info("round_pair refused for %s: %s", job.created_by, " | ".join(exc.messages))
        _finish(job_id, PairingJobStatus.FAILED, message=" ".join(exc.messages))
    except DATABASE_ERRORS:
        logger.exception("pairing job %s: database error while pairing", job_id)
        _after_database_error(job)
    except Exception:  # an internal error: a generic message for the director, the traceback in the log
        logger.exception("pairing job %s failed", job_id)
        _finish(job_id, PairingJobStatus.FAILED, message=internal_error_message())
    else:
        _finish(job_id, PairingJobStatus.DONE, rnd=rnd)
    finally:
        stop.set()


def internal_error_message() -> str:
    return _("The pairing failed because of an internal error; nothing was saved. Try again.")


def database_lost_message() -> str:
    return _(
        "The database could not be reached during the pairing (the connection to it failed or was lost); "
        "nothing was saved. Pair the round again."
    )


def _after_database_error(job: PairingJob) -> None:
    """The database failed under the pairing. When it does not answer, wait for it (``OUTAGE_WAIT``) and say that
    it was unreachable; when it answers at once the error was something else, an internal error. Either way the
    pairing's transaction was rolled back, unless the failure came as it committed: then the round is there."""
    try:
        outage = _wait_for_database()
    except DATABASE_ERRORS:
        logger.error("pairing job %s: the database did not come back within %.0f s", job.pk, OUTAGE_WAIT)
        return  # the job stays "running" without a heartbeat: it is reported as interrupted later
    rnd = Round.objects.filter(tournament_id=job.tournament_id, number=job.round_number).first()
    if rnd is not None:  # the commit went through before the connection failed
        _finish(job.pk, PairingJobStatus.DONE, rnd=rnd)
    else:
        _finish(
            job.pk, PairingJobStatus.FAILED, message=database_lost_message() if outage else internal_error_message()
        )


def _wait_for_database() -> bool:
    """Wait until the database answers, at most ``OUTAGE_WAIT`` seconds (then the error is raised again). True when
    it did not answer at the first try."""
    deadline = time.monotonic() + OUTAGE_WAIT
    waited = False
    while True:
        try:
            if not connection.in_atomic_block:
                connection.close()  # a broken connection is never reused: the next query opens a new one
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            return waited
        except DATABASE_ERRORS:
            if time.monotonic() >= deadline:
                raise
            waited = True
            time.sleep(RETRY_PAUSE)


def _finish(job_id: int, status: str, message: str = "", rnd: Round | None = None) -> None:
    """Record how the job ended; a database that fails meanwhile is waited for (``_wait_for_database``)."""
    try:
        _record_end(job_id, status, message, rnd)
    except DATABASE_ERRORS:
        logger.warning("pairing job %s: the database failed while recording its end; waiting for it", job_id)
        try:
            _wait_for_database()
            _record_end(job_id, status, message, rnd)
        except DATABASE_ERRORS:
            logger.error("pairing job %s: its end (%s) could not be recorded", job_id, status, exc_info=True)


def _record_end(job_id: int, status: str, message: str, rnd: Round | None) -> None:
    job = PairingJob.objects.get(pk=job_id)
    job.status = status
    job.message = message
    job.round = rnd
    job.finished_at = timezone.now()
    if status == PairingJobStatus.DONE:
        job.paired = job.total
    job.save(update_fields=["status", "message", "round", "finished_at", "paired"])


def _beat(job_id: int, stop: threading.Event) -> None:
    failing = False
    try:
        while not stop.wait(HEARTBEAT_SECONDS):
            try:
                PairingJob.objects.filter(pk=job_id, status=PairingJobStatus.RUNNING).update(heartbeat=timezone.now())
            except DATABASE_ERRORS:  # the database went away: beat again when it is back
                if not failing:
                    logger.warning("pairing job %s: heartbeat failed (database unreachable)", job_id, exc_info=True)
                failing = True
                connection.close()
            else:
                failing = False
    except Exception:  # anything else: the job will be seen as interrupted
        logger.exception("pairing job %s: heartbeat failed", job_id)
    finally:
        connection.close()


def expire_stale_jobs(tournament: Tournament) -> None:
    """Mark as failed the running jobs of ``tournament`` whose worker died (no heartbeat), or that no worker took."""
    now = timezone.now()
    running = PairingJob.objects.filter(tournament=tournament, status=PairingJobStatus.RUNNING)
    running.filter(started_at__isnull=False, heartbeat__lt=now - STALE_AFTER).update(
        status=PairingJobStatus.FAILED,
        finished_at=now,
        message=_(
            "The pairing was interrupted: the process running it stopped answering (it was restarted, or lost the "
            "database); nothing was saved. Pair the round again."
        ),
    )
    running.filter(started_at__isnull=True, created_at__lt=now - QUEUED_PATIENCE).update(
        status=PairingJobStatus.FAILED,
        finished_at=now,
        message=_(
            "No background worker took the pairing within 5 minutes (is “manage.py db_worker” running?); nothing "
            "was saved. Pair the round again."
        ),
    )
