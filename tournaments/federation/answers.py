"""The federation API's answers that are given before its views run too (issue 34.10): a body over
``FEDERATION_MAX_BODY``, refused as JSON 413 by the view or by the size middleware. A module of its own so the
middleware and the API both import it without importing each other."""

from __future__ import annotations

from django.conf import settings
from django.http import JsonResponse


def too_large_message() -> str:
    limit = settings.FEDERATION_MAX_BODY
    return f"Arquivo grande demais: o limite é de {limit:,} bytes; nada foi gravado.".replace(",", ".")


def too_large() -> JsonResponse:
    """The one answer to a body over ``FEDERATION_MAX_BODY``, from the view or before it (the size middleware)."""
    return JsonResponse({"detail": too_large_message()}, status=413)
