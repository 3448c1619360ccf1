"""Accepting an invite: a new staff member chooses their password with the one-time link the director gave.
Leaving every device: every session of the login ends."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views import View

from tournaments.accounts.sessions import sessions_end_everywhere


class InviteView(auth_views.PasswordResetConfirmView):
    template_name = "registration/invite.html"
    success_url = reverse_lazy("login")
    reset_url_token = "definir-senha"

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(
            self.request,
            _("Password chosen. Log in with the login %(name)s.") % {"name": form.user.get_username()},
        )
        return response


class LogoutEverywhereView(LoginRequiredMixin, View):
    """ "Sair de todos os aparelhos": every session of this login ends, this one too (issue 25, item 15)."""

    http_method_names = ["post"]

    def post(self, request):
        sessions_end_everywhere(user=request.user)
        logout(request)
        messages.success(request, _("You have left every device. Log in again to go on."))
        return redirect("login")
