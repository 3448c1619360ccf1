"""Pages of the federation's side (issue 29). Thin: reads from :mod:`.selectors`, writes through :mod:`.services`,
:mod:`.outbox` and :mod:`.registry_sync`.

At the federation (``DAMAS_ROLE=federation``; staff = the group "Federação"): the API credentials, the review
queue and a submission's page (findings, changes, spots; approve or refuse), and the public season page. At a
venue: the event's "Enviar à federação" page with the state of each version, and the national list download.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.views.generic import TemplateView

from tournaments.accounts.permissions import TournamentStaffMixin, can_create_tournaments
from tournaments.core.staff_views import object_or_404, run_service
from tournaments.domain.edition import shipped_by_code
from tournaments.federation import calendar, client, outbox, registry_sync, selectors, services, stage_outbox
from tournaments.federation.editions import MAX_EDITION_BYTES, edition_publish
from tournaments.federation.presenters import outgoing_state, submission_state, sync_summary, unidentified_players
from tournaments.federation.season import season_table
from tournaments.models import StageRequest, Submission
from tournaments.models.editions import all_editions
from tournaments.models.federation import SubmissionStatus
from tournaments.registry.services import can_edit_registry


def is_federation() -> bool:
    return settings.DAMAS_ROLE == "federation"


class FederationRoleMixin:
    """Pages that exist only at the federation (``DAMAS_ROLE=federation``): a 404 at a venue.

    A plain mixin, not a ``View``: a ``View`` base placed before ``LoginRequiredMixin`` ends the ``dispatch`` chain
    (``View.dispatch`` never calls ``super()``), and the login check after it never ran (issue 34.1: the staff
    pages answered anonymous visitors)."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not is_federation():
            raise Http404
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]


class FederationStaffMixin(LoginRequiredMixin):
    """The federation's officers (group "Federação", or a site administrator). Every check is made here, before
    anything else runs, whatever the order of the bases of the view that uses it: the role (404 at a venue), the
    login (anonymous visitors to the login page), the group (403)."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not is_federation():
            raise Http404
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not can_edit_registry(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class CredentialsView(FederationStaffMixin, TemplateView):
    template_name = "federation/credentials.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        ctx["credentials"] = selectors.credentials()
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if "revoke" in request.POST:
            credential = object_or_404(selectors.credentials(), request.POST.get("revoke"))
            run_service(
                request,
                services.credential_revoke,
                success=f"Credencial de {credential.label} revogada: não envia mais nada.",
                credential=credential,
                user=request.user,
            )
            return redirect("federation:credentials")
        ok, result = run_service(
            request,
            services.credential_issue,
            label=request.POST.get("label", ""),
            event_slug=request.POST.get("event_slug", ""),
            user=request.user,
        )
        ctx = self.get_context_data(**kwargs)
        if ok:
            ctx["issued"], ctx["token"] = result  # shown once: never stored, never shown again
        return self.render_to_response(ctx)


class CalendarView(FederationStaffMixin, TemplateView):
    """The season's calendar (issue 35.2): the stages organisers asked for; the staff accept or refuse each."""

    template_name = "federation/calendar.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        ctx["stages"] = selectors.calendar()
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        stage = object_or_404(selectors.calendar(), request.POST.get("stage"))
        accept = request.POST.get("decision") == "accept"
        run_service(
            request,
            calendar.stage_decide,
            success=f"Etapa {stage.identifier} aceita no calendário."
            if accept
            else f"Etapa {stage.identifier} recusada.",
            stage=stage,
            user=request.user,
            accept=accept,
            reason=request.POST.get("reason", ""),
        )
        return redirect("federation:calendar")


