"""The small event the staff-page browser tests start from: a director ("diretora", who may create tournaments)
and her tournament "etapa" (8 to 9 November 2026) with a few registered players, optionally an arbiter
("arbitra"), and its first round paired, published and played. The logins' password is PASSWORD."""

from datetime import date

from django.contrib.auth.models import Permission

from tournaments.entries.services import entry_register
from tournaments.models import TournamentRole
from tournaments.models.choices import StaffRole
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair
from tournaments.setup.services import tournament_create

PASSWORD = "senha-forte-123"


def staff_event(django_user_model, make_player, *, players=8, name="Etapa", arbiter=False, rating_step=1, player=None):
    """The tournament and its director. Players "Jogador 01", "Jogador 02", ... rated 2000 down by ``rating_step``,
    unless ``player(i)`` makes the i-th one; ``arbiter``: the login "arbitra" is the tournament's arbiter."""
    director = django_user_model.objects.create_user("diretora", password=PASSWORD)
    director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    t = tournament_create(
        user=director, name=name, slug="etapa", start_date=date(2026, 11, 8), end_date=date(2026, 11, 9)
    )
    if arbiter:
        login = django_user_model.objects.create_user("arbitra", password=PASSWORD)
        TournamentRole.objects.create(tournament=t, user=login, role=StaffRole.ARBITER)
    for i in range(players):
        made = player(i) if player else make_player(name=f"Jogador {i + 1:02d}", rating=2000 - rating_step * i)
        entry_register(tournament=t, player=made, user=director)
    return t, director


def first_round_played(t, director, results):
    """Round 1 paired and published, every board with the same ``results`` ({game number: result})."""
    rnd = round_pair(tournament=t, user=director, publish=True)
    for board in rnd.boards.all():
        game_record_result(board=board, results=results, expected_version=1, user=director)
    return rnd
