"""A throw-away production site: its own database, static files and gunicorn, on a free 127.0.0.1 port.

Used by the production tests and by ``bench/load.py``. No Django import here: everything Django runs in the
subprocesses (manage.py, gunicorn), with the production environment (``DJANGO_ENV=production``).

The database is created for the site and dropped at the end: a fresh PostgreSQL database on the given server,
or a temporary SQLite file. Static files are collected into the site's temporary folder (a settings module that
only moves ``STATIC_ROOT``), never into the project's ``staticfiles/``.
"""

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))

# The demo's tournament and login (tournaments/setup/demo.py; the tests check these still match). The site's director
# login gets this password at its first run (``demo_login --password``; a venue's gets one typed or generated).
DEMO_SLUG = "circuito-recife-2026"
DEMO_USERNAME = "diretor"
DEMO_PASSWORD = "senha-do-site-de-teste"

ACCESS_LINE = re.compile(
    r'"(?P<method>[A-Z]+) (?P<path>\S+) [^"]*" (?P<status>\d{3}) \S+ \S+ pid <?(?P<pid>\d+)>? "(?P<agent>[^"]*)"'
)
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def redis_unreachable(url):
    """None when a Redis server answers PING at ``url``, else the reason (for a skip message)."""
    try:
        import redis
    except ImportError as exc:  # pragma: no cover - redis is in requirements.txt
        return f"the redis client is not installed ({exc})"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2).ping()
    except Exception as exc:
        return f"Redis is unreachable at {url}: {type(exc).__name__}: {exc}"
    return None