class EditionsView(FederationStaffMixin, TemplateView):
    """The regulation's editions (issue 35.1): those shipped with the product and those published here; an
    officer publishes a new one from its JSON file. Venues receive them with the registry."""

    template_name = "federation/editions.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        ctx["editions"] = sorted(all_editions(), key=lambda e: (e.in_force_from, e.code))
        ctx["shipped"] = set(shipped_by_code())
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        upload = request.FILES.get("file")
        if upload is None:
            messages.error(request, "Escolha o arquivo JSON da edição.")
            return redirect("federation:editions")
        ok, row = run_service(
            request,
            edition_publish,
            data=upload.read(MAX_EDITION_BYTES + 1),
            user=request.user,
        )
        if ok:
            messages.success(request, f"Edição {row.code} publicada: os locais a recebem com o cadastro nacional.")
        return redirect("federation:editions")


class QueueView(FederationStaffMixin, TemplateView):
    """The review queue (issue 36.8): each stage with its slug, filtered by status, season and text, 50 a page."""

    template_name = "federation/queue.html"
    PER_PAGE = 50

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        get = self.request.GET
        status = get.get("situacao", "")
        status = status if status in SubmissionStatus.values else ""
        season_text = get.get("temporada", "")
        season = int(season_text) if season_text.isdigit() and len(season_text) == 4 else None
        text = (get.get("q") or "")[:100]
        page = Paginator(selectors.review_queue(status=status, season=season, text=text), self.PER_PAGE).get_page(
            get.get("pagina")
        )
        ctx.update(
            submissions=[(s, submission_state(s)) for s in page],
            page=page,
            status=status,
            season=season,
            text=text,
            statuses=SubmissionStatus.choices,
            seasons=selectors.queue_seasons(),
            filters=urlencode({k: v for k, v in (("situacao", status), ("temporada", season or ""), ("q", text)) if v}),
        )
        return ctx


class SubmissionView(FederationStaffMixin, TemplateView):
    template_name = "federation/submission.html"

    def get_submission(self) -> Submission:
        return object_or_404(
            Submission.objects.select_related("credential", "decided_by", "compared_with", "stage"), self.kwargs["pk"]
        )

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        submission = self.get_submission()
        latest = selectors.versions_of_submission(submission).first()
        can_decide = submission.status in ("received", "verified") and latest and latest.pk == submission.pk
        ctx.update(
            submission=submission,
            state=submission_state(submission),
            versions=selectors.versions_of_submission(submission),
            blocking=[f for f in submission.findings if f.get("blocking", True)],
            notes=[f for f in submission.findings if not f.get("blocking", True)],
            can_decide=can_decide,
            # an unverified stage cannot be approved (issue 34.5): only refused, while its verification runs
            can_approve=submission.verified_at is not None,
            unidentified=unidentified_players(submission) if can_decide else [],
        )
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        submission = self.get_submission()
        action = request.POST.get("action", "decide")
        if action == "verify":
            run_service(
                request,
                services.submission_verify,
                success="Etapa verificada de novo.",
                submission=submission,
                user=request.user,
            )
        elif action == "identity":
            player_id = request.POST.get("player", "")
            run_service(
                request,
                services.submission_resolve_identity,
                success="Resposta registrada; etapa verificada de novo.",
                submission=submission,
                player_id=int(player_id) if player_id.isdigit() else -1,
                cbjd_id=request.POST.get("cbjd_id", "") if request.POST.get("same") == "sim" else "",
                user=request.user,
            )
        else:
            approve = request.POST.get("decision") == "approve"
            run_service(
                request,
                services.submission_decide,
                success="Etapa homologada." if approve else "Envio recusado; o local verá o motivo.",
                submission=submission,
                user=request.user,
                approve=approve,
                reason=request.POST.get("reason", ""),
                confirm_without_rights=request.POST.get("confirm_without_rights") == "sim",
            )
        return redirect("federation:submission", pk=submission.pk)


