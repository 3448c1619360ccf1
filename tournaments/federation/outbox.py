"""At the venue: the queue of stages to send to the federation (offline first).

:func:`submission_queue` records the event's interchange file as it is now (the same file is queued once; a new
version supersedes the versions not sent yet); :func:`tournaments.federation.tasks.schedule_send` then asks the
worker to send it. :func:`send_due` sends every
submission whose try is due; a failed try is retried with a growing wait (30 s, 1 min, 2 min ... at most 1 h),
from the database, so nothing is lost when the laptop is closed or the worker stops. :func:`sync_states` asks
the federation what became of the sent ones (received, verified, homologated, refused with the reason).
"""

from __future__ import annotations

import json
import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.agreement import plural
from tournaments.core.errors import ServiceError
from tournaments.federation import client
from tournaments.federation.retry import LONGEST_WAIT, backoff, first_wait
from tournaments.federation.services import file_hash
from tournaments.interchange import export_data
from tournaments.models import OutgoingStatus, OutgoingSubmission, StageRequest, Tournament
from tournaments.models.choices import AuditAction

log = logging.getLogger(__name__)

OPEN = (OutgoingStatus.SENT, OutgoingStatus.RECEIVED, OutgoingStatus.VERIFIED)  # waiting for a decision
REMOTE_STATUS = {
    "received": OutgoingStatus.RECEIVED,
    "verified": OutgoingStatus.VERIFIED,
    "approved": OutgoingStatus.APPROVED,
    "refused": OutgoingStatus.REFUSED,
    "superseded": OutgoingStatus.SUPERSEDED,
}


def queued_summary(data: dict, sha: str) -> str:
    """The audit line of a queued submission, read by a director (issue 37.9: it was the file's bare hash)."""
    rounds = len(data.get("rounds") or [])
    return (
        f"arquivo do torneio com {rounds} {plural(rounds, 'rodada', 'rodadas')} posto na fila de envio à federação "
        f"(identificação do arquivo {sha[:12]})"
    )


@transaction.atomic
def submission_queue(*, tournament: Tournament, user: Actor) -> tuple[OutgoingSubmission, bool]:
    """Queue the event as it is now. Returns (submission, created): the same file twice is one submission."""
    if not client.configured():
        raise ServiceError(client.NOT_CONNECTED)
    if not tournament.rounds.exists():
        raise ServiceError("Nenhuma rodada emparceirada: não há o que enviar à federação.")
    if not tournament.stage_id:
        # never asked for the stage (offline since before the event): ask now; the federation marks it late and
        # the file leaves once the event is bound to the stage's identifier (issue 35.2)
        from tournaments.federation.stage_outbox import stage_request_queue

        if not StageRequest.objects.filter(tournament=tournament).exists():
            stage_request_queue(tournament=tournament, user=user)
    data = export_data(tournament)
    sha = file_hash(data)
    outgoing, created = OutgoingSubmission.objects.get_or_create(
        tournament=tournament,
        sha256=sha,
        defaults={"payload": json.dumps(data, ensure_ascii=False), "created_by": login_of(user)},
    )
    if created:
        OutgoingSubmission.objects.filter(tournament=tournament, status=OutgoingStatus.PENDING).exclude(
            pk=outgoing.pk
        ).update(status=OutgoingStatus.SUPERSEDED)
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.FEDERATION_QUEUE,
            obj=outgoing,
            summary=queued_summary(data, sha),
            new={"sha256": sha},
        )
    elif outgoing.status == OutgoingStatus.PENDING:
        outgoing.next_attempt_at = None  # "send now" again: try at once
        outgoing.save(update_fields=["next_attempt_at"])
    return outgoing, created


def _bound(outgoing: OutgoingSubmission) -> bool:
    """Whether the file names the event's stage; a file queued before the event was bound to its stage is bound
    now (its identifier added: the same file otherwise). False while the federation has not answered."""
    data = json.loads(outgoing.payload)
    if data.get("tournament", {}).get("stage_id"):
        return True
    stage_id = Tournament.objects.filter(pk=outgoing.tournament_id).values_list("stage_id", flat=True).first()
    if not stage_id:
        return False
    data["tournament"]["stage_id"] = stage_id
    outgoing.payload = json.dumps(data, ensure_ascii=False)
    outgoing.sha256 = file_hash(data)
    outgoing.save(update_fields=["payload", "sha256"])
    return True


