from django.core.exceptions import ValidationError


class ServiceError(ValidationError):
    """A refusal the user caused; the message is for the user (translated, pt-BR by default)."""


class ConflictError(ServiceError):
    """A save made on stale data (another arbiter saved first). ``current`` holds what is stored now."""

    def __init__(self, message: str, current: dict[int, str | None] | None = None) -> None:
        super().__init__(message)
        self.current = current
