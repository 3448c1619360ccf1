"""Template context: which side of the federation this server is (``DAMAS_ROLE``), for the links to its pages."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def federation_role(request: HttpRequest) -> dict[str, Any]:
    return {"DAMAS_ROLE": settings.DAMAS_ROLE}
