"""Login lockouts (django-axes) per address and per account (issue 25, item 11).

Axes counts failures for each combination of ``AXES_LOCKOUT_PARAMETERS`` and locks out when the largest count
reaches one limit. Here the two combinations have limits of their own: ``AXES_FAILURE_LIMIT`` wrong passwords
from one address at one account (a venue's shared address locks out only the account mistyped there), and
``AXES_ACCOUNT_FAILURE_LIMIT``, higher, at one account from any addresses (guessing spread over many addresses).
Both last the cool-off (``AXES_COOLOFF_TIME``); a successful login resets them."""

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum


class AccountAndAddressHandler(AxesDatabaseHandler):
    """``AXES_LOCKOUT_PARAMETERS`` must be ``[["username", "ip_address"], "username"]``: the per-account count is
    scaled so that reaching its own limit counts as reaching ``AXES_FAILURE_LIMIT``."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        counts = [
            attempts.aggregate(Sum("failures_since_start"))["failures_since_start__sum"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        ]
        if len(counts) != 2:
            return max(counts, default=0)
        by_address, by_account = counts
        limit, account_limit = settings.AXES_FAILURE_LIMIT, settings.AXES_ACCOUNT_FAILURE_LIMIT
        return max(by_address, by_account * limit // account_limit)

    def reset_user_attempts(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        """A successful login clears the failures of its own address at that account only: the per-account query
        would match every address's rows, and a login from another client (the account's owner at another
        table) must not unlock an address that was guessing."""
        attempts_list = self.filter_user_attempts(request, credentials)
        if not attempts_list:
            return 0
        count, _by_model = attempts_list[0].delete()
        return count
