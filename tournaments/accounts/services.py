"""Staff accounts made by a tournament's director (issue 14): a login for an arbiter, with an invite link that
lets them choose their own password once. Nobody types or sends a password.

Issue 25, item 1: only whoever made a login (or the federation) may issue its invite link again, and a role given
to an existing login is an offer its owner accepts: a director never gets hold of another tournament's login."""

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.errors import ServiceError
from tournaments.models import RoleOffer, StaffAccount, Tournament, TournamentRole
from tournaments.models.choices import AuditAction, StaffRole
from tournaments.registry.services import can_edit_registry

# Marks the login of an account made while the login asked for existed: "~" is no character a login may have.
PENDING_MARK = "~"


def shown_login(user: Any) -> str:
    """The login as the director asked for it (what the pages show), whether or not its owner must choose another
    one when accepting the invite."""
    return user.get_username().split(PENDING_MARK)[0]


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
    login = username
    if User.objects.filter(username__iexact=username).exists():
        # The answer must not tell that the login exists (issue 34.4): the account is made all the same, under a
        # login of its own that says which was asked for, and its owner chooses a free one with the invite link.
        login = f"{username[:140]}{PENDING_MARK}{secrets.token_hex(4)}"
    first, _sep, last = " ".join(full_name.split()).partition(" ")
    account = User(username=login, first_name=first[:150], last_name=last[:150])
    account.set_unusable_password()
    account.save()
    StaffAccount.objects.create(user=account, created_by=login_of(user))
    TournamentRole.objects.create(tournament=tournament, user=account, role=role)
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.STAFF_CREATE,
        obj=account,
        summary=f"{username} ({full_name})",
        new={"role": role},
    )
    return account, invite_path(account)


def may_invite_again(user: Actor, account: Any) -> bool:
    """Whoever made the login, or the federation's staff (group "Federação", site administrators). A director who
    was merely given the login's role on their tournament may not: the link sets the login's password."""
    if can_edit_registry(user):
        return True
    maker = login_of(user)
    return maker is not None and StaffAccount.objects.filter(user=account, created_by=maker).exists()


@transaction.atomic
def staff_invite_again(*, tournament: Tournament, user: Actor, account: Any) -> str:
    """A fresh invite link for a staff member of this tournament who has not chosen a password yet."""
    if not TournamentRole.objects.filter(tournament=tournament, user=account).exists():
        raise ServiceError(_("This login does not work on this tournament."))
    if not may_invite_again(user, account):
        raise ServiceError(
            _("Only whoever made the login “%(name)s” or the federation may make a new invite link.")
            % {"name": shown_login(account)}
        )
    if account.has_usable_password():
        raise ServiceError(_("%(name)s has already chosen a password.") % {"name": shown_login(account)})
    audit(tournament=tournament, user=user, action=AuditAction.STAFF_INVITE, obj=account, summary=shown_login(account))
    return invite_path(account)


@transaction.atomic
def staff_role_offer(*, tournament: Tournament, user: Actor, username: str, role: str) -> RoleOffer:
    """Offer ``role`` on ``tournament`` to the login named ``username``, whether or not it exists (the answer must
    not tell which names do). The role starts when that login accepts it."""
    username = username.strip()
    offer = RoleOffer.objects.filter(tournament=tournament, username__iexact=username).first()
    if offer is None:
        offer = RoleOffer(tournament=tournament, username=username)
    offer.role, offer.offered_by = role, login_of(user)
    offer.save()
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.STAFF_OFFER,
        obj=offer,
        summary=username,
        new={"role": role},
    )
    return offer


def offers_for(user: Any) -> Any:
    """The roles offered to this login, waiting for its answer."""
    return RoleOffer.objects.filter(username__iexact=user.get_username()).select_related("tournament")


@transaction.atomic
def staff_offer_answer(*, user: Any, offer: RoleOffer, accept: bool) -> TournamentRole | None:
    """The offered login accepts (the role starts) or declines (the offer goes); audited on the tournament."""
    offer = RoleOffer.objects.select_for_update().get(pk=offer.pk)
    if offer.username.casefold() != user.get_username().casefold():
        raise ServiceError(_("This offer is not for you."))
    role = None
    if accept:
        role, _created = TournamentRole.objects.update_or_create(
            tournament=offer.tournament, user=user, defaults={"role": offer.role}
        )
    audit(
        tournament=offer.tournament,
        user=user,
        action=AuditAction.STAFF_GRANT if accept else AuditAction.STAFF_DECLINE,
        obj=role or offer,
        summary=user.get_username(),
        new={"role": offer.role} if accept else None,
    )
    offer.delete()
    return role


def role_label(role: str) -> str:
    return str(StaffRole(role).label)


@transaction.atomic
def staff_offer_withdraw(*, tournament: Tournament, user: Actor, offer: RoleOffer) -> None:
    """The director takes back an offer not yet answered."""
    audit(tournament=tournament, user=user, action=AuditAction.STAFF_WITHDRAW, obj=offer, summary=offer.username)
    offer.delete()


@transaction.atomic
def staff_role_remove(*, tournament: Tournament, user: Actor, role: TournamentRole) -> None:
    """The director takes a login's access to the tournament away (never their own: someone must stay)."""
    if role.user_id == getattr(user, "pk", None):
        raise ServiceError(_("You cannot remove yourself."))
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.STAFF_REMOVE,
        obj=role,
        summary=role.user.username,
        old={"role": role.role},
    )
    role.delete()


@transaction.atomic
def staff_pairing_permission(*, tournament: Tournament, user: Actor, allowed: bool) -> bool:
    """The director lets the tournament's arbiters pair, publish, edit and undo rounds, or keeps that to directors
    (issue 28.12). Returns whether anything changed (audited when it did)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.arbiters_may_pair == allowed:
        return False
    tournament.arbiters_may_pair = allowed
    tournament.save(update_fields=["arbiters_may_pair"])
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.STAFF_PAIRING,
        obj=tournament,
        old={"arbiters_may_pair": not allowed},
        new={"arbiters_may_pair": allowed},
    )
    return True
