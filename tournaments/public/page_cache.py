"""Caching of the public pages, under ``cache.page_key``, each entry with the tournament's version it was built
for (a version that every write bumps, so a saved result or a published round shows on the next view; while one
request rebuilds a page after a write, the others get the previous version for that moment: ``cached``):

* anonymous visitors get the whole page from the cache, with a hole for the CSRF token of the language form,
  filled per request (``full_page_cache``): no query but the tournament's id by slug, itself remembered in the
  process for a minute (``tournament_pk``). The page is kept as its text split at its holes (``hole``), never
  as a text in which holes are searched: no player's name can plant one (issue 34.13);
* logged-in users get the heavy part (the tables) from the cache (``cached_fragment``) and the layout rendered
  per request (``render_page``), so nothing user-specific is ever cached.
"""

import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache as django_cache
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.core import cache as page_cache
from tournaments.models import Category, Tournament

logger = logging.getLogger(__name__)

PAGE_TIMEOUT = 60 * 60 * 6
# With a per-process cache (LocMemCache, the default without REDIS_URL) a write bumps the version only in the
# process that made it: other app-server processes would keep their pages. There, pages live a few seconds only,
# so every process shows a saved result within LOCAL_PAGE_TIMEOUT seconds. A shared cache (Redis) is exact.
LOCAL_PAGE_TIMEOUT = 10


def page_timeout():
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    return LOCAL_PAGE_TIMEOUT if backend.endswith("LocMemCache") else PAGE_TIMEOUT


# The tournament and version a page is being built for, while ``cached`` builds it: what ``shared`` keys on.
_building: ContextVar[tuple[int, int] | None] = ContextVar("page_building", default=None)
# (tournament id, version, name) -> value computed for that version, in this process: after a write every page
# of the tournament is stale, and each is rebuilt by one request (``cached``), but all of them read the same
# snapshot of the tournament. Computed once per process and version, not once per page (issue 25, item 9).
_SHARED: OrderedDict[tuple[int, int, str], Any] = OrderedDict()
_SHARED_LOCK = threading.Lock()
SHARED_SIZE = 16


