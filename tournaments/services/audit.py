from ..models import AuditEntry


def audit(*, tournament, user, action, obj=None, summary="", old=None, new=None):
    """Append one line to the audit log (call inside the caller's transaction)."""
    return AuditEntry.objects.create(
        tournament=tournament,
        user=user if getattr(user, "pk", None) else None,
        username=getattr(user, "get_username", lambda: "")() if user is not None else "",
        action=action,
        object_type=type(obj).__name__.lower() if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        summary=str(summary)[:300],
        old=old,
        new=new,
    )
