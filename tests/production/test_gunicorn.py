"""The production setup, for real: gunicorn (config/gunicorn.py) with several workers, DJANGO_ENV=production,
WhiteNoise's manifest storage after collectstatic, the Redis cache shared by the workers, sessions in the database.

The site gets its own database on the server the test run uses (a fresh PostgreSQL database when the run is on
PostgreSQL, else a temporary SQLite file), migrated and loaded with the demo, and its own keys in a Redis database
(``PROD_TEST_REDIS_URL``, default redis://127.0.0.1:6379/14): a key prefix of the run's own (``CACHE_KEY_PREFIX``),
deleted at the end, so two runs on one machine share that database without touching each other's keys (nothing is
flushed). Skipped only when that Redis does not answer.
"""

import os
import re
import shutil
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings

from testkit import server as S

REDIS_URL = os.environ.get("PROD_TEST_REDIS_URL", "redis://127.0.0.1:6379/14")
WORKERS = 3
SLUG = S.DEMO_SLUG


@pytest.fixture(scope="module")
def site():
    reason = S.redis_unreachable(REDIS_URL)
    if reason:
        pytest.skip(f"needs Redis for the cache shared by the workers: {reason}")
    folder = S.temp_folder()
    db_settings = settings.DATABASES["default"]
    if db_settings["ENGINE"] == "django.db.backends.postgresql":
        database = S.Database.postgres(
            db_settings.get("HOST"), db_settings.get("PORT"), db_settings.get("USER"), db_settings.get("PASSWORD")
        )
    else:
        database = S.Database.sqlite(folder)
    s = S.Site(database, folder, redis_url=REDIS_URL, workers=WORKERS)
    try:
        s.prepare()
        s.start()
        yield s
    finally:
        s.stop()
        database.drop()
        s.clear_cache()
        shutil.rmtree(folder, ignore_errors=True)


def probe(site, path, copies, headers=None):
    """``copies`` concurrent GETs of ``path``; returns [(worker pid, status, body)] read back from the access log
    (each request carries its own User-Agent, which the access log records next to the worker's pid)."""
    tag = uuid.uuid4().hex[:8]

    def one(i):
        agent = f"probe-{tag}-{i}"
        resp = S.request(site.port, "GET", path, {**(headers or {}), "User-Agent": agent})
        return agent, resp

    with ThreadPoolExecutor(max_workers=min(copies, 12)) as pool:
        answers = dict(pool.map(one, range(copies)))
    entries = site.access_entries(until=lambda rows: answers.keys() <= {agent for *_, agent in rows})
    pids = {agent: pid for _m, _p, _s, pid, agent in entries if agent in answers}
    return [(pids.get(agent), resp.status, resp.text) for agent, resp in answers.items()]


def from_every_worker(site, path, headers=None, attempts=12):
    """Probe until every worker has answered ``path`` at least once; returns {pid: [(status, body), ...]}."""
    workers = site.worker_pids()
    seen = {}
    for _ in range(attempts):
        for pid, status, body in probe(site, path, 3 * len(workers), headers):
            seen.setdefault(pid, []).append((status, body))
        if workers <= set(seen):
            break
    assert workers <= set(seen), f"{path}: answered only by workers {sorted(seen)} of {sorted(workers)}"
    return seen


def public_pages(site):
    players = S.request(site.port, "GET", f"/t/{SLUG}/jogadores/")
    assert players.status == 200, site.logs()
    entry = re.search(rf'href="/t/{SLUG}/jogadores/(\d+)/"', players.text)
    assert entry, "no player link on the players page"
    return [
        "/",
        f"/t/{SLUG}/",
        f"/t/{SLUG}/classificacao/",
        f"/t/{SLUG}/emparceiramento/",
        f"/t/{SLUG}/tabela-cruzada/",
        f"/t/{SLUG}/jogadores/",
        f"/t/{SLUG}/jogadores/{entry.group(1)}/",
        f"/t/{SLUG}/rodadas/4/",
    ]


def test_demo_constants_match():
    from tournaments.setup import demo

    assert (S.DEMO_SLUG, S.DEMO_USERNAME) == (demo.DEMO_SLUG, demo.DEMO_USERNAME)


def test_several_workers_are_up(site):
    assert len(site.worker_pids()) == WORKERS


