"""Staff: entries (table and export), registering players, rating lists, withdrawals, absences, suspensions,
forbidden pairs."""

from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView
from django_tables2 import RequestConfig

from ..forms import AbsenceForm, EntryForm, ForbiddenPairForm, PlayerForm, RatingListForm, WithdrawForm
from ..models import Entry, ForbiddenPair, Player, Suspension
from ..permissions import DirectorRequiredMixin, TournamentStaffMixin
from ..ratinglist import MAX_BYTES
from ..services import ServiceError
from ..services.audit import audit
from ..services.entries import (
    absence_announce,
    absence_cancel,
    entry_register,
    entry_reinstate,
    entry_update,
    entry_withdraw,
    player_search,
    rating_list_import,
    suspension_lift,
)
from ..tables import EntryTable, SafeTableExport
from .staff_helpers import form_errors_to_messages, object_or_404, run_service

EXPORT_FORMATS = ("csv", "xlsx")


def export_response(request, table, name):
    fmt = request.GET.get("_export")
    if fmt in EXPORT_FORMATS:
        return SafeTableExport(fmt, table).response(f"{name}.{fmt}")
    return None


class EntriesView(TournamentStaffMixin, TemplateView):
    template_name = "staff/entries.html"

    def get(self, request, *args, **kwargs):
        qs = (
            Entry.objects.filter(tournament=self.tournament)
            .select_related("player", "tournament")
            .prefetch_related("categories")
        )
        self.table = EntryTable(qs)
        RequestConfig(request, paginate=False).configure(self.table)
        response = export_response(request, self.table, f"{self.tournament.slug}-inscritos")
        return response or super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        query = self.request.GET.get("q", "")
        entered = set(self.tournament.entries.values_list("player_id", flat=True))
        ctx.update(
            table=self.table,
            query=query,
            found=[(p, p.pk in entered) for p in player_search(query)],
            player_form=PlayerForm(),
            export_formats=EXPORT_FORMATS,
        )
        return ctx


