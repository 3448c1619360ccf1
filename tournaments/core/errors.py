"""The refusals a user (or another server) can cause, one class per kind of answer.

Each class is one HTTP status: an API view answers by the class of the error it caught (``STATUS``, walked along
the class's bases), never by reading the message, which is for the user (pt-BR) and may be reworded at will.
"""

from typing import Any

from django.core.exceptions import ValidationError


class ServiceError(ValidationError):
    """A refusal the user caused; the message is for the user (translated, pt-BR by default). 400."""


class ForbiddenError(ServiceError):
    """The caller may not do this (another organiser's event, a credential limited to another event). 403."""


class ConflictError(ServiceError):
    """A save made on stale data (another save came first) or a request already received. ``current`` holds what
    is stored now (or None). 409."""

    def __init__(self, message: str, current: Any = None) -> None:
        super().__init__(message)
        self.current = current


class TooLargeError(ServiceError):
    """A body larger than the limit. 413."""


class RateLimitedError(ServiceError):
    """Too many requests (or bytes) in a window; ``retry_after`` is the number of seconds to wait. 429."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NotFoundError(ServiceError):
    """What the request names does not exist (a stage the calendar does not have). 404."""


STATUS: dict[type[ServiceError], int] = {
    ServiceError: 400,
    ForbiddenError: 403,
    NotFoundError: 404,
    ConflictError: 409,
    TooLargeError: 413,
    RateLimitedError: 429,
}


def status_of(error: ServiceError) -> int:
    """The HTTP status of ``error``: that of its class, or of the nearest base class that has one."""
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400