def test_static_files_served_by_whitenoise_with_far_future_cache(site):
    home = S.request(site.port, "GET", "/")
    links = re.findall(r'(?:href|src)="(/static/[^"]+)"', home.text)
    hashed = [u for u in links if re.search(r"\.[0-9a-f]{12}\.(css|js|svg|png|ico)$", u)]
    assert hashed, f"no hashed (manifest) static URL in the page: {links}"
    for url in hashed:
        resp = S.request(site.port, "GET", url, {"Accept-Encoding": "gzip"})
        assert resp.status == 200, url
        cache_control = resp.header("Cache-Control", "")
        assert "max-age=315360000" in cache_control and "immutable" in cache_control, (url, cache_control)
        if url.endswith((".css", ".js", ".svg")):
            assert resp.header("Content-Encoding") == "gzip", (url, resp.headers)
    # The unhashed name still answers, but may change at the next deploy: a short cache only.
    plain = re.sub(r"\.[0-9a-f]{12}\.", ".", hashed[0])
    resp = S.request(site.port, "GET", plain)
    assert resp.status == 200
    assert "315360000" not in resp.header("Cache-Control", ""), resp.header("Cache-Control")

    # Nothing static is left for a separate file server: every static request went through the app servers.
    def ok_paths(rows):
        return {path for _m, path, status, _pid, _a in rows if status == 200}

    served = ok_paths(site.access_entries(until=lambda rows: set(hashed) <= ok_paths(rows)))
    assert set(hashed) <= served


def test_production_security_headers(site):
    resp = S.request(site.port, "GET", "/", {"X-Forwarded-Proto": "https"})
    assert resp.status == 200
    assert "max-age=31536000" in resp.header("Strict-Transport-Security", "")
    assert resp.header("X-Content-Type-Options") == "nosniff"
    assert resp.header("X-Frame-Options") == "DENY"
    # DEBUG is off: an unknown page is a plain 404, no traceback or URL list.
    missing = S.request(site.port, "GET", "/t/nao-existe/classificacao/")
    assert missing.status == 404
    assert "urlpatterns" not in missing.text and "Traceback" not in missing.text


def test_public_pages_answer_200_from_every_worker(site):
    for path in public_pages(site):
        answers = from_every_worker(site, path)
        bad = [(pid, status) for pid, got in answers.items() for status, _b in got if status != 200]
        assert not bad, f"{path}: {bad}\n{site.logs()}"


def test_a_session_opened_on_one_worker_works_on_every_worker(site):
    browser = S.Browser(site.port)
    browser.login()
    key = browser.cookies["sessionid"]
    assert site.db.query(f"SELECT count(*) FROM django_session WHERE session_key = '{key}'") == [(1,)]
    cookie = {"Cookie": f"sessionid={key}", "X-Forwarded-Proto": "https"}
    answers = from_every_worker(site, "/gestao/", cookie)
    for pid, got in answers.items():
        assert [status for status, _b in got] == [200] * len(got), pid
        assert all(S.DEMO_USERNAME in body for _s, body in got)


def test_a_result_saved_through_one_worker_is_seen_through_every_worker(site):
    site.manage("pair_round", SLUG)  # round 5, published; bumps the cache version in Redis from the command
    round_page = f"/t/{SLUG}/rodadas/5/"
    before = from_every_worker(site, round_page)
    bodies = {S.normalized(body) for got in before.values() for status, body in got if status == 200}
    assert len(bodies) == 1, f"the workers disagree about round 5 before any result\n{site.logs()}"
    (old,) = bodies

    browser = S.Browser(site.port)
    browser.login()
    path = S.results_path(SLUG, 5)
    page = browser.get(path)
    assert page.status == 200
    form = S.results_form(page.text)
    assert form, "no board on the results page"
    first_board = min(form)
    data = {"csrfmiddlewaretoken": browser.csrf(page.text)}
    for board_id, fields in form.items():
        data[f"b{board_id}_v"] = fields["v"]
        for name in fields:
            if name != "v":
                data[f"b{board_id}_{name}"] = ""
    data[f"b{first_board}_g1"], data[f"b{first_board}_g2"] = "2-0", "1-1"
    saved = browser.post(path, data)
    assert saved.status == 302, saved.text[:2000]
    stored = site.db.query(
        f"SELECT number, result FROM tournaments_game WHERE board_id = {first_board} ORDER BY number"
    )
    assert [r for _n, r in stored] and all(r for _n, r in stored), stored

    # While one request rebuilds the page after the write, the others may get the previous version for that
    # moment (stale-while-revalidate, issue 25.9): every worker must show the result once the rebuild is done.
    for _attempt in range(20):
        after = from_every_worker(site, round_page)
        bodies = {pid: {S.normalized(body) for _s, body in got} for pid, got in after.items()}
        if all(old not in b for b in bodies.values()):
            break
        time.sleep(0.5)
    statuses = {status for got in after.values() for status, _b in got}
    assert statuses == {200}
    assert all(b != {old} and old not in b for b in bodies.values()), "a worker still serves round 5 without the result"
    assert len(set().union(*bodies.values())) == 1, "the workers disagree about round 5 after the result"


def test_every_worker_tells_the_phones_the_same_live_version(site):
    """Live pages behind several app servers (issue 30): the version a phone asks for is the shared cache's, so
    every worker answers the same number, and after a write through any process every worker answers the new
    one (and a 304 to a phone that already has it)."""
    path = f"/t/{SLUG}/versao/"
    before = {body for got in from_every_worker(site, path).values() for status, body in got if status == 200}
    assert len(before) == 1, before
    site.manage(
        "shell",
        "-c",
        "from tournaments.models import Tournament; from tournaments.core import cache; "
        f"cache.bump(Tournament.objects.get(slug={SLUG!r}).pk)",
    )
    after = {body for got in from_every_worker(site, path).values() for status, body in got if status == 200}
    assert len(after) == 1 and int(after.pop()) > int(before.pop())
    etag = S.request(site.port, "GET", path).header("ETag")
    answers = from_every_worker(site, path, headers={"If-None-Match": etag})
    assert {status for got in answers.values() for status, _b in got} == {304}


