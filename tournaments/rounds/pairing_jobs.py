"""Pairing a round outside the request: a PairingJob row holds the state and the progress.

The engine runs in a thread of the app server that took the request (no queue, no broker: the same on a
laptop with SQLite and on several gunicorn workers with PostgreSQL). The request waits a moment, so a small
event comes back already paired; a large one goes on while the director's page polls the job row, which any
worker can read. The round itself is written by ``round_pair`` (all or nothing); the job only records how it
went. A job whose thread died with its process (a restarted server) stops renewing its heartbeat and is then
reported as interrupted, which frees the tournament for a new pairing.
"""

import logging
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.core.errors import ServiceError
from tournaments.models import PairingJob, Round, Tournament
from tournaments.models.choices import PairingJobStatus
from tournaments.rounds.services import round_pair

logger = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5  # how often a running job says it is alive
STALE_AFTER = timedelta(seconds=60)  # a running job silent for this long died with its process
PROGRESS_SECONDS = 0.3  # at most one progress write per this many seconds
WAIT_IN_REQUEST = 1.5  # seconds the request waits for the job: small events come back paired


def pairing_job_start(*, tournament: Tournament, user: Any, publish: bool = False) -> PairingJob:
    """Start pairing the next round. Returns the job (already finished when the pairing was quick).

    Refused (ServiceError) while another pairing of the tournament is running. When called inside a
    transaction (tests, or a caller's atomic block) a thread could not see the uncommitted rows: the
    job then runs in the caller's thread."""
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
        worker = threading.Thread(target=_thread_main, args=(job.pk,), name=f"pairing-job-{job.pk}")
        worker.start()
        worker.join(WAIT_IN_REQUEST)
    job.refresh_from_db()
    return job


def _next_round_number(tournament: Tournament) -> int:
    from django.db.models import Max

    return (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


def _thread_main(job_id: int) -> None:
    from django.db import close_old_connections

    try:
        run_pairing_job(job_id, heartbeat=True)
    finally:
        close_old_connections()
        connection.close()


def run_pairing_job(job_id: int, heartbeat: bool = False) -> None:
    """Run one job to its end: the round paired (status done) or nothing written (status failed, with the
    reason for the director). Never raises."""
    job = PairingJob.objects.select_related("tournament", "created_by").get(pk=job_id)
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
    except Exception:  # an internal error: a generic message for the director, the traceback in the log
        logger.exception("pairing job %s failed", job_id)
        _finish(
            job_id,
            PairingJobStatus.FAILED,
            message=_("The pairing failed because of an internal error; nothing was saved. Try again."),
        )
    else:
        _finish(job_id, PairingJobStatus.DONE, rnd=rnd)
    finally:
        stop.set()


def _finish(job_id: int, status: str, message: str = "", rnd: Round | None = None) -> None:
    job = PairingJob.objects.get(pk=job_id)
    job.status = status
    job.message = message
    job.round = rnd
    job.finished_at = timezone.now()
    if status == PairingJobStatus.DONE:
        job.paired = job.total
    job.save(update_fields=["status", "message", "round", "finished_at", "paired"])


def _beat(job_id: int, stop: threading.Event) -> None:
    try:
        while not stop.wait(HEARTBEAT_SECONDS):
            PairingJob.objects.filter(pk=job_id, status=PairingJobStatus.RUNNING).update(heartbeat=timezone.now())
    except Exception:  # the database went away: the job will be seen as interrupted
        logger.exception("pairing job %s: heartbeat failed", job_id)
    finally:
        connection.close()


def expire_stale_jobs(tournament: Tournament) -> None:
    """Mark as interrupted the running jobs of ``tournament`` whose process died (no heartbeat)."""
    now = timezone.now()
    PairingJob.objects.filter(
        tournament=tournament, status=PairingJobStatus.RUNNING, heartbeat__lt=now - STALE_AFTER
    ).update(
        status=PairingJobStatus.FAILED,
        finished_at=now,
        message=_("The pairing was interrupted (the server restarted); nothing was saved. Pair the round again."),
    )
