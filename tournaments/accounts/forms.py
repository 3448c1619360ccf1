"""The invite's form: the new staff member's login and password (issue 34.4)."""

import copy
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import SetPasswordForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tournaments.accounts.services import shown_login
from tournaments.setup.forms import StaffAccountForm


class InviteForm(SetPasswordForm):
    """The login (the one the director asked for, to keep or change) and the password. The director's form never
    says whether a login exists; the one who accepts the invite is told, here, when the login is taken."""

    field_order = ["login", "new_password1", "new_password2"]

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.fields["login"] = copy.deepcopy(StaffAccountForm.base_fields["username"])  # the director's rules
        self.fields["login"].initial = shown_login(user) if user is not None else ""  # None: a link not valid
        self.order_fields(self.field_order)

    def clean_login(self) -> str:
        login = self.cleaned_data["login"].strip()
        if get_user_model().objects.filter(username__iexact=login).exclude(pk=self.user.pk).exists():
            raise ValidationError(_("The login “%(name)s” is taken; choose another one.") % {"name": login})
        return login

    def save(self, commit: bool = True) -> Any:
        self.user.username = self.cleaned_data["login"]
        return super().save(commit)
