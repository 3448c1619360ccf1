"""Staff logins (issue 25, item 1): who made each login (only they, or the federation, may issue its invite link
again) and the roles a director offers to an existing login, which start only when that login accepts them."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import StaffRole
from tournaments.models.tournament import Tournament


class StaffAccount(models.Model):
    """A login made from a tournament's Equipe page, and who made it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_account")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="staff_accounts_made"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("staff login")
        verbose_name_plural = _("staff logins")

    def __str__(self) -> str:
        return str(self.user)


class RoleOffer(models.Model):
    """A role on a tournament offered to a login by name. The name need not exist (the form must not tell which
    names do); the role starts when a login of that name accepts it on its "My tournaments" page."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="role_offers")
    username = models.CharField(_("user name"), max_length=150)
    role = models.CharField(_("role"), max_length=8, choices=StaffRole.choices)
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("role offer")
        verbose_name_plural = _("role offers")
        constraints = [
            models.UniqueConstraint(Lower("username"), "tournament", name="role_offer_one_per_name"),
            models.CheckConstraint(condition=Q(role__in=StaffRole.values), name="role_offer_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.username} — {self.get_role_display()} — {self.tournament}"


class LoginSessions(models.Model):
    """When a login last asked to leave every device (issue 25, item 15): a session that logged in before then
    is no longer a session of that login, whatever stores the sessions (database, cache, signed cookies)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="login_sessions"
    )
    ended_at = models.DateTimeField(_("every session ended at"))

    class Meta:
        verbose_name = _("end of a login's sessions")
        verbose_name_plural = _("ends of logins' sessions")

    def __str__(self) -> str:
        return f"{self.user} — {self.ended_at:%Y-%m-%d %H:%M}"