class EntryAddView(TournamentStaffMixin, TemplateView):
    """POST: register an existing player (player id) or a new one (player form)."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        player_id = request.POST.get("player")
        if player_id:
            player = object_or_404(Player.objects.all(), player_id)
            run_service(
                request,
                entry_register,
                success=_("%(name)s entered.") % {"name": player.name},
                tournament=self.tournament,
                player=player,
                user=request.user,
            )
            return redirect("staff:entries", slug=self.tournament.slug)
        form = PlayerForm(request.POST)
        if not form.is_valid():
            form_errors_to_messages(request, form)
            return redirect("staff:entries", slug=self.tournament.slug)
        try:
            with transaction.atomic():
                player = form.save()
                entry_register(tournament=self.tournament, player=player, user=request.user)
        except ServiceError as exc:
            for message in exc.messages:
                messages.error(request, message)
        else:
            messages.success(request, _("%(name)s entered.") % {"name": player.name})
        return redirect("staff:entries", slug=self.tournament.slug)


class EntryView(TournamentStaffMixin, TemplateView):
    template_name = "staff/entry.html"

    def get_entry(self):
        return get_object_or_404(
            Entry.objects.select_related("player"), pk=self.kwargs["pk"], tournament=self.tournament
        )

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        entry = self.get_entry()
        ctx.update(
            entry=entry,
            form=EntryForm(
                tournament=self.tournament,
                initial={"categories": entry.categories.all(), "declared_adult": entry.declared_adult},
            ),
            withdraw_form=WithdrawForm(initial={"from_round": self.tournament.rounds.count() + 1}),
            absence_form=AbsenceForm(initial={"round_number": self.tournament.rounds.count() + 1}),
            absences=entry.absences.order_by("round_number"),
        )
        return ctx

    def post(self, request, *args, **kwargs):
        entry = self.get_entry()
        action = request.POST.get("action")
        user = request.user
        form = None
        if action == "update":
            form = EntryForm(request.POST, tournament=self.tournament)
            if form.is_valid():
                run_service(
                    request,
                    entry_update,
                    success=_("Entry saved."),
                    entry=entry,
                    user=user,
                    categories=form.cleaned_data["categories"],
                    declared_adult=form.cleaned_data["declared_adult"],
                )
        elif action == "withdraw":
            form = WithdrawForm(request.POST)
            if form.is_valid():
                ok, suspension = run_service(
                    request,
                    entry_withdraw,
                    success=_("Withdrawal recorded."),
                    entry=entry,
                    user=user,
                    from_round=form.cleaned_data["from_round"],
                    kind=form.cleaned_data["kind"],
                    note=form.cleaned_data["note"],
                )
                if ok and suspension:
                    messages.warning(
                        request,
                        _(
                            "Abandonment: %(name)s is suspended until %(end)s (regulation art. 10). The director may "
                            "lift the suspension on the suspensions page, giving the reason."
                        )
                        % {"name": entry.player.name, "end": suspension.end_date.strftime("%d/%m/%Y")},
                    )
        elif action == "reinstate":
            run_service(request, entry_reinstate, success=_("Withdrawal undone."), entry=entry, user=user)
        elif action == "absence":
            form = AbsenceForm(request.POST)
            if form.is_valid():
                run_service(
                    request,
                    absence_announce,
                    success=_("Absence recorded."),
                    entry=entry,
                    user=user,
                    round_number=form.cleaned_data["round_number"],
                    reason=form.cleaned_data["reason"],
                )
        elif action == "cancel_absence":
            absence = object_or_404(entry.absences.all(), request.POST.get("absence"))
            run_service(request, absence_cancel, success=_("Absence cancelled."), absence=absence, user=user)
        else:
            messages.error(request, _("Unknown action."))
        if form is not None and not form.is_valid():
            form_errors_to_messages(request, form)
        return redirect("staff:entry", slug=self.tournament.slug, pk=entry.pk)


class SuspensionsView(TournamentStaffMixin, TemplateView):
    template_name = "staff/suspensions.html"
    director_only = True

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["suspensions"] = self.tournament.suspensions.select_related("player").order_by("-lifted_at", "-created_at")
        return ctx

    def post(self, request, *args, **kwargs):
        suspension = object_or_404(
            Suspension.objects.filter(tournament=self.tournament), request.POST.get("suspension")
        )
        if request.POST.get("action") != "lift":
            messages.error(request, _("Unknown action."))
        else:
            run_service(
                request,
                suspension_lift,
                success=_("Suspension lifted."),
                suspension=suspension,
                user=request.user,
                reason=request.POST.get("reason", "")[:300],
            )
        return redirect("staff:suspensions", slug=self.tournament.slug)


class ForbiddenPairsView(TournamentStaffMixin, FormView):
    template_name = "staff/forbidden_pairs.html"
    form_class = ForbiddenPairForm

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["pairs"] = self.tournament.forbidden_pairs.select_related("entry_a__player", "entry_b__player")
        return ctx

    def post(self, request, *args, **kwargs):
        if request.POST.get("remove"):
            fp = object_or_404(ForbiddenPair.objects.filter(tournament=self.tournament), request.POST["remove"])
            audit(
                tournament=self.tournament,
                user=request.user,
                action="forbidden.remove",
                obj=fp,
                summary=f"{fp.entry_a} x {fp.entry_b}",
            )
            fp.delete()
            messages.success(request, _("Forbidden pair removed."))
            return redirect("staff:forbidden_pairs", slug=self.tournament.slug)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        d = form.cleaned_data
        entries = {
            e.pairing_number: e for e in self.tournament.entries.filter(pairing_number__in=[d["entry_a"], d["entry_b"]])
        }
        a, b = entries.get(d["entry_a"]), entries.get(d["entry_b"])
        if a is None or b is None or a == b:
            form.add_error(None, _("Give the pairing numbers of two different players of this tournament."))
            return self.form_invalid(form)
        if d["from_round"] and d["to_round"] and d["to_round"] < d["from_round"]:
            form.add_error("to_round", _("The last round comes before the first."))
            return self.form_invalid(form)
        fp = ForbiddenPair.objects.create(
            tournament=self.tournament,
            entry_a=a,
            entry_b=b,
            from_round=d["from_round"],
            to_round=d["to_round"],
            reason=d["reason"],
        )
        audit(
            tournament=self.tournament,
            user=self.request.user,
            action="forbidden.create",
            obj=fp,
            summary=f"{a} x {b}",
            new={"from": d["from_round"], "to": d["to_round"]},
        )
        messages.success(self.request, _("Forbidden pair recorded."))
        return redirect("staff:forbidden_pairs", slug=self.tournament.slug)


class RatingListImportView(DirectorRequiredMixin, FormView):
    template_name = "staff/rating_import.html"
    form_class = RatingListForm

    def form_valid(self, form):
        upload = form.cleaned_data["file"]
        if upload.size > MAX_BYTES:  # refused before the file is read into memory
            form.add_error("file", _("The file is too large (at most 10 MB)."))
            return self.form_invalid(form)
        data = upload.read()
        ok, counts = run_service(
            self.request,
            rating_list_import,
            data=data,
            filename=upload.name,
            user=self.request.user,
            list_date=form.cleaned_data.get("list_date"),
        )
        if not ok:
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("Rating list imported: %(c)s new players, %(u)s updated.") % {"c": counts[0], "u": counts[1]},
        )
        return redirect("staff:rating_import")
