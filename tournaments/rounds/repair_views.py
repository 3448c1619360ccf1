"""Staff: undo the round paired on scores a correction has changed, and pair it again (rounds.repair)."""

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.accounts.permissions import TournamentStaffMixin
from tournaments.core.staff_views import run_service
from tournaments.rounds.repair import round_repair
from tournaments.rounds.views import job_outcome


class RoundRepairView(TournamentStaffMixin, View):
    """Undo round ``number`` (the last, without results) and pair it again on the corrected scores, as a draft
    to review, draw the opening of and publish. Back to the corrected round's results when refused."""

    http_method_names = ["post"]
    pairing_only = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        number = int(kwargs["number"])
        slug = self.tournament.slug
        back = (
            reverse("staff:results", args=[slug, number - 1])
            if number > 1
            else reverse("staff:tournament", args=[slug])
        )
        if request.POST.get("confirm") != "1":
            messages.error(
                request,
                _("Nothing was undone: tick the box that confirms undoing the pairing of round %(n)s.") % {"n": number},
            )
            return redirect(back)
        ok, job = run_service(request, round_repair, tournament=self.tournament, number=number, user=request.user)
        if not ok:
            return redirect(back)
        messages.info(request, _("Round %(n)s undone and paired again on the corrected scores.") % {"n": number})
        return job_outcome(request, self.tournament, job)
