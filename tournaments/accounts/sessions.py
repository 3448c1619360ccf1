"""Staff sessions (issue 25, item 15): venue laptops are shared, so a login's session lasts a working day, not
Django's two weeks, and a login can leave every device at once ("Sair de todos os aparelhos").

A login stamps its session with the moment it happened. ``StaffSessionMiddleware`` ends a logged-in session when
that stamp is older than ``STAFF_SESSION_HOURS`` (12 by default, counted from the login: using the site does
not stretch it) or not after the login's last "leave every device" (``LoginSessions``), and when it has no stamp
at all (a session from before this rule). The check reads the database, not the session store, so it holds with
database, cache or signed-cookie sessions alike. A player's phone signed in with its card's code is not a login:
its session keeps ``SESSION_COOKIE_AGE`` (docs/production.md)."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import LoginSessions

LOGIN_AT = "staff_login_at"  # the session's key: the login's moment, seconds since the epoch


def staff_session_seconds() -> int:
    return int(settings.STAFF_SESSION_HOURS * 3600)


def stamp_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: the session remembers when it logged in, and its cookie lasts the staff session."""
    if request is None or not hasattr(request, "session"):
        return
    request.session[LOGIN_AT] = time.time()
    request.session.set_expiry(staff_session_seconds())


def session_is_current(session: Any, user: Any) -> bool:
    """Whether a logged-in session is still one of ``user``'s: logged in less than STAFF_SESSION_HOURS ago and
    after the login last left every device."""
    login_at = session.get(LOGIN_AT)
    if not isinstance(login_at, (int, float)) or time.time() - login_at >= staff_session_seconds():
        return False
    ended = LoginSessions.objects.filter(user=user).values_list("ended_at", flat=True).first()
    return ended is None or login_at > ended.timestamp()


@transaction.atomic
def sessions_end_everywhere(*, user: Any) -> datetime:
    """Every session of ``user``, on every device, stops being a session of that login (their next request is
    anonymous: a staff page sends it to the login page). The moment, which the caller's own session precedes."""
    now = timezone.now()
    LoginSessions.objects.update_or_create(user=user, defaults={"ended_at": now})
    return now


class StaffSessionMiddleware:
    """After AuthenticationMiddleware: a logged-in session that is too old, or that its login ended from another
    device, is logged out before the view runs (a staff page then redirects to the login page, which says why)."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not session_is_current(request.session, user):
            logout(request)
            messages.info(request, _("Your session has ended: log in again."))
        return self.get_response(request)


def session_ends_at(session: Any) -> datetime | None:
    """When this login's session ends by itself (STAFF_SESSION_HOURS after it logged in)."""
    login_at = session.get(LOGIN_AT)
    if not isinstance(login_at, (int, float)):
        return None
    return datetime.fromtimestamp(login_at + staff_session_seconds(), tz=timezone.get_current_timezone())
