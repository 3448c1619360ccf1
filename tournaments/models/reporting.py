"""Players reporting their own results from their phones (issue 30), with the arbiter always in control.

Each entry gets a private code: a short PIN to type and a long token for the QR of the player's card. A report
is what one player says the board's games were; two equal reports (the opponent's confirmation) make a
confirmed board. Nothing here is a result: only the arbiter's approval writes the games, through the same service
as a typed result (``tournaments.rounds.results.game_record_result``).
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

PIN_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read off paper and typed on a phone
PIN_LENGTH = 6


class ReportingConfig(models.Model):
    """Whether the tournament's players may report (the director turns it off); absent means on."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="reporting_config"
    )
    enabled = models.BooleanField(_("players report their results"), default=True)

    class Meta:
        verbose_name = _("result reporting by players")

    def __str__(self) -> str:
        return f"{self.tournament}: {'on' if self.enabled else 'off'}"


class PlayerCode(models.Model):
    """An entry's private code. ``generation`` grows at each reissue: a phone signed in with an older code is out."""

    entry = models.OneToOneField("tournaments.Entry", on_delete=models.CASCADE, related_name="player_code")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    pin = models.CharField(_("PIN"), max_length=PIN_LENGTH)
    token = models.CharField(max_length=43, unique=True)
    generation = models.PositiveIntegerField(default=1)
    issued_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("player code")
        verbose_name_plural = _("player codes")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "pin"], name="player_code_pin_unique"),
            models.CheckConstraint(condition=Q(generation__gte=1), name="player_code_generation_positive"),
            models.CheckConstraint(
                condition=Q(pin__regex=rf"^[{PIN_ALPHABET}]{{{PIN_LENGTH}}}$"), name="player_code_pin_shape"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} — {self.pin}"


class ResultReport(models.Model):
    """What one player of a board reports its games were (each game's result seen from that game's White, as
    ``Game.result``). One report per player and board: a new report from the same player replaces it."""

    board = models.ForeignKey("tournaments.Board", on_delete=models.CASCADE, related_name="reports")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    results = models.JSONField(_("games reported"))
    reported_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("result reported by a player")
        verbose_name_plural = _("results reported by players")
        ordering = ["board", "reported_at"]
        constraints = [models.UniqueConstraint(fields=["board", "entry"], name="result_report_once_per_player")]

    def __str__(self) -> str:
        return f"{self.board} — {self.entry}: {self.results}"
