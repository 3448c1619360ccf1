"""Accepting an invite: a new staff member chooses their password with the one-time link the director gave, and is
logged in at once on the tournament they were invited to (issue 28.9). Leaving every device: every session of the
login ends."""

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from tournaments.accounts.forms import InviteForm
from tournaments.accounts.lockout import remember_device
from tournaments.accounts.permissions import visible_tournaments
from tournaments.accounts.sessions import sessions_end_everywhere


class LoginForm(AuthenticationForm):
    """Django's login form; while the login, the address or the device waits (``lockout``), it says how long."""

    def get_invalid_login_error(self):
        wait = getattr(self.request, "login_wait", 0)
        if not wait:
            return super().get_invalid_login_error()
        return ValidationError(
            ngettext(
                "Too many wrong passwords. Try again in %(n)d second. From a device where you logged in before, "
                "the right password gets in at once.",
                "Too many wrong passwords. Try again in %(n)d seconds. From a device where you logged in before, "
                "the right password gets in at once.",
                wait,
            )
            % {"n": wait},
            code="wait",
        )


class LoginView(auth_views.LoginView):
    """The login page: a successful login makes this browser a known device of that login (``lockout``); a
    password refused unread (waiting) answers 429 with Retry-After."""

    authentication_form = LoginForm

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        waits = [e for e in ctx["form"].non_field_errors().as_data() if e.code == "wait"]
        ctx["login_wait"] = waits[0].messages[0] if waits else ""
        return ctx

    def form_valid(self, form):
        response = super().form_valid(form)
        remember_device(self.request, response, form.get_user())
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        wait = getattr(self.request, "login_wait", 0)
        if wait:
            response.status_code = 429
            response["Retry-After"] = str(wait)
        return response


def landing_url(user) -> str:
    """Where a staff member lands after choosing their password: their tournament when they work on one alone,
    else the staff home, which lists theirs."""
    slugs = list(visible_tournaments(user).values_list("slug", flat=True)[:2])
    return reverse("staff:tournament", args=[slugs[0]]) if len(slugs) == 1 else reverse("staff:home")


class InviteView(auth_views.PasswordResetConfirmView):
    template_name = "registration/invite.html"
    reset_url_token = "definir-senha"
    post_reset_login = True
    post_reset_login_backend = "tournaments.accounts.lockout.ThrottledModelBackend"
    form_class = InviteForm

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
