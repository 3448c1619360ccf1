"""Staff: standings with every complete round, the homologation check, and the files (workbook, interchange
JSON, TRF, cross table); importing a tournament from a file."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from tournaments.accounts.permissions import DirectorRequiredMixin, TournamentStaffMixin
from tournaments.core.errors import ServiceError
from tournaments.core.exports import FORMATS as EXPORT_FORMATS
from tournaments.core.exports import XLSX_TYPE, download
from tournaments.core.labels import tiebreak_label
from tournaments.core.staff_views import run_service
from tournaments.homologation.forms import TournamentFileForm
from tournaments.homologation.report import homologation_check
from tournaments.homologation.services import homologation_mark_exported, results_complete
from tournaments.homologation.workbook import homologation_xlsx
from tournaments.interchange import (
    MAX_FILE_BYTES,
    ImportOptions,
    Upload,
    crosstable_sp_file,
    export_json,
    export_trf,
    import_upload,
    notices,
)
from tournaments.models.choices import RoundStatus, StaffRole
from tournaments.standings.ratings import by_number, snapshot_estimates
from tournaments.standings.readings import order_reason_text, regulation_readings, spot_note_text

XLSX = XLSX_TYPE


def attachment(content, content_type, filename):
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class StandingsView(TournamentStaffMixin, TemplateView):
    """Standings over every complete round, drafts included (what the public sees once they are published): the
    table first, the tie groups' exceptions and the regulation's readings below it (folded); print and export."""

    template_name = "staff/standings.html"

    def standings(self):
        report = homologation_check(self.tournament)  # every complete round, drafts included; the spots
        st = report.standings
        code = (self.request.GET.get("categoria") or "").upper()
        category = next((c for c in st.categories if c.code == code), None)
        if code and category is None:
            raise Http404(_("No such category."))
        # each row's rating estimate (issue 40.2): the edition's method over the same snapshot
        change = by_number(report.snapshot, snapshot_estimates(report.snapshot))
        if category is not None:  # the overall order filtered to the category, its own places
            rows = [(r.row, st.cells(r.row), r.rank, change[r.row.id]) for r in category.rows]
        else:
            rows = [(row, st.cells(row), row.rank, change[row.id]) for row in st.rows]
        return report, category, rows

    def get(self, request, *args, **kwargs):
        fmt = request.GET.get("_export")
        if fmt not in EXPORT_FORMATS:
            return super().get(request, *args, **kwargs)
        report, category, rows = self.standings()
        st = report.standings
        headers = ["#", _("No."), _("Name"), _("Points"), *[tiebreak_label(k) for k in st.columns()], "Rtg +/-"]
        lines = [
            [int(rank) if rank.isdigit() else rank, row.id, row.name, row.points, *cells, rtg.change_shown]
            for row, cells, rank, rtg in rows
        ]
        title = category.category.name if category else _("Standings")
        name = f"{self.tournament.slug}-classificacao" + (f"-{category.code.lower()}" if category else "")
        return download(fmt, name, title, headers, lines)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        report, category, rows = self.standings()
        st = report.standings
        ctx.update(
            standings=st,
            category=category,
            columns=[tiebreak_label(k) for k in st.columns()],
            rows=rows,
            export_formats=EXPORT_FORMATS,
            tie_groups=[
                {"points": g.points, "ids": g.ids, "reason": order_reason_text(g.reasons)}
                for g in st.tie_groups
                if g.reasons
            ],
            categories=st.categories,
            readings=regulation_readings(self.tournament),
            # "(drafts included)" only when a round the standings count is still a draft
            drafts=[
                r.number
                for r in report.snapshot.rounds
                if r.status == RoundStatus.DRAFT and r.number <= st.rounds_completed
            ],
        )
        return ctx


class HomologationView(TournamentStaffMixin, TemplateView):
    """GET: the report (reads only). POST (director): record that the workbook was sent to the federation."""

    template_name = "staff/homologation.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        report = homologation_check(self.tournament)
        st = report.standings

        def name_of(pid):
            return f"{st.entries[pid].player.name} (nº {pid})"

        categories = []
        for cat in st.categories:
            q = cat.qualification
            categories.append(
                {
                    "q": q,
                    "name": cat.category.name,
                    "qualified": [name_of(pid) for pid in q.qualified],
                    "notes": [spot_note_text(n, name_of, tiebreak_label) for n in q.notes],
                }
            )
        ctx.update(
            report=report,
            categories=categories,
            readings=regulation_readings(self.tournament),
            participation=st.participation,
            results_complete=results_complete(self.tournament),
        )
        return ctx

    def post(self, request, *args, **kwargs):
        if self.role != StaffRole.DIRECTOR:
            raise PermissionDenied
        if request.POST.get("action") != "mark_exported":
            messages.error(request, _("Unknown action."))
        else:
            run_service(
                request,
                homologation_mark_exported,
                success=_("Recorded: the homologation workbook was sent to the federation now."),
                tournament=self.tournament,
                user=request.user,
            )
        # back where the workbook is, its state now said there
        return redirect(reverse("staff:homologation", args=[self.tournament.slug]) + "#workbook")


class DownloadView(TournamentStaffMixin, TemplateView):
    """The tournament's files: ?what=xlsx (homologation workbook), json, trf or crosstable."""

    def get(self, request, *args, **kwargs):
        t, what = self.tournament, kwargs["what"]
        try:
            if what == "xlsx":
                if self.role != StaffRole.DIRECTOR:
                    raise PermissionDenied
                return attachment(homologation_xlsx(t), XLSX, f"{t.slug}-homologacao.xlsx")
            if what == "json":
                return attachment(export_json(t), "application/json; charset=utf-8", f"{t.slug}.json")
            if what == "trf":
                return attachment(export_trf(t), "text/plain; charset=utf-8", f"{t.slug}.trf")
            if what == "crosstable":
                return attachment(
                    crosstable_sp_file(t, public=False),
                    "text/tab-separated-values; charset=windows-1252",
                    f"{t.slug}-tabela-cruzada.txt",
                )
        except ServiceError as exc:
            for m in exc.messages:
                messages.error(request, m)
            return redirect("staff:homologation", slug=t.slug)
        from django.http import Http404

        raise Http404


