"""Issue 25 item 3: Redis is an optimisation, not a single point of failure.

With the cache pointing at a port where nothing listens, the key paths still work (public pages computed uncached,
a result saved, a round paired and published, the staff standings, the federation's workbook) and the outage is
logged once, not per request. When Redis answers again, nothing cached before the outage is served: a write made
during it could not drop the cached pages.
"""

import io
import logging
import re
import socket

import pytest
from django.core.cache import cache
from django.urls import reverse
from openpyxl import load_workbook

from config.settings import caches_for
from testkit.builders import build_tournament
from tournaments.core import resilient_cache
from tournaments.models import Board, Game, PairingJob, Round, TournamentRole

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache_state")]

DEAD_PORT = 18201  # in this suite's range; nothing may listen on it
LIVE_REDIS = "redis://127.0.0.1:6379/8"
SAVED = '<td class="result"><strong>4&nbsp;–&nbsp;0</strong>'  # board 1's micro-match won 2-0 · 2-0


def nothing_listens(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


@pytest.fixture
def dead_cache(settings):
    assert nothing_listens(DEAD_PORT), f"port {DEAD_PORT} is in use: the test needs a port where nothing listens"
    settings.CACHES = caches_for(f"redis://127.0.0.1:{DEAD_PORT}/8")


def outage_lines(caplog):
    return [r for r in caplog.records if r.name == "tournaments.core.resilient_cache" and r.levelno >= logging.WARNING]


def test_settings_use_the_resilient_backend_for_redis():
    config = caches_for("redis://cache.internal:6379/0")["default"]
    assert config["BACKEND"] == "tournaments.core.resilient_cache.ResilientRedisCache"
    assert config["OPTIONS"]["socket_connect_timeout"] <= 1  # a dead host must not hold a request for long
    assert caches_for("")["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"


def test_with_redis_down_every_key_path_works_and_the_outage_is_logged_once(client, director, dead_cache, caplog):
    caplog.set_level(logging.DEBUG, logger="tournaments.core.resilient_cache")
    t = build_tournament(slug="sem-redis", players=12, rounds=2, user=director, complete_last=False, planned_rounds=4)
    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})

    public = [
        reverse("public:tournament", args=[t.slug]),
        reverse("public:standings", args=[t.slug]),
        reverse("public:standings_category", args=[t.slug, "FEM"]),
        reverse("public:pairings", args=[t.slug]),
        reverse("public:round", args=[t.slug, 1]),
        reverse("public:crosstable", args=[t.slug]),
        reverse("public:players", args=[t.slug]),
        reverse("public:print_standings", args=[t.slug]),
        reverse("public:print_crosstable", args=[t.slug]),
        reverse("public:print_pairings", args=[t.slug, 2]),
    ]
    for _ in range(2):  # the second time too: nothing was cached, everything is computed again
        assert [client.get(url).status_code for url in public] == [200] * len(public)

    # The arbiter saves round 2's results on the staff page: saved, though the cache could not be told.
    client.force_login(director)
    url = reverse("staff:results", args=[t.slug, 2])
    boards = list(Board.objects.filter(round__tournament=t, round__number=2).order_by("number"))
    assert t.is_micro_match and t.games_per_round == 2
    token = "2-0"  # the first player wins both games
    data = {}
    for b in boards:
        data |= {f"b{b.pk}_v": b.version} | {f"b{b.pk}_g{n}": token for n in range(1, t.games_per_round + 1)}
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:500]
    stored = list(Game.objects.filter(board__in=boards).values_list("result", flat=True))
    assert len(stored) == len(boards) * t.games_per_round and None not in stored

    # Pairing the next round on the staff page (the job runs in the request here), published at once.
    response = client.post(reverse("staff:round_pair", args=[t.slug]), {"publish": "1"})
    assert PairingJob.objects.get(tournament=t).message == ""
    assert response.status_code == 302 and response["Location"] == reverse("staff:round", args=[t.slug, 3])
    assert Round.objects.get(tournament=t, number=3).boards.count() == 6

    staff = [reverse("staff:standings", args=[t.slug]), reverse("staff:homologation", args=[t.slug])]
    assert [client.get(u).status_code for u in staff] == [200, 200]
    workbook = client.get(reverse("staff:download", args=[t.slug, "xlsx"]))
    assert workbook.status_code == 200
    assert "Classificação" in load_workbook(io.BytesIO(workbook.content)).sheetnames

    # The anonymous pages show what was written during the outage.
    client.logout()
    html = client.get(reverse("public:round", args=[t.slug, 2])).content.decode()
    assert html.count('<td class="result"><strong>4&nbsp;–&nbsp;0</strong>') == len(boards)  # micro-matches 2-0 · 2-0
    assert client.get(reverse("public:round", args=[t.slug, 3])).status_code == 200

    [line] = outage_lines(caplog)  # once, for dozens of requests
    assert line.levelno == logging.ERROR
    assert line.getMessage().startswith("cache unreachable (ConnectionError")
    assert "next try in 30 s" in line.getMessage()


