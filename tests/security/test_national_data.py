"""Issue 25, item 7: national data is the federation's. A registry addition with a CBJD ID, a rating or a title
needs the group "Federação"; a suspension read from an imported file applies to that tournament only until the
federation (or the director of the event where it happened, audited) confirms it nationally."""

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.entries.services import blocking_suspension, entry_withdraw
from tournaments.interchange import import_upload
from tournaments.interchange.dispatch import Upload
from tournaments.interchange.trf import export_trf
from tournaments.models import AuditEntry, Player, Suspension, TournamentRole
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db

NEW_PLAYER = {
    "action": "create",
    "name": "Zé Inventado",
    "sex": "M",
    "birth_date": "2001-05-04",
    "not_a_duplicate": "1",
}


def logged(user):
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def arbiter_of(django_user_model):
    def make(t):
        arbiter = django_user_model.objects.create_user("arbitro", password="x-senha-123")
        TournamentRole.objects.create(tournament=t, user=arbiter, role="arbiter")
        return arbiter

    return make


@pytest.mark.parametrize(
    "extra", [{"cbjd_id": "99999"}, {"rating": "2999"}, {"title": "GMI"}], ids=["cbjd_id", "rating", "title"]
)
def test_an_arbiter_cannot_add_national_data_to_the_registry(make_tournament, arbiter_of, extra):
    t = make_tournament()
    response = logged(arbiter_of(t)).post(reverse("staff:entry_add", args=[t.slug]), dict(NEW_PLAYER, **extra))
    assert response.status_code == 200
    assert (
        "Só a federação (grupo Federação) cadastra o ID CBJD, o rating ou o título de um jogador: inscreva-o sem "
        "eles, e a federação completa o cadastro."
    ) in [str(m) for m in response.context["messages"]]
    assert not Player.objects.filter(name="Zé Inventado").exists() and not t.entries.exists()


def test_an_arbiter_may_still_enter_a_new_player_without_national_data(make_tournament, arbiter_of):
    t = make_tournament()
    response = logged(arbiter_of(t)).post(reverse("staff:entry_add", args=[t.slug]), NEW_PLAYER)
    assert response.status_code == 302
    player = Player.objects.get(name="Zé Inventado")
    assert (player.cbjd_id, player.rating, player.title) == (None, None, "")
    assert t.entries.get().player == player


def test_the_federation_adds_a_registry_player_with_its_national_data(make_tournament, federation):
    t = make_tournament()
    TournamentRole.objects.create(tournament=t, user=federation, role="director")
    data = dict(NEW_PLAYER, cbjd_id="99999", rating="2100", title="MN")
    assert logged(federation).post(reverse("staff:entry_add", args=[t.slug]), data).status_code == 302
    assert Player.objects.get(cbjd_id="99999").rating == 2100


@pytest.fixture
def trf_with_an_abandonment(field, director):
    """A real player (CBJD ID) abandoned an event; its TRF, as another director would upload it."""
    t, entries = field(4, slug="origem", name="Etapa de Origem", format="single-game")
    round_pair(tournament=t, user=director)
    entry_withdraw(entry=entries[1], from_round=2, kind="abandonment", user=director)
    text = export_trf(t)
    player = entries[1].player
    Suspension.objects.all().delete()
    t.delete()
    return text, player


def test_an_imported_abandonment_suspends_nobody_nationally_until_confirmed(
    trf_with_an_abandonment, django_user_model, make_tournament, federation
):
    text, player = trf_with_an_abandonment
    other = django_user_model.objects.create_user("diretor.b", password="senha-forte-123")
    imported = import_upload(Upload(text.encode(), "etapa.trf"), user=other).tournament
    suspension = Suspension.objects.get(player=player)
    assert suspension.tournament == imported and suspension.national_pending and suspension.confirmed_at is None
    later = make_tournament(start_date=date(2026, 12, 1), end_date=date(2026, 12, 2))
    assert blocking_suspension(player, later.start_date, later.end_date) is None  # not national yet
    # the federation confirms it: now it refuses the player's entries elsewhere (audited)
    url = reverse("staff:national_suspensions")
    response = logged(federation).post(url, {"action": "confirm", "suspension": suspension.pk}, follow=True)
    assert response.status_code == 200
    suspension.refresh_from_db()
    assert not suspension.national_pending and suspension.confirmed_by == federation
    assert blocking_suspension(player, later.start_date, later.end_date) == suspension
    assert AuditEntry.objects.filter(action="suspension.confirm", object_id=str(suspension.pk)).exists()


def test_the_importing_director_may_confirm_on_the_event_suspensions_page(trf_with_an_abandonment, django_user_model):
    text, player = trf_with_an_abandonment
    other = django_user_model.objects.create_user("diretor.b", password="senha-forte-123")
    imported = import_upload(Upload(text.encode(), "etapa.trf"), user=other).tournament
    suspension = Suspension.objects.get(player=player)
    page = logged(other).get(reverse("staff:suspensions", args=[imported.slug])).content.decode()
    assert "aguarda confirmação nacional" in page
    logged(other).post(
        reverse("staff:suspensions", args=[imported.slug]), {"action": "confirm", "suspension": suspension.pk}
    )
    suspension.refresh_from_db()
    assert suspension.confirmed_by == other
    entry = AuditEntry.objects.get(action="suspension.confirm")
    assert entry.tournament == imported and entry.username == "diretor.b"


def test_a_suspension_typed_at_the_event_is_national_at_once(field, director):
    t, entries = field(4, format="single-game")
    round_pair(tournament=t, user=director)
    suspension = entry_withdraw(entry=entries[1], from_round=2, kind="abandonment", user=director)
    assert not suspension.national_pending
    assert blocking_suspension(entries[1].player, date(2026, 12, 1), date(2026, 12, 2)) == suspension
