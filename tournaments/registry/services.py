"""The national registry: creating and editing players. Every change is audited (who, when, before -> after) and
shown on the player's history page; editing needs the federation's permission (group "Federação")."""

from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit
from tournaments.core.affected import of_players, pages_changed
from tournaments.core.errors import ServiceError
from tournaments.models import Player
from tournaments.models.choices import AuditAction

# What a staff form may set on a player (the registry's own fields).
REGISTRY_FIELDS = ("name", "sex", "birth_date", "state", "club", "cbjd_id", "rating", "fmjd_rating", "title")
FEDERATION_GROUP = "Federação"
NATIONAL_FIELDS = ("cbjd_id", "rating", "fmjd_rating", "title")


def can_edit_registry(user: Actor) -> bool:
    """Editing players and importing rating lists: the federation (group "Federação") and site administrators."""
    return bool(user and user.is_authenticated and user.has_perm("tournaments.change_player"))


def as_json(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    return value


def _save(player: Player) -> None:
    try:
        player.full_clean()
    except ValidationError as exc:
        raise ServiceError(exc.messages) from exc
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:  # another staff member saved the same CBJD ID a moment ago
        raise ServiceError(_("Another player in the registry already has this CBJD ID.")) from None


@transaction.atomic
def player_create(*, user: Actor, **fields: Any) -> Player:
    """A new player in the registry (from an entries page); audited. Its national data (CBJD ID, ratings, title)
    only from the federation's staff (issue 25, item 7): a venue enters a new player without them."""
    player = Player(**{k: v for k, v in fields.items() if k in REGISTRY_FIELDS})
    if not can_edit_registry(user) and any(getattr(player, k) not in (None, "") for k in NATIONAL_FIELDS):
        raise ServiceError(
            _(
                "Only the federation (group Federação) records a player's CBJD ID, rating or title: enter the "
                "player without them, and the federation completes the registry."
            )
        )
    player.cbjd_id = player.cbjd_id or None
    _save(player)
    audit(
        tournament=None,
        user=user,
        action=AuditAction.PLAYER_CREATE,
        obj=player,
        summary=player.name,
        new={k: as_json(getattr(player, k)) for k in REGISTRY_FIELDS if getattr(player, k) not in (None, "")},
    )
    return player


@transaction.atomic
def player_update(*, player: Player, user: Actor, **fields: Any) -> Player:
    """Change a player's registry data; the audit keeps each changed field before and after. Public pages of the
    tournaments the player is in are refreshed."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    fields = {k: v for k, v in fields.items() if k in REGISTRY_FIELDS}
    if "cbjd_id" in fields:
        fields["cbjd_id"] = fields["cbjd_id"] or None
    changed = {k: v for k, v in fields.items() if getattr(player, k) != v}
    if not changed:
        return player
    old = {k: as_json(getattr(player, k)) for k in changed}
    for k, v in changed.items():
        setattr(player, k, v)
    _save(player)
    audit(
        tournament=None,
        user=user,
        action=AuditAction.PLAYER_UPDATE,
        obj=player,
        summary=player.name,
        old=old,
        new={k: as_json(v) for k, v in changed.items()},
    )
    pages_changed(of_players([player.pk]))
    return player


def federation_group() -> Any:
    """The group "Federação" with its permissions (made by a data migration; this remakes it after a flush)."""
    from django.contrib.auth.models import Group, Permission

    group, _created = Group.objects.get_or_create(name=FEDERATION_GROUP)
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="tournaments", codename__in=["change_player", "add_ratinglist", "view_player"]
        )
    )
    return group