def delete_prefixed(url, prefix):
    """Delete the keys of one site (``CACHE_KEY_PREFIX``) from the Redis database at ``url``; returns how many.
    Another site's or test run's keys in the same database stay (never FLUSHDB)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=5)
    deleted = 0
    batch = []
    for key in client.scan_iter(match=f"{prefix}:*", count=500):
        batch.append(key)
        if len(batch) == 500:
            deleted += client.delete(*batch)
            batch = []
    if batch:
        deleted += client.delete(*batch)
    return deleted


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Database:
    """A fresh database: ``Database.postgres(server_url)`` or ``Database.sqlite(folder)``; ``drop()`` at the end."""

    def __init__(self, url, kind, drop):
        self.url, self.kind, self._drop = url, kind, drop

    @classmethod
    def sqlite(cls, folder):
        path = Path(folder) / "site.sqlite3"
        return cls(f"sqlite:///{path}", "sqlite", lambda: path.unlink(missing_ok=True))

    @classmethod
    def postgres(cls, host="127.0.0.1", port=5432, user="postgres", password=""):
        import psycopg

        name = f"damas_prod_{uuid.uuid4().hex[:10]}"
        params = {
            "host": host or "127.0.0.1",
            "port": int(port or 5432),
            "user": user or "postgres",
            "password": password or None,
            "dbname": "postgres",
            "autocommit": True,
            "connect_timeout": 5,
        }
        with psycopg.connect(**params) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop():
            with psycopg.connect(**params) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        auth = f"{params['user']}:{password}@" if password else f"{params['user']}@"
        return cls(f"postgres://{auth}{params['host']}:{params['port']}/{name}", "postgresql", drop)

    def drop(self):
        self._drop()

    def query(self, sql):
        """Rows of a read-only query, straight from the database (what the app servers wrote)."""
        if self.kind == "sqlite":
            import sqlite3

            with sqlite3.connect(self.url.removeprefix("sqlite:///")) as conn:
                return conn.execute(sql).fetchall()
        import psycopg

        with psycopg.connect(self.url.replace("postgres://", "postgresql://", 1)) as conn:
            return conn.execute(sql).fetchall()


class Site:
    """Migrate + demo + collectstatic, then ``start()`` gunicorn with ``config/gunicorn.py``; ``stop()`` it.

    With a Redis cache the site's keys carry a prefix of its own (``cache_prefix``), so that two runs sharing a Redis
    database never see or delete each other's keys: ``clear_cache()`` deletes this site's keys alone."""

    def __init__(self, database, folder, redis_url="", workers=2, extra_env=None, root=ROOT):
        """``root``: the checkout whose code the site runs (another one's, to compare two versions)."""
        self.db, self.folder, self.root = database, Path(folder), Path(root)
        self.workdir = self.folder / "cwd"  # the servers' current folder: must stay empty (no local state)
        self.tmpdir = self.folder / "tmp"  # their TMPDIR: must stay empty too
        self.static_root = self.folder / "static"
        self.access_log = self.folder / "access.log"
        self.error_log = self.folder / "error.log"
        for d in (self.workdir, self.tmpdir):
            d.mkdir(parents=True, exist_ok=True)
        settings_dir = self.folder / "settings"
        settings_dir.mkdir(exist_ok=True)
        (settings_dir / "site_settings.py").write_text(
            "from config.settings import *  # noqa: F401,F403  (the production settings, unchanged)\n"
            f"STATIC_ROOT = {str(self.static_root)!r}\n"
        )
        self.port = free_port()
        self.redis_url = redis_url
        self.cache_prefix = f"damas-site-{uuid.uuid4().hex[:12]}"
        self.workers = workers
        self.proc = None
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "GUNICORN_", "PYTEST", "REDIS_"))},
            "PYTHONPATH": os.pathsep.join([str(self.root), str(settings_dir)]),
            "DJANGO_SETTINGS_MODULE": "site_settings",
            "DJANGO_ENV": "production",
            "SECRET_KEY": "prod-test-" + uuid.uuid4().hex + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": database.url,
            "REDIS_URL": redis_url,
            "CACHE_KEY_PREFIX": self.cache_prefix,
            "TMPDIR": str(self.tmpdir),
            "LOG_LEVEL": "WARNING",
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": str(workers),
            "GUNICORN_ACCESS_LOG": str(self.access_log),
            "GUNICORN_ERROR_LOG": str(self.error_log),
            **(extra_env or {}),
        }
        if not redis_url:
            self.env.pop("REDIS_URL")
            self.env.pop("CACHE_KEY_PREFIX")
        self.env.pop("DEBUG", None)

    def clear_cache(self):
        """Delete this site's keys from its Redis database (nothing else there); returns how many."""
        return delete_prefixed(self.redis_url, self.cache_prefix) if self.redis_url else 0

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args, timeout=300):
        proc = subprocess.run(
            [PYTHON, str(self.root / "manage.py"), *args],
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        return proc.stdout

    def prepare(self):
        self.manage("migrate", "--noinput", "-v", "0")
        self.manage("demo")
        self.manage("demo_login", "--password", DEMO_PASSWORD)
        self.manage("collectstatic", "--noinput", "-v", "0")

    def start(self, ready_timeout=40):
        out = open(self.folder / "gunicorn.out", "wb")  # noqa: SIM115 (the server writes to it until stop())
        self.proc = subprocess.Popen(
            [GUNICORN, "-c", str(self.root / "config" / "gunicorn.py"), "config.wsgi"],
            cwd=self.workdir,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        out.close()
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}:\n{self.logs()}")
            try:
                if request(self.port, "GET", "/", timeout=5).status == 200 and len(self.worker_pids()) == self.workers:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer within {ready_timeout} s:\n{self.logs()}")

    def worker_pids(self):
        """The pids of the master's worker processes (children of the gunicorn process started here)."""
        pids = set()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                pids.add(int(stat.parent.name))
        return pids

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)  # only the master started here; it stops its own workers
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def logs(self):
        parts = []
        for name in ("gunicorn.out", "error.log"):
            path = self.folder / name
            if path.exists():
                parts.append(f"--- {name}\n" + path.read_text(errors="replace")[-6000:])
        return "\n".join(parts)

    def access_entries(self, until=None, timeout=5.0):
        """(method, path, status, worker pid, user agent) of every request in the access log so far.

        A worker writes its log line after the response has left, so a client can be faster than the log:
        with ``until`` (a test on the entries) the log is read again until the test passes or ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            out = []
            if self.access_log.exists():
                for line in self.access_log.read_text(errors="replace").splitlines():
                    m = ACCESS_LINE.search(line)
                    if m:
                        out.append((m["method"], m["path"], int(m["status"]), int(m["pid"]), m["agent"]))
            if until is None or until(out) or time.monotonic() > deadline:
                return out
            time.sleep(0.05)


class Worker:
    """``manage.py db_worker`` beside a site's gunicorn, as ``make run`` starts it: the site's environment (its
    database, its cache), polling the queue every ``interval`` seconds, its output in the site's ``worker.out``.
    ``stop()`` sends SIGTERM (it finishes the task in hand), and kills it if it is still there 20 s later."""

    def __init__(self, site, interval=0.5):
        self.site = site
        self.log = open(site.folder / "worker.out", "wb")  # noqa: SIM115 (written until stop())
        self.proc = subprocess.Popen(
            [
                PYTHON,
                str(site.root / "manage.py"),
                "db_worker",
                "--no-reload",
                "--interval",
                str(interval),
                "--no-startup-delay",
            ],
            cwd=site.root,
            env=site.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.log.close()


class Response:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name, default=None):
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        return values[0] if values else default

    def headers_named(self, name):
        return [v for k, v in self.headers if k.lower() == name.lower()]

    @property
    def text(self):
        return self.body.decode("utf-8", errors="replace")


def request(port, method, path, headers=None, body=None, timeout=30, source=None):
    """One request on a new connection (the sync workers close it after each answer); ``source``: the local
    address to connect from (any 127.x.y.z works on Linux: a second client on the same machine)."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0) if source else None
    )
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return Response(resp.status, resp.getheaders(), resp.read())
    finally:
        conn.close()


