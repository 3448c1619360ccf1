"""The rating officer's page at the federation (issue 40.3): choose a period, see every approved stage in it rated
from the list in force at its start (each player's change stage by stage, the new players), publish the list,
download every published list as the CSV and XLSX the venues import. Thin: :mod:`tournaments.federation.ratings`
reads, computes and writes."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.generic import TemplateView, View

from tournaments.core.errors import ServiceError
from tournaments.core.exports import XLSX_TYPE
from tournaments.core.forms import DateInput
from tournaments.core.staff_views import object_or_404, run_service
from tournaments.federation.ratings import list_xlsx, plan_rows, rating_plan, rating_release_publish
from tournaments.federation.views import FederationStaffMixin
from tournaments.models import RatingRelease


class PeriodForm(forms.Form):
    inicio = forms.DateField(label="Início do período", widget=DateInput())
    fim = forms.DateField(label="Fim do período", widget=DateInput())
    data_da_lista = forms.DateField(label="Data da nova lista", widget=DateInput(), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("inicio"), data.get("fim")
        if start and end and start > end:
            raise forms.ValidationError("O início do período deve vir antes do fim.")
        return data


class RatingListsView(FederationStaffMixin, TemplateView):
    template_name = "federation/ratings.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        form = kwargs.get("form") or PeriodForm(self.request.GET or None)
        ctx.update(form=form, releases=RatingRelease.objects.select_related("published_by")[:50])
        if form.is_bound and form.is_valid():
            try:
                plan = rating_plan(form.cleaned_data["inicio"], form.cleaned_data["fim"])
            except ServiceError as exc:
                form.add_error(None, exc.messages[0])
            else:
                rows = plan_rows(plan)
                ctx.update(
                    plan=plan,
                    rows=rows,
                    new_players=[r for r in rows if r["new_player"]],
                    list_date=form.cleaned_data.get("data_da_lista") or max(form.cleaned_data["fim"], date.today()),
                )
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        form = PeriodForm(request.POST)
        if not form.is_valid() or not form.cleaned_data.get("data_da_lista"):
            messages.error(request, "Informe o período e a data da nova lista.")
            return self.render_to_response(self.get_context_data(form=form))
        ok, release = run_service(
            request,
            rating_release_publish,
            start=form.cleaned_data["inicio"],
            end=form.cleaned_data["fim"],
            list_date=form.cleaned_data["data_da_lista"],
            user=request.user,
        )
        if ok:
            messages.success(request, f"{release} publicada e aplicada ao cadastro nacional.")
        return redirect("federation:ratings")


class RatingListDownloadView(FederationStaffMixin, View):
    """A published list as the venues import it: ``?formato=csv`` (default) or ``xlsx``."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        release = object_or_404(RatingRelease.objects.all(), kwargs["pk"])
        name = f"lista-cbjd-{release.list_date:%Y-%m-%d}"
        if request.GET.get("formato") == "xlsx":
            response = HttpResponse(list_xlsx(release), content_type=XLSX_TYPE)
            response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
        else:
            response = HttpResponse(release.csv.encode("utf-8"), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return response