def _unbound(outgoing: OutgoingSubmission) -> client.FederationError:
    """Why a file waits for its stage: the stage request's own failure (no connection, or refused)."""
    request = StageRequest.objects.filter(tournament_id=outgoing.tournament_id).first()
    if request is not None and request.status == OutgoingStatus.REFUSED:
        return client.FederationRefused(f"registro da etapa: {request.last_error}")
    reason = request.last_error if request is not None and request.last_error else "aguardando o registro da etapa"
    return client.FederationUnreachable(reason)


def _send_one(outgoing: OutgoingSubmission) -> None:
    now = timezone.now()
    try:
        if not _bound(outgoing):
            raise _unbound(outgoing)
        answer = client.send_stage(outgoing.payload, outgoing.created_at)
    except client.FederationUnreachable as exc:
        outgoing.attempts += 1
        outgoing.last_error = str(exc)[:300]
        outgoing.next_attempt_at = now + backoff(outgoing.attempts)
        outgoing.save(update_fields=["attempts", "last_error", "next_attempt_at"])
        log.info("federation: %s not sent (%s), next try %s", outgoing, exc, outgoing.next_attempt_at)
        return
    except client.FederationRefused as exc:
        outgoing.attempts += 1
        outgoing.last_error = f"A federação recusou: {exc}"[:300]
        outgoing.next_attempt_at = now + LONGEST_WAIT
        outgoing.save(update_fields=["attempts", "last_error", "next_attempt_at"])
        log.warning("federation: %s refused: %s", outgoing, exc)
        return
    outgoing.attempts += 1
    outgoing.sent_at = now
    outgoing.last_error = ""
    outgoing.next_attempt_at = None
    _apply(outgoing, answer)
    outgoing.save()


def _apply(outgoing: OutgoingSubmission, state: dict) -> None:
    """Take the federation's word for a submission's state (its receipt time, not ours)."""
    received = parse_datetime(str(state.get("received_at") or ""))
    if received is not None:
        outgoing.received_at = received
    outgoing.status = REMOTE_STATUS.get(str(state.get("status")), OutgoingStatus.SENT)
    version = state.get("version")
    outgoing.remote_version = version if isinstance(version, int) and version > 0 else outgoing.remote_version
    count = state.get("findings_count")
    outgoing.findings_count = count if isinstance(count, int) and count >= 0 else None
    decided = parse_datetime(str(state.get("decided_at") or ""))
    outgoing.decided_at = decided
    outgoing.decision_reason = " ".join(str(state.get("decision_reason") or "").split())[:500]
    outgoing.synced_at = timezone.now()


def send_due() -> datetime | None:
    """Send every pending submission whose try is due. Returns when the next try is due (None: nothing left)."""
    from tournaments.federation.stage_outbox import send_fingerprints, send_stage_requests

    requests_left = send_stage_requests()
    prints_left = send_fingerprints()
    now = timezone.now()
    pending = OutgoingSubmission.objects.filter(status=OutgoingStatus.PENDING).order_by("created_at", "id")
    for outgoing in pending:
        if outgoing.next_attempt_at is None or outgoing.next_attempt_at <= now:
            with transaction.atomic():
                locked = OutgoingSubmission.objects.select_for_update().get(pk=outgoing.pk)
                if locked.status == OutgoingStatus.PENDING:
                    _send_one(locked)
    later = (
        OutgoingSubmission.objects.filter(status=OutgoingStatus.PENDING)
        .order_by("next_attempt_at")
        .values_list("next_attempt_at", flat=True)
        .first()
    )
    if requests_left or prints_left:
        soon = now + first_wait()
        later = soon if later is None else min(later, soon)
    return later


def sync_states() -> int:
    """Ask the federation about every event with a sent submission not decided yet. Returns how many changed."""
    changed = 0
    slugs = (
        OutgoingSubmission.objects.filter(status__in=OPEN).values_list("tournament_id", "tournament__slug").distinct()
    )
    for tournament_id, slug in slugs:
        answer = client.stage_state(slug)
        versions = {v.get("sha256"): v for v in answer.get("versions") or [] if isinstance(v, dict)}
        with transaction.atomic():
            for outgoing in OutgoingSubmission.objects.select_for_update().filter(
                tournament_id=tournament_id, status__in=OPEN
            ):
                state = versions.get(outgoing.sha256)
                if state is None:
                    continue
                before = (outgoing.status, outgoing.findings_count, outgoing.decided_at)
                _apply(outgoing, state)
                outgoing.save()
                changed += before != (outgoing.status, outgoing.findings_count, outgoing.decided_at)
    return changed
