"""Opening tables (tablita) as data, and the log of every opening drawn."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import DrawMethod, OpeningKind, Variant


class OpeningTable(models.Model):
    code = models.CharField(_("code"), max_length=20, unique=True)
    name = models.CharField(_("name"), max_length=120)
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices, default=Variant.BRAZILIAN_64)

    class Meta:
        verbose_name = _("opening table")
        verbose_name_plural = _("opening tables")
        ordering = ["code"]

    def __str__(self):
        return self.name


class Opening(models.Model):
    """One position of a table. ``active`` is False for positions withdrawn (or excluded under Brazilian rules)."""

    table = models.ForeignKey(OpeningTable, on_delete=models.CASCADE, related_name="openings")
    code = models.CharField(_("code"), max_length=20)
    category = models.PositiveSmallIntegerField(_("category"), null=True, blank=True)
    fen = models.CharField("FEN", max_length=200)
    side_to_move = models.CharField(_("side to move"), max_length=1)
    kind = models.CharField(_("kind"), max_length=5, choices=OpeningKind.choices)
    moves = models.CharField(_("moves"), max_length=200, blank=True)
    raw = models.CharField(_("original text"), max_length=200, blank=True)
    excluded_for_brazilian = models.BooleanField(_("excluded under Brazilian rules"), default=False)
    active = models.BooleanField(_("active"), default=True)
    position = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("opening")
        verbose_name_plural = _("openings")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "code"], name="opening_code_unique"),
            models.CheckConstraint(condition=Q(side_to_move__in=["W", "B"]), name="opening_side_valid"),
            models.CheckConstraint(condition=Q(kind__in=OpeningKind.values), name="opening_kind_valid"),
        ]

    def __str__(self):
        return self.code


class OpeningDraw(models.Model):
    """The draw log: which opening, for which round (and board), how, by whom, when, with which seed."""

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="opening_draws")
    board = models.ForeignKey(
        "tournaments.Board", on_delete=models.CASCADE, null=True, blank=True, related_name="opening_draws"
    )
    opening = models.ForeignKey(Opening, on_delete=models.PROTECT, related_name="draws")
    method = models.CharField(_("method"), max_length=6, choices=DrawMethod.choices)
    seed = models.CharField(_("seed"), max_length=64, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    class Meta:
        verbose_name = _("opening draw")
        verbose_name_plural = _("opening draws")
        ordering = ["drawn_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(method__in=DrawMethod.values), name="opening_draw_method_valid"),
            models.CheckConstraint(
                condition=~Q(method=DrawMethod.RANDOM) | ~Q(seed=""), name="opening_draw_random_has_seed"
            ),
        ]

    def __str__(self):
        return f"{self.round}: {self.opening}"
