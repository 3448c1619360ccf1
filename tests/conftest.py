"""Shared fixtures: the personas (director, arbiter, stranger) and a tournament factory."""

import itertools
import os
from datetime import date
from pathlib import Path

import pytest

_counter = itertools.count(1)

# Each test process keeps its cache keys apart: two processes side by side (make test's pytest-xdist workers, or
# two runs on one machine) share the Redis database of REDIS_URL, and their tournaments have the same ids.
# Read by config.settings.caches_for (tests that build their cache settings) and set on the settings in force.
CACHE_KEY_PREFIX = f"damas-test-{os.getpid()}"
os.environ["CACHE_KEY_PREFIX"] = CACHE_KEY_PREFIX


# Under CI (CI=true) a skip is a failure unless tests/allowed_skips.txt accepts its reason (issue 39.1): a CI
# that cannot test (no Chromium, no Redis, a broken import behind a skipif) must not go green.
ALLOWED_SKIPS = Path(__file__).with_name("allowed_skips.txt")


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def allowed_skips(path=ALLOWED_SKIPS):
    """[(start of the reason, when)] of the allowed-skips file; a line without its three parts is an error."""
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [part.strip() for part in line.split("|")]
        if len(parts) != 3 or not all(parts) or parts[1] not in ("always", "sqlite"):
            raise pytest.UsageError(f"{path.name}:{number}: expected 'reason | always|sqlite | why': {line!r}")
        entries.append((parts[0], parts[1]))
    return entries


def skip_allowed(reason: str, entries, vendor: str) -> bool:
    return any(reason.startswith(start) and (when == "always" or vendor == when) for start, when in entries)


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return reason.removeprefix("Skipped: ")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under CI, a skip not on the allowed list is reported as a failure (in the process that ran the test, so
    pytest-xdist's workers send it to the controller already failed: the run's summary and exit status say it)."""
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and under_ci()) or hasattr(report, "wasxfail"):
        return
    from django.db import connection

    reason = _skip_reason(report)
    if skip_allowed(reason, item.config.stash.setdefault(_ALLOWED_KEY, allowed_skips()), connection.vendor):
        return
    report.outcome = "failed"
    report.longrepr = (
        f"skipped under CI: {reason}\n"
        f"(CI fails on a skip; if this one is right, add its reason to {ALLOWED_SKIPS.name} with why)"
    )


_ALLOWED_KEY = pytest.StashKey[list]()


def pytest_configure(config):
    from django.conf import settings

    if "KEY_PREFIX" in settings.CACHES["default"]:
        settings.CACHES["default"]["KEY_PREFIX"] = CACHE_KEY_PREFIX


@pytest.fixture
def fresh_cache_state():
    """No breaker state (Redis known down) nor remembered slug carried from one test into another."""
    from tournaments.core import resilient_cache
    from tournaments.public import page_cache

    resilient_cache.reset_breakers()
    page_cache._SLUGS.clear()
    yield
    resilient_cache.reset_breakers()
    page_cache._SLUGS.clear()


def _say(config, text):
    """A line on the terminal of the process the user watches (the controller under pytest-xdist)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and not hasattr(config, "workerinput"):
        reporter.write_line(text)


def pytest_sessionstart(session):
    """`make test` said nothing while its processes started Django and collected the tests, over two minutes on a
    loaded machine, and looked hung (issue 37.13): say what it is doing."""
    workers = getattr(session.config.option, "numprocesses", None)
    if workers:
        _say(session.config, f"coletando os testes em {workers} processos (Django, importações; 1 a 2 minutos)…")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    found = f"{len(ids)} teste coletado" if len(ids) == 1 else f"{len(ids)} testes coletados"
    _say(node.config, f"{node.gateway.id}: {found}; cria o banco de teste e começa")


def pytest_unconfigure(config):
    """This process's keys go with it (the last test's pages, the tournaments' versions)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def director(django_user_model):
    """A tournament director: may create tournaments (and so import rating lists)."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("diretor", password="senha-forte-123")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return django_user_model.objects.get(pk=user.pk)


