"""Who may do what: site administrators; a tournament's director (settings, staff, suspensions) and arbiters
(pairing, results). Everyone else gets 403 on staff pages; anonymous users are sent to the login page."""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from tournaments.models import Tournament, TournamentRole
from tournaments.models.choices import StaffRole
from tournaments.setup.tiebreak_list import broken_list_warning


def role_of(user, tournament):
    """The user's role on the tournament (a site administrator is a director), or None (also for nobody: a
    management command)."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return StaffRole.DIRECTOR
    return TournamentRole.objects.filter(tournament=tournament, user=user).values_list("role", flat=True).first()


def can_run(user, tournament):
    return role_of(user, tournament) in (StaffRole.DIRECTOR, StaffRole.ARBITER)


def may_pair(role, tournament):
    """Whether a staff role pairs, publishes, edits and undoes rounds: the director always, an arbiter when the
    director allows it (``Tournament.arbiters_may_pair``, issue 28.12)."""
    if role == StaffRole.DIRECTOR:
        return True
    return role == StaffRole.ARBITER and tournament.arbiters_may_pair


def can_direct(user, tournament):
    return role_of(user, tournament) == StaffRole.DIRECTOR


def visible_tournaments(user):
    qs = Tournament.objects.all()
    return qs if user.is_superuser else qs.filter(roles__user=user).distinct()


def can_create_tournaments(user):
    """Directors are the users allowed to add tournaments (site administrators have every permission)."""
    return user.has_perm("tournaments.add_tournament")


class DirectorRequiredMixin(LoginRequiredMixin):
    """Pages for directors outside any one tournament: creating or importing a tournament, rating lists."""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_create_tournaments(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class TournamentStaffMixin(LoginRequiredMixin):
    """Loads ``self.tournament`` from the URL's slug and checks the user's role on it. ``pairing_only``: the
    director, or an arbiter the director lets pair (:func:`may_pair`); anyone else gets 403."""

    director_only = False
    pairing_only = False

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        self.role = role_of(request.user, self.tournament)
        allowed = self.role == StaffRole.DIRECTOR if self.director_only else self.role is not None
        if self.pairing_only:
            allowed = may_pair(self.role, self.tournament)
        if not allowed:
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["tournament"] = self.tournament
        ctx["role"] = self.role
        ctx["is_director"] = self.role == StaffRole.DIRECTOR
        ctx["may_pair"] = may_pair(self.role, self.tournament)
        ctx["settings_warning"] = broken_list_warning(self.tournament)  # issue 25, item 4
        return ctx
