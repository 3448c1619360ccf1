"""The client's address, as the login and PIN throttling and anything else keyed on it must see it.

Behind the load balancer every request comes from the balancer's address, so keying lockouts on ``REMOTE_ADDR``
locked an account for every client at once. The balancer says who its client was in ``X-Forwarded-For``; that
header is read only when the request comes from a trusted proxy (``settings.TRUSTED_PROXIES``, from the same
``FORWARDED_ALLOW_IPS`` gunicorn reads), and then from the right: the first address that is not a trusted proxy
is the client (anything to its left was written by the client itself and proves nothing).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[Network, ...] | None:
    """The trusted proxies as networks; ``None`` means every address (``*``, as gunicorn spells it)."""
    if "*" in spec:
        return None
    return tuple(ipaddress.ip_network(item, strict=False) for item in spec if item)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def is_trusted_proxy(text: str) -> bool:
    address = _address(text)
    if address is None:
        return False
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    return networks is None or any(address in network for network in networks)


def client_ip(request: HttpRequest) -> str:
    """The address of the client behind the trusted proxies (``REMOTE_ADDR`` when the request did not come
    through one)."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    if not is_trusted_proxy(remote):
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    for hop in reversed(hops[-20:]):
        address = _address(hop)
        if address is None:  # garbage where an address should be: the proxy's own address, not the text
            return remote
        if not is_trusted_proxy(hop):
            return str(address)
    # Every hop is a trusted proxy (or "*" trusts all): the leftmost is where the request started.
    first = _address(hops[0]) if hops else None
    return str(first) if first is not None else remote
