"""Writes of the federation's side (issue 29), each in its own transaction.

At the federation: :func:`credential_issue` / :func:`credential_revoke`, :func:`submission_receive` (idempotent:
the same file is one submission; a later file supersedes, with what changed), :func:`submission_verify`,
:func:`submission_decide` (approve or refuse with a reason; an approved stage's abandonments suspend the players
everywhere, art. 10). At the venue: :mod:`.outbox` (the queue of submissions) and :mod:`.registry_sync`.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Min, Q, Sum
from django.utils import timezone

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.affected import of_suspension, pages_changed
from tournaments.core.errors import ConflictError, ForbiddenError, RateLimitedError, ServiceError
from tournaments.domain.text import clean
from tournaments.federation import selectors
from tournaments.federation.calendar import StageRefused, owned_stage, received_fingerprints
from tournaments.federation.diff import changes, verdict_changes
from tournaments.federation.provenance import StageFacts
from tournaments.federation.verification import verify
from tournaments.models import ApiCredential, ApiNonce, Player, Stage, StageStatus, Submission, Suspension
from tournaments.models.choices import AuditAction, SuspensionSource
from tournaments.models.editions import all_editions
from tournaments.models.federation import SubmissionStatus

log = logging.getLogger(__name__)

TOKEN_PREFIX = "dsw"
NONCE_MEMORY = timedelta(days=30)  # how long the federation remembers a write request's nonce (its own clock)
ABANDONMENT_MONTHS = 3  # art. 10
FAILED = {
    "code": "verification_failed",
    "article": "art. 6",
    "message": "A verificação automática falhou (erro interno registrado no servidor): verifique esta etapa à mão.",
    "blocking": True,
}


def key_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def file_hash(data: Any) -> str:
    """The identity of an interchange file: the SHA-256 of its canonical JSON (key order and spacing do not
    matter, so the same file re-exported is the same submission)."""
    import json

    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


@transaction.atomic
def credential_issue(*, label: str, event_slug: str = "", user: Actor) -> tuple[ApiCredential, str]:
    """A new credential for an organiser (or one event). Returns it with the key, which is shown once and never
    stored (only its hash)."""
    label = clean(label, 120)
    if not label:
        raise ServiceError("Informe o organizador (ou o evento) a quem a credencial se destina.")
    event_slug = (event_slug or "").strip()
    if event_slug and not all(c.isalnum() or c in "-_" for c in event_slug):
        raise ServiceError("Endereço (slug) do evento inválido: use letras, números, hífen e sublinhado.")
    prefix = secrets.token_hex(4)
    token = f"{TOKEN_PREFIX}_{prefix}_{secrets.token_urlsafe(32)}"
    credential = ApiCredential.objects.create(
        label=label, event_slug=event_slug[:80], prefix=prefix, key_hash=key_hash(token), created_by=login_of(user)
    )
    audit(
        tournament=None, user=user, action=AuditAction.CREDENTIAL_ISSUE, obj=credential, summary=f"{label} ({prefix})"
    )
    return credential, token


@transaction.atomic
def credential_revoke(*, credential: ApiCredential, user: Actor) -> ApiCredential:
    credential = ApiCredential.objects.select_for_update().get(pk=credential.pk)
    if credential.revoked_at is not None:
        raise ServiceError("Esta credencial já estava revogada.")
    credential.revoked_at = timezone.now()
    credential.revoked_by = login_of(user)
    credential.save(update_fields=["revoked_at", "revoked_by"])
    audit(tournament=None, user=user, action=AuditAction.CREDENTIAL_REVOKE, obj=credential, summary=str(credential))
    return credential


def credential_for(token: str) -> ApiCredential | None:
    """The active credential of a presented key, or None (unknown, malformed or revoked)."""
    if not token or len(token) > 200 or not token.startswith(TOKEN_PREFIX + "_"):
        return None
    parts = token.split("_", 2)
    if len(parts) != 3:
        return None
    credential = ApiCredential.objects.filter(prefix=parts[1], revoked_at__isnull=True).first()
    if credential is None or not secrets.compare_digest(credential.key_hash, key_hash(token)):
        return None
    return credential


def nonce_spend(*, credential: ApiCredential, nonce: str, size: int = 0) -> None:
    """Refuse a replayed write request; call inside the write's transaction (a refused write spends nothing).

    The federation remembers every nonce for NONCE_MEMORY, by its own clock: the venue's clock plays no part
    (venue laptops' clocks are often wrong, issue 34.12). A request replayed after that is still harmless: the
    same file is recognised by its content (:func:`submission_receive`)."""
    try:
        with transaction.atomic():
            ApiNonce.objects.create(credential=credential, nonce=nonce, size=size)
    except IntegrityError:
        raise ConflictError("Requisição repetida: já recebida uma vez.") from None
    ApiNonce.objects.filter(seen_at__lt=timezone.now() - NONCE_MEMORY).delete()


def rate_check(*, credential: ApiCredential, size: int) -> None:
    """Refuse a write over the credential's limits (issue 34.9): at most ``FEDERATION_RATE_SENDS`` sends and
    ``FEDERATION_RATE_BYTES`` bytes accepted within ``FEDERATION_RATE_WINDOW`` seconds. Counted from the
    accepted requests' nonces (in the database: the limits hold with Redis down); call with the credential's row
    locked, so parallel sends are counted one after the other."""
    window = timedelta(seconds=settings.FEDERATION_RATE_WINDOW)
    since = timezone.now() - window
    recent = ApiNonce.objects.filter(credential=credential, seen_at__gte=since)
    used = recent.aggregate(sends=Count("id"), size=Sum("size"), first=Min("seen_at"))
    sends, sent = used["sends"], used["size"] or 0
    over_count = sends + 1 > settings.FEDERATION_RATE_SENDS
    over_bytes = sent + size > settings.FEDERATION_RATE_BYTES
    if not (over_count or over_bytes):
        return
    first = used["first"] or timezone.now()
    retry_after = max(1, int((first + window - timezone.now()).total_seconds()) + 1)
    what = (
        f"{settings.FEDERATION_RATE_SENDS} envios"
        if over_count
        else f"{settings.FEDERATION_RATE_BYTES // (1024 * 1024)} MB enviados"
    )
    minutes = settings.FEDERATION_RATE_WINDOW // 60
    raise RateLimitedError(
        f"Limite desta credencial atingido ({what} em {minutes} minutos): tente de novo em {retry_after} s; "
        "nada foi gravado.",
        retry_after=retry_after,
    )


def local_day(moment: datetime, tz: str) -> date:
    try:
        zone = ZoneInfo(tz)
    except (KeyError, ValueError):
        zone = ZoneInfo("America/Sao_Paulo")
    return timezone.localtime(moment, zone).date()


def submission_receive(
    *,
    credential: ApiCredential,
    data: dict[str, Any],
    nonce: str,
    size: int = 0,
    venue_created_at: datetime | None = None,
    sent_at: datetime | None = None,
) -> tuple[Submission, bool]:
    """Record a stage the venue sent (``data`` already validated as an interchange file, ``size`` its bytes).
    Returns (submission, created): the same file again is the submission already received. ``sent_at`` (the
    venue's clock) is accepted and ignored: replay protection is the nonce alone (issue 34.12).

    Sends of one organiser are received one after the other (its credential's row is locked), so parallel sends of
    versions of one event each get the next version number; a race the lock cannot order (two organisers' first
    sends of one slug) ends in a ConflictError (409) whose ``current`` is the event's latest version (or None),
    never a database error."""
    try:
        with transaction.atomic():
            return _receive(credential=credential, data=data, nonce=nonce, size=size, venue_created_at=venue_created_at)
    except IntegrityError:
        log.info("federation: a send of %s lost a race with another send", data["tournament"].get("slug"))
    latest = Submission.objects.filter(event_slug=data["tournament"]["slug"]).order_by("-version").first()
    raise ConflictError(
        "Outro envio deste evento chegou ao mesmo tempo: nada foi gravado; envie de novo.",
        current=latest,
    )


def _receive(
    *, credential: ApiCredential, data: dict[str, Any], nonce: str, size: int, venue_created_at: datetime | None
) -> tuple[Submission, bool]:
    credential = ApiCredential.objects.select_for_update().get(pk=credential.pk)
    rate_check(credential=credential, size=size)
    nonce_spend(credential=credential, nonce=nonce, size=size)
    t = data["tournament"]
    slug = t["slug"]
    if credential.event_slug and credential.event_slug != slug:
        raise ForbiddenError(f"Esta credencial só envia o evento “{credential.event_slug}”.")
    # one stage is one record (issue 35.2, 36.5): a registered stage's versions, whatever the slug; only the
    # organiser who asked for it sends it
    stage = _named_stage(credential, t)
    record = selectors.record_of(stage, slug)
    others = record.select_for_update().order_by("-version")
    previous = others.select_related("credential").first()
    if stage is None and previous is not None and previous.credential.label != credential.label:
        # before anything else: the same file under another organiser's key says nothing of that organiser's
        # submission (issue 34.11)
        raise ForbiddenError(f"O evento “{slug}” foi enviado por outro organizador.")
    sha = file_hash(data)
    existing = record.filter(sha256=sha).first()
    if existing is not None:
        return existing, False  # sent again while unverified: the API queues its verification again (issue 34.5)
    # what changed is said against the version the federation approved, not a later one it may have refused
    base = (selectors.approved_of_record(record) if stage else selectors.approved_version(slug)) or previous
    submission = Submission.objects.create(
        credential=credential,
        stage=stage,
        event_slug=slug,
        event_name=clean(t.get("name"), 200),
        start_date=date.fromisoformat(t["start_date"]),
        end_date=date.fromisoformat(t["end_date"]),
        version=(previous.version + 1) if previous else 1,
        sha256=sha,
        payload=data,
        venue_created_at=venue_created_at,
        supersedes=previous,
        compared_with=base,
        changes=changes(base.payload, data) if base else [],
    )
    if previous is not None and previous.status != SubmissionStatus.APPROVED:
        others.exclude(pk=submission.pk).exclude(status=SubmissionStatus.APPROVED).update(
            status=SubmissionStatus.SUPERSEDED
        )
    ApiCredential.objects.filter(pk=credential.pk).update(last_used_at=timezone.now())
    audit(tournament=None, user=None, action=AuditAction.SUBMISSION_RECEIVE, obj=submission, summary=str(submission))
    return submission, True


def _named_stage(credential: ApiCredential, t: dict[str, Any]) -> Stage | None:
    """The registered stage the file names (issue 35.2): only its organiser sends it, and not once refused. A file
    naming none is received under its slug (an old file; the verification says it is not a registered stage)."""
    identifier = t.get("stage_id")
    if not identifier:
        return None
    stage = owned_stage(credential, str(identifier))
    if stage.status == StageStatus.REFUSED:
        raise StageRefused(
            f"A etapa {stage.identifier} foi recusada no calendário da federação ({stage.decision_reason}): nada foi "
            "gravado. Corrija o que a recusa aponta e peça o registro de novo (“Enviar à federação”); aceita a "
            "etapa, envie outra vez."
        )
    return stage


def stage_facts(stage: Stage | None) -> StageFacts | None:
    """What the federation recorded of a stage, for the verification (its calendar entry, fingerprints received)."""
    if stage is None:
        return None
    return StageFacts(
        identifier=stage.identifier,
        status=stage.status,
        late=stage.late,
        requested_on=timezone.localdate(stage.requested_at) if stage.requested_at else None,
        received=received_fingerprints(stage),
    )


def _lease() -> timedelta:
    return timedelta(seconds=settings.FEDERATION_VERIFY_LEASE)


def verification_claim(submission_id: int) -> bool:
    """Take the verification of a received stage for ``FEDERATION_VERIFY_LEASE`` seconds (committed at once, so
    the lease outlives a worker killed in the middle). False: already verified, gone, or another worker holds a
    lease that has not expired."""
    now = timezone.now()
    with transaction.atomic():
        submission = Submission.objects.select_for_update().filter(pk=submission_id).first()
        if submission is None or submission.verified_at is not None:
            return False
        if submission.verification_lease_until is not None and submission.verification_lease_until > now:
            return False
        submission.verification_claimed_at, submission.verification_lease_until = now, now + _lease()
        submission.save(update_fields=["verification_claimed_at", "verification_lease_until"])
    return True


def unverified_due(event_slug: str | None = None) -> list[int]:
    """The stages left unverified: a lease that expired (its worker died), or never claimed for a lease's time
    (the task was lost with its queue or its worker)."""
    now = timezone.now()
    waiting = Submission.objects.filter(verified_at__isnull=True, status=SubmissionStatus.RECEIVED).filter(
        Q(verification_lease_until__lt=now) | Q(verification_lease_until__isnull=True, received_at__lt=now - _lease())
    )
    if event_slug is not None:
        waiting = waiting.filter(event_slug=event_slug)
    return list(waiting.values_list("pk", flat=True))


@transaction.atomic
def submission_verify(*, submission: Submission, user: Actor = None) -> Submission:
    """Verify a received stage against the registry at its date (pure verification, results stored). Verified
    again, what changed in its verdict is stored beside it and audited (issue 36.2): the same file and the same
    registry give the same verdict."""
    submission = Submission.objects.select_for_update(of=("self",)).select_related("stage").get(pk=submission.pk)
    data = submission.payload
    registry = selectors.registry_at(submission.start_date)
    record = selectors.record_of(submission.stage, submission.event_slug)
    approved = selectors.approved_of_record(record)
    earlier = [s.payload for s in record.filter(version__lt=submission.version).order_by("version")]
    before = {"rights": submission.rights, "findings": submission.findings, "qualification": submission.qualification}
    try:
        result = verify(
            data,
            registry,
            received_on=local_day(submission.received_at, str(data["tournament"].get("time_zone") or "")),
            approved=approved.payload if approved and approved.pk != submission.pk else None,
            earlier=earlier,
            resolutions=submission.resolutions,
            stage=stage_facts(submission.stage),
            calendar=True,
            editions=all_editions(),  # the shipped ones and those the federation published (issue 35.1)
        )
    except Exception:
        # an internal error: the officer must see that the stage was not verified, not a stage stuck "recebido"
        log.exception("federation: the verification of submission %s failed", submission.pk)
        submission.findings = [FAILED]
        submission.rights = False
        submission.qualification = []
    else:
        submission.findings = [
            {**f.as_json(), "blocking": f.blocking, **({"data": dict(f.data)} if f.data else {})}
            for f in result.findings
        ]
        submission.rights = result.rights
        submission.qualification = list(result.qualification)
    after = {"rights": submission.rights, "findings": submission.findings, "qualification": submission.qualification}
    again = submission.verified_at is not None
    submission.verdict_changes = verdict_changes(before, after) if again else []
    submission.registry_date = registry.list_date
    submission.verified_at = timezone.now()
    submission.verification_lease_until = None
    if submission.status == SubmissionStatus.RECEIVED:
        submission.status = SubmissionStatus.VERIFIED
    submission.save()
    if submission.verdict_changes:
        audit(
            tournament=None,
            user=user,
            action=AuditAction.SUBMISSION_REVERIFY,
            obj=submission,
            summary=str(submission),
            old={"rights": before["rights"]},
            new={"rights": submission.rights, "changes": submission.verdict_changes},
        )
    return submission


@transaction.atomic
def submission_resolve_identity(*, submission: Submission, player_id: int, cbjd_id: str, user: Actor) -> Submission:
    """The officer's answer to a registry match (issue 36.3): the stage's player ``player_id`` (entered without
    his CBJD ID) is the registry's ``cbjd_id``, or ("") none of them. Recorded on the submission and audited; the
    stage is verified again with it (the same player: his rating and his suspensions)."""
    submission = Submission.objects.select_for_update().get(pk=submission.pk)
    if submission.status not in (SubmissionStatus.VERIFIED, SubmissionStatus.RECEIVED):
        raise ServiceError("Este envio já foi decidido ou substituído por uma versão posterior.")
    player = next((p for p in submission.payload.get("players", []) if p.get("id") == player_id), None)
    if player is None:
        raise ServiceError("Jogador não encontrado nesta etapa.")
    cbjd_id = (cbjd_id or "").strip()
    if cbjd_id and not Player.objects.filter(cbjd_id=cbjd_id).exists():
        raise ServiceError(f"ID CBJD “{clean(cbjd_id, 20)}” não está no cadastro.")
    officer = login_of(user)
    answer = {"cbjd_id": cbjd_id, "by": officer.get_username() if officer else "", "at": timezone.now().isoformat()}
    submission.resolutions = {**submission.resolutions, str(player_id): answer}
    submission.save(update_fields=["resolutions"])
    audit(
        tournament=None,
        user=user,
        action=AuditAction.SUBMISSION_IDENTITY,
        obj=submission,
        summary=f"{clean(player.get('name'))}: {'ID ' + cbjd_id if cbjd_id else 'não é do cadastro'}",
        new=answer,
    )
    return submission_verify(submission=submission, user=user)


@transaction.atomic
def submission_decide(
    *, submission: Submission, user: Actor, approve: bool, reason: str = "", confirm_without_rights: bool = False
) -> Submission:
    """Homologate (approve) or refuse, with a reason (required to refuse). Only the latest version of an event
    is decided; approving it supersedes an earlier approved version."""
    submission = Submission.objects.select_for_update(of=("self",)).select_related("stage").get(pk=submission.pk)
    reason = clean(reason, 500)
    if submission.status not in (SubmissionStatus.VERIFIED, SubmissionStatus.RECEIVED):
        raise ServiceError("Este envio já foi decidido ou substituído por uma versão posterior.")
    record = selectors.record_of(submission.stage, submission.event_slug)
    latest = record.order_by("-version").first()
    if latest is not None and latest.pk != submission.pk:
        raise ServiceError("Há uma versão posterior deste evento: decida a mais recente.")
    if not approve and not reason:
        raise ServiceError("Informe o motivo da recusa.")
    if approve and submission.stage is not None and submission.stage.status == StageStatus.REFUSED:
        raise ServiceError(
            f"A etapa {submission.stage.identifier} foi recusada no calendário ({submission.stage.decision_reason}): "
            "não pode ser homologada, a menos que o organizador a peça de novo e ela seja aceita."
        )
    if approve and submission.stage is not None and submission.stage.status != StageStatus.ACCEPTED:
        raise ServiceError(
            f"A etapa {submission.stage.identifier} ainda não foi aceita no calendário: aceite-a antes de homologar."
        )
    if approve and submission.verified_at is None:
        raise ServiceError(
            "Esta etapa ainda não foi verificada: aguarde a verificação automática (retomada sozinha se o "
            "processamento foi interrompido) antes de homologar."
        )
    if approve and not submission.rights and not (confirm_without_rights and reason):
        # issue 36.8: a stage without rights is approved only on purpose, with the reason recorded
        raise ServiceError("Esta etapa não tem direito a vagas: para homologá-la assim, confirme e informe o motivo.")
    now = timezone.now()
    submission.status = SubmissionStatus.APPROVED if approve else SubmissionStatus.REFUSED
    submission.decided_at, submission.decided_by, submission.decision_reason = now, login_of(user), reason
    submission.save(update_fields=["status", "decided_at", "decided_by", "decision_reason"])
    if approve:
        record.filter(status=SubmissionStatus.APPROVED).exclude(pk=submission.pk).update(
            status=SubmissionStatus.SUPERSEDED
        )
        _abandonments_suspend(submission, user)
    audit(
        tournament=None,
        user=user,
        action=AuditAction.SUBMISSION_APPROVE if approve else AuditAction.SUBMISSION_REFUSE,
        obj=submission,
        summary=str(submission),
        reason=reason,
    )
    return submission


def _add_months(day: date, months: int) -> date:
    import calendar

    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _abandonments_suspend(submission: Submission, user: Actor) -> None:
    """Art. 10: a player who abandoned an approved stage is suspended for 3 months from its last day, at every
    venue (the suspensions in force are what venues download)."""
    ids = [
        str(p.get("cbjd_id"))
        for p in submission.payload.get("players", [])
        if p.get("withdrawal") == "abandonment" and p.get("cbjd_id")
    ]
    for player in Player.objects.filter(cbjd_id__in=ids):
        start = submission.end_date
        if Suspension.objects.filter(
            player=player, source=SuspensionSource.ABANDONMENT, start_date=start, lifted_at__isnull=True
        ).exists():
            continue
        suspension = Suspension.objects.create(
            player=player,
            start_date=start,
            end_date=_add_months(start, ABANDONMENT_MONTHS),
            source=SuspensionSource.ABANDONMENT,
            submission=submission,
            reason=f"Abandono da etapa {submission.event_name} (art. 10), homologada pela federação.",
            created_by=login_of(user),
        )
        audit(tournament=None, user=user, action=AuditAction.SUSPENSION_CREATE, obj=suspension, summary=player.name)
        pages_changed(of_suspension(suspension))
