"""Staff: the regulation's own pages: the ratings round 1 will use (art. 4) and the opening tables a director
loads (100 squares has no official table)."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from tournaments.accounts.permissions import DirectorRequiredMixin, TournamentStaffMixin
from tournaments.core.staff_views import form_errors_to_messages, object_or_404, run_service
from tournaments.entries.services import entry_keep_rating, entry_take_registry_rating
from tournaments.models import Entry, OpeningTable
from tournaments.models.choices import StaffRole
from tournaments.registry.selectors import latest_rating_list, rating_differences
from tournaments.setup.forms import KeepRatingForm, OpeningTableForm
from tournaments.setup.openings import MAX_TABLE_BYTES, opening_table_import


class RatingsView(TournamentStaffMixin, TemplateView):
    """Before round 1: which entries will take the registry's current rating, and the director's choice to keep
    the rating of registration (with a reason). After round 1: the frozen ratings and the list they came from."""

    template_name = "staff/ratings.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        t = self.tournament
        frozen = t.rounds.filter(number=1).exists()
        ctx.update(
            frozen=frozen,
            differences=[] if frozen else rating_differences(t),
            kept=Entry.objects.filter(tournament=t).exclude(rating_kept_reason="").select_related("player"),
            latest=latest_rating_list(),
            form=KeepRatingForm(),
        )
        return ctx

    def post(self, request, *args, **kwargs):
        if self.role != StaffRole.DIRECTOR:
            messages.error(request, _("Only the director may change the ratings used."))
            return redirect("staff:ratings", slug=self.tournament.slug)
        entry = object_or_404(Entry.objects.filter(tournament=self.tournament), request.POST.get("entry"))
        if request.POST.get("action") == "keep":
            form = KeepRatingForm(request.POST)
            if form.is_valid():
                run_service(
                    request,
                    entry_keep_rating,
                    success=_("The rating of registration is kept for %(name)s.") % {"name": entry.player.name},
                    entry=entry,
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                )
            else:
                form_errors_to_messages(request, form)
        elif request.POST.get("action") == "take":
            run_service(
                request,
                entry_take_registry_rating,
                success=_("%(name)s takes the registry's current rating.") % {"name": entry.player.name},
                entry=entry,
                user=request.user,
            )
        else:
            messages.error(request, _("Unknown action."))
        return redirect("staff:ratings", slug=self.tournament.slug)


class OpeningTablesView(DirectorRequiredMixin, FormView):
    """The opening tables, and loading one from a CSV (same columns as the official tables)."""

    template_name = "staff/opening_tables.html"
    form_class = OpeningTableForm

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["tables"] = OpeningTable.objects.order_by("variant", "code")
        return ctx

    def form_valid(self, form):
        upload = form.cleaned_data["file"]
        if upload.size > MAX_TABLE_BYTES:
            form.add_error("file", _("The file is too large (at most 2 MB)."))
            return self.form_invalid(form)
        ok, tables = run_service(
            self.request,
            opening_table_import,
            data=upload.read(),
            filename=upload.name,
            variant=form.cleaned_data["variant"],
            user=self.request.user,
        )
        if not ok:
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("Opening table loaded: %(tables)s. Choose it in the tournament's settings.")
            % {"tables": ", ".join(t.code for t in tables)},
        )
        return redirect("staff:opening_tables")
