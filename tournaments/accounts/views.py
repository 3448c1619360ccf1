"""Accepting an invite: a new staff member chooses their password with the one-time link the director gave, and is
logged in at once on the tournament they were invited to (issue 28.9). Leaving every device: every session of the
login ends."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views import View

from tournaments.accounts.permissions import visible_tournaments
from tournaments.accounts.sessions import sessions_end_everywhere


def landing_url(user) -> str:
    """Where a staff member lands after choosing their password: their tournament when they work on one alone,
    else the staff home, which lists theirs."""
    slugs = list(visible_tournaments(user).values_list("slug", flat=True)[:2])
    return reverse("staff:tournament", args=[slugs[0]]) if len(slugs) == 1 else reverse("staff:home")


class InviteView(auth_views.PasswordResetConfirmView):
    template_name = "registration/invite.html"
    reset_url_token = "definir-senha"
    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(
            self.request,
            _("Password chosen. You are logged in as %(name)s.") % {"name": form.user.get_username()},
        )
        return response

    def get_success_url(self):
        return landing_url(self.user)


class LogoutEverywhereView(LoginRequiredMixin, View):
    """ "Sair de todos os aparelhos": every session of this login ends, this one too (issue 25, item 15)."""

    http_method_names = ["post"]

    def post(self, request):
        sessions_end_everywhere(user=request.user)
        logout(request)
        messages.success(request, _("You have left every device. Log in again to go on."))
        return redirect("login")


class PasswordChangeView(auth_views.PasswordChangeView):
    """ "Trocar a senha" under /gestao/ (issue 37.2): the venue's director (or any staff login) changes its own
    password, typing the current one; this session stays, the others of the login end."""

    template_name = "staff/password_change.html"
    success_url = reverse_lazy("staff:home")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, "Senha trocada. Nos outros aparelhos, este login precisa entrar de novo.")
        return response
