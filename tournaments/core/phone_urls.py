"""Addresses printed for the players' phones (QR codes on slips and cards)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from tournaments.core.lan import local_addresses


def phone_base(request: HttpRequest) -> str:
    """The site's address as a phone opens it: this request's, unless it is the laptop's own loopback in LAN mode
    (``make run LAN=1``), where the laptop's address on the venue's network is the one a phone can reach."""
    host = request.get_host().split(":")[0]
    if getattr(settings, "LAN", False) and host in ("127.0.0.1", "localhost"):
        addresses = local_addresses()
        if addresses:
            return f"http://{addresses[0]}:{request.get_port()}"
    return request.build_absolute_uri("/").rstrip("/")
