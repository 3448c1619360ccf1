"""At the venue: asking the federation for the event's stage (issue 35.2) and telling it each round's fingerprint
(issue 35.4), through the same queue as the submissions (:mod:`.outbox`: kept in the database, sent by the
worker when online, retried with a growing wait).

* :func:`stage_request_queue`: the director asks for the stage (name, city, dates, format) from the event's
  "Enviar à federação" page, or ``manage.py request_stage``; a venue that never asked (offline since before the
  event) asks when sending the event, and the federation then marks the stage registered late;
* :func:`send_stage_requests`: sends the requests due; the answer binds the event to the stage's identifier
  (``Tournament.stage_id``), which every submission then carries; a stage refused in the calendar is asked for
  again from the same page (the same identifier: the federation re-opens its record with the corrected facts);
* :func:`sync_calendar_states`: asks the federation whether it accepted or refused each stage still undecided in its
  calendar (the venue's "Atualizar situação", then every 15 minutes while one is undecided);
* :func:`send_fingerprints`: sends every stored fingerprint the federation has not received yet (of the events
  bound to a stage).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.errors import ServiceError
from tournaments.domain.text import clean
from tournaments.federation import client
from tournaments.federation.retry import LONGEST_WAIT, backoff
from tournaments.models import OutgoingStatus, OutgoingSubmission, Round, StageRequest, StageStatus, Tournament
from tournaments.models.choices import AuditAction

log = logging.getLogger(__name__)


def stage_payload(tournament: Tournament) -> dict[str, Any]:
    return {
        "name": tournament.name,
        "city": tournament.city,
        "state": tournament.state,
        "start_date": tournament.start_date.isoformat(),
        "end_date": tournament.end_date.isoformat(),
        "format": tournament.format,
        "planned_rounds": tournament.planned_rounds,
        "minutes_per_game": tournament.minutes_per_game,
        "venue_slug": tournament.slug,
    }


@transaction.atomic
def stage_request_queue(*, tournament: Tournament, user: Actor) -> tuple[StageRequest, bool]:
    """Queue the request for the event's stage (once: a request pending or answered is kept)."""
    if not client.configured():
        raise ServiceError(
            "Este computador não está ligado a uma federação: configure FEDERATION_URL e FEDERATION_TOKEN "
            "(a credencial que a federação emitiu)."
        )
    if not tournament.city.strip():
        raise ServiceError("Informe a cidade do evento antes de pedir o registro da etapa.")
    request = StageRequest.objects.select_for_update().filter(tournament=tournament).first()
    if tournament.stage_id:
        return _ask_again(tournament, request, user)
    if request is not None and request.status != OutgoingStatus.REFUSED:
        if request.status == OutgoingStatus.PENDING:
            request.next_attempt_at = None  # asked again: try at once
            request.save(update_fields=["next_attempt_at"])
        return request, False
    if request is not None:
        request.delete()  # refused: a new request (corrected name, dates...)
    request = StageRequest.objects.create(tournament=tournament, created_by=login_of(user))
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.FEDERATION_STAGE_REQUEST,
        obj=request,
        summary=tournament.name,
    )
    return request, True


def _ask_again(tournament: Tournament, request: StageRequest | None, user: Actor) -> tuple[StageRequest, bool]:
    """The event's stage was refused in the federation's calendar (wrong dates, say, since corrected): ask again for
    the same stage (its identifier goes with the request, and the federation re-opens that record with the facts as
    they are now). The refusal stays on the request (shown until the answer) and in the audit log."""
    if request is not None and request.status == OutgoingStatus.PENDING and request.stage_id:
        request.next_attempt_at = None  # asked again already: try at once
        request.save(update_fields=["next_attempt_at"])
        return request, False
    if request is None or request.remote_status != StageStatus.REFUSED:
        raise ServiceError(f"Este evento já é a etapa {tournament.stage_id} do calendário da federação.")
    request.status, request.attempts, request.next_attempt_at = OutgoingStatus.PENDING, 0, None
    request.last_error, request.sent_at = "", None
    request.created_at, request.created_by = timezone.now(), login_of(user)
    request.save()
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.FEDERATION_STAGE_REQUEST,
        obj=request,
        summary=f"{tournament.name}: etapa {request.stage_id} pedida de novo depois de recusada "
        f"({request.decision_reason})",
        old={"refusal": request.decision_reason},
        new=stage_payload(tournament),
    )
    return request, True


def _failed(request: StageRequest, exc: client.FederationError) -> None:
    request.attempts += 1
    if isinstance(exc, client.FederationRefused):
        request.status = OutgoingStatus.REFUSED
        request.last_error = f"A federação recusou: {exc}"[:300]
        request.next_attempt_at = timezone.now() + LONGEST_WAIT
    else:
        request.last_error = str(exc)[:300]
        request.next_attempt_at = timezone.now() + backoff(request.attempts)
    request.save(update_fields=["attempts", "status", "last_error", "next_attempt_at"])


def _take_state(request: StageRequest, answer: dict[str, Any]) -> None:
    """The federation's word on the stage: its calendar status (an unknown one is not taken), the refusal's reason,
    and whether it was registered late."""
    status = answer.get("status")
    request.remote_status = status if status in StageStatus.values else request.remote_status
    request.decision_reason = clean(answer.get("decision_reason"), 500)
    request.late = bool(answer.get("late"))


