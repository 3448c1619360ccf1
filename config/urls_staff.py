"""Staff pages, under /gestao/. Every view needs a login; tournament pages need a role on that tournament."""

from django.urls import path

from tournaments.accounts.views import PasswordChangeView
from tournaments.categories import views as categories
from tournaments.core import converters  # noqa: F401  (registers <num:...>)
from tournaments.entries import views as entries
from tournaments.games import views as games
from tournaments.homologation import views as reports
from tournaments.registry import suspension_views as suspensions
from tournaments.registry import views as registry
from tournaments.reporting import staff_views as reporting
from tournaments.rounds import repair_views as repair
from tournaments.rounds import views as rounds
from tournaments.setup import regulation_views as regulation
from tournaments.setup import views as tournaments

app_name = "staff"
urlpatterns = [
    path("", tournaments.HomeView.as_view(), name="home"),
    path("senha/", PasswordChangeView.as_view(), name="password_change"),
    path("novo/", tournaments.TournamentCreateView.as_view(), name="tournament_create"),
    path("importar/", reports.TournamentImportView.as_view(), name="tournament_import"),
    path("lista-de-rating/", entries.RatingListImportView.as_view(), name="rating_import"),
    path("cadastro/", registry.RegistryView.as_view(), name="registry"),
    path("cadastro/<num:player>/", registry.PlayerView.as_view(), name="player"),
    path("cadastro/suspensoes/", suspensions.NationalSuspensionsView.as_view(), name="national_suspensions"),
    path("tabelas-de-aberturas/", regulation.OpeningTablesView.as_view(), name="opening_tables"),
    path("t/<slug:slug>/", tournaments.DashboardView.as_view(), name="tournament"),
    path("t/<slug:slug>/configuracoes/", tournaments.SettingsView.as_view(), name="settings"),
    path("t/<slug:slug>/equipe/", tournaments.StaffRolesView.as_view(), name="roles"),
    path("t/<slug:slug>/auditoria/", tournaments.AuditView.as_view(), name="audit"),
    path("t/<slug:slug>/inscritos/", entries.EntriesView.as_view(), name="entries"),
    path("t/<slug:slug>/inscritos/adicionar/", entries.EntryAddView.as_view(), name="entry_add"),
    path("t/<slug:slug>/inscritos/<num:pk>/", entries.EntryView.as_view(), name="entry"),
    path("t/<slug:slug>/categorias/", categories.CategoriesView.as_view(), name="categories"),
    path("t/<slug:slug>/categorias/<num:category>/", categories.CategoryView.as_view(), name="category"),
    path("t/<slug:slug>/suspensoes/", entries.SuspensionsView.as_view(), name="suspensions"),
    path("t/<slug:slug>/ratings/", regulation.RatingsView.as_view(), name="ratings"),
    path("t/<slug:slug>/pares-proibidos/", entries.ForbiddenPairsView.as_view(), name="forbidden_pairs"),
    path("t/<slug:slug>/emparceirar/", rounds.RoundPairView.as_view(), name="round_pair"),
    path("t/<slug:slug>/emparceirar/<num:job>/", rounds.PairingJobView.as_view(), name="pairing_job"),
    path(
        "t/<slug:slug>/emparceirar/<num:job>/estado/", rounds.PairingJobStatusView.as_view(), name="pairing_job_status"
    ),
    path("t/<slug:slug>/rodada/<num:number>/", rounds.RoundView.as_view(), name="round"),
    path("t/<slug:slug>/rodada/<num:number>/editar/", rounds.RoundEditView.as_view(), name="round_edit"),
    path("t/<slug:slug>/rodada/<num:number>/resultados/", rounds.ResultsView.as_view(), name="results"),
    path(
        "t/<slug:slug>/rodada/<num:number>/emparceirar-de-novo/",
        repair.RoundRepairView.as_view(),
        name="round_repair",
    ),
    path("t/<slug:slug>/rodada/<num:number>/relatos/aprovar/", reporting.ApproveView.as_view(), name="reports_approve"),
    path("t/<slug:slug>/relatos/", reporting.ReportingView.as_view(), name="reporting"),
    path("t/<slug:slug>/relatos/cartoes/", reporting.CardsView.as_view(), name="player_cards"),
    path(
        "t/<slug:slug>/rodada/<num:number>/mesa/<num:board>/partida/<num:game>/", games.GameView.as_view(), name="game"
    ),
    path("t/<slug:slug>/partidas.pdn", games.PdnExportView.as_view(), name="pdn_export"),
    path("t/<slug:slug>/partidas/importar/", games.PdnImportView.as_view(), name="pdn_import"),
    path("t/<slug:slug>/classificacao/", reports.StandingsView.as_view(), name="standings"),
    path("t/<slug:slug>/homologacao/", reports.HomologationView.as_view(), name="homologation"),
    path("t/<slug:slug>/arquivos/<str:what>/", reports.DownloadView.as_view(), name="download"),
]
