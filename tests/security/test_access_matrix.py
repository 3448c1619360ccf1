"""The access matrix (issue 34.1): EVERY URL of the site, found by walking the URLconf (``url_walk``), asked with
GET and POST under both roles (venue and federation) by six personas who own nothing there: an anonymous visitor,
a player signed in to "minha mesa" with the PIN of a card, a logged-in user with no role, an arbiter and a
director of another tournament, and an API credential of another organiser. Every answer must be a refusal (the
login page, 401, 403, 404, 405; for the API a JSON 4xx) unless ``ALLOWED`` says why that persona may have it,
and nothing may be written: the database's rows are compared before and after each persona's walk.

A new URL is in the matrix the moment it is in the URLconf; a URL whose arguments have no sample value fails the
walk. On the code before 22197c1 the federation's staff pages answered the anonymous visitor (issue 34.1)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import clear_url_caches, reverse
from django.utils import timezone

from tests.security.url_walk import sample_url, walk
from tournaments.models import PairingJob, PlayerCode, TournamentRole
from tournaments.reporting.services import codes_issue, reporting_set_enabled
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db

STAGE = Path(__file__).resolve().parents[1] / "data" / "federation" / "etapa-caruaru.json"
ROLES = ("venue", "federation")
PERSONAS = ("anonymous", "player", "no_role", "other_arbiter", "other_director", "other_credential")
METHODS = ("get", "post")

# Who may have a non-refusal answer, and why. (URL name pattern, personas, methods, reason.)
ANY = PERSONAS
LOGGED = ("no_role", "other_arbiter", "other_director")
ALLOWED = [
    ("public:*", ANY, METHODS, "the public pages, for everyone; their only forms (minha mesa) need a valid code"),
    ("federation:season*", ANY, ("get",), "the season pages are public (at the federation; 404 at a venue)"),
    ("login", ANY, METHODS, "the login page"),
    ("admin:login", ANY, METHODS, "the admin's login page (a non-staff login is refused on it)"),
    ("logout", ANY, ("post",), "leaving: ends the visitor's own session only"),
    ("admin:logout", ANY, METHODS, "leaving (a GET by a non-staff login is sent to the admin's index, refused)"),
    ("logout_everywhere", LOGGED, ("post",), "ends the sessions of the visitor's own login only"),
    ("set_language", ANY, METHODS, "the language chosen (a cookie)"),
    ("invite", ANY, METHODS, "an invite link with a wrong token: the page says the link is not valid"),
    ("staff:home", LOGGED, METHODS, "the visitor's own tournaments (none here)"),
    (
        "staff:tournament_create",
        ("other_director",),
        METHODS,
        "a director (permission add_tournament) creates events; an empty form creates nothing",
    ),
    ("staff:tournament_import", ("other_director",), METHODS, "likewise, importing an event of their own"),
    ("staff:opening_tables", ("other_director",), ("get",), "a director reads the opening tables"),
    ("staff:registry", ("other_director",), ("get",), "a director reads the national registry (to enter players)"),
    ("staff:player", ("other_director",), ("get",), "a director reads a registry player (no edit form)"),
    ("staff:national_suspensions", ("other_director",), ("get",), "a director reads the suspensions in force"),
    ("federation:registry_sync", ("other_director",), METHODS, "a venue's director downloads the national list"),
    ("federation:api_registry", ("other_credential",), ("get",), "every organiser's venues download the registry"),
    ("federation:api_stage", ("other_credential",), ("get",), "a credential reads its own versions only (none)"),
]
# The answer is not enough: what an allowed answer must not carry.
LEAK_CHECKS = {
    # organiser A's versions of the event are not shown to organiser B's credential
    "federation:api_stage": lambda r: r.status_code != 200 or json.loads(r.content)["versions"] == [],
}
# Rows that a refused request may write: sessions (and a login's list of them: leaving ends the visitor's own) and
# the throttling counters (wrong PINs, logins).
NOT_COMPARED = {"sessions.session", "tournaments.loginsessions", "tournaments.attemptcounter"}
NOT_COMPARED |= {"axes.accessattempt", "axes.accesslog"}
NOT_COMPARED |= {"axes.accessfailurelog"}
# Columns kept up to date by reads: when a credential was last used.
UNCOMPARED_FIELDS = {"tournaments.apicredential": {"last_used_at"}}


def allowed(name: str, persona: str, method: str) -> str | None:
    for pattern, personas, methods, reason in ALLOWED:
        if fnmatch(name, pattern) and persona in personas and method in methods:
            return reason
    return None


@dataclass
class World:
    tournament: object
    samples: dict
    overrides: dict
    clients: dict  # persona -> a function making its client


@pytest.fixture
def world(field, director, django_user_model, federation):
    from tournaments.federation.services import credential_issue, submission_receive

    t, entries = field(4)
    round_pair(tournament=t, user=director)
    job = PairingJob.objects.create(
        tournament=t, round_number=1, status="done", round=t.rounds.get(), paired=4, total=4
    )
    reporting_set_enabled(tournament=t, enabled=True, user=director)
    codes_issue(tournament=t, user=director)
    code = PlayerCode.objects.filter(tournament=t).first()

    other, _ = field(2)
    other_arbiter = django_user_model.objects.create_user("arbitro-de-outro", password="x-senha-123")
    TournamentRole.objects.create(tournament=other, user=other_arbiter, role="arbiter")
    other_director = django_user_model.objects.create_user("diretor-de-outro", password="x-senha-123")
    other_director.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    TournamentRole.objects.create(tournament=other, user=other_director, role="director")
    no_role = django_user_model.objects.create_user("curioso", password="x-senha-123")

    # Organiser A sent a stage to the federation; organiser B holds a credential of its own.
    cred_a, _token_a = credential_issue(label="Organizador A", user=federation)
    stage = json.loads(STAGE.read_text(encoding="utf-8"))
    submission, _ = submission_receive(credential=cred_a, data=stage, nonce="n" * 32, sent_at=timezone.now())
    _cred_b, token_b = credential_issue(label="Organizador B", user=federation)
    # organiser A's stage in the federation's calendar (issue 35.2): its identifier is the calendar URLs' sample
    from tournaments.federation.calendar import stage_request_receive

    calendar_stage, _created = stage_request_receive(
        credential=cred_a,
        data={
            "name": stage["tournament"]["name"],
            "city": "Caruaru",
            "start_date": stage["tournament"]["start_date"],
            "end_date": stage["tournament"]["end_date"],
            "format": "micro-match",
            "planned_rounds": 7,
            "minutes_per_game": 21,
            "venue_slug": stage["tournament"]["slug"],
        },
    )

    def logged(user):
        def make():
            c = Client()
            c.force_login(user)
            return c

        return make

    def player():
        c = Client()
        r = c.post(reverse("public:my_board_sign_in", args=[t.slug]), {"code": code.pin})
        assert r.status_code == 302 and r.url == reverse("public:my_board", args=[t.slug])
        return c

    clients = {
        "anonymous": Client,
        "player": player,
        "no_role": logged(no_role),
        "other_arbiter": logged(other_arbiter),
        "other_director": logged(other_director),
        "other_credential": lambda: Client(HTTP_AUTHORIZATION=f"Bearer {token_b}"),
    }
    samples = {
        "slug": t.slug,
        "pk": entries[0].pk,
        "player": entries[0].player_id,
        "entry_id": entries[0].pk,
        "category": t.categories.first().pk,
        "number": 1,
        "board": 1,
        "board_number": 1,
        "game": 1,
        "what": "json",
        "job": job.pk,
        "token": code.token,
        "year": t.start_date.year,
        "uidb64": "OTk5OTk5",  # no such user (999999): the invite page of a link that names nobody
        "object_id": entries[0].player_id,
        "content_type_id": 1,
        "id": other_director.pk,
        "app_label": "tournaments",
        "url": "nada/",
        "identifier": calendar_stage.identifier,
    }
    overrides = {
        "federation:submission": {"pk": submission.pk},
        "federation:api_stage": {"slug": submission.event_slug},
        "public:standings_category": {"category": t.categories.first().code},
        "invite": {"token": "definir-senha"},
    }
    return World(t, samples, overrides, clients)


def refusal(response) -> bool:
    """The login page, 401, 403, 404, 405; the API's JSON 4xx."""
    code = response.status_code
    if code == 302:
        path = urlsplit(response.url).path
        return path in (reverse("login"), reverse("admin:login"))
    if response.get("Content-Type", "").startswith("application/json"):
        return 400 <= code < 500
    return code in (401, 403, 404, 405)


