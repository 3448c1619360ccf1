"""Small helpers shared by the staff views."""
from django.contrib import messages
from django.shortcuts import redirect

from ..services import ServiceError


def run_service(request, fn, success=None, **kwargs):
    """Call a service; show its refusal as a message. Returns (ok, result)."""
    try:
        result = fn(**kwargs)
    except ServiceError as exc:
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