@pytest.fixture
def federation(django_user_model):
    """A member of the group "Federação": imports rating lists and edits players (issue 15.5)."""
    from tournaments.registry.services import federation_group

    user = django_user_model.objects.create_user("federacao", password="senha-forte-123")
    user.groups.add(federation_group())
    return django_user_model.objects.get(pk=user.pk)


@pytest.fixture
def make_player(db):
    from tournaments.models import Player

    def make(**kw):
        n = next(_counter)
        kw.setdefault("name", f"Jogador {n:03d}")
        kw.setdefault("sex", "M")
        kw.setdefault("rating", 1500 + n % 1000)
        kw.setdefault("cbjd_id", f"T{n:05d}")
        return Player.objects.create(**kw)

    return make


@pytest.fixture
def make_tournament(db, director):
    from tournaments.setup.services import tournament_create

    def make(**kw):
        n = next(_counter)
        kw.setdefault("name", f"Torneio {n}")
        kw.setdefault("slug", f"torneio-{n}")
        kw.setdefault("start_date", date(2026, 11, 8))
        kw.setdefault("end_date", date(2026, 11, 9))
        kw.setdefault("planned_rounds", 7)
        return tournament_create(user=director, **kw)

    return make


@pytest.fixture
def field(make_tournament, make_player, director):
    """build(n, **settings): a tournament of n players rated 2000, 1990, ... (named P01, P02, ... in rating order)."""
    from tournaments.entries.services import entry_register

    def build(n=10, **kw):
        t = make_tournament(**kw)
        entries = [
            entry_register(tournament=t, player=make_player(name=f"P{i + 1:02d}", rating=2000 - i * 10), user=director)
            for i in range(n)
        ]
        return t, entries

    return build


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Real hashing (PBKDF2) costs ~0.3 s a user; tests don't need it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache():
    """Page caches are keyed by tournament id, and ids repeat after a test's rollback: start every test empty."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _default_language():
    """Every test starts in the site's language (pt-BR): a request served in English by an earlier test leaves its
    language active in the thread (LocaleMiddleware does not undo it), which changed the messages later tests read."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def frozen_clock(monkeypatch):
    """The clock of the wrong-attempt counts (tournaments.core.throttle), stopped; ``advance(seconds)`` moves it."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.core import throttle

    class Clock:
        moment = timezone.now()

        def advance(self, seconds):
            self.moment += timedelta(seconds=seconds)

    clock = Clock()
    monkeypatch.setattr(throttle, "now", lambda: clock.moment)
    return clock


@pytest.fixture
def edition_with(db):
    """Publish, as the federation would, an edition of the regulation in force from 1 January 2020 (so it judges
    the tests' 2026 stages) that is the current text with some readings or numbers changed (issue 35.1): the
    readings are the edition's, never the event's."""
    from dataclasses import replace

    from tournaments.domain.edition import READINGS, UNPLAYED_READINGS, current_text, with_readings
    from tournaments.models import RegulationEdition

    count = iter(range(1, 29))

    def publish(**changes):
        readings = {k: changes.pop(k) for k in list(changes) if k in READINGS or k in UNPLAYED_READINGS}
        n = next(count)
        edition = replace(
            with_readings(current_text(), **readings),
            code=f"teste-{n}",
            title=f"Edição de teste {n}",
            in_force_from=date(2020, 1, n),
            **changes,
        )
        RegulationEdition.objects.create(
            code=edition.code,
            title=edition.title,
            in_force_from=edition.in_force_from,
            payload=edition.as_json(),
        )
        return edition

    return publish


@pytest.fixture
def opening_tables_loaded(transactional_db):
    """The tablita tables, which come from a data migration that the flush after a transactional test wipes: a
    transactional test that reads them (the browser tests, the parallel sends of a stage with openings) asks for
    this fixture, so it does not depend on which test ran before it."""
    from tournaments.models import Opening, OpeningTable
    from tournaments.setup.openings_data import load_opening_tables

    if not OpeningTable.objects.exists():
        load_opening_tables(OpeningTable, Opening)
