"""The venue's HTTP client for the federation's API (httpx). Plain calls; the queue and retries are in
:mod:`.outbox`. Every failure is a :class:`FederationUnreachable` (try again later) or a
:class:`FederationRefused` (the federation answered no: retrying the same request will not help)."""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any

import httpx
from django.conf import settings
from django.utils import timezone

TIMEOUT = httpx.Timeout(30.0, connect=5.0)
API = "/api/federacao/v1"


class FederationError(Exception):
    pass


class FederationUnreachable(FederationError):
    """No answer (offline, timeout, a server error): the queue tries again later."""


class FederationRefused(FederationError):
    """The federation refused (credential, file): the message says why, in Portuguese."""


# What a director reads when the laptop is not connected to a federation: what to do, not which variables to set
# (issue 37.9); docs/guia-do-diretor.md says how a venue is connected.
NOT_CONNECTED = (
    "Este computador ainda não está ligado à federação. Para enviar daqui, peça à federação o endereço dela e a "
    "chave de acesso do local e inicie o servidor com elas, como diz o guia do diretor (“Enviar à federação”). "
    "Enquanto isso, baixe a planilha de homologação e o arquivo do torneio na página Homologação e envie-os à "
    "federação por e-mail."
)


def unreachable_reason(exc: httpx.HTTPError) -> str:
    """Why a request did not reach the federation, in Portuguese, with what to check (never an exception's name)."""
    if isinstance(exc, httpx.TimeoutException):
        return "a federação não respondeu a tempo: a conexão está lenta ou instável"
    if isinstance(exc, httpx.ConnectError):
        return "sem conexão com a federação: confira a internet deste computador"
    return "a conexão com a federação caiu no meio do pedido"


def configured() -> bool:
    return bool(settings.FEDERATION_URL and settings.FEDERATION_TOKEN)


def _headers() -> dict[str, str]:
    if not configured():
        raise FederationRefused(NOT_CONNECTED)
    return {"Authorization": f"Bearer {settings.FEDERATION_TOKEN}", "Accept": "application/json"}


def _answer(response: httpx.Response) -> dict[str, Any]:
    if response.is_redirect:
        # an http:// address of a federation served over TLS answers with a redirect (its body is not the API's):
        # say so, instead of reading an empty answer as "no list" (issue 36.8)
        target = response.headers.get("Location", "")
        if target.startswith("https://") and str(response.request.url).startswith("http://"):
            raise FederationRefused(
                "A federação só atende por https: corrija FEDERATION_URL para começar com https:// e reinicie."
            )
        raise FederationRefused(
            f"A federação respondeu com um redirecionamento ({response.status_code}) para {target[:120] or '?'}: "
            "confira o endereço em FEDERATION_URL."
        )
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    if response.status_code >= 500 or response.status_code in (408, 409, 429):
        # 409: another send of the same event came first, or the request was taken for a replay; 429: this
        # credential's limit. A later try (with a new nonce) is received normally.
        said = " ".join(str(body.get("detail") or "").split())[:200]
        raise FederationUnreachable(f"a federação respondeu {response.status_code}" + (f": {said}" if said else ""))
    if response.status_code >= 400:
        detail = str(body.get("detail") or f"recusado ({response.status_code})")
        errors = body.get("errors")
        if isinstance(errors, list) and errors:
            detail += " " + "; ".join(str(e) for e in errors[:3])
        raise FederationRefused(" ".join(detail.split())[:300])
    return body


def _request(method: str, path: str, **kwargs: Any) -> dict[str, Any]:
    headers = {**_headers(), **kwargs.pop("headers", {})}
    try:
        with httpx.Client(base_url=settings.FEDERATION_URL, timeout=TIMEOUT) as client:
            response = client.request(method, API + path, headers=headers, **kwargs)
    except httpx.HTTPError as exc:
        raise FederationUnreachable(unreachable_reason(exc)) from exc
    return _answer(response)


def send_stage(payload: str, created_at: datetime) -> dict[str, Any]:
    """Send an interchange file (its JSON text). Each try has its own nonce; the federation recognises the same
    file by its content, so a try whose answer was lost is harmless."""
    return _request(
        "POST",
        "/etapas/",
        content=payload.encode("utf-8"),
        headers={
            "Content-Type": "application/json",
            "X-Damas-Nonce": secrets.token_hex(16),
            "X-Damas-Sent-At": timezone.now().isoformat(),
            "X-Damas-Created-At": created_at.isoformat(),
        },
    )


def _write_headers() -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "X-Damas-Nonce": secrets.token_hex(16),
        "X-Damas-Sent-At": timezone.now().isoformat(),
    }


def request_stage(data: dict[str, Any]) -> dict[str, Any]:
    """Ask the federation to register a stage (issue 35.2); the answer gives its identifier."""
    return _request("POST", "/calendario/", content=dumps(data).encode("utf-8"), headers=_write_headers())


def send_fingerprint(identifier: str, data: dict[str, Any]) -> dict[str, Any]:
    """Tell the federation a round's fingerprint as published (issue 35.4)."""
    return _request(
        "POST", f"/calendario/{identifier}/impressoes/", content=dumps(data).encode("utf-8"), headers=_write_headers()
    )


def calendar_stage(identifier: str) -> dict[str, Any]:
    """The stage's state in the federation's calendar (issue 35.2): requested, accepted, or refused with a reason."""
    return _request("GET", f"/calendario/{identifier}/")


def stage_state(slug: str) -> dict[str, Any]:
    return _request("GET", f"/etapas/{slug}/")


def national_list() -> dict[str, Any]:
    return _request("GET", "/cadastro/")


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)
