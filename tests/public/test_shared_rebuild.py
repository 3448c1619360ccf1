"""Issue 25 item 9: after a saved result every public page of the tournament is stale, and each is rebuilt by one
request; those rebuilds read the tournament's published rounds once per process and version, not once per page
(``page_cache.shared``). And a write makes the pages stale once, when it commits, not twice.

With Redis (the production cache; a key prefix of the test's own on database 8, removed at the end): a write,
then every page of the crowd of bench/load.py rebuilt, read the snapshot once; the pages show the write. With the
per-process memory cache, or outside a page build, nothing is shared."""

import os

import pytest
from django.urls import reverse

from config.settings import caches_for
from testkit.builders import build_tournament
from tournaments.core import cache as page_versions
from tournaments.core import resilient_cache
from tournaments.models import Board, Entry
from tournaments.public import page_cache
from tournaments.public import views as public_views
from tournaments.rounds.results import game_record_result

pytestmark = pytest.mark.django_db

LIVE_REDIS = "redis://127.0.0.1:6379/8"
SAVED = '<td class="result"><strong>4&nbsp;–&nbsp;0</strong>'  # board 1's micro-match won 2-0 · 2-0


@pytest.fixture(autouse=True)
def _fresh_shared():
    page_cache._SHARED.clear()
    resilient_cache.reset_breakers()
    yield
    page_cache._SHARED.clear()
    resilient_cache.reset_breakers()


@pytest.fixture
def redis_cache(settings):
    import redis

    client = redis.Redis.from_url(LIVE_REDIS, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.exceptions.RedisError as exc:
        pytest.skip(f"needs Redis at {LIVE_REDIS}: {exc}")
    prefix = f"shared-test-{os.getpid()}"
    settings.CACHES = caches_for(LIVE_REDIS)
    settings.CACHES["default"]["KEY_PREFIX"] = prefix
    yield
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


@pytest.fixture
def memory_cache(settings):
    """The per-process memory cache, as without REDIS_URL (CI's PostgreSQL run sets one)."""
    settings.CACHES = caches_for("")


@pytest.fixture
def event(director):
    return build_tournament(slug="uma-leitura", players=12, rounds=2, user=director, complete_last=False)


@pytest.fixture
def snapshot_reads(monkeypatch):
    reads = []
    real = public_views.read_snapshot

    def counting(tournament, *, public):
        reads.append(tournament.pk)
        return real(tournament, public=public)

    monkeypatch.setattr(public_views, "read_snapshot", counting)
    return reads


def crowd_pages(event):
    """The pages bench/load.py reads: standings, pairings, cross table and player cards."""
    cards = [
        reverse("public:player", args=[event.slug, pk])
        for pk in Entry.objects.filter(tournament=event).values_list("pk", flat=True)
    ]
    pages = [reverse(name, args=[event.slug]) for name in ("public:standings", "public:pairings", "public:crosstable")]
    return pages + cards


def save_board_1(event, director, capture):
    board = Board.objects.get(round__tournament=event, round__number=2, number=1)
    with capture(execute=True):
        game_record_result(board=board, results={1: "1-0", 2: "0-1"}, expected_version=board.version, user=director)


def test_after_a_write_every_page_is_rebuilt_from_one_read_of_the_tournament(
    client, event, director, redis_cache, snapshot_reads, django_capture_on_commit_callbacks
):
    pages = crowd_pages(event)
    assert len(pages) == 15
    for url in pages:
        assert client.get(url).status_code == 200
    assert snapshot_reads == [event.pk]  # 15 pages built, the tournament read once
    pairings = reverse("public:pairings", args=[event.slug])
    assert SAVED not in client.get(pairings).content.decode()

    save_board_1(event, director, django_capture_on_commit_callbacks)
    for url in pages:
        assert client.get(url).status_code == 200
    assert snapshot_reads == [event.pk, event.pk]  # one more read for the new version, not 15
    assert SAVED in client.get(pairings).content.decode()


def test_with_the_memory_cache_or_outside_a_page_build_nothing_is_shared(client, memory_cache, event, snapshot_reads):
    for url in crowd_pages(event)[:4]:
        assert client.get(url).status_code == 200
    assert snapshot_reads == [event.pk] * 4  # per-process cache: another process's writes would not show
    assert page_cache.shared(event.pk, "x", lambda: 1) == 1
    assert page_cache.shared(event.pk, "x", lambda: 2) == 2  # not building a page: computed each time
    assert not page_cache._SHARED


def test_shared_values_are_kept_per_version_and_for_a_few_versions_only(redis_cache, event):
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    version = page_versions.version(event.pk)
    token = page_cache._building.set((event.pk, version))
    try:
        assert page_cache.shared(event.pk, "x", compute) == 1
        assert page_cache.shared(event.pk, "x", compute) == 1
        assert page_cache.shared(event.pk + 1, "x", compute) == 2  # another tournament: not this build's
    finally:
        page_cache._building.reset(token)
    token = page_cache._building.set((event.pk, version + 1))
    try:
        assert page_cache.shared(event.pk, "x", compute) == 3  # a newer version: read again
        for n in range(page_cache.SHARED_SIZE + 5):
            page_cache.shared(event.pk, f"y{n}", compute)
    finally:
        page_cache._building.reset(token)
    assert len(page_cache._SHARED) == page_cache.SHARED_SIZE


def test_a_write_makes_the_pages_stale_when_it_commits_and_a_rollback_not_at_all(
    event, director, django_capture_on_commit_callbacks
):
    from django.db import transaction

    before = page_versions.version(event.pk)
    board = Board.objects.get(round__tournament=event, round__number=2, number=1)
    with django_capture_on_commit_callbacks() as callbacks:
        game_record_result(board=board, results={1: "1-0", 2: "0-1"}, expected_version=board.version, user=director)
        assert page_versions.version(event.pk) == before  # not committed: readers still see the old data
    assert len(callbacks) == 1  # one bump, not one before and one after the commit
    callbacks[0]()
    after = page_versions.version(event.pk)
    assert after > before

    class Undo(Exception):
        pass

    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(Undo), transaction.atomic():
        other = Board.objects.get(round__tournament=event, round__number=2, number=2)
        game_record_result(board=other, results={1: "0-1", 2: "0-1"}, expected_version=other.version, user=director)
        raise Undo
    assert callbacks == []  # rolled back: no bump to run
    assert page_versions.version(event.pk) == after
