"""Staff: entries (table and export), registering players, rating lists, withdrawals, absences, suspensions,
forbidden pairs."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.generic import FormView, TemplateView
from django_tables2 import RequestConfig

from tournaments.accounts.permissions import TournamentStaffMixin
from tournaments.core.agreement import by_sex
from tournaments.core.errors import ServiceError
from tournaments.core.exports import FORMATS as EXPORT_FORMATS
from tournaments.core.exports import table_download
from tournaments.core.staff_views import form_errors_to_messages, object_or_404, parse_id, run_service
from tournaments.core.tables import EntryTable
from tournaments.entries.forbidden import forbidden_pair_create, forbidden_pair_remove
from tournaments.entries.forms import (
    AbsenceForm,
    EntryForm,
    ForbiddenPairForm,
    RatingForm,
    RatingListForm,
    WithdrawForm,
)
from tournaments.entries.services import (
    absence_announce,
    absence_cancel,
    entries_register_many,
    entry_classify_withdrawal,
    entry_delete,
    entry_rating_change,
    entry_refusal,
    entry_register,
    entry_reinstate,
    entry_update,
    entry_withdraw,
    missed_rounds_note,
    next_round_number,
    player_search,
    rating_list_import_report,
    suspension_confirm,
    suspension_lift,
)
from tournaments.models import Entry, ForbiddenPair, Player, Suspension
from tournaments.models.choices import StaffRole, WithdrawalKind
from tournaments.registry.forms import PlayerForm
from tournaments.registry.ratinglist import MAX_BYTES
from tournaments.registry.selectors import likely_duplicates, match_lines
from tournaments.registry.services import player_create


class EntriesView(TournamentStaffMixin, TemplateView):
    """The entries table, and the three ways to enter players: pick them from a search of the registry (several at
    once), paste a list of CBJD IDs or names, or create a new player (warned about likely duplicates). Every way
    is all or nothing and asks, once rounds are paired, which round the player joins from."""

    template_name = "staff/entries.html"

    def entry_table(self):
        qs = (
            Entry.objects.filter(tournament=self.tournament)
            .select_related("player", "tournament")
            .prefetch_related("categories")
        )
        table = EntryTable(qs)
        RequestConfig(self.request, paginate=False).configure(table)
        return table

    def get(self, request, *args, **kwargs):
        self.table = self.entry_table()
        response = table_download(request, self.table, f"{self.tournament.slug}-inscritos", _("Entries"))
        return response or super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        # a NUL is no text PostgreSQL can search for (issue 25, item 10)
        query = (self.request.GET.get("q") or self.request.POST.get("q") or "")[:100].replace("\x00", "")
        entered = set(self.tournament.entries.values_list("player_id", flat=True))
        found = list(player_search(query))
        suspended = {
            s.player_id: s
            for s in Suspension.objects.filter(
                player__in=found,
                lifted_at__isnull=True,
                national_pending=False,
                start_date__lte=self.tournament.end_date,
                end_date__gte=self.tournament.start_date,
            )
        }
        next_round = next_round_number(self.tournament)
        ctx.update(
            table=getattr(self, "table", None) or self.entry_table(),
            query=query,
            found=[(p, p.pk in entered, suspended.get(p.pk)) for p in found],
            player_form=kwargs.get("player_form") or PlayerForm(),
            duplicates=kwargs.get("duplicates", []),
            paste_text=kwargs.get("paste_text", ""),
            paste_report=kwargs.get("paste_report"),
            open_panel=kwargs.get("open_panel", ""),
            late_rounds=[
                (n, missed_rounds_note(self.tournament, n))
                for n in range(max(next_round, 1), self.tournament.planned_rounds + 1)
            ],
            late_round=kwargs.get("late_round") or next_round,
            rounds_paired=next_round > 1,
            export_formats=EXPORT_FORMATS,
        )
        return ctx


def paste_problem(match, tournament, entered):
    """The sentence for a pasted line that cannot be entered, or ""."""
    if match.problem == "none":
        return _("matches no player in the registry")
    if match.problem == "several":
        return _("matches several players: write the CBJD ID of the right one")
    if match.problem == "repeated":
        return _("the same player as line %(n)s") % {"n": match.detail}
    if match.problem == "too_many":
        return _("more than 500 lines: split the list")
    if match.player is not None:
        return entry_refusal(tournament, match.player, entered, named=False)  # the line shows the name
    return ""


class EntryAddView(EntriesView):
    """POST only: enter players (``action``: ``pick`` the chosen ids, ``paste`` a list, ``create`` a new player).
    On a refusal the entries page comes back with what was typed and the reasons."""

    http_method_names = ["post"]

    def late_round(self):
        return parse_id(self.request.POST.get("late_entry_round"))

    def back(self):
        url = reverse("staff:entries", args=[self.tournament.slug])
        query = (self.request.POST.get("q") or "").strip()
        return redirect(f"{url}?{urlencode({'q': query})}" if query else url)

    def post(self, request, *args, **kwargs):
        # without an action: a player's fields create one, player ids enter them (the older forms' posts)
        action = request.POST.get("action") or ("create" if "name" in request.POST else "pick")
        if action == "paste":
            return self.paste()
        if action == "create":
            return self.create()
        ids = [parse_id(v) for v in request.POST.getlist("player")]
        players = list(Player.objects.filter(pk__in=[i for i in ids if i]))
        ok, entries = run_service(
            request,
            entries_register_many,
            tournament=self.tournament,
            players=players,
            user=request.user,
            late_entry_round=self.late_round(),
        )
        if ok:
            messages.success(request, entered_message(entries))
        return self.back()

    def paste(self):
        text = self.request.POST.get("lines", "")[:50_000]
        entered = set(self.tournament.entries.values_list("player_id", flat=True))
        report = [(m, paste_problem(m, self.tournament, entered)) for m in match_lines(text)]
        if not report:
            messages.error(self.request, _("Paste at least one CBJD ID or name, one per line."))
        elif not any(problem for _m, problem in report):
            ok, entries = run_service(
                self.request,
                entries_register_many,
                tournament=self.tournament,
                players=[m.player for m, _p in report],
                user=self.request.user,
                late_entry_round=self.late_round(),
            )
            if ok:
                messages.success(self.request, entered_message(entries))
                return self.back()
        else:
            bad = sum(1 for _m, problem in report if problem)
            messages.error(
                self.request,
                _("Nobody was entered: %(bad)s of %(n)s lines need a correction (marked below).")
                % {"bad": bad, "n": len(report)},
            )
        return self.render_to_response(
            self.get_context_data(
                paste_text=text, paste_report=report, open_panel="paste", late_round=self.late_round()
            )
        )

    def create(self):
        form = PlayerForm(self.request.POST)
        context = {"player_form": form, "open_panel": "create", "late_round": self.late_round()}
        if not form.is_valid():
            messages.error(self.request, _("The player was not created: correct the marked fields."))
            return self.render_to_response(self.get_context_data(**context))
        data = form.cleaned_data
        duplicates = likely_duplicates(data["name"], data.get("birth_date"))
        if duplicates and not self.request.POST.get("not_a_duplicate"):
            messages.warning(
                self.request,
                _(
                    "The registry may already have this player (same name without accents, or same birth date and "
                    "name). Enter the one listed, or confirm that this is another person."
                ),
            )
            return self.render_to_response(self.get_context_data(duplicates=duplicates, **context))
        try:
            with transaction.atomic():
                player = player_create(user=self.request.user, **data)
                entry_register(
                    tournament=self.tournament,
                    player=player,
                    user=self.request.user,
                    late_entry_round=self.late_round(),
                )
        except ServiceError as exc:
            for message in exc.messages:
                messages.error(self.request, message)
            return self.render_to_response(self.get_context_data(**context))
        messages.success(self.request, entered_one(player))
        return self.back()


def entered_one(player):
    return by_sex(player.sex, _("%(name)s entered."), pgettext("female", "%(name)s entered.")) % {"name": player.name}


def entered_message(entries):
    if len(entries) == 1:
        return entered_one(entries[0].player)
    return _("%(n)s players entered: %(names)s.") % {
        "n": len(entries),
        "names": ", ".join(e.player.name for e in entries),
    }


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
            can_delete=not entry.seats.exists(),
            withdrawal_kinds=WithdrawalKind.choices,
            # after round 1 a rating is corrected only with a reason (issue 35.3)
            rating_form=RatingForm(initial={"rating": entry.rating})
            if self.tournament.facts_locked_at is not None and self.role == StaffRole.DIRECTOR
            else None,
        )
        return ctx

    def _withdraw(self, request, entry, action):
        """Record a withdrawal, or classify one recorded without its kind (an abandonment suspends: art. 10)."""
        if action == "classify":
            form = None
            ok, suspension = run_service(
                request,
                entry_classify_withdrawal,
                success=_("Withdrawal classified."),
                entry=entry,
                user=request.user,
                kind=request.POST.get("kind", ""),
            )
        else:
            form = WithdrawForm(request.POST)
            if not form.is_valid():
                messages.error(request, _("The withdrawal was not recorded: give the reason and confirm it."))
                return form
            ok, suspension = run_service(
                request,
                entry_withdraw,
                success=_("Withdrawal recorded."),
                entry=entry,
                user=request.user,
                from_round=form.cleaned_data["from_round"],
                kind=form.cleaned_data["kind"],
                note=form.cleaned_data["note"],
            )
        if ok and suspension:
            messages.warning(
                request,
                by_sex(
                    entry.player.sex,
                    _(
                        "Abandonment: %(name)s is suspended until %(end)s (regulation art. 10). The director may "
                        "lift the suspension on the suspensions page, giving the reason."
                    ),
                    pgettext(
                        "female",
                        "Abandonment: %(name)s is suspended until %(end)s (regulation art. 10). The director may "
                        "lift the suspension on the suspensions page, giving the reason.",
                    ),
                )
                % {"name": entry.player.name, "end": suspension.end_date.strftime("%d/%m/%Y")},
            )
        return form

    def _update(self, request, entry, action):
        """The entry's categories (and whether the player declared being 21 or older), or its rating corrected
        after round 1 (the director's, with a reason: issue 35.3)."""
        if action == "update":
            form = EntryForm(request.POST, tournament=self.tournament)
            if form.is_valid():
                run_service(
                    request,
                    entry_update,
                    success=_("Entry saved."),
                    entry=entry,
                    user=request.user,
                    categories=form.cleaned_data["categories"],
                    declared_adult=form.cleaned_data["declared_adult"],
                    reason=form.cleaned_data.get("change_reason"),
                )
            return form
        if self.role != StaffRole.DIRECTOR:
            raise PermissionDenied
        form = RatingForm(request.POST)
        if form.is_valid():
            run_service(
                request,
                entry_rating_change,
                success=_("Rating corrected; the change is listed in the homologation report."),
                entry=entry,
                user=request.user,
                rating=form.cleaned_data["rating"],
                reason=form.cleaned_data["change_reason"],
            )
        return form

    def post(self, request, *args, **kwargs):
        entry = self.get_entry()
        action = request.POST.get("action")
        user = request.user
        form = None
        if action in ("update", "rating"):
            form = self._update(request, entry, action)
        elif action in ("withdraw", "classify"):
            form = self._withdraw(request, entry, action)
        elif action == "delete":
            ok, _none = run_service(request, entry_delete, entry=entry, user=user)
            if ok:
                messages.success(request, _("The entry of %(name)s was deleted.") % {"name": entry.player.name})
                return redirect("staff:entries", slug=self.tournament.slug)
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
        if request.POST.get("action") == "confirm":
            run_service(
                request,
                suspension_confirm,
                success=_("Suspension confirmed: it now refuses the player's entries in every tournament."),
                suspension=suspension,
                user=request.user,
            )
        elif request.POST.get("action") != "lift":
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
            pair = object_or_404(ForbiddenPair.objects.filter(tournament=self.tournament), request.POST["remove"])
            run_service(
                request, forbidden_pair_remove, success=_("Forbidden pair removed."), pair=pair, user=request.user
            )
            return redirect("staff:forbidden_pairs", slug=self.tournament.slug)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        d = form.cleaned_data
        try:
            forbidden_pair_create(
                tournament=self.tournament,
                user=self.request.user,
                number_a=d["entry_a"],
                number_b=d["entry_b"],
                from_round=d["from_round"],
                to_round=d["to_round"],
                reason=d["reason"],
            )
        except ServiceError as exc:
            form.add_error("to_round" if exc.code == "rounds" else None, exc)
            return self.form_invalid(form)
        messages.success(self.request, _("Forbidden pair recorded."))
        return redirect("staff:forbidden_pairs", slug=self.tournament.slug)


class RatingListImportView(LoginRequiredMixin, FormView):
    """Importing a rating list rewrites players: the federation's permission (group "Federação", issue 15.5)."""

    template_name = "staff/rating_import.html"

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not request.user.has_perm("tournaments.add_ratinglist"):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    form_class = RatingListForm

    def form_valid(self, form):
        upload = form.cleaned_data["file"]
        if upload.size > MAX_BYTES:  # refused before the file is read into memory
            form.add_error("file", _("The file is too large (at most 10 MB)."))
            return self.form_invalid(form)
        data = upload.read()
        ok, report = run_service(
            self.request,
            rating_list_import_report,
            data=data,
            filename=upload.name,
            user=self.request.user,
            list_date=form.cleaned_data.get("list_date"),
        )
        if not ok:
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("Rating list imported: %(c)s new players, %(u)s updated.") % {"c": report.created, "u": report.updated},
        )
        if report.suspended:
            messages.warning(
                self.request,
                ngettext(
                    "%(n)s suspension read from the “Situação” column: %(names)s.",
                    "%(n)s suspensions read from the “Situação” column: %(names)s.",
                    len(report.suspended),
                )
                % {"n": len(report.suspended), "names": ", ".join(report.suspended[:30])},
            )
        for line, text in report.unread[:30]:
            messages.warning(
                self.request,
                _("Line %(line)s: the standing “%(text)s” was not read as a suspension; check it.")
                % {"line": line, "text": text},
            )
        return redirect("staff:rating_import")
