"""Staff: a tournament's categories, their rules, the entries each holds, its average and qualification spots."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.accounts.permissions import TournamentStaffMixin
from tournaments.categories.forms import REASON_LABEL, CategoryForm
from tournaments.categories.services import PRESETS, categories_reapply, category_delete, category_preset, category_save
from tournaments.core.staff_views import object_or_404, run_service
from tournaments.homologation.report import homologation_check
from tournaments.models import Category
from tournaments.models.choices import StaffRole
from tournaments.models.tournament import stage_locked


def rule_text(category, year):
    parts = []
    if category.sex == "F":
        parts.append(_("women"))
    elif category.sex == "M":
        parts.append(_("men"))
    if category.min_age is not None and category.max_age is not None:
        parts.append(
            _("%(min)s to %(max)s years old on 31/12/%(year)s")
            % {"min": category.min_age, "max": category.max_age, "year": year}
        )
    elif category.max_age is not None:
        parts.append(_("at most %(max)s years old on 31/12/%(year)s") % {"max": category.max_age, "year": year})
    elif category.min_age is not None:
        parts.append(_("%(min)s or older on 31/12/%(year)s") % {"min": category.min_age, "year": year})
    return ", ".join(parts) or _("everyone")


class CategoriesView(TournamentStaffMixin, TemplateView):
    """Everyone on the staff sees the categories; the director adds, changes and removes them."""

    template_name = "staff/categories.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        t = self.tournament
        st = homologation_check(t).standings
        models = {c.code: c for c in Category.objects.filter(tournament=t)}
        rows = []
        for cs in st.categories:
            q = cs.qualification
            category = models[cs.code]
            rows.append(
                {
                    "category": category,
                    "rule": rule_text(category, t.start_date.year),
                    "entries": q.entries,
                    "counted": q.counted,
                    "average": q.average,
                    "spots": q.spots,
                    "note": q.note,
                    # nobody leads before a round counts (issue 28.16): every rank would be 1
                    "leaders": [(r.rank, r.row.name) for r in cs.rows[: max(q.spots, 1)]]
                    if st.rounds_completed
                    else [],
                }
            )
        existing = {c.category.code for c in st.categories}
        locked = stage_locked(t.pk)
        ctx.update(
            rows=rows,
            form=kwargs.get("form") or CategoryForm(tournament=t),
            # once round 1 is published a category is created with a reason, on the form (issue 35.3)
            presets=[] if locked else [(code, p["name"]) for code, p in PRESETS.items() if code not in existing],
            year=t.start_date.year,
            locked=locked,
            reason_label=REASON_LABEL,
        )
        return ctx

    def post(self, request, *args, **kwargs):
        if self.role != StaffRole.DIRECTOR:
            raise PermissionDenied
        action = request.POST.get("action")
        if action == "preset":
            ok, result = run_service(
                request,
                category_preset,
                tournament=self.tournament,
                user=request.user,
                code=request.POST.get("code"),
                reason=request.POST.get("change_reason"),
            )
            if ok:
                messages.success(request, created_message(*result))
        elif action == "reapply":
            run_service(
                request,
                categories_reapply,
                success=_("The rules were applied again to every entry."),
                tournament=self.tournament,
                user=request.user,
                reason=request.POST.get("change_reason"),
            )
        else:
            form = CategoryForm(request.POST, tournament=self.tournament, instance=Category(tournament=self.tournament))
            if not form.is_valid():
                messages.error(request, _("The category was not saved: correct the marked fields."))
                return self.render_to_response(self.get_context_data(form=form))
            ok, result = run_service(
                request,
                category_save,
                tournament=self.tournament,
                user=request.user,
                reason=form.cleaned_data.get("change_reason"),
                **form.cleaned_data,
            )
            if not ok:
                return self.render_to_response(self.get_context_data(form=form))
            messages.success(request, created_message(*result))
        return redirect("staff:categories", slug=self.tournament.slug)


def created_message(category, count):
    return _("Category %(name)s saved: %(n)s entries follow its rule.") % {"name": category.name, "n": count}


class CategoryView(TournamentStaffMixin, TemplateView):
    template_name = "staff/category.html"
    director_only = True

    def get_category(self):
        return object_or_404(Category.objects.filter(tournament=self.tournament), self.kwargs["category"])

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        category = self.get_category()
        ctx.update(
            category=category,
            form=kwargs.get("form") or CategoryForm(tournament=self.tournament, instance=category),
            year=self.tournament.start_date.year,
            locked=stage_locked(self.tournament.pk),
            reason_label=REASON_LABEL,
        )
        return ctx

    def post(self, request, *args, **kwargs):
        category = self.get_category()
        if request.POST.get("action") == "delete":
            run_service(
                request,
                category_delete,
                success=_("Category %(name)s removed.") % {"name": category.name},
                category=category,
                user=request.user,
                reason=request.POST.get("change_reason"),
            )
            return redirect("staff:categories", slug=self.tournament.slug)
        form = CategoryForm(request.POST, tournament=self.tournament, instance=Category.objects.get(pk=category.pk))
        if not form.is_valid():
            messages.error(request, _("The category was not saved: correct the marked fields."))
            return self.render_to_response(self.get_context_data(form=form))
        ok, result = run_service(
            request,
            category_save,
            tournament=self.tournament,
            user=request.user,
            category=Category.objects.get(pk=category.pk),
            reason=form.cleaned_data.get("change_reason"),
            **form.cleaned_data,
        )
        if not ok:
            return self.render_to_response(self.get_context_data(form=form))
        messages.success(request, created_message(*result))
        return redirect("staff:categories", slug=self.tournament.slug)