def shared(tournament_id: int, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, or the value it gave for the same ``name`` while this process built another page of the
    tournament for the same version. Computed anew outside a page build, while the cache is unreachable (the
    version is then the clock's) and with a per-process cache (LocMemCache: another process's writes do not change
    this process's version). The value is shared between requests: never change it."""
    building = _building.get()
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if (
        building is None
        or building[0] != tournament_id
        or backend.endswith("LocMemCache")
        or not getattr(django_cache, "available", True)
    ):
        return compute()
    key = (tournament_id, building[1], name)
    with _SHARED_LOCK:
        if key in _SHARED:
            _SHARED.move_to_end(key)
            return _SHARED[key]
    value = compute()
    with _SHARED_LOCK:
        _SHARED[key] = value
        while len(_SHARED) > SHARED_SIZE:
            _SHARED.popitem(last=False)
    return value


# The connection failed, was lost or was refused: the database is down (not a bug in the page).
DATABASE_ERRORS = (OperationalError, InterfaceError)


class StaleEntry(OperationalError):
    """The database is unreachable and the page could not be rebuilt; ``payload`` is the entry kept for an
    earlier version of the tournament, which ``full_page_cache`` serves with a notice (issue 34.7). Anything
    else that calls ``cached`` sees a database error, as before."""

    def __init__(self, payload: Any) -> None:
        super().__init__("database unreachable; an earlier version of the page is kept")
        self.payload = payload


def cached(tournament_id, key, build):
    """``build()``'s answer, kept under ``key`` with the tournament's version it was built for.

    ``build()`` returns ``(answer, payload)``: the payload (bytes or text) is what is kept and what a later hit
    returns; an empty payload (the view answered 404, or an error) is not kept. Returns ``(answer, False)`` when
    built here, ``(payload, True)`` from the cache. An entry built for an older
    version is rebuilt by the one request that takes its lock, while the others get the previous version for that
    moment (``stale``): one rebuild per page and write, not one per reader."""
    current, entry = page_cache.lookup(tournament_id, key)
    locked = False
    if entry is not None:
        built_for, payload = entry
        if built_for == current:
            return payload, True
        locked = page_cache.rebuild_lock(key)
        if not locked:
            return payload, True  # another request is rebuilding it: the previous version for a moment
    token = _building.set((tournament_id, current))
    try:
        answer = _rebuild(key, build, entry, current)
    finally:
        _building.reset(token)
        if locked:
            page_cache.release(key)
    return answer, False


def _rebuild(key, build, entry, current):
    """``build()``'s answer, its payload kept under ``key`` for ``current``; ``entry``: what was kept before."""
    try:
        answer, payload = build()
    except Http404:
        if entry is not None:
            django_cache.delete(key)  # gone: no reader gets the previous version any more
        raise
    except DATABASE_ERRORS as exc:
        if entry is None:
            raise
        logger.warning("database unreachable (%s): %s served from an earlier version", type(exc).__name__, key)
        raise StaleEntry(entry[1]) from exc
    if payload:
        django_cache.set(key, (current, payload), page_timeout())
    elif entry is not None:
        django_cache.delete(key)  # nothing to show now (a 404): likewise
    return answer


def cached_fragment(tournament, name, build, *parts):
    """HTML of ``build()`` kept under the tournament's version and the active language (see ``cached``).

    ``parts`` must come from the database (a round's number, a category's code as stored), never from the URL's
    text: a key never holds what a visitor typed. An empty fragment (nothing to show: the view answers 404) is
    not kept."""
    key = page_cache.page_key(tournament.pk, name, translation.get_language() or "", *parts)

    def fragment():
        html = build()
        return html, html

    return cached(tournament.pk, key, fragment)[0]


SLUG_TIMEOUT = 60
CSRF = "csrf"
# The name of a whole page's key (``full_page_cache``): its entries are split at their holes (``holes_split``), so
# they have a name of their own (an app server of the version before, which kept the page as one text, ignores
# them, and this one ignores that server's).
WHOLE_PAGE = "page-split"


def hole(request, payload: str) -> SafeString:
    """A hole in the page being built for the cache: ``payload`` (what to put there, e.g. ``"csrf"``) between
    two copies of a mark drawn at random for this build. The page is kept split at that mark (``holes_split``),
    so nothing already written in the database (a player named after a mark) can be taken for a hole: the mark
    did not exist when it was written (issue 34.13: the marker was once a constant searched in the page, and a
    player's name holding it planted a QR code to another site on the printed pairings)."""
    mark = request._hole_mark
    return mark_safe(f"{mark}{payload}{mark}")


def holes_split(request, content: bytes) -> tuple[bytes, ...]:
    """The page as its text and its holes' payloads in turn: (text, payload, text, ..., text)."""
    return tuple(content.split(request._hole_mark.encode()))


def holes_filled(request, segments: tuple[bytes, ...], fill) -> bytes:
    """The page for this request: each hole filled (the CSRF token, or ``fill(request, payload)``)."""
    parts = list(segments)
    for i in range(1, len(parts), 2):
        payload = parts[i].decode()
        parts[i] = get_token(request).encode() if payload == CSRF else fill(request, payload)
    return b"".join(parts)


# slug -> (tournament id, {lower-case category code: code as stored}, expiry): kept in the process, it saves a
# cache round trip per page and lets an unknown category be a 404 before anything is computed or cached.
_SLUGS: dict[str, tuple[int, dict[str, str], float]] = {}


def forget_slug(sender, instance, **kwargs):
    """A renamed or deleted tournament's slug is forgotten at once (connected in ``TournamentsConfig.ready``)."""
    _SLUGS.pop(instance.slug, None)


def forget_categories(sender, instance, **kwargs):
    """A category added, renamed or deleted: every remembered tournament is read again (rare, and cheap)."""
    _SLUGS.clear()


def _tournament_ref(slug):
    now = time.monotonic()
    known = _SLUGS.get(slug)
    if known is not None and known[2] > now:
        return known
    try:
        pk = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
        codes = list(Category.objects.filter(tournament_id=pk).values_list("code", flat=True)) if pk else []
    except DATABASE_ERRORS:
        if known is None:
            raise
        return known  # the database is down: what was known a minute ago (its pages are served from the cache)
    if pk is None:
        _SLUGS.pop(slug, None)
        raise Http404(_("No such tournament."))
    if len(_SLUGS) > 1000:
        _SLUGS.clear()
    _SLUGS[slug] = known = (pk, {code.lower(): code for code in codes}, now + SLUG_TIMEOUT)
    return known


def tournament_pk(slug):
    """The tournament's id by slug, remembered for a minute (a cached page then costs no query at all)."""
    return _tournament_ref(slug)[0]


CATEGORY_CODE_MAX = Category._meta.get_field("code").max_length


def category_code(slug, text):
    """The code of the tournament's category that ``text`` (from a URL, any case) names, as stored; 404 when
    there is none. Nothing is computed or cached for a category that does not exist."""
    text = str(text)
    pk, codes, _expiry = _tournament_ref(slug)
    code = codes.get(text.lower())
    if code is None and len(text) <= CATEGORY_CODE_MAX:
        # Added in another app server within the last minute? One small query, still nothing cached.
        code = Category.objects.filter(tournament_id=pk, code__iexact=text).values_list("code", flat=True).first()
    if code is None:
        raise Http404(_("No such category."))
    return code


def render_page(request, template, tournament, **ctx):
    """The page layout around a (cached) body; under ``full_page_cache`` the CSRF token is left as a hole.

    A page rendered through ``full_page_cache`` is live (``static/js/live.js``): it carries the tournament's
    version read before anything on it was read, so the phone showing it asks again once anything changed."""
    if getattr(request, "_full_page_cache", False):
        ctx["csrf_token"] = hole(request, CSRF)
    live_version = getattr(request, "_live_version", None)
    if live_version is not None:
        ctx["live_version"] = live_version
        ctx["live_url"] = reverse("public:live_version", args=[tournament.slug])
    return render(request, template, {"tournament": tournament, **ctx})


def _served(request, pk, key, page, fill):
    """The whole page for this request: kept (its holes filled), built by ``page()``, or, with the database down,
    the version kept before with a notice."""
    try:
        answer, from_cache = cached(pk, key, page)
    except StaleEntry as stale:
        return HttpResponse(holes_filled(request, stale_notice(stale.payload), fill))
    if from_cache:
        segments = answer  # UTF-8 bytes between the holes: no decoding or encoding on a hit
    else:
        response, segments = answer
        if response.status_code != 200:
            return response
    return HttpResponse(holes_filled(request, segments, fill))


MAIN_TAG = b'<main id="main"'


def stale_notice(segments: tuple[bytes, ...]) -> tuple[bytes, ...]:
    """The kept page with a notice at the top of its content (inside ``<main>``, so a live page keeps showing it
    until a fresh page replaces it): the database is down and this version may be out of date."""
    notice = (
        '<p class="msg msg-warning" id="stale-notice" role="status">'
        + str(
            escape(
                _(
                    "The server is having a temporary fault: this is the last saved version of this page and it may be out of date."
                )
            )
        )
        + "</p>"
    ).encode()
    parts = list(segments)
    for i in range(0, len(parts), 2):  # the page's own text, never a hole's payload
        start = parts[i].find(MAIN_TAG)
        if start != -1:
            end = parts[i].index(b">", start) + 1
            parts[i] = parts[i][:end] + notice + parts[i][end:]
            return tuple(parts)
    return (notice, *parts)


def full_page_cache(view=None, *, query=None, fill=None):
    """For anonymous visitors, keep the whole page (layout included) under the tournament's version.

    The only per-visitor piece of an anonymous page is the CSRF token of the language form: the cached HTML keeps
    a hole there, filled on every request; ``fill(request, payload)`` fills each of a view's own holes (the printed
    pages' time and address; ``hole``). A hit costs no query (the tournament's id by slug is remembered). ``query`` names the query
    parameters the view takes, each passed as an argument (``{"categoria": "category"}``: a category's code, which
    like the one in a path must name one of the tournament's categories). Logged-in users, other query strings and
    visitors with pending messages get the page rendered around the cached fragment instead.
    """
    if view is None:
        return lambda view: full_page_cache(view, query=query, fill=fill)
    accepted = query or {}

    @wraps(view)
    def wrapper(request, slug, **kwargs):
        for param, name in accepted.items():
            if request.GET.get(param):
                kwargs[name] = request.GET[param]
        if set(request.GET) - set(accepted) or "messages" in request.COOKIES or request.user.is_authenticated:
            request._live_version = page_cache.version(tournament_pk(slug))
            return view(request, slug, **kwargs)
        pk = tournament_pk(slug)
        if kwargs.get("category") is not None:
            kwargs["category"] = category_code(slug, kwargs["category"])
        # The key names the view and its arguments as the URL resolver and the database gave them (numbers as
        # numbers, the category's stored code), never the path as typed.
        parts = [f"{name}={kwargs[name]}" for name in sorted(kwargs)]
        key = page_cache.page_key(
            pk, WHOLE_PAGE, translation.get_language() or "", f"{view.__module__}.{view.__qualname__}", *parts
        )

        def page():
            request._full_page_cache = True
            request._hole_mark = f"hole-{secrets.token_hex(16)}-"
            request._live_version = page_cache.version(pk)
            response = view(request, slug, **kwargs)
            segments = holes_split(request, response.content) if response.status_code == 200 else None
            return (response, segments), segments

        return _served(request, pk, key, page, fill)

    return wrapper
