"""Every staff URL, walked as: anonymous (to login), a logged-in stranger (403), an arbiter of another
tournament (403), this tournament's arbiter (allowed, except director pages) and director (allowed)."""

import pytest
from django.test import Client
from django.urls import reverse

from config import urls_staff
from tests.security.url_walk import sample_url, walk
from tournaments.models import PairingJob, TournamentRole
from tournaments.registry.services import federation_group
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db

DIRECTOR_ONLY = {"settings", "roles", "audit", "suspensions", "category", "reporting", "player_cards"}
GLOBAL = {
    "home",
    "tournament_create",
    "rating_import",
    "tournament_import",
    "opening_tables",
    "registry",
    "player",
    "national_suspensions",
}
# The national registry's writers (issue 15.5): the group "Federação", not a tournament's director.
FEDERATION_ONLY = {"rating_import"}
POST_ONLY = {"entry_add", "round_pair", "reports_approve", "round_repair"}


@pytest.fixture
def world(field, director, django_user_model):
    t, entries = field(4)
    round_pair(tournament=t, user=director)
    PairingJob.objects.create(tournament=t, round_number=1, status="done", round=t.rounds.get(), paired=4, total=4)
    other, _ = field(4)
    arbiter = django_user_model.objects.create_user("arbitro", password="x-senha-123")
    TournamentRole.objects.create(tournament=t, user=arbiter, role="arbiter")
    foreign = django_user_model.objects.create_user("arbitro-b", password="x-senha-123")
    TournamentRole.objects.create(tournament=other, user=foreign, role="arbiter")
    stranger = django_user_model.objects.create_user("curioso", password="x-senha-123")
    return t, entries, director, arbiter, foreign, stranger


def staff_urls(t, entries):
    """Every staff URL (the URLconf walked, as the access matrix does: tests/security/url_walk.py) with this
    tournament's sample arguments, as (name without the namespace, address)."""
    job = PairingJob.objects.get(tournament=t)
    kwargs = {
        "slug": t.slug,
        "pk": entries[0].pk,
        "player": entries[0].player_id,
        "category": t.categories.first().pk,
        "number": 1,
        "board": 1,
        "game": 1,
        "what": "json",
        "job": job.pk,
    }
    return [(w.name.removeprefix("staff:"), sample_url(w, kwargs, {})) for w in walk() if w.name.startswith("staff:")]


def as_user(user):
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def call(client, name, url):
    return client.post(url, {}) if name in POST_ONLY else client.get(url)


def test_every_staff_url_is_covered(world):
    t, entries, *_ = world
    names = {n for n, _u in staff_urls(t, entries)}
    assert names == {p.name for p in urls_staff.urlpatterns}
    assert len(names) >= 15


def test_anonymous_sent_to_login(world):
    t, entries, *_ = world
    for name, url in staff_urls(t, entries):
        r = call(as_user(None), name, url)
        assert r.status_code == 302 and r.url.startswith(reverse("login")), name


def test_stranger_and_foreign_arbiter_forbidden(world):
    t, entries, director, arbiter, foreign, stranger = world
    for user in (stranger, foreign):
        client = as_user(user)
        for name, url in staff_urls(t, entries):
            if name in ("home", "password_change"):
                continue  # their own (empty or other) list, their own login's password
            r = call(client, name, url)
            assert r.status_code == 403, (user.username, name, r.status_code)


def test_own_arbiter_allowed_except_director_pages(world):
    t, entries, director, arbiter, foreign, stranger = world
    client = as_user(arbiter)
    for name, url in staff_urls(t, entries):
        r = call(client, name, url)
        if name in DIRECTOR_ONLY or name in {
            "tournament_create",
            "rating_import",
            "tournament_import",
            "opening_tables",
            "registry",
            "player",
            "national_suspensions",  # the registry's page of suspensions (issue 28.3): directors and the federation
        }:
            assert r.status_code == 403, name
        else:
            assert r.status_code in (200, 302), (name, r.status_code)


def test_director_allowed_everywhere_but_the_federation_pages(world):
    t, entries, director, *_ = world
    client = as_user(director)
    for name, url in staff_urls(t, entries):
        r = call(client, name, url)
        if name in FEDERATION_ONLY:
            assert r.status_code == 403, name
        else:
            assert r.status_code in (200, 302), (name, r.status_code)


def test_the_federation_imports_rating_lists_and_edits_players(world, django_user_model):
    t, entries, director, *_ = world
    federation = django_user_model.objects.create_user("cbjd", password="x-senha-123")
    federation.groups.add(federation_group())  # a data migration's group, remade after a flush
    client = as_user(federation)
    for name in ("rating_import", "registry"):
        assert client.get(reverse(f"staff:{name}")).status_code == 200, name
    player_url = reverse("staff:player", args=[entries[0].player_id])
    assert 'id="save-player"' in client.get(player_url).content.decode()
    # a director sees the player but has no edit form, and a POST is refused
    director_client = as_user(director)
    assert 'id="save-player"' not in director_client.get(player_url).content.decode()
    r = director_client.post(player_url, {"name": "Outro Nome", "sex": "F"})
    assert r.status_code == 403
    entries[0].player.refresh_from_db()
    assert entries[0].player.name == "P01"


def test_home_lists_only_own_tournaments(world):
    t, entries, director, arbiter, foreign, stranger = world
    html = as_user(foreign).get(reverse("staff:home")).content.decode()
    assert t.name not in html
    assert t.name in as_user(arbiter).get(reverse("staff:home")).content.decode()


def test_ids_from_another_tournament_are_404(world, field):
    t, entries, director, *_ = world
    other_t, other_entries = field(2)
    r = as_user(director).get(reverse("staff:entry", kwargs={"slug": t.slug, "pk": other_entries[0].pk}))
    assert r.status_code == 404


def test_csrf_enforced_on_forms(world):
    t, entries, director, *_ = world
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    r = client.post(reverse("staff:round", args=[t.slug, 1]), {"action": "publish"})
    assert r.status_code == 403
    assert t.rounds.get(number=1).status == "draft"


def test_login_throttled_after_failures(db, django_user_model):
    django_user_model.objects.create_user("alvo", password="a-senha-certa-1")
    client = Client(REMOTE_ADDR="10.9.8.7")
    for _ in range(5):
        client.post(reverse("login"), {"username": "alvo", "password": "errada"})
    r = client.post(reverse("login"), {"username": "alvo", "password": "a-senha-certa-1"})
    assert r.status_code == 429
    assert "_auth_user_id" not in client.session


def test_deploy_check_warns_without_a_shared_cache(settings):
    from django.core.checks import run_checks

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert "tournaments.W001" in [m.id for m in run_checks(include_deployment_checks=True)]
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:6379/0"}
    }
    assert "tournaments.W001" not in [m.id for m in run_checks(include_deployment_checks=True)]


def test_portuguese_even_for_an_english_browser_until_the_user_switches(client, db):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert 'lang="pt-br"' in html
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert 'lang="en"' in client.get("/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
