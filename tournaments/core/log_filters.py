"""Log filters (config/settings.py LOGGING; no Django import here: the settings name it).

A refusal is not an error of the program: an arbiter opening a director's page (403), a page not found (404), a
request naming a host the site does not answer (Django's ``DisallowedHost``, on a venue's Wi-Fi every phone or
scanner that guesses an address). Django logs them with the exception's traceback, 13 lines each on the director's
console (issue 37.10); here they keep their one line. Internal errors (5xx) keep their traceback.
"""

from __future__ import annotations

import logging


class RefusalsOnOneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and _is_refusal(record):
            record.exc_info = None
            record.exc_text = None
        return True


def _is_refusal(record: logging.LogRecord) -> bool:
    if record.name.startswith("django.security."):
        return True
    status = getattr(record, "status_code", None)
    return record.name == "django.request" and isinstance(status, int) and status < 500
