"""The federation's API (Django REST framework), active only when ``DAMAS_ROLE=federation``.

Every request carries ``Authorization: Bearer <key>`` (a credential issued on the federation's staff page). A
write (sending a stage) also carries ``X-Damas-Nonce`` (a one-time value the federation remembers: a request
sent again is refused and nothing is written; the venue's clock plays no part, ``X-Damas-Sent-At`` is only
informative). The body is the interchange file itself, read as hostile: at most ``FEDERATION_MAX_BODY`` bytes
(a JSON 413 beyond), UTF-8 JSON, finite numbers, no lone surrogate, a whole importable file. Each credential may
send ``FEDERATION_RATE_SENDS`` files and ``FEDERATION_RATE_BYTES`` bytes per ``FEDERATION_RATE_WINDOW`` seconds
(a JSON 429 with ``Retry-After`` beyond). A refusal's status comes from its class (``core.errors.STATUS``).

    POST /api/federacao/v1/etapas/            send a stage (201 new version, 200 the same file again)
    GET  /api/federacao/v1/etapas/<slug>/     the versions of an event and the federation's decision
    GET  /api/federacao/v1/cadastro/          the national rating list and the suspensions in force
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import Http404
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.core.errors import ConflictError, RateLimitedError, ServiceError, status_of
from tournaments.core.middleware import has_lone_surrogate
from tournaments.federation import selectors, services
from tournaments.federation.answers import too_large_message
from tournaments.interchange.errors import InterchangeError
from tournaments.models import ApiCredential, Submission

log = logging.getLogger(__name__)


class CredentialAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, ApiCredential] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise exceptions.NotAuthenticated("Credencial ausente: envie Authorization: Bearer <chave>.")
        credential = services.credential_for(token.strip())
        if credential is None:
            log.info("API: credential refused (%s...)", token.strip()[:12])
            raise exceptions.AuthenticationFailed("Credencial inválida ou revogada.")
        return None, credential

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="federacao"'


class HasCredential(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.auth, ApiCredential)


class FederationAPIView(APIView):
    authentication_classes = [CredentialAuthentication]
    permission_classes = [HasCredential]
    parser_classes: list[Any] = []  # the body is read by hand (bounded, hostile JSON)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        if settings.DAMAS_ROLE != "federation":
            raise Http404
        super().initial(request, *args, **kwargs)


class SubmissionStateSerializer(serializers.ModelSerializer):
    findings_count = serializers.SerializerMethodField()

    class Meta:
        model = Submission
        fields = [
            "version",
            "sha256",
            "status",
            "received_at",
            "verified_at",
            "rights",
            "findings_count",
            "decided_at",
            "decision_reason",
        ]

    def get_findings_count(self, obj: Submission) -> int | None:
        return None if obj.verified_at is None else len(obj.findings or [])


class _TooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE

    def __init__(self) -> None:
        super().__init__(too_large_message())


def _body(request: Request) -> bytes:
    limit = settings.FEDERATION_MAX_BODY
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise _TooLarge
    raw = request._request.read(limit + 1)
    if len(raw) > limit:
        raise _TooLarge
    return raw


def refusal(exc: ServiceError) -> Response:
    """A service's refusal as the API answers it: the status from the error's class, never from its words."""
    body: dict[str, Any] = {"detail": " ".join(exc.messages)}
    headers = {}
    if isinstance(exc, ConflictError) and isinstance(exc.current, Submission):
        body["current"] = SubmissionStateSerializer(exc.current).data
    if isinstance(exc, RateLimitedError):
        headers["Retry-After"] = str(exc.retry_after)
    return Response(body, status=status_of(exc), headers=headers)


def _venue_created_at(request: Request) -> datetime | None:
    """The moment the venue says it made the file (only shown; the federation's clock decides)."""
    raw = request.META.get("HTTP_X_DAMAS_CREATED_AT", "")
    try:
        moment = datetime.fromisoformat(raw) if raw else None
    except ValueError:
        return None
    return moment if moment is not None and moment.tzinfo is not None else None


class StageListView(FederationAPIView):
    def post(self, request: Request) -> Response:
        from tournaments.interchange.jsonfile import load_json, validate_file

        credential: ApiCredential = request.auth
        nonce = request.META.get("HTTP_X_DAMAS_NONCE", "")
        if not (16 <= len(nonce) <= 64) or not nonce.isascii() or not nonce.replace("-", "").isalnum():
            raise exceptions.ValidationError({"detail": "Cabeçalho X-Damas-Nonce ausente ou inválido."})
        raw = _body(request)
        try:
            data = load_json(raw)
            if has_lone_surrogate(data):
                raise InterchangeError(["arquivo: texto com um substituto isolado (\\ud800 a \\udfff)"])
            validate_file(data)
        except InterchangeError as exc:
            log.info("API: stage refused from %s: %s", credential, exc.one_line())
            return Response(
                {"detail": "Arquivo de intercâmbio inválido: nada foi gravado.", "errors": exc.messages[:20]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            submission, created = services.submission_receive(
                credential=credential,
                data=data,
                nonce=nonce,
                size=len(raw),
                venue_created_at=_venue_created_at(request),
            )
        except ServiceError as exc:
            return refusal(exc)
        from tournaments.federation.tasks import verification_resume, verify_submission

        if created:
            pk = submission.pk
            transaction.on_commit(lambda: verify_submission.enqueue(pk))
        elif submission.verified_at is None:
            # sent again while unverified: a verification whose worker died is taken up again (issue 34.5)
            slug = submission.event_slug
            transaction.on_commit(lambda: verification_resume(slug))
        return Response(
            {**SubmissionStateSerializer(submission).data, "created": created},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class StageDetailView(FederationAPIView):
    def get(self, request: Request, slug: str) -> Response:
        credential: ApiCredential = request.auth
        versions = selectors.versions_of(slug).filter(credential__label=credential.label)
        if credential.event_slug and credential.event_slug != slug:
            versions = versions.none()
        return Response({"event": slug, "versions": SubmissionStateSerializer(versions, many=True).data})


class RegistryView(FederationAPIView):
    def get(self, request: Request) -> Response:
        return Response(selectors.national_list())