class TournamentImportView(DirectorRequiredMixin, FormView):
    template_name = "staff/import.html"
    form_class = TournamentFileForm

    def form_valid(self, form):
        upload = form.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            form.add_error("file", _("The file is too large (at most 20 MB)."))
            return self.form_invalid(form)
        ok, imported = run_service(
            self.request,
            import_upload,
            upload=Upload(upload.read(), upload.name),
            options=ImportOptions(
                rounds=form.cleaned_data.get("rounds"),
                slug=form.cleaned_data.get("slug") or None,
                follow_declared_points=form.cleaned_data.get("follow_declared_points", False),
                leave_out_round_in_progress=form.cleaned_data.get("leave_out_round_in_progress", False),
            ),
            user=self.request.user,
            success=_("Tournament imported."),
        )
        if not ok:
            return self.form_invalid(form)
        for message in warning_groups(imported.warnings):
            messages.warning(self.request, message)
        return redirect("staff:tournament", slug=imported.tournament.slug)


def warning_groups(warnings):
    """Every warning of an import, one folded list per consequence, what changes points, pairings or rights first
    (issue 38.2): the groups that change points or pairings open, the others closed with their count."""
    out = []
    for consequence, heading, items in notices.grouped(warnings):
        opened = consequence in (notices.POINTS, notices.PAIRINGS)
        out.append(
            format_html(
                '<details class="import-warnings" data-consequence="{}"{}><summary>{}</summary><ul>{}</ul></details>',
                consequence,
                mark_safe(" open") if opened else "",
                heading,
                format_html_join("", "<li>{}</li>", ((w,) for w in items)),
            )
        )
    return out