def undecided() -> QuerySet[StageRequest]:
    """The stages this venue asked for that are in the federation's calendar, not accepted or refused yet."""
    return (
        StageRequest.objects.exclude(stage_id="")
        .filter(status=OutgoingStatus.RECEIVED)  # a refused stage asked again is not asked about before it is sent
        .exclude(remote_status__in=(StageStatus.ACCEPTED, StageStatus.REFUSED))
    )


def sync_calendar_states() -> int:
    """Ask the federation about every stage still undecided in its calendar. Returns how many changed. Unreachable:
    :class:`client.FederationUnreachable` (the next try is the sync's); a stage it does not give this credential
    (another organiser's, unknown) is logged and left as it was."""
    changed = 0
    for pk in undecided().values_list("pk", flat=True):
        request = StageRequest.objects.get(pk=pk)
        try:
            answer = client.calendar_stage(request.stage_id)
        except client.FederationRefused as exc:
            log.warning("federation: calendar state of %s refused: %s", request.stage_id, exc)
            continue
        before = (request.remote_status, request.decision_reason, request.late)
        _take_state(request, answer)
        if before != (request.remote_status, request.decision_reason, request.late):
            request.save(update_fields=["remote_status", "decision_reason", "late"])
            changed += 1
    return changed


def _send_request(request: StageRequest) -> None:
    tournament = request.tournament
    again = request.stage_id  # a refused stage asked for again: the same record, re-opened
    try:
        answer = client.request_stage({**stage_payload(tournament), **({"stage_id": again} if again else {})})
        identifier = str(answer.get("stage_id") or "")[:20]
        if again and identifier != again:
            raise client.FederationRefused(
                f"a federação respondeu com a etapa “{identifier}” em vez de reabrir a {again}: fale com a federação"
            )
    except client.FederationError as exc:
        _failed(request, exc)
        log.info("federation: stage request of %s not sent (%s)", tournament.slug, exc)
        return
    request.attempts += 1
    request.sent_at = timezone.now()
    request.last_error = ""
    request.next_attempt_at = None
    request.stage_id = identifier
    _take_state(request, answer)
    request.status = OutgoingStatus.RECEIVED if identifier else OutgoingStatus.SENT
    request.save()
    if again:
        # the files the federation refused while the stage was refused leave in the same pass
        OutgoingSubmission.objects.filter(tournament=tournament, status=OutgoingStatus.PENDING).update(
            next_attempt_at=None
        )
    elif identifier:
        Tournament.objects.filter(pk=tournament.pk, stage_id="").update(stage_id=identifier)
        audit(
            tournament=tournament,
            user=None,
            action=AuditAction.FEDERATION_STAGE_BOUND,
            obj=tournament,
            summary=identifier,
            new={"stage_id": identifier, "late": request.late},
        )


def send_stage_requests() -> bool:
    """Send the stage requests due. Returns whether some are still waiting."""
    now = timezone.now()
    waiting = False
    for pk in StageRequest.objects.filter(status=OutgoingStatus.PENDING).values_list("pk", flat=True):
        with transaction.atomic():
            request = StageRequest.objects.select_for_update().select_related("tournament").get(pk=pk)
            if request.status != OutgoingStatus.PENDING:
                continue
            if request.next_attempt_at is None or request.next_attempt_at <= now:
                _send_request(request)
            waiting = waiting or request.status == OutgoingStatus.PENDING
    return waiting


def unsent_fingerprints() -> QuerySet[Round]:
    """The rounds of events bound to a stage with a fingerprint the federation has not received."""
    unsent = (Q(pairing_fingerprint_sent_at__isnull=True) & ~Q(pairing_fingerprint="")) | (
        Q(results_fingerprint_sent_at__isnull=True) & ~Q(results_fingerprint="")
    )
    return Round.objects.exclude(tournament__stage_id="").filter(unsent)


def send_fingerprints() -> bool:
    """Send every stored fingerprint the federation has not received. Returns whether some are still unsent
    (the federation unreachable: the next try is the queue's)."""
    ids = list(unsent_fingerprints().values_list("pk", flat=True))
    for rnd in Round.objects.filter(pk__in=ids).select_related("tournament").order_by("tournament_id", "number"):
        for kind in ("pairing", "results"):
            value = getattr(rnd, f"{kind}_fingerprint")
            if not value or getattr(rnd, f"{kind}_fingerprint_sent_at") is not None:
                continue
            sealed = getattr(rnd, f"{kind}_fingerprint_at")
            try:
                client.send_fingerprint(
                    rnd.tournament.stage_id,
                    {
                        "round": rnd.number,
                        "kind": kind,
                        "fingerprint": value,
                        "sealed_at": sealed.isoformat() if sealed else None,
                    },
                )
            except client.FederationUnreachable as exc:
                log.info("federation: fingerprints not sent (%s)", exc)
                return True
            except client.FederationRefused as exc:
                log.warning("federation: fingerprint of %s round %s refused: %s", rnd.tournament.slug, rnd.number, exc)
                continue
            Round.objects.filter(pk=rnd.pk).update(**{f"{kind}_fingerprint_sent_at": timezone.now()})
    return False
