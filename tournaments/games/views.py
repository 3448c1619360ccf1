"""Staff: attaching a game's moves (PDN) and exporting every recorded game of the tournament."""

from urllib.parse import urlsplit

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

import draughts
from tournaments.accounts.permissions import TournamentStaffMixin
from tournaments.core.errors import ServiceError
from tournaments.core.staff_views import run_service
from tournaments.games.services import RuleConflict, game_attach_pdn, games_import_pdn, start_fen_for, tournament_pdn
from tournaments.models import Game
from tournaments.rounds.scoring import entry_label
from tournaments.rounds.selectors import rounds_with_boards


class GameView(TournamentStaffMixin, TemplateView):
    template_name = "staff/game.html"

    def get_game(self):
        return get_object_or_404(
            Game.objects.select_related("board__round", "board__opening", "board__round__opening"),
            board__round__tournament=self.tournament,
            board__round__number=self.kwargs["number"],
            board__number=self.kwargs["board"],
            number=self.kwargs["game"],
        )

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        game = self.get_game()
        first, second = (None, None)
        seats = {s.side: s.entry for s in game.board.seats.select_related("entry__player")}
        first, second = seats.get("first"), seats.get("second")
        white, black = (first, second) if game.number == 1 else (second, first)
        ctx.update(
            game=game,
            white=white,
            black=black,
            first=first,
            second=second,
            result=entry_label(game.number, game.result, self.tournament.is_micro_match) or "—",
            pdn=kwargs.get("pdn", game.pdn),
            start_fen=start_fen_for(game),
            conflict=kwargs.get("conflict", False),
        )
        return ctx

    def post(self, request, *args, **kwargs):
        game = self.get_game()
        pdn = request.POST.get("pdn", "")
        try:
            game_attach_pdn(game=game, pdn=pdn, user=request.user, confirm=request.POST.get("confirm") == "1")
        except RuleConflict as exc:  # the arbiter sees the conflict and decides
            for message in exc.messages:
                messages.warning(request, message)
            return self.render_to_response(self.get_context_data(pdn=pdn, conflict=True), status=409)
        except ServiceError as exc:
            for message in exc.messages:
                messages.error(request, message)
            return self.render_to_response(self.get_context_data(pdn=pdn), status=400)
        messages.success(request, _("Moves saved."))
        return redirect("staff:round", slug=self.tournament.slug, number=game.board.round.number)


class PdnExportView(TournamentStaffMixin, TemplateView):
    """Every recorded game of the tournament, or of one round (``?rodada=N``), as one PDN file. With no game
    recorded there is no file (an empty download looks like a broken one): the page says so instead (issue 28.11)."""

    def get(self, request, *args, **kwargs):
        number = request.GET.get("rodada", "")
        one = int(number) if number.isdigit() else None
        text = tournament_pdn(self.tournament, rounds_with_boards(self.tournament, number=one))
        if not text.strip():
            if one is not None:
                messages.info(
                    request, _("No game recorded in round %(n)s: there is no PDN file to download.") % {"n": one}
                )
            else:
                messages.info(request, _("No game recorded in this tournament: there is no PDN file to download."))
            return redirect(self.back(request, one))
        name = self.tournament.slug + (f"-rodada-{one}" if one is not None else "")
        response = HttpResponse(text, content_type="application/x-draughts-pdn; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.pdn"'
        return response

    def back(self, request, number):
        """The page the link was on: the round's page for one round, else the referring staff page of this
        tournament, else its dashboard."""
        if number is not None and self.tournament.rounds.filter(number=number).exists():
            return reverse("staff:round", args=[self.tournament.slug, number])
        referer = request.META.get("HTTP_REFERER", "")
        home = reverse("staff:tournament", args=[self.tournament.slug])
        if url_has_allowed_host_and_scheme(referer, {request.get_host()}) and urlsplit(referer).path.startswith(home):
            return urlsplit(referer).path
        return home


class PdnImportView(TournamentStaffMixin, TemplateView):
    """A PDN file of many games, each its own record, attached to the games its Round tags name (all or nothing)."""

    template_name = "staff/pdn_import.html"

    def post(self, request, *args, **kwargs):
        upload = request.FILES.get("file")
        if upload is None:
            messages.error(request, _("Choose a PDN file."))
            return self.render_to_response(self.get_context_data(), status=400)
        if upload.size > draughts.MAX_FILE_CHARS:
            messages.error(request, _("The file is too large (at most 5 MB)."))
            return self.render_to_response(self.get_context_data(), status=400)
        ok, saved = run_service(
            request,
            games_import_pdn,
            tournament=self.tournament,
            text=draughts.decode_pdn(upload.read()),
            user=request.user,
            confirm=request.POST.get("confirm") == "1",
        )
        if not ok:
            return self.render_to_response(self.get_context_data(), status=400)
        messages.success(request, _("%(n)s game records saved.") % {"n": len(saved)})
        for line in saved.unplaced:
            messages.warning(request, line)
        return redirect("staff:tournament", slug=self.tournament.slug)
