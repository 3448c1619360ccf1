"""Back office for the federation: every model, searchable. Only the federation's staff may open it: a site
administrator, or a staff account (``is_staff``) in the group "Federação" (issue 35.3). A venue's director is
neither: what it changes goes through the pages and their services, which audit and lock."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments import models as m
from tournaments.models.tournament import CATEGORY_FACT_FIELDS, LOCKED_FACTS, ratings_locked, stage_locked
from tournaments.registry.services import can_edit_registry


def federation_staff_only(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff and (user.is_superuser or can_edit_registry(user)))


admin.site.has_permission = federation_staff_only  # type: ignore[method-assign]


@admin.register(m.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "cbjd_id", "rating", "sex", "birth_date", "state", "club"]
    list_filter = ["sex", "state"]
    search_fields = ["name", "cbjd_id", "club"]


@admin.register(m.Suspension)
class SuspensionAdmin(admin.ModelAdmin):
    list_display = ["player", "start_date", "end_date", "source", "tournament", "lifted_at"]
    list_filter = ["source"]
    search_fields = ["player__name", "player__cbjd_id"]
    raw_id_fields = ["player", "tournament"]
    readonly_fields = ["lifted_at", "lifted_by", "lift_reason"]


@admin.register(m.RatingList)
class RatingListAdmin(admin.ModelAdmin):
    list_display = ["filename", "list_date", "imported_at", "imported_by", "created", "updated"]
    readonly_fields = ["imported_at"]


class LockedCategoryMixin:
    """Once round 1 of a stage is published its categories change only on the categories page, with a reason
    (issue 35.3; the model refuses them anyway): their facts are read only here, and they cannot be deleted."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))  # type: ignore[misc]
        if _locked(obj):
            fields += [f for f in CATEGORY_FACT_FIELDS if f not in fields]
        return fields

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if _locked(obj):
            return False
        return super().has_delete_permission(request, obj)  # type: ignore[misc]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        if args and _locked(args[0]):  # an inline's: the tournament
            return False
        return super().has_add_permission(request, *args)  # type: ignore[misc]


def _locked(obj: Any) -> bool:
    """``obj`` (a category, or the tournament of an inline) is a stage whose categories are locked."""
    tournament_id = getattr(obj, "tournament_id", None) or getattr(obj, "pk", None)
    return obj is not None and tournament_id is not None and stage_locked(tournament_id)


class CategoryInline(LockedCategoryMixin, admin.TabularInline):
    model = m.Category
    extra = 0


class RoleInline(admin.TabularInline):
    model = m.TournamentRole
    extra = 0
    raw_id_fields = ["user"]


@admin.register(m.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "start_date", "city", "state", "variant", "format", "planned_rounds"]
    list_filter = ["variant", "format", "state"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [CategoryInline, RoleInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """A stage's minimum and readings are its edition's; once round 1 is published the facts a condition reads
        change only on the settings page, with a reason (issue 35.1, 35.3; the model refuses them anyway)."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            fields += [f for f in obj.edition_fields() if f not in fields]
        if obj is not None and obj.facts_locked_at is not None:
            fields += [f for f in LOCKED_FACTS if f not in fields]
        return fields


@admin.register(m.RegulationEdition)
class RegulationEditionAdmin(admin.ModelAdmin):
    """Read only: an edition is published on the federation's page and never changes (issue 35.1)."""

    list_display = ["code", "title", "in_force_from", "in_force_until", "published_at", "published_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(m.TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ["tournament", "user", "role"]
    list_filter = ["role"]
    raw_id_fields = ["tournament", "user"]


@admin.register(m.Category)
class CategoryAdmin(LockedCategoryMixin, admin.ModelAdmin):
    list_display = ["tournament", "code", "name", "sex", "min_age", "max_age"]
    list_filter = ["tournament"]


@admin.register(m.Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = [
        "tournament",
        "pairing_number",
        "player",
        "rating",
        "status",
        "withdrawn_from_round",
        "late_entry_round",
    ]
    list_filter = ["tournament", "status"]
    search_fields = ["player__name", "player__cbjd_id"]
    raw_id_fields = ["player"]
    filter_horizontal = ["categories"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """After round 1 of a stage the rating and the categories change only on the entry's page, with a reason
        (issue 35.3; the model refuses them anyway)."""
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and ratings_locked(obj.tournament_id):
            fields.append("rating")
        if obj is not None and stage_locked(obj.tournament_id):
            fields.append("categories")
        return fields


@admin.register(m.Absence)
class AbsenceAdmin(admin.ModelAdmin):
    list_display = ["entry", "round_number", "reason"]
    raw_id_fields = ["entry"]


@admin.register(m.ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin):
    list_display = ["tournament", "entry_a", "entry_b", "from_round", "to_round", "reason"]
    raw_id_fields = ["entry_a", "entry_b"]


class BoardInline(admin.TabularInline):
    model = m.Board
    extra = 0
    fields = ["number", "opening", "version"]
    raw_id_fields = ["opening"]


@admin.register(m.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "opening", "engine", "manually_edited", "published_at"]
    list_filter = ["status", "tournament"]
    raw_id_fields = ["opening", "paired_by"]
    inlines = [BoardInline]


class GameInline(admin.TabularInline):
    model = m.Game
    extra = 0


class SeatInline(admin.TabularInline):
    model = m.Seat
    extra = 0
    raw_id_fields = ["entry", "round"]


@admin.register(m.Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "opening", "version"]
    list_filter = ["round__tournament"]
    raw_id_fields = ["round", "opening"]
    inlines = [SeatInline, GameInline]


@admin.register(m.Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["round", "board", "side", "entry"]
    raw_id_fields = ["round", "board", "entry"]


@admin.register(m.Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["board", "number", "result"]
    list_filter = ["result"]
    raw_id_fields = ["board"]


@admin.register(m.OpeningTable)
class OpeningTableAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "variant"]


@admin.register(m.Opening)
class OpeningAdmin(admin.ModelAdmin):
    list_display = ["code", "table", "category", "kind", "moves", "active", "excluded_for_brazilian"]
    list_filter = ["table", "active", "kind", "excluded_for_brazilian"]
    search_fields = ["code", "moves"]
    list_editable = ["active"]


@admin.register(m.OpeningDraw)
class OpeningDrawAdmin(admin.ModelAdmin):
    list_display = ["round", "board", "opening", "method", "seed", "drawn_by", "drawn_at"]
    raw_id_fields = ["round", "board", "opening"]


@admin.register(m.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "tournament", "username", "action", "summary"]
    list_filter = ["action", "tournament"]
    search_fields = ["summary", "username"]
    readonly_fields = [f.name for f in m.AuditEntry._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
