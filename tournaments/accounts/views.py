"""Accepting an invite: a new staff member chooses their password with the one-time link the director gave."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.urls import reverse_lazy
from django.utils.translation import gettext as _


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
