"""Live public pages: a phone asks "has anything changed?" with a request of a few hundred bytes, and fetches the
page again only when the answer is yes.

The answer is the tournament's cache version (``tournaments.core.cache``), which every write bumps: the same
number the public pages are cached under, so a changed version is exactly "a cached page may be out of date".
The endpoint carries an ``ETag``; the browser asks with ``If-None-Match`` and an unchanged version is a 304
with no body. No query is made on a hit (the slug's id is remembered in the process), no cookie is set, and the
response is never stored by a proxy for longer than it is true (``no-cache``: always revalidated).
"""

import re
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import reverse
from django.views.decorators.http import require_safe

from tournaments.core import cache
from tournaments.public.page_cache import tournament_pk

SLUG_MAX = 80
# Plain text answers: nothing on this response may load or run anything.
TEXT_POLICY = "default-src 'none'; frame-ancestors 'none'"


def answer(request: HttpRequest, slug: str) -> HttpResponse:
    """The version of the tournament ``slug`` (Http404 for none): 304 when the phone's ETag is current."""
    current = cache.version(tournament_pk(slug))
    etag = f'"{current}"'
    if request.META.get("HTTP_IF_NONE_MATCH", "").strip() == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(str(current), content_type="text/plain; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Content-Security-Policy"] = TEXT_POLICY
    if cache.offline():
        # The cache is down: the version is the clock's and changes for every phone at the same moment. Each phone
        # is told to fetch its page within the period at a moment of its own (static/js/live.js), not all at once
        # (issue 34.15).
        response["Retry-After"] = str(cache.OFFLINE_SECONDS)
    return response


@require_safe
def version(request: HttpRequest, slug: str) -> HttpResponse:
    """The same answer through the whole stack (when the middleware below is not installed, or for a HEAD)."""
    return answer(request, slug)


class LiveVersionMiddleware:
    """The version check, answered before the session, locale, CSRF, authentication and messages middlewares and
    the URL resolver, none of which it needs (no cookie is read or set, nothing depends on the visitor): its
    floor is a cache read and a 304 (issue 34.14; ``bench/live_version.py``). Placed after the security headers'
    middlewares, so the answer carries the same headers. Anything else, or a slug that names no tournament (the
    usual 404 page), goes on through the stack."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self.path: re.Pattern[str] | None = None

    def _pattern(self) -> re.Pattern[str]:
        # the URLconf's own path, with the slug converter's pattern (read once, when the URLconf is loaded)
        marker = "slug-3f9a"
        prefix, _, suffix = reverse("public:live_version", args=[marker]).partition(marker)
        return re.compile(f"{re.escape(prefix)}([-a-zA-Z0-9_]{{1,{SLUG_MAX}}}){re.escape(suffix)}")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET":
            if self.path is None:
                self.path = self._pattern()
            match = self.path.fullmatch(request.path_info)
            if match is not None:
                try:
                    return answer(request, match.group(1))
                except Http404:
                    pass  # no such tournament: the usual 404 page, through the stack
        return self.get_response(request)
