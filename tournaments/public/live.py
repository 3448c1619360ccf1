"""Live public pages: a phone asks "has anything changed?" with a request of a few hundred bytes, and fetches the
page again only when the answer is yes.

The answer is the tournament's cache version (``tournaments.core.cache``), which every write bumps: the same
number the public pages are cached under, so a changed version is exactly "a cached page may be out of date".
The endpoint carries an ``ETag``; the browser asks with ``If-None-Match`` and an unchanged version is a 304
with no body. No query is made on a hit (the slug's id is remembered in the process), no cookie is set, and the
response is never stored by a proxy for longer than it is true (``no-cache``: always revalidated).
"""

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.views.decorators.http import require_safe

from tournaments.core import cache
from tournaments.public.page_cache import tournament_pk

# Plain text answers: nothing on this response may load or run anything.
TEXT_POLICY = "default-src 'none'; frame-ancestors 'none'"


@require_safe
def version(request: HttpRequest, slug: str) -> HttpResponse:
    current = cache.version(tournament_pk(slug))
    etag = f'"{current}"'
    if request.headers.get("If-None-Match", "").strip() == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(str(current), content_type="text/plain; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Content-Security-Policy"] = TEXT_POLICY
    return response
