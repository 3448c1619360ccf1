"""Wrong attempts at a secret (a player's PIN, a staff password), counted per key (issue 34, items 2 and 3): an
address at a tournament, a login, a known device. In the database, not the cache, so the bound holds while Redis
is down; written under a row lock (``tournaments.core.throttle``), so parallel attempts are counted exactly."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class AttemptCounter(models.Model):
    key = models.CharField(_("what is counted"), max_length=200, unique=True)
    kind = models.CharField(_("kind"), max_length=20, db_index=True)
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    subject = models.CharField(_("address or login"), max_length=160)
    tries = models.PositiveIntegerField(_("attempts"), default=0)
    failures = models.PositiveIntegerField(_("wrong attempts"), default=0)
    refused = models.PositiveIntegerField(_("refused while waiting"), default=0)
    last_failure_at = models.DateTimeField(_("last wrong attempt"), null=True, blank=True)
    wait_until = models.DateTimeField(_("waits until"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), db_index=True)

    class Meta:
        verbose_name = _("wrong attempts")
        verbose_name_plural = _("wrong attempts")

    def __str__(self) -> str:
        return f"{self.key}: {self.failures}/{self.tries}"
