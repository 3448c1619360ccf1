"""A pairing run outside the request: its state and progress, read by every app server."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import PairingJobStatus


class PairingJob(models.Model):
    """One request to pair the next round, run by a background worker (``started_at``: when one took it).
    ``heartbeat`` is renewed while the engine runs, so a job whose worker died is seen as interrupted instead of
    blocking the tournament."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="pairing_jobs")
    round_number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=10, choices=PairingJobStatus.choices, default=PairingJobStatus.RUNNING
    )
    publish = models.BooleanField(_("publish when paired"), default=False)
    paired = models.PositiveIntegerField(_("players paired"), default=0)
    total = models.PositiveIntegerField(_("players to pair"), default=0)
    message = models.TextField(_("message"), blank=True)
    round = models.ForeignKey("tournaments.Round", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("started at"), auto_now_add=True)
    started_at = models.DateTimeField(_("taken by a worker at"), null=True, blank=True)
    heartbeat = models.DateTimeField(_("last sign of life"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("pairing run")
        verbose_name_plural = _("pairing runs")
        ordering = ["-created_at"]
        constraints = [
            # one pairing at a time per tournament
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(status=PairingJobStatus.RUNNING),
                name="pairing_job_one_running",
            ),
            models.CheckConstraint(condition=Q(status__in=PairingJobStatus.values), name="pairing_job_status_valid"),
            models.CheckConstraint(condition=Q(paired__lte=models.F("total")), name="pairing_job_progress_bounded"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {_('round')} {self.round_number} ({self.status})"

    @property
    def percent(self) -> int:
        return int(100 * self.paired / self.total) if self.total else 0
