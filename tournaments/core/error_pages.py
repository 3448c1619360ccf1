"""The site's own answer to a request it cannot understand (400), saying why when the reason is one a user can act
on: a form with more fields than Django accepts (``DATA_UPLOAD_MAX_NUMBER_FIELDS``) is a results page of a very
big round posted without the page's script, which sends only the boards that changed."""

from django.core.exceptions import TooManyFieldsSent
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    reason = None
    if isinstance(exception, TooManyFieldsSent):
        reason = _(
            "The form sent has too many fields. On a very big round the results page sends only the boards that "
            "changed when JavaScript is on: turn it on in the browser, open the page again and save."
        )
    return render(request, "400.html", {"reason": reason}, status=400)
