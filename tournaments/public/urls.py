"""Public, read-only pages (GET only, no login). Paths are in Portuguese: they are what players type and share."""

from django.urls import path

from tournaments.core import converters  # noqa: F401  (registers <num:...>: at most 9 digits)
from tournaments.public import live, printing
from tournaments.public import views as public
from tournaments.reporting import views as reporting

app_name = "public"
urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.tournament, name="tournament"),
    path("t/<slug:slug>/versao/", live.version, name="live_version"),
    # "Minha mesa": a player reports the board's result with the private code of the player's card (no account).
    path("t/<slug:slug>/minha-mesa/", reporting.board, name="my_board"),
    path("t/<slug:slug>/minha-mesa/entrar/", reporting.sign_in, name="my_board_sign_in"),
    path("t/<slug:slug>/minha-mesa/sair/", reporting.sign_out, name="my_board_sign_out"),
    path("t/<slug:slug>/minha-mesa/c/<str:token>/", reporting.card_link, name="my_board_card"),
    path("t/<slug:slug>/emparceiramento/", public.pairings, name="pairings"),
    path("t/<slug:slug>/emparceiramento/alfabetico/", public.pairings_alpha, name="pairings_alpha"),
    path("t/<slug:slug>/rodadas/", public.rounds, name="rounds"),
    path("t/<slug:slug>/rodadas/<num:number>/", public.round_detail, name="round"),
    path("t/<slug:slug>/rodadas/<num:number>/alfabetico/", public.round_alpha, name="round_alpha"),
    path("t/<slug:slug>/rodadas/<num:number>/abertura/", public.opening, name="opening"),
    path("t/<slug:slug>/rodadas/<num:number>/mesas/<num:board_number>/", public.board, name="board"),
    path("t/<slug:slug>/classificacao/", public.standings, name="standings"),
    path("t/<slug:slug>/classificacao/<str:category>/", public.standings, name="standings_category"),
    path("t/<slug:slug>/tabela-cruzada/", public.crosstable, name="crosstable"),
    path("t/<slug:slug>/jogadores/", public.players, name="players"),
    path("t/<slug:slug>/jogadores/<num:entry_id>/", public.player, name="player"),
    path("t/<slug:slug>/telao/classificacao/", public.screen, {"what": "standings"}, name="screen_standings"),
    path("t/<slug:slug>/telao/emparceiramento/", public.screen, {"what": "pairings"}, name="screen_pairings"),
    # Printing (A4, browser print): published rounds; a tournament's staff may also print a draft.
    path("t/<slug:slug>/imprimir/", printing.index, name="print_index"),
    path("t/<slug:slug>/imprimir/rodadas/<num:number>/mesas/", printing.pairings, name="print_pairings"),
    path(
        "t/<slug:slug>/imprimir/rodadas/<num:number>/alfabetico/", printing.pairings_alpha, name="print_pairings_alpha"
    ),
    path("t/<slug:slug>/imprimir/rodadas/<num:number>/sumulas/", printing.slips, name="print_slips"),
    path("t/<slug:slug>/imprimir/classificacao/", printing.standings, name="print_standings"),
    path("t/<slug:slug>/imprimir/tabela-cruzada/", printing.crosstable, name="print_crosstable"),
    path("t/<slug:slug>/imprimir/qr/", printing.qr, name="print_qr"),
]