def test_with_redis_down_the_live_pages_version_changes_every_30_s_not_at_every_poll(
    client, director, dead_cache, monkeypatch
):
    from tournaments.core import cache as versions

    now = [1_000_000_000.0]
    monkeypatch.setattr(versions.time, "time", lambda: now[0])
    t = build_tournament(slug="sem-redis-ao-vivo", players=6, rounds=1, user=director)
    url = reverse("public:live_version", args=[t.slug])
    answers = [client.get(url) for _ in range(3)]
    assert [a.status_code for a in answers] == [200] * 3
    assert len({a.content for a in answers}) == 1  # phones do not fetch their page again at every poll
    again = client.get(url, HTTP_IF_NONE_MATCH=answers[0]["ETag"])
    assert again.status_code == 304
    now[0] += 30
    assert client.get(url, HTTP_IF_NONE_MATCH=answers[0]["ETag"]).status_code == 200  # but every 30 s they do


def test_redis_is_tried_again_after_the_retry_period(settings, dead_cache, caplog, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(resilient_cache.time, "monotonic", lambda: clock[0])
    attempts = []
    client_class = type(cache._cache)
    real = client_class.get_client

    def counted(self, *args, **kwargs):
        attempts.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(client_class, "get_client", counted)
    assert cache.get("x", "absent") == "absent"
    assert cache.get("x", "absent") == "absent"
    assert len(attempts) == 1  # the breaker is open: no second connection attempt
    clock[0] += 31
    assert cache.get("x", "absent") == "absent"
    assert len(attempts) == 2
    assert len(outage_lines(caplog)) == 1  # still down: no new line


def text(response):
    """The page without its per-request CSRF token and the live pages' version (the cache's, or the clock's)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())
    return re.sub(r'data-live-version="[^"]*"', "", html)


def redis_answers():
    import redis

    try:
        redis.Redis.from_url(LIVE_REDIS, socket_connect_timeout=1).ping()
    except redis.exceptions.RedisError as exc:
        return str(exc)
    return ""


@pytest.fixture
def live_cache(settings):
    reason = redis_answers()
    if reason:
        pytest.skip(f"needs Redis at {LIVE_REDIS}: {reason}")
    settings.CACHES = caches_for(LIVE_REDIS)
    cache.clear()
    yield
    cache.clear()


def test_pages_cached_before_an_outage_are_dropped_when_redis_answers_again(
    client, director, live_cache, caplog, monkeypatch, django_assert_num_queries
):
    """A result saved while Redis was down could not drop the cached pages: they must not come back with Redis."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    from tournaments.rounds.results import game_record_result

    t = build_tournament(slug="volta-do-redis", players=8, rounds=1, user=director, complete_last=False)
    url = reverse("public:round", args=[t.slug, 1])
    before = text(client.get(url))
    assert SAVED not in before
    assert text(client.get(url)) == before  # cached

    clock = [1000.0]
    monkeypatch.setattr(resilient_cache.time, "monotonic", lambda: clock[0])
    client_class = type(cache._cache)
    real_get_client = client_class.get_client

    def down(self, *args, **kwargs):
        raise RedisConnectionError("Connection refused (injected)")

    monkeypatch.setattr(client_class, "get_client", down)
    board = Board.objects.get(round__tournament=t, round__number=1, number=1)
    game_record_result(board=board, results={1: "1-0", 2: "0-1"}, expected_version=board.version, user=director)
    during = text(client.get(url))
    assert SAVED in during  # computed from the database

    monkeypatch.setattr(client_class, "get_client", real_get_client)
    assert text(client.get(url)) == during  # the breaker is open: still computed, not cached
    clock[0] += 31
    after = text(client.get(url))
    assert SAVED in after, "the page cached before the outage came back"
    messages = [r.getMessage() for r in outage_lines(caplog)]
    assert messages == [
        "cache unreachable (ConnectionError: Connection refused (injected)): pages are computed without it; "
        "next try in 30 s",
        "cache reachable again after 31 s; the pages cached before were dropped",
    ]
    with django_assert_num_queries(0):
        assert text(client.get(url)) == after  # and cached again


def test_with_redis_down_wrong_player_codes_still_make_the_phone_wait(client, director, dead_cache, frozen_clock):
    """The players' wrong-code counts are in the database: the bound holds while the cache is down (issue 34.2:
    growing waits for that address, none for the others)."""
    from tournaments.models import AttemptCounter, Entry, PlayerCode
    from tournaments.reporting import services

    t = build_tournament(slug="codigos-sem-redis", players=6, rounds=2, user=director, complete_last=False)
    services.codes_issue(tournament=t, user=director)
    url = reverse("public:my_board_sign_in", args=[t.slug])
    for _ in range(services.PIN_BOUND.free + 1):
        r = client.post(url, {"code": "ZZZZZZ"}, REMOTE_ADDR="10.9.8.7")
        assert "Código desconhecido. Confira o código do seu cartão (6 letras e algarismos)." in r.content.decode()
    assert AttemptCounter.objects.get(tournament=t, subject="10.9.8.7").failures == services.PIN_BOUND.free + 1
    pin = PlayerCode.objects.get(entry=Entry.objects.filter(tournament=t).first()).pin
    r = client.post(url, {"code": pin}, REMOTE_ADDR="10.9.8.7")  # the right code, while this phone waits
    assert r.status_code == 429
    assert "Muitos códigos errados desta conexão. Tente de novo em 2 segundos" in r.content.decode()
    r = client.post(url, {"code": pin}, REMOTE_ADDR="10.9.8.8")  # another phone at the venue does not wait
    assert r.status_code == 302


def test_clearing_the_cache_keeps_another_sites_keys(settings, live_cache):
    """``cache.clear()`` deletes this site's keys only: Django's RedisCache flushes the whole database, which
    emptied the pages of another site (or another test process) sharing it."""
    from django.core.cache import caches

    from tests.conftest import CACHE_KEY_PREFIX

    assert cache.key_prefix == CACHE_KEY_PREFIX  # this test process's own keys
    settings.CACHES = {
        **settings.CACHES,
        "neighbour": {**settings.CACHES["default"], "KEY_PREFIX": f"{CACHE_KEY_PREFIX}-neighbour"},
    }
    neighbour = caches["neighbour"]
    try:
        cache.set("page", "mine")
        neighbour.set("page", "theirs")
        cache.clear()
        assert cache.get("page") is None
        assert neighbour.get("page") == "theirs"
    finally:
        neighbour.clear()
    assert neighbour.get("page") is None