def normalized(html):
    """A page without its per-request CSRF token: what two workers serving the same data both send."""
    return CSRF_INPUT.sub("", html)


class Browser:
    """Cookies kept by hand, as a browser behind the TLS-terminating load balancer would (``X-Forwarded-Proto``:
    the production settings mark cookies Secure and check the Origin/Referer of HTTPS posts)."""

    def __init__(self, port, source=None):
        self.port, self.source = port, source
        self.cookies = {}
        self.origin = f"https://127.0.0.1:{port}"

    def _headers(self, extra=None):
        headers = {"X-Forwarded-Proto": "https", "Accept-Language": "pt-BR"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        headers.update(extra or {})
        return headers

    def _keep(self, resp):
        for raw in resp.headers_named("Set-Cookie"):
            jar = SimpleCookie()
            jar.load(raw)
            for key, morsel in jar.items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = morsel.value
        return resp

    def get(self, path, timeout=30):
        return self._keep(request(self.port, "GET", path, self._headers(), timeout=timeout, source=self.source))

    def post(self, path, data, timeout=60):
        body = urlencode(data, doseq=True).encode()
        headers = self._headers(
            {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin, "Referer": self.origin + path}
        )
        return self._keep(request(self.port, "POST", path, headers, body, timeout=timeout, source=self.source))

    def csrf(self, html):
        m = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        if not m:
            raise AssertionError("no CSRF token in the page")
        return m.group(1)

    def login(self, username=DEMO_USERNAME, password=DEMO_PASSWORD):
        page = self.get("/entrar/")
        assert page.status == 200, page.status
        resp = self.post(
            "/entrar/",
            {
                "csrfmiddlewaretoken": self.csrf(page.text),
                "username": username,
                "password": password,
                "next": "/gestao/",
            },
        )
        if resp.status != 302 or "sessionid" not in self.cookies:
            raise AssertionError(f"login refused: {resp.status} {resp.text[:500]}")
        return resp


class Balancer:
    """A load balancer in front of ``site``, as small as it gets: a threaded HTTP server on its own 127.0.0.1 port
    that passes every request on to gunicorn, appending the client's address to ``X-Forwarded-For`` (as nginx's
    ``$proxy_add_x_forwarded_for`` and the cloud balancers do). ``with Balancer(site) as lb: lb.port``."""

    def __init__(self, site):
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        target = site.port

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def _forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "x-forwarded-for")}
                forwarded = self.headers.get("X-Forwarded-For")
                client = self.client_address[0]
                headers["X-Forwarded-For"] = f"{forwarded}, {client}" if forwarded else client
                resp = request(target, self.command, self.path, headers, body)
                self.send_response_only(resp.status)
                for name, value in resp.headers:
                    if name.lower() not in ("connection", "transfer-encoding", "server", "date"):
                        self.send_header(name, value)
                self.end_headers()
                self.wfile.write(resp.body)

            do_GET = do_POST = do_HEAD = _forward

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]

    def __enter__(self):
        import threading

        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


RESULT_FIELD = re.compile(r'name="b(\d+)_(v|g\d+)"(?:[^>]*?value="([^"]*)")?')


def results_form(html):
    """{board_id: {"v": version, "g1": typed, "g2": typed}} from the staff results page."""
    boards = {}
    for m in RESULT_FIELD.finditer(html):
        boards.setdefault(int(m.group(1)), {})[m.group(2)] = m.group(3) or ""
    return boards


def results_path(slug, number):
    return f"/gestao/t/{slug}/rodada/{number}/resultados/"


def host_of(url):
    return urlsplit(url).hostname


def temp_folder(prefix="damas-prod-"):
    return tempfile.mkdtemp(prefix=prefix)
