"""Staff: tournament list, creation, dashboard, settings, staff roles, audit log."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Count
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, ListView, TemplateView

from tournaments.accounts.permissions import DirectorRequiredMixin, TournamentStaffMixin, visible_tournaments
from tournaments.accounts.services import (
    may_invite_again,
    offers_for,
    role_label,
    shown_login,
    staff_account_create,
    staff_invite_again,
    staff_offer_answer,
    staff_offer_withdraw,
    staff_pairing_permission,
    staff_role_offer,
    staff_role_remove,
)
from tournaments.accounts.sessions import session_ends_at
from tournaments.core.phone_urls import phone_base
from tournaments.core.staff_views import object_or_404, run_service
from tournaments.homologation.conditions import foreseeable_failures
from tournaments.models import AuditEntry, OpeningTable, RoleOffer, Tournament, TournamentRole
from tournaments.models.choices import RoundStatus
from tournaments.models.tournament import LOCKED_SETTINGS
from tournaments.registry.selectors import rating_differences
from tournaments.rounds.selectors import missing_results
from tournaments.setup.forms import TOURNAMENT_FIELDS, StaffAccountForm, StaffRoleForm, TournamentForm
from tournaments.setup.openings_data import DEFAULT_TABLE
from tournaments.setup.services import frozen_fields, settings_frozen, tournament_create, tournament_update
from tournaments.standings.snapshot import settings_of


class HomeView(LoginRequiredMixin, ListView):
    template_name = "staff/home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        return visible_tournaments(self.request.user).annotate(n_entries=Count("entries", distinct=True))

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["offers"] = offers_for(self.request.user).order_by("created_at")
        ctx["session_ends"] = session_ends_at(self.request.session)
        return ctx

    def post(self, request, *args, **kwargs):
        """Accept or decline a role offered to this login (issue 25, item 1)."""
        accept = "accept" in request.POST
        offer = object_or_404(offers_for(request.user), request.POST.get("accept" if accept else "decline"))
        name = offer.tournament.name
        ok, role = run_service(request, staff_offer_answer, user=request.user, offer=offer, accept=accept)
        if ok and accept:
            messages.success(
                request,
                _("You now work on %(tournament)s as %(role)s.") % {"tournament": name, "role": role_label(role.role)},
            )
        elif ok:
            messages.success(request, _("Offer declined."))
        return redirect("staff:home")


class TournamentCreateView(DirectorRequiredMixin, FormView):
    template_name = "staff/tournament_form.html"
    form_class = TournamentForm

    def get_initial(self):
        # The official table (IDF under Brazilian rules) is preselected; "free openings" stays a choice.
        return {"opening_table": OpeningTable.objects.filter(code=DEFAULT_TABLE).first()}

    def form_valid(self, form):
        data = {k: form.cleaned_data[k] for k in TOURNAMENT_FIELDS}
        ok, tournament = run_service(self.request, tournament_create, user=self.request.user, **data)
        if not ok:
            return self.form_invalid(form)
        messages.success(self.request, _("Tournament created."))
        for warning in foreseeable_failures(settings_of(tournament), 0):  # issue 35.5: said at once
            messages.warning(self.request, warning)
        return redirect("staff:tournament", slug=tournament.slug)


class DashboardView(TournamentStaffMixin, TemplateView):
    template_name = "staff/dashboard.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        t = self.tournament
        rounds = list(t.rounds.select_related("opening").order_by("number"))
        last = rounds[-1] if rounds else None
        missing = missing_results(last) if last else []
        len_entries = t.entries.count()
        ctx.update(
            rounds=rounds,
            last_round=last,
            n_entries=len_entries,
            missing=missing,
            # the same "finished" as the public home: every planned round published, every result in
            finished=bool(last)
            and last.number >= t.planned_rounds
            and last.status == RoundStatus.PUBLISHED
            and not missing,
            can_pair=len(rounds) < t.planned_rounds,
            abandonment_suspensions=t.suspensions.filter(lifted_at__isnull=True).select_related("player"),
            rating_changes=0 if rounds else sum(1 for e in rating_differences(t) if not e.rating_kept_reason),
            # issue 35.5: what the stage can already be seen to fail, until round 1
            foreseeable=[] if rounds else foreseeable_failures(settings_of(t), len_entries),
        )
        return ctx


class SettingsView(TournamentStaffMixin, FormView):
    template_name = "staff/tournament_form.html"
    form_class = TournamentForm
    director_only = True

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["instance"] = self.tournament
        return kwargs

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        if settings_frozen(self.tournament):
            for name in frozen_fields(self.tournament):
                if name in form.fields:
                    form.fields[name].disabled = True
                    form.fields[name].help_text = _("Frozen: round 1 has been paired.")
            for name in LOCKED_SETTINGS:
                if name in form.fields:
                    form.fields[name].help_text = _(
                        "Decides the homologation: changes only with a reason (below), recorded and listed in the "
                        "report."
                    )
        return form

    def form_valid(self, form):
        tournament = Tournament.objects.get(pk=self.tournament.pk)
        data = {k: form.cleaned_data[k] for k in TOURNAMENT_FIELDS if not form.fields[k].disabled}
        ok, tournament = run_service(
            self.request,
            tournament_update,
            tournament=tournament,
            user=self.request.user,
            reason=form.cleaned_data.get("change_reason", ""),
            **data,
        )
        if not ok:
            return self.form_invalid(form)
        messages.success(self.request, _("Settings saved."))
        return redirect("staff:tournament", slug=tournament.slug)


class StaffRolesView(TournamentStaffMixin, FormView):
    template_name = "staff/roles.html"
    form_class = StaffRoleForm
    director_only = True

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        roles = list(self.tournament.roles.select_related("user").order_by("role", "user__username"))
        user = self.request.user
        for r in roles:
            r.may_invite = not r.user.has_usable_password() and may_invite_again(user, r.user)
            r.login = shown_login(r.user)
        ctx["roles"] = roles
        ctx["offers"] = self.tournament.role_offers.order_by("username")
        ctx["account_form"] = kwargs.get("account_form") or StaffAccountForm(auto_id="account_%s")
        ctx["invite"] = kwargs.get("invite")
        return ctx

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action")
        if action == "create_account":
            return self.create_account()
        if action == "invite_again":
            role = object_or_404(TournamentRole.objects.filter(tournament=self.tournament), request.POST.get("role"))
            ok, path = run_service(
                request, staff_invite_again, tournament=self.tournament, user=request.user, account=role.user
            )
            if ok:
                return self.render_to_response(
                    self.get_context_data(
                        invite={"login": shown_login(role.user), "url": phone_base(request) + path},
                        form=StaffRoleForm(),
                    )
                )
            return redirect("staff:roles", slug=self.tournament.slug)
        if action == "pairing_permission":  # issue 28.12: whether arbiters pair
            allowed = request.POST.get("arbiters_may_pair") == "1"
            ok, changed = run_service(
                request, staff_pairing_permission, tournament=self.tournament, user=request.user, allowed=allowed
            )
            if ok and changed:
                messages.success(
                    request,
                    _("Arbiters may now pair the rounds.") if allowed else _("Only the director pairs the rounds now."),
                )
            return redirect("staff:roles", slug=self.tournament.slug)
        if action == "withdraw_offer":
            offer = object_or_404(RoleOffer.objects.filter(tournament=self.tournament), request.POST.get("offer"))
            run_service(
                request,
                staff_offer_withdraw,
                success=_("Offer withdrawn."),
                tournament=self.tournament,
                user=request.user,
                offer=offer,
            )
            return redirect("staff:roles", slug=self.tournament.slug)
        remove = request.POST.get("remove")
        if remove:
            role = object_or_404(TournamentRole.objects.filter(tournament=self.tournament), remove)
            run_service(
                request,
                staff_role_remove,
                success=_("Access removed."),
                tournament=self.tournament,
                user=request.user,
                role=role,
            )
            return redirect("staff:roles", slug=self.tournament.slug)
        return super().post(request, *args, **kwargs)

    def create_account(self):
        form = StaffAccountForm(self.request.POST, auto_id="account_%s")
        if not form.is_valid():
            messages.error(self.request, _("No account was created: correct the marked fields."))
            return self.render_to_response(self.get_context_data(account_form=form, form=StaffRoleForm()))
        ok, result = run_service(
            self.request, staff_account_create, tournament=self.tournament, user=self.request.user, **form.cleaned_data
        )
        if not ok:
            return self.render_to_response(self.get_context_data(account_form=form, form=StaffRoleForm()))
        account, path = result
        messages.success(
            self.request,
            _("Account %(user)s created. Give them the invite link below: it lets them choose a password once.")
            % {"user": shown_login(account)},
        )
        return self.render_to_response(
            self.get_context_data(
                invite={"login": shown_login(account), "url": phone_base(self.request) + path}, form=StaffRoleForm()
            )
        )

    def form_valid(self, form):
        # An offer, whether or not the name exists, with the same answer: the page tells nobody which logins exist,
        # and a role never reaches a login (nor its invite link) without its owner's consent (issue 25, item 1).
        name = form.cleaned_data["username"]
        staff_role_offer(
            tournament=self.tournament, user=self.request.user, username=name, role=form.cleaned_data["role"]
        )
        messages.success(
            self.request,
            _("Access offered to “%(name)s”: it starts when that login accepts it on “My tournaments”.")
            % {"name": name},
        )
        return redirect("staff:roles", slug=self.tournament.slug)


class AuditView(TournamentStaffMixin, ListView):
    template_name = "staff/audit.html"
    director_only = True
    paginate_by = 100
    context_object_name = "entries"

    def get_queryset(self):
        return AuditEntry.objects.filter(tournament=self.tournament).order_by("-created_at", "-id")

    def get_context_data(self, **kwargs):
        from tournaments.audit.presenters import audit_sentence

        ctx = super().get_context_data(**kwargs)
        roles = dict(self.tournament.roles.values_list("user_id", "role"))
        ctx["lines"] = [(e, audit_sentence(e, roles)) for e in ctx["entries"]]
        return ctx
