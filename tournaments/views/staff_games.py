"""Staff: attaching a game's moves (PDN) and exporting every recorded game of the tournament."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from ..models import Game
from ..permissions import TournamentStaffMixin
from ..selectors import rounds_with_boards
from ..services.games import game_attach_pdn, start_fen_for, tournament_pdn
from .staff_helpers import run_service


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
        ctx.update(game=game, white=white, black=black, pdn=kwargs.get("pdn", game.pdn), start_fen=start_fen_for(game))
        return ctx

    def post(self, request, *args, **kwargs):
        game = self.get_game()
        pdn = request.POST.get("pdn", "")
        ok, _g = run_service(request, game_attach_pdn, success=_("Moves saved."), game=game, pdn=pdn, user=request.user)
        if ok:
            return redirect("staff:round", slug=self.tournament.slug, number=game.board.round.number)
        return self.render_to_response(self.get_context_data(pdn=pdn), status=400)


class PdnExportView(TournamentStaffMixin, TemplateView):
    def get(self, request, *args, **kwargs):
        text = tournament_pdn(self.tournament, rounds_with_boards(self.tournament))
        response = HttpResponse(text, content_type="application/x-draughts-pdn; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{self.tournament.slug}.pdn"'
        return response
