"""Small helpers shared by the staff views."""

import logging

from django.contrib import messages
from django.shortcuts import redirect

from tournaments.core.errors import ServiceError

logger = logging.getLogger(__name__)


def run_service(request, fn, success=None, **kwargs):
    """Call a service; show its refusal as a message. Returns (ok, result)."""
    try:
        result = fn(**kwargs)
    except ServiceError as exc:  # the user's error: shown to them (anything else is an internal error: a 500, logged)
        logger.info("%s refused for %s: %s", getattr(fn, "__name__", fn), request.user, " | ".join(exc.messages))
        for message in exc.messages:
            messages.error(request, message)
        return False, None
    if success:
        messages.success(request, success)
    return True, result


def back(request, default):
    target = request.POST.get("next") or request.GET.get("next")
    if target and target.startswith("/") and not target.startswith("//"):
        return redirect(target)
    return redirect(default)


MAX_ID = 2_147_483_647


def parse_id(raw):
    """A positive whole number typed or posted by a user (ASCII digits only), or None."""
    text = str(raw or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 10:
        return None
    value = int(text)
    return value if 0 < value <= MAX_ID else None


def object_or_404(queryset, raw):
    """The object whose primary key is ``raw`` within ``queryset`` (scoped to the tournament), else 404."""
    from django.http import Http404

    pk = parse_id(raw)
    obj = queryset.filter(pk=pk).first() if pk else None
    if obj is None:
        raise Http404
    return obj


def form_errors_to_messages(request, form):
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)
