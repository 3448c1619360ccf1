"""Staff accounts made by a tournament's director (issue 14): a login for an arbiter, with an invite link that
lets them choose their own password once. Nobody types or sends a password."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit
from tournaments.core.errors import ServiceError
from tournaments.models import Tournament, TournamentRole


def invite_path(user: Any) -> str:
    """The one-time link to choose a password: valid for PASSWORD_RESET_TIMEOUT (3 days), and spent once the
    password is set (the token depends on the password and the last login)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("invite", args=[uid, default_token_generator.make_token(user)])


@transaction.atomic
def staff_account_create(
    *, tournament: Tournament, user: Actor, full_name: str, username: str, role: str
) -> tuple[Any, str]:
    """A new login with no password yet, given ``role`` on ``tournament``. Returns (account, invite path)."""
    User = get_user_model()
    username = username.strip()
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError(_("The login “%(name)s” is taken; choose another one.") % {"name": username})
    first, _sep, last = " ".join(full_name.split()).partition(" ")
    account = User(username=username, first_name=first[:150], last_name=last[:150])
    account.set_unusable_password()
    account.save()
    TournamentRole.objects.create(tournament=tournament, user=account, role=role)
    audit(
        tournament=tournament,
        user=user,
        action="staff.create",
        obj=account,
        summary=f"{username} ({full_name})",
        new={"role": role},
    )
    return account, invite_path(account)


@transaction.atomic
def staff_invite_again(*, tournament: Tournament, user: Actor, account: Any) -> str:
    """A fresh invite link for a staff member of this tournament who has not chosen a password yet."""
    if not TournamentRole.objects.filter(tournament=tournament, user=account).exists():
        raise ServiceError(_("This login does not work on this tournament."))
    if account.has_usable_password():
        raise ServiceError(_("%(name)s has already chosen a password.") % {"name": account.username})
    audit(tournament=tournament, user=user, action="staff.invite", obj=account, summary=account.username)
    return invite_path(account)
