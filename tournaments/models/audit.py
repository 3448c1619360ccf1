"""The audit log: every change to results, pairings, entries and settings (who, when, old, new)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    username = models.CharField(_("user"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=40)
    object_type = models.CharField(_("object"), max_length=40, blank=True)
    object_id = models.CharField(_("object id"), max_length=40, blank=True)
    summary = models.CharField(_("summary"), max_length=300, blank=True)
    old = models.JSONField(_("old value"), null=True, blank=True)
    new = models.JSONField(_("new value"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at", "-id"]
        # a player's history page reads the registry changes of one player
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object")]

    def __str__(self) -> str:
        return f"{self.created_at:%d/%m/%Y %H:%M} {self.username} {self.action} {self.summary}"