class VenueSubmissionView(TournamentStaffMixin, TemplateView):
    """The venue's "Enviar à federação": the versions sent and what the federation said of each."""

    template_name = "federation/venue.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        ctx.update(
            outgoing=[(o, outgoing_state(o)) for o in selectors.outgoing_of(self.tournament)],
            configured=client.configured(),
            not_connected=client.NOT_CONNECTED,
            federation_url=settings.FEDERATION_URL,
            stage_request=StageRequest.objects.filter(tournament=self.tournament).first(),
        )
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not ctx_is_director(self):
            raise PermissionDenied
        if request.POST.get("action") == "sync":
            from tournaments.federation.tasks import sync_pending

            sync_pending.enqueue()
            messages.success(request, "Consulta à federação pedida: o estado se atualiza quando houver conexão.")
        elif request.POST.get("action") == "stage":
            ok, _result = run_service(
                request,
                stage_outbox.stage_request_queue,
                tournament=self.tournament,
                user=request.user,
                success="Pedido de registro da etapa na fila: segue para a federação assim que houver conexão.",
            )
            if ok:
                from tournaments.federation.tasks import schedule_send

                schedule_send()
        else:
            ok, result = run_service(request, outbox.submission_queue, tournament=self.tournament, user=request.user)
            if ok:
                from tournaments.federation.tasks import schedule_send

                schedule_send()
                _outgoing, created = result
                messages.success(
                    request,
                    "Enviado à fila: segue para a federação assim que houver conexão."
                    if created
                    else "Este mesmo arquivo já estava na fila ou enviado: nada foi duplicado.",
                )
        return redirect(reverse("federation:venue", args=[self.tournament.slug]))


def ctx_is_director(view: Any) -> bool:
    from tournaments.models.choices import StaffRole

    return view.role == StaffRole.DIRECTOR


class RegistrySyncView(LoginRequiredMixin, TemplateView):
    """At a venue: download the federation's national list and the suspensions in force."""

    template_name = "federation/registry_sync.html"

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated and not (
            can_create_tournaments(request.user) or can_edit_registry(request.user)
        ):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        ctx.update(
            last=selectors.last_registry_sync(), configured=client.configured(), not_connected=client.NOT_CONNECTED
        )
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        ok, sync = run_service(request, registry_sync.registry_download, user=request.user)
        if ok:
            date = f"{sync.list_date:%d/%m/%Y}" if sync.list_date else "sem data"
            messages.success(
                request,
                f"Lista nacional de {date} baixada: {sync_summary(sync.players, sync.suspensions)}.",
            )
        return redirect("federation:registry_sync")


class SeasonIndexView(FederationRoleMixin, TemplateView):
    template_name = "federation/seasons.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        ctx["seasons"] = selectors.seasons()
        return ctx


class SeasonView(FederationRoleMixin, TemplateView):
    """The public page of a season: approved stages, and per category the qualifiers for each Brazilian
    championship (art. 1) with the spots of each stage and the spots passed on; the suspensions in force."""

    template_name = "federation/season.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        year = int(self.kwargs["year"])
        if not 2000 <= year <= 2100:
            raise Http404
        stages = selectors.season_stages(year)
        ctx.update(
            year=year,
            stages=stages,
            championships=season_table(
                {"name": s.event_name, "rights": s.rights, "qualification": s.qualification} for s in stages
            ),
            suspensions=selectors.suspensions_in_force(),
        )
        return ctx


class LoginAttemptsView(FederationStaffMixin, TemplateView):
    """Wrong staff passwords (issue 34.3): the logins, addresses and known devices with wrong passwords in the
    last hour, how long each waits, and a reset. At the federation, for its officers."""

    template_name = "federation/login_attempts.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        from tournaments.accounts.lockout import login_attempts

        ctx = super().get_context_data(**kwargs)
        ctx["attempts"] = login_attempts()
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        from tournaments.accounts.lockout import login_attempts_reset

        key = request.POST.get("clear", "")[:200]
        cleared = login_attempts_reset(user=request.user, key=key)
        if cleared:
            messages.success(request, "Tentativas liberadas: quem esperava tenta de novo na hora.")
        return redirect("federation:login_attempts")
