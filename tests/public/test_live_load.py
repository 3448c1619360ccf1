"""The live pages under load (issue 34.14, 34.15): the version check every phone makes every 5 s is answered
before the middlewares it does not need (its floor is a cache read and a 304; CPU measured by
bench/live_version.py), the Redis client is built once, and during a cache outage the phones are spread instead of
all fetching their page at the same moment."""

import json
import shutil
import socket
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from config.settings import caches_for
from testkit.builders import build_tournament
from tournaments.core import resilient_cache

ROOT = Path(__file__).resolve().parents[2]
DEAD_PORT = 18203  # in this suite's range; nothing may listen on it
pytestmark = pytest.mark.usefixtures("fresh_cache_state")


@pytest.fixture
def live(db, director):
    return build_tournament(slug="ao-vivo-carga", players=6, rounds=1, user=director)


def test_the_version_check_skips_the_session_auth_and_csrf_middlewares(client, live, monkeypatch):
    from django.contrib.auth.middleware import AuthenticationMiddleware
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.middleware.csrf import CsrfViewMiddleware

    def never(self, *args, **kwargs):
        raise AssertionError("the version check ran a middleware it does not need")

    for cls in (SessionMiddleware, AuthenticationMiddleware, CsrfViewMiddleware):
        monkeypatch.setattr(cls, "process_request", never)
    url = reverse("public:live_version", args=[live.slug])
    client.cookies["sessionid"] = "anything"  # a phone signed in with its card's code: not looked at
    first = client.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    assert first["X-Content-Type-Options"] == "nosniff"  # the security headers' middlewares still ran
    assert first["Content-Security-Policy"].startswith("default-src 'none'")
    assert "Set-Cookie" not in first
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_other_requests_to_the_version_path_go_through_the_stack(client, live):
    url = reverse("public:live_version", args=[live.slug])
    assert client.post(url).status_code == 405
    assert client.get(reverse("public:live_version", args=["nao-existe"])).status_code == 404
    assert client.head(url).status_code == 200


def test_the_redis_client_is_built_once_per_connection_pool():
    """Django's Redis cache built a new redis.Redis (about 170 reply callbacks) for every operation."""
    from django.core.cache.backends.redis import RedisCacheClient

    config = caches_for("redis://127.0.0.1:6379/9")["default"]
    backend = resilient_cache.ResilientRedisCache(config["LOCATION"], config)
    client = backend._cache
    assert isinstance(client, RedisCacheClient)
    assert client.get_client("a") is client.get_client("b", write=True)  # no connection is made to build it


def test_during_a_cache_outage_the_version_check_spreads_the_phones(client, live, settings):
    url = reverse("public:live_version", args=[live.slug])
    assert "Retry-After" not in client.get(url)
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", DEAD_PORT)) != 0, f"port {DEAD_PORT} is in use"
    settings.CACHES = caches_for(f"redis://127.0.0.1:{DEAD_PORT}/8")
    answer = client.get(url)
    assert answer.status_code == 200 and answer["Retry-After"] == "30"
    assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"])["Retry-After"] == "30"


SCRIPT = """
global.window = {};
global.document = { getElementById: function () { return null; } };
require(process.argv[1]);
var s = window.damasLive, out = {};
out.wait = [0, 0.5, 0.999999].map(function (r) { return s.wait(5000, function () { return r; }); });
out.refetch = [["30", 0], ["30", 0.5], ["30", 0.999], [null, 0.7], ["abc", 0.7], ["0", 0.7], ["9999", 0.5]].map(
  function (c) { return s.refetchAfter(c[0], function () { return c[1]; }); });
var seen = {};
for (var i = 0; i < 1000; i++) seen[Math.floor(s.refetchAfter("30", Math.random) / 1000)] = true;
out.seconds = Object.keys(seen).length;
console.log(JSON.stringify(out));
"""


def test_the_script_spreads_its_checks_and_its_refetches():
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is not installed (the script is run by Node here, outside a browser)")
    out = subprocess.run(
        [node, "-e", SCRIPT, str(ROOT / "static" / "js" / "live.js")], capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert figures["wait"] == [3750, 5000, 6250]  # every wait between 3/4 and 5/4 of the 5 s
    assert figures["refetch"] == [0, 15000, 29970, 0, 0, 0, 60000]  # within the server's period (at most 2 min)
    assert figures["seconds"] == 30  # a thousand phones land on every second of the 30


@pytest.mark.parametrize(
    "name, args, compressed",
    [
        ("public:screen_standings", [], True),  # the venue screen: no form, nothing of the visitor's
        ("public:print_pairings", [1], True),  # a printed page
        ("public:standings", [], False),  # the language form and its CSRF token: never compressed
        ("public:my_board_sign_in", [], False),  # "Minha mesa": a player's own page
    ],
)
def test_public_pages_without_a_form_or_a_secret_are_compressed(client, live, name, args, compressed):
    import gzip

    url = reverse(name, args=[live.slug, *args])
    r = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert r.status_code == 200
    assert (r.get("Content-Encoding") == "gzip") is compressed, url
    if compressed:
        html = gzip.decompress(r.content)
        assert b"<form" not in html and b"csrfmiddlewaretoken" not in html and live.name.encode() in html
        # with a session (a player signed in on this phone, a staff member) nothing is compressed
        client.cookies["sessionid"] = "x"
        assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").get("Content-Encoding") is None
