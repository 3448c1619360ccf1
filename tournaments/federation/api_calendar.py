"""The federation's API for the season's calendar (issue 35.2) and the rounds' fingerprints (issue 35.4). Same
credential, nonce and timestamp as the stages' API (:mod:`.api`); bodies are small JSON objects, read as hostile.

    POST /api/federacao/v1/calendario/                          ask for a stage (201 new, 200 the same again)
    GET  /api/federacao/v1/calendario/<identificador>/          the stage's state in the calendar
    POST /api/federacao/v1/calendario/<identificador>/impressoes/   a round's fingerprint as published
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.core.errors import ServiceError
from tournaments.federation import calendar, services
from tournaments.federation.api import FederationAPIView, _body, refusal
from tournaments.interchange.errors import InterchangeError
from tournaments.models import ApiCredential, Stage

log = logging.getLogger(__name__)


def _nonce(request: Request) -> str:
    nonce = request.META.get("HTTP_X_DAMAS_NONCE", "")
    if not (16 <= len(nonce) <= 64) or not nonce.isascii() or not nonce.replace("-", "").isalnum():
        raise exceptions.ValidationError({"detail": "Cabeçalho X-Damas-Nonce ausente ou inválido."})
    return nonce


def _object(request: Request) -> dict[str, Any]:
    from tournaments.interchange.jsonfile import load_json

    try:
        data = load_json(_body(request))
    except InterchangeError as exc:
        raise exceptions.ValidationError({"detail": exc.one_line()}) from None
    if not isinstance(data, dict):
        raise exceptions.ValidationError({"detail": "O corpo deve ser um objeto JSON."})
    return data


def stage_state(stage: Stage) -> dict[str, Any]:
    return {
        "stage_id": stage.identifier,
        "status": stage.status,
        "late": stage.late,
        "name": stage.name,
        "start_date": stage.start_date.isoformat(),
        "end_date": stage.end_date.isoformat(),
        "decision_reason": stage.decision_reason,
    }


def _write(request: Request, write: Callable[[ApiCredential, dict[str, Any]], tuple[Any, bool]]) -> Any:
    """Run a write for the request's credential (its row locked, over its limits, the nonce spent: a replayed
    write is refused), all or nothing. Returns ``write``'s (object, created), or the refusal's Response."""
    data = _object(request)
    try:
        with transaction.atomic():
            credential = ApiCredential.objects.select_for_update().get(pk=request.auth.pk)
            services.rate_check(credential=credential, size=0)
            services.nonce_spend(credential=credential, nonce=_nonce(request))
            return write(credential, data)
    except ServiceError as exc:
        return refusal(exc)


def _created(body: dict[str, Any], created: bool) -> Response:
    return Response({**body, "created": created}, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class CalendarView(FederationAPIView):
    def post(self, request: Request) -> Response:
        done = _write(
            request, lambda credential, data: calendar.stage_request_receive(credential=credential, data=data)
        )
        if isinstance(done, Response):
            return done
        stage, created = done
        log.info("API: stage %s asked by %s (new: %s)", stage.identifier, request.auth, created)
        return _created(stage_state(stage), created)


class CalendarStageView(FederationAPIView):
    def get(self, request: Request, identifier: str) -> Response:
        try:
            stage = calendar.owned_stage(request.auth, identifier)
        except ServiceError as exc:
            return refusal(exc)
        return Response(stage_state(stage))


class FingerprintView(FederationAPIView):
    def post(self, request: Request, identifier: str) -> Response:
        done = _write(
            request,
            lambda credential, data: calendar.fingerprint_receive(
                credential=credential, identifier=identifier, data=data
            ),
        )
        if isinstance(done, Response):
            return done
        row, created = done
        return _created({"round": row.round, "kind": row.kind, "fingerprint": row.fingerprint}, created)
