"""At the federation: the season's calendar of circuit stages (issue 35.2) and the rounds' fingerprints the venues
send as they publish them (issue 35.4). Writes, each in its own transaction.

* :func:`stage_request_receive`: an organiser asks, with their credential, for a stage (name, city, dates,
  format). It gets its identifier at once ("CBJD-2026-007", numbered in the order asked within the year of its
  start), so the venue can bind its event; a request made on or after the stage's first day is marked late.
  The same request again (same organiser, slug and dates) is the same stage. A stage the staff refused is asked
  for again by naming it: the same record re-opened with the facts as corrected, decided again.
* :func:`stage_decide`: the federation's staff accept it into the calendar, or refuse it with a reason.
* :func:`fingerprint_receive`: a round's fingerprint, from the organiser who asked for the stage only.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.errors import ForbiddenError, NotFoundError, ServiceError
from tournaments.domain.fingerprints import is_fingerprint
from tournaments.domain.text import clean
from tournaments.models import ApiCredential, Stage, StageFingerprint, StageStatus
from tournaments.models.choices import AuditAction

IDENTIFIER = re.compile(r"^CBJD-(\d{4})-(\d{3,6})$")
FORMATS = ("micro-match", "single-game")


class StageRefused(ForbiddenError):
    """The stage named is not this organiser's, or was refused (403)."""


class StageUnknown(NotFoundError):
    """No stage has the identifier named (404)."""


def _field(data: dict[str, Any], key: str, limit: int) -> str:
    value = clean(data.get(key), limit)
    if not value:
        raise ServiceError(f"Informe “{key}” da etapa.")
    return value


def _day(data: dict[str, Any], key: str) -> date:
    try:
        return date.fromisoformat(str(data.get(key)))
    except ValueError:
        raise ServiceError(f"Data inválida em “{key}” (use AAAA-MM-DD).") from None


