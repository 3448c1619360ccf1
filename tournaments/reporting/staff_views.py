"""Staff side of reporting: turn it on or off, print the players' cards (PIN and QR), reissue a code, and
approve the boards the players reported (the only way a report becomes a result)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.generic import TemplateView, View

from tournaments.accounts.permissions import TournamentStaffMixin
from tournaments.core.phone_urls import phone_base
from tournaments.core.staff_views import run_service
from tournaments.domain.names import fold
from tournaments.models import Entry, PlayerCode, Round
from tournaments.reporting import services
from tournaments.reporting.selectors import reporting_enabled


class ReportingView(TournamentStaffMixin, TemplateView):
    """The reporting settings and the players' codes (director)."""

    director_only = True
    template_name = "staff/reporting.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        codes = {c.entry_id: c for c in PlayerCode.objects.filter(tournament=self.tournament)}
        entries = (
            Entry.objects.filter(tournament=self.tournament)
            .select_related("player")
            .order_by("pairing_number", "player__search_name")
        )
        ctx["rows"] = [(e, codes.get(e.pk)) for e in entries]
        ctx["enabled"] = reporting_enabled(self.tournament)
        ctx["missing"] = sum(1 for _e, c in ctx["rows"] if c is None)
        ctx["attempts"] = services.code_failures(self.tournament)
        ctx["attempts_total"] = sum(row.failures for row in ctx["attempts"])  # the tournament as a whole
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        action = request.POST.get("action")
        if action in ("on", "off"):
            run_service(
                request,
                services.reporting_set_enabled,
                _("Players may report their results.") if action == "on" else _("Reporting by players turned off."),
                tournament=self.tournament,
                enabled=action == "on",
                user=request.user,
            )
        elif action == "clear_attempts":
            address = request.POST.get("address", "")[:160]
            ok, cleared = run_service(
                request, services.code_failures_reset, tournament=self.tournament, user=request.user, address=address
            )
            if ok:
                messages.success(
                    request,
                    (_("Wrong codes of %(address)s cleared: its phones try again at once.") % {"address": address})
                    if address
                    else _("Wrong codes cleared: every phone tries again at once."),
                )
        elif action == "issue":
            ok, made = run_service(request, services.codes_issue, tournament=self.tournament, user=request.user)
            if ok:
                messages.success(request, ngettext("%(n)d code issued.", "%(n)d codes issued.", made) % {"n": made})
        elif action == "reissue":
            entry = get_object_or_404(Entry, tournament=self.tournament, pk=request.POST.get("entry", "0")[:9] or 0)
            ok, _code = run_service(request, services.code_reissue, entry=entry, user=request.user)
            if ok:
                messages.success(
                    request,
                    _("New code for %(name)s: the old card and the phones signed in with it no longer work.")
                    % {"name": entry.player.name},
                )
        return redirect("staff:reporting", slug=self.tournament.slug)


class CardsView(TournamentStaffMixin, TemplateView):
    """The players' cards to print and cut: name, PIN and the QR that signs the phone in (director)."""

    director_only = True
    template_name = "print/player_cards.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        services.codes_issue(tournament=self.tournament, user=request.user)
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        base = phone_base(self.request)
        codes = PlayerCode.objects.filter(tournament=self.tournament).select_related("entry__player")
        ctx["cards"] = [
            {
                "entry": c.entry,
                "pin": f"{c.pin[:3]}-{c.pin[3:]}",
                "url": base + reverse("public:my_board_card", args=[self.tournament.slug, c.token]),
            }
            for c in sorted(codes, key=lambda c: (c.entry.pairing_number or 10**6, fold(c.entry.player.name)))
        ]
        ctx["sign_in_url"] = base + reverse("public:my_board_sign_in", args=[self.tournament.slug])
        return ctx


class ApproveView(TournamentStaffMixin, View):
    """POST: write the confirmed boards of a round (or the one board named) from the players' reports."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        rnd = get_object_or_404(Round, tournament=self.tournament, number=kwargs["number"])
        board = request.POST.get("board", "")[:9]
        ok, written = run_service(
            request,
            services.reports_approve,
            rnd=rnd,
            user=request.user,
            board_ids=[int(board)] if board.isdigit() else None,
        )
        if ok:
            if written:
                messages.success(
                    request,
                    ngettext(
                        "%(n)d board approved from the players' reports: %(boards)s.",
                        "%(n)d boards approved from the players' reports: %(boards)s.",
                        len(written),
                    )
                    % {"n": len(written), "boards": ", ".join(map(str, written))},
                )
            else:
                messages.info(request, _("No board to approve: none is confirmed by both players."))
        return redirect(reverse("staff:results", args=[self.tournament.slug, rnd.number]) + "#relatos")