def rows():
    """Every row of every model but the ones a refusal may write (sessions, throttling counters)."""
    dump = {}
    for model in apps.get_models():
        label = model._meta.label_lower
        if label in NOT_COMPARED:
            continue
        skip = UNCOMPARED_FIELDS.get(label, set())
        fields = [f.attname for f in model._meta.concrete_fields if f.attname not in skip]
        dump[label] = sorted(repr(row) for row in model.objects.values_list(*fields))
    return dump


def requests_of(world, persona):
    """(name, url, client) for every URL, as ``persona``: one client for all, but a request that ends the
    visitor's session (leaving) gets a client of its own, made here (its login is not part of the walk)."""
    clear_url_caches()
    client = world.clients[persona]()
    out = []
    for w in walk():
        url = sample_url(w, world.samples, world.overrides)
        for method in METHODS:
            leaving = w.name.endswith(("logout", "logout_everywhere", "sign_out"))
            out.append((w.name, method, url, world.clients[persona]() if leaving else client))
    return out


def ask(persona, requests):
    """(name, method, url, status, verdict) of every request."""
    answers = []
    for name, method, url, client in requests:
        r = getattr(client, method)(url)
        reason = allowed(name, persona, method)
        ok = (reason is not None and LEAK_CHECKS.get(name, lambda r: True)(r)) or refusal(r)
        answers.append((name, method, url, r.status_code, ok))
    return answers


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("persona", PERSONAS)
def test_nothing_answers_a_persona_who_owns_nothing_there(world, settings, role, persona):
    settings.DAMAS_ROLE = role
    requests = requests_of(world, persona)
    before = rows()
    answers = ask(persona, requests)
    after = rows()
    wrong = [f"{m.upper()} {url} ({name}): {status}" for name, m, url, status, ok in answers if not ok]
    assert not wrong, f"{persona} at a {role}: not refused:\n" + "\n".join(wrong)
    changed = {label for label in before if before[label] != after[label]}
    assert not changed, f"{persona} at a {role} wrote rows of {sorted(changed)}"
    print(f"\naccess matrix, {persona} at a {role}: {len(answers)} requests ({len(answers) // 2} URLs x 2 methods)")


def test_the_walk_covers_every_kind_of_url(world):
    """The walk reaches into every include (staff, federation, API, admin, public), and the matrix's size."""
    names = {w.name for w in walk()}
    for expected in ("staff:reporting", "federation:credentials", "federation:api_stages", "admin:index", "login"):
        assert expected in names
    assert any(n.startswith("admin:tournaments_player_") for n in names)
    size = len(names) * len(PERSONAS) * len(METHODS) * len(ROLES)
    print(f"\naccess matrix: {len(names)} URLs x {len(PERSONAS)} personas x 2 methods x 2 roles = {size} requests")
    for w in walk():
        sample_url(w, world.samples, world.overrides)  # every pattern has sample arguments
