"""Wrong staff passwords slow the guesser, not the owner (issue 34.3; was django-axes' 15-minute lockouts, which
20 wrong passwords from 20 addresses turned on the owner, again and again).

Every password checked (the login page, the admin's) goes through ``ThrottledModelBackend``, which counts it
(``tournaments.core.throttle``: growing waits, counted exactly under a row lock, in the database):

* from a **known device** (the browser carries the signed cookie ``KNOWN_DEVICE_COOKIE`` that a successful login
  of that same login set there, valid a year), under that device only: the owner with the right password gets
  in even while the login and the address are waiting, and a stolen cookie gives a guesser its own few tries;
* otherwise under the **login at the client's address** (``LOGIN_AT_ADDRESS``: 4 wrong passwords free, so a
  venue's shared address where one person mistypes makes nobody else wait), the **login** from all addresses
  together (``LOGIN``: 19 free: guessing spread over many addresses) and the **address** whatever the login
  (``ADDRESS``: 49 free: one password tried on many logins). Each waits 5 s after its free tries, then twice as
  long after each wrong password, up to 15 minutes, and is forgotten after an hour without one.

The federation's staff see the counts (``tournaments.accounts.attempt_views``)."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from tournaments.core import throttle
from tournaments.core.client_ip import client_ip
from tournaments.core.throttle import Bound, Counted

LOGIN_AT_ADDRESS = Bound("login-at-address", free=4, first_wait=5, longest_wait=900, forget_after=3600)
LOGIN = Bound("login", free=19, first_wait=5, longest_wait=900, forget_after=3600)
ADDRESS = Bound("login-address", free=49, first_wait=5, longest_wait=900, forget_after=3600)
DEVICE = Bound("login-device", free=4, first_wait=5, longest_wait=900, forget_after=3600)
BOUNDS = (LOGIN_AT_ADDRESS, LOGIN, ADDRESS, DEVICE)

log = logging.getLogger(__name__)

KNOWN_DEVICE_COOKIE = "damas_aparelho"
KNOWN_DEVICE_DAYS = 365
_SALT = "tournaments.accounts.known-device"


def _login_name(username: object) -> str:
    return " ".join(str(username or "").split()).casefold()[:150]


def known_device(request: HttpRequest, username: object) -> str | None:
    """The device's id when this browser logged in before as ``username`` (its signed cookie), else None."""
    raw = request.COOKIES.get(KNOWN_DEVICE_COOKIE, "")
    if not raw or len(raw) > 500:
        return None
    try:
        value = signing.loads(raw, salt=_SALT, max_age=KNOWN_DEVICE_DAYS * 24 * 3600)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("login") != _login_name(username) or not value.get("login"):
        return None
    device = value.get("device")
    return device if isinstance(device, str) and device else None


def remember_device(request: HttpRequest, response: HttpResponse, user: Any) -> None:
    """After a successful login: this browser is a known device of that login for a year."""
    device = known_device(request, user.get_username()) or secrets.token_urlsafe(12)
    value = signing.dumps({"login": _login_name(user.get_username()), "device": device}, salt=_SALT)
    response.set_cookie(
        KNOWN_DEVICE_COOKIE,
        value,
        max_age=KNOWN_DEVICE_DAYS * 24 * 3600,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def counted_for(request: HttpRequest, username: object) -> list[Counted]:
    device = known_device(request, username)
    if device is not None:
        return [Counted(DEVICE, f"{_login_name(username)} ({device})")]
    login, address = _login_name(username), client_ip(request) or "?"
    return [Counted(LOGIN_AT_ADDRESS, f"{login} @ {address}"), Counted(LOGIN, login), Counted(ADDRESS, address)]


class ThrottledModelBackend(ModelBackend):
    """Django's backend, with every password it checks counted. While a key waits, the password is not checked
    at all: ``request.login_wait`` says for how many seconds (the login form words it)."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None or username is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        counted = counted_for(request, username)
        claim = throttle.claim(counted)
        if not claim.allowed:
            request.login_wait = claim.wait  # type: ignore[attr-defined]
            raise PermissionDenied  # ends authenticate(): no other backend checks the password either
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            # Django's own backend, listed after this one (for the sessions it logged in), must not check the
            # same password again, uncounted
            raise PermissionDenied
        throttle.succeeded(counted)
        return user


def login_attempts() -> list[Any]:
    """The logins, addresses and devices with wrong passwords not yet forgotten, the most recent first."""
    return throttle.counters(kind__in=[bound.kind for bound in BOUNDS])


def login_attempts_reset(*, user: Any, key: str = "") -> int:
    """An officer clears one count (its key) or every one: whoever waited tries again at once. Logged."""
    kinds = [bound.kind for bound in BOUNDS]
    cleared = throttle.reset(kind__in=kinds, **({"key": key} if key else {}))
    if cleared:
        log.info("login attempts cleared by %s: %s", user, key or "all")
    return cleared
