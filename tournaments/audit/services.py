from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Model

from tournaments.models import AuditEntry, Tournament
from tournaments.models.choices import AuditAction

# Who did it: a staff login, or nobody (a management command, an import).
Actor = User | AnonymousUser | None


def login_of(user: Actor) -> User | None:
    """The login to store on a row: None for nobody or an anonymous visitor."""
    return user if isinstance(user, User) and user.pk else None


def audit(
    *,
    tournament: Tournament | None,
    user: Actor,
    action: AuditAction,
    obj: Model | None = None,
    summary: object = "",
    old: dict[str, Any] | None = None,
    new: dict[str, Any] | None = None,
    reason: str = "",
) -> AuditEntry:
    """Append one line to the audit log (call inside the caller's transaction)."""
    entry = audit_row(
        tournament=tournament, user=user, action=action, obj=obj, summary=summary, old=old, new=new, reason=reason
    )
    entry.save()
    return entry


def audit_row(
    *,
    tournament: Tournament | None,
    user: Actor,
    action: AuditAction,
    obj: Model | None = None,
    summary: object = "",
    old: dict[str, Any] | None = None,
    new: dict[str, Any] | None = None,
    reason: str = "",
) -> AuditEntry:
    """One line of the audit log, not yet saved (for ``bulk_create`` of many in the caller's transaction).
    ``action``: a member of :class:`~tournaments.models.choices.AuditAction`, never its code typed as a string
    (anything else raises ``ValueError``: a typo never reaches the log, whose page words each action)."""
    action = AuditAction(action)
    return AuditEntry(
        tournament=tournament,
        user=login_of(user),
        username=user.get_username() if user is not None else "",
        action=action,
        object_type=type(obj).__name__.lower() if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        summary=str(summary)[:300],
        old=old,
        new=new,
        reason=" ".join(str(reason or "").split())[:300],
    )
