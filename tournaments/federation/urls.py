"""URLs of the federation's side: the API (``api/federacao/v1/``), the staff pages (``gestao/federacao/``, and
the venue's page of an event), the public season pages (``circuito/``)."""

from django.urls import path

from tournaments.federation import api, api_calendar, rating_views, views

app_name = "federation"
urlpatterns = [
    path("api/federacao/v1/etapas/", api.StageListView.as_view(), name="api_stages"),
    path("api/federacao/v1/etapas/<slug:slug>/", api.StageDetailView.as_view(), name="api_stage"),
    path("api/federacao/v1/cadastro/", api.RegistryView.as_view(), name="api_registry"),
    path("api/federacao/v1/calendario/", api_calendar.CalendarView.as_view(), name="api_calendar"),
    path(
        "api/federacao/v1/calendario/<str:identifier>/",
        api_calendar.CalendarStageView.as_view(),
        name="api_calendar_stage",
    ),
    path(
        "api/federacao/v1/calendario/<str:identifier>/impressoes/",
        api_calendar.FingerprintView.as_view(),
        name="api_fingerprints",
    ),
    path("gestao/federacao/calendario/", views.CalendarView.as_view(), name="calendar"),
    path("gestao/federacao/credenciais/", views.CredentialsView.as_view(), name="credentials"),
    path("gestao/federacao/rating/", rating_views.RatingListsView.as_view(), name="ratings"),
    path("gestao/federacao/rating/<str:pk>/lista/", rating_views.RatingListDownloadView.as_view(), name="rating_list"),
    path("gestao/federacao/envios/", views.QueueView.as_view(), name="queue"),
    path("gestao/federacao/tentativas/", views.LoginAttemptsView.as_view(), name="login_attempts"),
    path("gestao/federacao/edicoes/", views.EditionsView.as_view(), name="editions"),
    path("gestao/federacao/envios/<str:pk>/", views.SubmissionView.as_view(), name="submission"),
    path("gestao/t/<slug:slug>/federacao/", views.VenueSubmissionView.as_view(), name="venue"),
    path("gestao/cadastro/federacao/", views.RegistrySyncView.as_view(), name="registry_sync"),
    path("circuito/", views.SeasonIndexView.as_view(), name="seasons"),
    path("circuito/<int:year>/", views.SeasonView.as_view(), name="season"),
]
