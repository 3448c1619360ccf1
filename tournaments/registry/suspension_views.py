"""Staff: national suspensions (``/gestao/cadastro/suspensoes/``). The federation (group "Federação") enters a
tribunal's suspension by the player's CBJD ID, start, end and reason, after seeing whom the ID names, and lifts one
with a reason; directors see the suspensions in force."""

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView

from tournaments.core.forms import DateInput
from tournaments.core.staff_views import object_or_404, run_service
from tournaments.entries.services import suspension_confirm, suspension_lift
from tournaments.models import Player, Suspension
from tournaments.registry.services import can_edit_registry
from tournaments.registry.suspensions import MAX_REASON, SuspensionRequest, suspension_create_by_id
from tournaments.registry.views import RegistryMixin


class SuspensionForm(forms.Form):
    cbjd_id = forms.CharField(label=gettext_lazy("CBJD ID"), max_length=20)
    start_date = forms.DateField(label=gettext_lazy("Start"), widget=DateInput())
    end_date = forms.DateField(label=gettext_lazy("End (the last day of the suspension)"), widget=DateInput())
    reason = forms.CharField(
        label=gettext_lazy("Reason (the tribunal's decision)"),
        max_length=MAX_REASON,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("start_date") and data.get("end_date") and data["end_date"] < data["start_date"]:
            self.add_error("end_date", _("The suspension ends before it starts."))
        return data


class NationalSuspensionsView(RegistryMixin, TemplateView):
    template_name = "staff/national_suspensions.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        today = timezone.localdate()
        can_edit = can_edit_registry(self.request.user)
        in_force = (
            Suspension.objects.filter(lifted_at__isnull=True, end_date__gte=today)
            .select_related("player", "tournament")
            .order_by("end_date", "player__search_name")
        )
        ended = (
            Suspension.objects.filter(Q(lifted_at__isnull=False) | Q(end_date__lt=today))
            .select_related("player", "tournament")
            .order_by("-end_date")[:20]
        )
        ctx.update(
            can_edit=can_edit,
            form=kwargs.get("form") or (SuspensionForm(initial={"start_date": today}) if can_edit else None),
            confirm=kwargs.get("confirm"),
            in_force=in_force,
            ended=ended,
            today=today,
        )
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not can_edit_registry(request.user):
            raise PermissionDenied
        if request.POST.get("action") == "confirm":
            suspension = object_or_404(Suspension.objects.all(), request.POST.get("suspension"))
            run_service(
                request,
                suspension_confirm,
                success=_("Suspension confirmed: it now refuses the player's entries in every tournament."),
                suspension=suspension,
                user=request.user,
            )
            return redirect("staff:national_suspensions")
        if request.POST.get("action") == "lift":
            suspension = object_or_404(Suspension.objects.all(), request.POST.get("suspension"))
            run_service(
                request,
                suspension_lift,
                success=_("Suspension lifted."),
                suspension=suspension,
                user=request.user,
                reason=request.POST.get("reason", "")[:300],
            )
            return redirect("staff:national_suspensions")
        form = SuspensionForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Nothing was saved: correct the marked fields."))
            return self.render_to_response(self.get_context_data(form=form), status=400)
        data = form.cleaned_data
        player = Player.objects.filter(cbjd_id__iexact=data["cbjd_id"].strip()).first()
        if player is None:
            form.add_error(
                "cbjd_id", _("No player in the registry has the CBJD ID “%(id)s”.") % {"id": data["cbjd_id"][:20]}
            )
            return self.render_to_response(self.get_context_data(form=form), status=400)
        if request.POST.get("confirm") != "1":  # first say whom the ID names, then save
            return self.render_to_response(self.get_context_data(form=form, confirm=player))
        ok, suspension = run_service(
            request,
            suspension_create_by_id,
            details=SuspensionRequest(data["cbjd_id"], data["start_date"], data["end_date"], data["reason"]),
            user=request.user,
        )
        if not ok:
            return self.render_to_response(self.get_context_data(form=form), status=400)
        messages.success(
            request,
            _("%(name)s (CBJD ID %(id)s) suspended from %(start)s to %(end)s.")
            % {
                "name": suspension.player.name,
                "id": suspension.player.cbjd_id,
                "start": f"{suspension.start_date:%d/%m/%Y}",
                "end": f"{suspension.end_date:%d/%m/%Y}",
            },
        )
        return redirect("staff:national_suspensions")
