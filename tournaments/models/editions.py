"""The regulation's editions the federation publishes (issue 35.1): one row per edition, its payload (the JSON of
:class:`tournaments.domain.edition.Edition`) immutable once published. The model refuses a change or a deletion,
its queryset refuses ``update`` and ``delete``, and a database trigger refuses both on SQLite and PostgreSQL
(migration 0035), so no page, admin, import, restore or shell can rewrite an edition a verdict was judged by."""

from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.domain.edition import (
    Edition,
    current_text,
    edition_from_json,
    edition_in_force,
    shipped_by_code,
    shipped_edition,
)

IMMUTABLE = _("A published regulation edition cannot be changed or deleted: publish a new edition instead.")


class EditionQuerySet(models.QuerySet["RegulationEdition"]):
    def update(self, **kwargs: Any) -> int:
        raise ValidationError(IMMUTABLE)

    def delete(self) -> tuple[int, dict[str, int]]:
        raise ValidationError(IMMUTABLE)


class RegulationEdition(models.Model):
    code = models.CharField(_("code"), max_length=60, unique=True)
    title = models.CharField(_("title"), max_length=200)
    in_force_from = models.DateField(_("in force from"))
    in_force_until = models.DateField(_("in force until"), null=True, blank=True)
    payload = models.JSONField(_("edition (JSON)"))
    published_at = models.DateTimeField(_("published at"), auto_now_add=True)
    published_by = models.CharField(_("published by"), max_length=150, blank=True)

    objects = EditionQuerySet.as_manager()

    class Meta:
        verbose_name = _("regulation edition")
        verbose_name_plural = _("regulation editions")
        ordering = ["in_force_from", "code"]

    def __str__(self) -> str:
        return f"{self.code} — {self.title}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValidationError(IMMUTABLE)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValidationError(IMMUTABLE)


def edition_by_code(code: str) -> Edition:
    """The edition of that code: shipped (no query), else published by the federation; the current text when the
    code is unknown or empty (a stage whose start date no edition covers)."""
    if not code:
        return current_text()
    found = shipped_edition(code)
    if found is not None:
        return found
    row = RegulationEdition.objects.filter(code=code).values_list("payload", flat=True).first()
    return edition_from_json(row) if row is not None else current_text()


def all_editions() -> list[Edition]:
    """Every edition the product knows: the shipped ones and those the federation published (received with the
    registry at a venue)."""
    shipped = shipped_by_code()
    published = [
        edition_from_json(p)
        for code, p in RegulationEdition.objects.values_list("code", "payload")
        if code not in shipped
    ]
    return [*shipped.values(), *published]


def edition_for_day(day: date | None) -> Edition | None:
    """The edition in force on ``day`` (a stage's start date)."""
    return edition_in_force(all_editions(), day)
