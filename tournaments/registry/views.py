"""Staff: the national registry. Directors browse it; the federation (group "Federação") edits players. Every
change is audited and shown on the player's history."""

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.accounts.permissions import can_create_tournaments
from tournaments.core.errors import ServiceError
from tournaments.core.staff_views import object_or_404
from tournaments.entries.services import player_search
from tournaments.models import AuditEntry, Player
from tournaments.registry.forms import PlayerEditForm
from tournaments.registry.presenters import history_rows
from tournaments.registry.services import can_edit_registry, player_update


def can_browse_registry(user):
    return can_create_tournaments(user) or can_edit_registry(user)


class RegistryMixin(LoginRequiredMixin):
    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not can_browse_registry(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class RegistryView(RegistryMixin, TemplateView):
    template_name = "staff/registry.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        query = (self.request.GET.get("q") or "")[:100]
        qs = player_search(query, limit=200) if query.strip() else Player.objects.order_by("search_name", "pk")
        page = Paginator(qs, 50).get_page(self.request.GET.get("pagina"))
        ctx.update(query=query, page=page, can_edit=can_edit_registry(self.request.user))
        return ctx


class PlayerView(RegistryMixin, TemplateView):
    """The player's data, tournaments and history; the edit form for the federation."""

    template_name = "staff/player.html"

    def get_player(self):
        return object_or_404(Player.objects.all(), self.kwargs["player"])

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        player = kwargs.get("player_obj") or self.get_player()
        can_edit = can_edit_registry(self.request.user)
        changes = AuditEntry.objects.filter(object_type="player", object_id=str(player.pk)).order_by(
            "-created_at", "-id"
        )
        ctx.update(
            player=player,
            can_edit=can_edit,
            form=kwargs.get("form") or (PlayerEditForm(instance=player) if can_edit else None),
            entries=player.entries.select_related("tournament").order_by("-tournament__start_date"),
            suspensions=player.suspensions.order_by("-end_date"),
            history=history_rows(changes),
        )
        return ctx

    def post(self, request, *args, **kwargs):
        if not can_edit_registry(request.user):
            raise PermissionDenied
        player = self.get_player()
        form = PlayerEditForm(request.POST, instance=Player.objects.get(pk=player.pk))
        if form.is_valid():
            try:
                player_update(player=player, user=request.user, **form.cleaned_data)
            except ServiceError as exc:
                for message in exc.messages:
                    messages.error(request, message)
            else:
                messages.success(request, _("Player saved; the change is in the history below."))
                return redirect("staff:player", player=player.pk)
        else:
            messages.error(request, _("Nothing was saved: correct the marked fields."))
        return self.render_to_response(self.get_context_data(player_obj=player, form=form))