def test_the_workers_cache_keys_carry_the_runs_own_prefix_and_only_they_are_cleared(site):
    """Another run's keys in the same Redis database (a second `make test` on the machine) are never touched."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    assert S.request(site.port, "GET", f"/t/{SLUG}/classificacao/").status == 200
    ours = set(client.scan_iter(match=f"{site.cache_prefix}:*"))
    assert ours, "the workers wrote no key under the run's prefix"
    other = f"damas-site-other-run-{site.cache_prefix}:1:page"
    client.set(other, b"another run's page", ex=300)
    try:
        assert site.clear_cache() == len(ours)
        assert list(client.scan_iter(match=f"{site.cache_prefix}:*")) == []
        assert client.get(other) == b"another run's page"
    finally:
        client.delete(other)


def test_app_servers_keep_no_state_on_local_disk(site):
    """Sessions are rows in the database, the cache is Redis: the servers' folder and TMPDIR stay empty. The test
    logs in itself (it counted on an earlier test's login, which two test processes may run apart)."""
    S.Browser(site.port).login()
    assert site.db.query("SELECT count(*) FROM django_session")[0][0] >= 1
    assert list(site.workdir.iterdir()) == []
    assert list(site.tmpdir.iterdir()) == []


class Forging(S.Browser):
    """A client that sends an X-Forwarded-For of its own choosing."""

    def __init__(self, port, source, forged):
        super().__init__(port, source)
        self.forged = forged

    def _headers(self, extra=None):
        return {**super()._headers(extra), "X-Forwarded-For": self.forged}


def attempts(site):
    """(login @ address, attempts, wrong ones) of the wrong-password counts of a login at an address (issue 34.3)."""
    rows = site.db.query(
        "SELECT subject, tries, failures FROM tournaments_attemptcounter WHERE kind = 'login-at-address' AND failures > 0"
    )
    return sorted((subject, tries, failures) for subject, tries, failures in rows)


def try_login(browser, password="senha-errada"):
    page = browser.get("/entrar/")
    return browser.post(
        "/entrar/",
        {"csrfmiddlewaretoken": browser.csrf(page.text), "username": S.DEMO_USERNAME, "password": password},
    )


def test_a_lockout_behind_the_balancer_keeps_out_only_that_client(site):
    """Issue 15, item 4: wrong passwords from one client behind the balancer make that client wait (issue 34.3:
    after five, for a growing while); another client behind the same balancer still logs in. A client cannot forge
    its way out with an X-Forwarded-For of its own (the balancer appends the real address, read from the right),
    and a request that does not come from the balancer (FORWARDED_ALLOW_IPS, here 127.0.0.1) is keyed on its own
    address."""
    login = S.DEMO_USERNAME.casefold()
    with S.Balancer(site) as lb:
        mistyping = S.Browser(lb.port, source="127.0.0.2")
        statuses = [try_login(mistyping).status for _ in range(6)]
        assert statuses == [200, 200, 200, 200, 200, 429], statuses  # the fifth set a 5 s wait
        assert try_login(mistyping, S.DEMO_PASSWORD).status == 429  # waiting, even with the right password
        forged = Forging(lb.port, "127.0.0.2", forged="198.51.100.7")
        assert try_login(forged, S.DEMO_PASSWORD).status == 429  # still 127.0.0.2, however it dresses up
        S.Browser(lb.port, source="127.0.0.3").login()  # the login waits for nobody else
        assert attempts(site) == [(f"{login} @ 127.0.0.2", 8, 5)]

    # Straight to gunicorn from 127.0.0.4, not through the balancer: its own X-Forwarded-For is not read.
    direct = Forging(site.port, "127.0.0.4", forged="127.0.0.3")
    assert [try_login(direct).status for _ in range(6)] == [200, 200, 200, 200, 200, 429]
    assert attempts(site) == [(f"{login} @ 127.0.0.2", 8, 5), (f"{login} @ 127.0.0.4", 6, 5)]
    S.Browser(site.port).login()  # and the director at the venue (127.0.0.1) still logs in


def test_the_master_freezes_the_preloaded_app_before_each_fork():
    """config/gunicorn.py's pre_fork moves what the master loaded out of the cyclic collector's reach (a worker's
    full collections then walk only what it allocated itself)."""
    import gc
    import importlib

    config = importlib.import_module("config.gunicorn")
    assert config.preload_app is True
    before = gc.get_freeze_count()
    try:
        config.pre_fork(None, None)
        assert gc.get_freeze_count() > max(before, 10_000)
    finally:
        gc.unfreeze()