def _small(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ServiceError(f"“{key}” deve ser um número de {low} a {high}.")
    return value


def _next_identifier(year: int) -> str:
    taken = Stage.objects.filter(identifier__startswith=f"CBJD-{year}-").values_list("identifier", flat=True)
    numbers = [int(m.group(2)) for m in map(IDENTIFIER.match, taken) if m]
    return f"CBJD-{year}-{max(numbers, default=0) + 1:03d}"


def stage_of(identifier: str) -> Stage | None:
    if not isinstance(identifier, str) or not IDENTIFIER.match(identifier):
        return None
    return Stage.objects.select_related("credential").filter(identifier=identifier).first()


def owned_stage(credential: ApiCredential, identifier: str) -> Stage:
    """The stage named, if this credential's organiser asked for it (else refused: another organiser's claim)."""
    stage = stage_of(identifier)
    if stage is None:
        raise StageUnknown(f"Etapa “{clean(identifier, 30)}” não consta do calendário da federação.")
    if stage.credential.label != credential.label:
        raise StageRefused(f"A etapa {stage.identifier} foi registrada por outro organizador.")
    return stage


def _asked(credential: ApiCredential, data: dict[str, Any]) -> dict[str, Any]:
    """The stage's facts as asked (name, city, state, dates, format, rounds, minutes, the venue's slug), checked."""
    name = _field(data, "name", 200)
    city = _field(data, "city", 100)
    start, end = _day(data, "start_date"), _day(data, "end_date")
    if end < start:
        raise ServiceError("A data de término vem antes da de início.")
    fmt = clean(data.get("format"), 20)
    if fmt not in FORMATS:
        raise ServiceError("Formato inválido: use micro-match ou single-game.")
    rounds = _small(data, "planned_rounds", 1, 100)
    minutes = _small(data, "minutes_per_game", 1, 600)
    slug = clean(data.get("venue_slug"), 80)
    if slug and not all(c.isalnum() or c in "-_" for c in slug):
        raise ServiceError("Endereço (slug) do evento inválido.")
    if credential.event_slug and slug != credential.event_slug:
        raise ServiceError(f"Esta credencial só serve ao evento “{credential.event_slug}”.")
    state = clean(data.get("state"), 2).upper()
    return {
        "name": name,
        "city": city,
        "state": state if state.isalpha() else "",
        "start_date": start,
        "end_date": end,
        "format": fmt,
        "planned_rounds": rounds,
        "minutes_per_game": minutes,
        "venue_slug": slug,
    }


def stage_request_receive(*, credential: ApiCredential, data: dict[str, Any]) -> tuple[Stage, bool]:
    """Register the stage an organiser asks for (or return the one already asked: same organiser, slug, dates).
    A request naming its stage (``stage_id``) asks again for a stage the staff refused: see :func:`_ask_again`."""
    facts = _asked(credential, data)
    if data.get("stage_id"):
        return _ask_again(credential, data["stage_id"], facts), False
    slug, start = facts["venue_slug"], facts["start_date"]
    same = Stage.objects.filter(
        credential__label=credential.label, venue_slug=slug, start_date=start, end_date=facts["end_date"]
    ).exclude(status=StageStatus.REFUSED)
    existing = same.first() if slug else None
    if existing is not None:
        return existing, False
    for _attempt in range(5):
        try:
            with transaction.atomic():
                stage = Stage.objects.create(
                    identifier=_next_identifier(start.year),
                    credential=credential,
                    late=timezone.localdate() >= start,
                    **facts,
                )
                audit(tournament=None, user=None, action=AuditAction.STAGE_REQUEST, obj=stage, summary=str(stage))
                return stage, True
        except IntegrityError:  # two requests numbered at the same time: number again
            continue
    raise ServiceError("Não foi possível numerar a etapa agora; tente de novo.")


def _ask_again(credential: ApiCredential, identifier: Any, facts: dict[str, Any]) -> Stage:
    """The organiser asks again for a stage the staff refused (wrong dates, say, since corrected): the same record
    is re-opened, one stage one record (its identifier, the fingerprints and versions it received), with the facts
    as asked now, for the staff to decide again. The refusal stays in the record (``previous_refusal``) and in the
    audit log, with the facts it refused. A stage not refused is returned as it is (the same request again, its
    answer lost). A stage asked again on or after its first day is late; one registered late stays late."""
    with transaction.atomic():
        stage = owned_stage(credential, str(identifier))
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        if stage.status != StageStatus.REFUSED:
            return stage
        old = {key: str(getattr(stage, key)) for key in facts}
        refusal = stage.decision_reason
        for key, value in facts.items():
            setattr(stage, key, value)
        stage.late = stage.late or timezone.localdate() >= stage.start_date
        stage.status, stage.decided_at, stage.decided_by, stage.decision_reason = StageStatus.REQUESTED, None, None, ""
        stage.asked_again_at, stage.previous_refusal = timezone.now(), refusal
        stage.save()
        audit(
            tournament=None,
            user=None,
            action=AuditAction.STAGE_ASK_AGAIN,
            obj=stage,
            summary=f"{stage} pedida de novo depois de recusada ({refusal})",
            old={**old, "refusal": refusal},
            new={key: str(value) for key, value in facts.items()},
        )
        return stage


@transaction.atomic
def stage_decide(*, stage: Stage, user: Actor, accept: bool, reason: str = "") -> Stage:
    """Accept a stage into the season's calendar, or refuse it (with a reason)."""
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    reason = clean(reason, 500)
    if stage.status != StageStatus.REQUESTED:
        raise ServiceError("Esta etapa já foi decidida.")
    if not accept and not reason:
        raise ServiceError("Informe o motivo da recusa.")
    stage.status = StageStatus.ACCEPTED if accept else StageStatus.REFUSED
    stage.decided_at, stage.decided_by, stage.decision_reason = timezone.now(), login_of(user), reason
    stage.save(update_fields=["status", "decided_at", "decided_by", "decision_reason"])
    audit(
        tournament=None,
        user=user,
        action=AuditAction.STAGE_ACCEPT if accept else AuditAction.STAGE_REFUSE,
        obj=stage,
        summary=str(stage),
        reason=reason,
    )
    return stage


def fingerprint_receive(*, credential: ApiCredential, identifier: str, data: dict[str, Any]) -> tuple[Any, bool]:
    """Record a round's fingerprint sent by the stage's organiser; the same one again is the one recorded."""
    stage = owned_stage(credential, identifier)
    number = _small(data, "round", 1, 100)
    kind = data.get("kind")
    if kind not in ("pairing", "results"):
        raise ServiceError("“kind” deve ser pairing ou results.")
    value = data.get("fingerprint")
    if not is_fingerprint(value):
        raise ServiceError("Impressão inválida: 12 dígitos hexadecimais.")
    sealed_raw = data.get("sealed_at")
    sealed: datetime | None = None
    if isinstance(sealed_raw, str):
        try:
            sealed = datetime.fromisoformat(sealed_raw)
        except ValueError:
            sealed = None
        if sealed is not None and sealed.tzinfo is None:
            sealed = None
    with transaction.atomic():
        row, created = StageFingerprint.objects.get_or_create(
            stage=stage, round=number, kind=kind, fingerprint=value, defaults={"sealed_at": sealed}
        )
    return row, created


def received_fingerprints(stage: Stage | None) -> dict[tuple[int, str], list[str]]:
    """The fingerprints the venue sent, per (round, kind), in the order received."""
    out: dict[tuple[int, str], list[str]] = {}
    if stage is None:
        return out
    for number, kind, value in StageFingerprint.objects.filter(stage=stage).values_list("round", "kind", "fingerprint"):
        out.setdefault((number, kind), []).append(value)
    return out
