"""Portuguese unless the user picked another language.

Django's LocaleMiddleware would follow the browser's Accept-Language, so a venue laptop or a phone set to
English would show the federation's tournament in English. Here the language comes only from the user's own
choice (the language switch's cookie); without one, the site speaks LANGUAGE_CODE (pt-BR).
"""

from django.conf import settings


class PortugueseByDefaultMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)


class RequestSizeLimitMiddleware:
    """Refuse a request body larger than ``settings.MAX_REQUEST_BYTES`` from its Content-Length, before anything
    reads it (413). Every upload form also checks its own, smaller limit with a message next to the field; this
    is the limit for everything else (the largest upload, the 20 MB tournament file, fits under it). A body
    without a Content-Length (chunked) is never read by Django at all."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if request.path.startswith(API_PREFIX) and length > settings.FEDERATION_MAX_BODY:
            # the federation's API has one limit, FEDERATION_MAX_BODY, always answered in JSON (issue 34.10)
            from tournaments.federation.answers import too_large

            return too_large()
        if length > settings.MAX_REQUEST_BYTES:
            from django.http import HttpResponse
            from django.utils.translation import gettext

            message = gettext("The request is too large (at most %(mb)s MB).") % {
                "mb": settings.MAX_REQUEST_BYTES // (1024 * 1024)
            }
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class SecurityHeadersMiddleware:
    """Every response gets ``settings.CONTENT_SECURITY_POLICY`` (all assets are local: ``default-src 'self'``, no
    inline script or style anywhere). Staff pages (``/gestao/``, the admin, the login) and every page a logged-in
    user sees get ``Cache-Control: private, no-store``: no browser or proxy keeps a copy of them."""

    PRIVATE_PREFIXES = ("/gestao/", "/admin/", "/entrar/", "/sair/")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.CONTENT_SECURITY_POLICY:
            response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        user = getattr(request, "user", None)
        if request.path.startswith(self.PRIVATE_PREFIXES) or (user is not None and user.is_authenticated):
            from django.utils.cache import patch_cache_control

            response.headers.pop("Cache-Control", None)
            patch_cache_control(response, private=True, no_store=True)
        return response


# The federation's API reads its bodies itself (bounded by FEDERATION_MAX_BODY, hostile JSON, lone surrogates
# refused), and answers in JSON: the middlewares that read bodies leave it alone.
API_PREFIX = "/api/federacao/"


def has_lone_surrogate(value: object) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    return False


class UnstorableTextMiddleware:
    """Issue 25, item 10: a NUL byte (in the path or the query) or a lone surrogate (in a JSON body)
    is text no database column can hold (PostgreSQL refuses both: a 500). Refused here with a 400 and a sentence,
    before any view. Uploaded files are not looked at (their readers check their own bytes)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.http import HttpResponse
        from django.utils.translation import gettext

        if self._nul_in(request):
            message = gettext("The request has a null character (\\0), which no text may hold.")
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        if self._lone_surrogate_in(request):
            message = gettext("The JSON sent has a lone surrogate (\\ud800 to \\udfff), which no text may hold.")
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    @staticmethod
    def _nul_in(request) -> bool:
        # Form fields are the forms' (Django's CharField refuses a NUL with a form error, in Portuguese).
        return "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", "")

    @staticmethod
    def _lone_surrogate_in(request) -> bool:
        if request.content_type != "application/json" or request.path.startswith(API_PREFIX):
            return False
        if b"\\u" not in request.body:
            return False
        import json

        try:
            return has_lone_surrogate(json.loads(request.body))
        except (ValueError, RecursionError):  # not JSON at all: the view says so
            return False


class PublicCompressionMiddleware:
    """Gzip the public pages that carry no form and no secret (issue 34.14): a visitor's GET of a tournament's
    public page (``/t/...``, not "Minha mesa") without a session, answered 200 in HTML with no ``<form`` (so no
    CSRF token) in it: the venue screen, the printed pages. A page that holds a form or anything of the visitor's
    is never compressed (the BREACH attack reads a secret through the compressed size). Django's GZipMiddleware
    does the compressing (it also adds random bytes and a weak ETag)."""

    PUBLIC_PREFIX = "/t/"
    NOT_PUBLIC = "/minha-mesa/"

    def __init__(self, get_response):
        from django.middleware.gzip import GZipMiddleware

        self.get_response = get_response
        self.gzip = GZipMiddleware(get_response)

    def __call__(self, request):
        response = self.get_response(request)
        if self._compressible(request, response):
            return self.gzip.process_response(request, response)
        return response

    def _compressible(self, request, response) -> bool:
        if request.method != "GET" or response.status_code != 200 or response.streaming:
            return False
        path = request.path
        if not path.startswith(self.PUBLIC_PREFIX) or self.NOT_PUBLIC in path:
            return False
        if settings.SESSION_COOKIE_NAME in request.COOKIES or response.cookies:
            return False
        if not response.get("Content-Type", "").startswith("text/html"):
            return False
        body = response.content
        return b"<form" not in body and b"csrfmiddlewaretoken" not in body
