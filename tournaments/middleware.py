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
