from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournaments.accounts.views import InviteView, LoginForm, LoginView, LogoutEverywhereView

admin.site.login_form = LoginForm  # the admin's login says how long a waiting login waits

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("entrar/", LoginView.as_view(), name="login"),
    path("sair/", auth_views.LogoutView.as_view(), name="logout"),
    path("sair/de-todos-os-aparelhos/", LogoutEverywhereView.as_view(), name="logout_everywhere"),
    path("convite/<uidb64>/<token>/", InviteView.as_view(), name="invite"),
    path("", include("tournaments.federation.urls")),
    path("gestao/", include("config.urls_staff")),
    path("", include("tournaments.public.urls")),
]

handler400 = "tournaments.core.error_pages.bad_request"
