"""The venue's console (issue 37.10): `make run` serves with manage.py serve, which prints the addresses to open
once it listens and says a taken port in Portuguese; a refusal (an arbiter's 403, a request naming a host the site
does not answer) is one line on the console, not a 13-line traceback; no development banner."""

import http.client
import io
import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from testkit.server import free_port
from tournaments.core.log_filters import RefusalsOnOneLine

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def console():
    """What the console handler of the settings' LOGGING prints, while the test runs."""
    handler = next(h for h in logging.getLogger().handlers if any(isinstance(f, RefusalsOnOneLine) for f in h.filters))
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        yield stream
    finally:
        handler.setStream(old)


@pytest.mark.django_db
def test_an_arbiters_403_and_an_unknown_host_are_one_line_each(console, make_tournament, django_user_model):
    t = make_tournament()
    arbiter = django_user_model.objects.create_user("arbitro", password="x-senha-123")
    t.roles.create(user=arbiter, role="arbiter")
    client = Client()
    client.force_login(arbiter)
    assert client.get(reverse("staff:settings", args=[t.slug])).status_code == 403
    assert Client().get("/", HTTP_HOST="scanner.example").status_code == 400
    lines = console.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert "Forbidden (Permission denied): /gestao/t/" in lines[0]
    assert "Invalid HTTP_HOST header: 'scanner.example'" in lines[1]
    assert "Traceback" not in console.getvalue()


@pytest.mark.django_db
def test_an_internal_error_keeps_its_traceback(console):
    try:
        raise ValueError("quebrou")
    except ValueError:
        logging.getLogger("django.request").error(
            "Internal Server Error: /x", exc_info=True, extra={"status_code": 500}
        )
    assert "Traceback" in console.getvalue() and "ValueError: quebrou" in console.getvalue()


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    path = tmp_path_factory.mktemp("serve") / "venue.sqlite3"
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATABASE_URL=f"sqlite:///{path}", LAN="0", DEBUG="0", PYTHONUNBUFFERED="1")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    return env


def test_the_addresses_are_printed_once_the_server_listens_without_a_banner(database):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=database,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = proc.stdout.readline()
        assert first == "Servindo (Ctrl+C para parar):\n"
        with socket.create_connection(("127.0.0.1", port), timeout=5):  # listening when it says so
            pass
        assert proc.stdout.readline().split() == [f"http://127.0.0.1:{port}/", "neste", "computador"]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/", headers={"Host": "scanner.example"})
        assert conn.getresponse().status == 400
        conn.close()
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    assert "production" not in out + err and "Starting development server" not in out + err
    # the unknown host: one line, no traceback, no line per request ('"GET / HTTP/1.1" 400 ...')
    assert [line for line in err.splitlines() if line.strip()] == [
        next(line for line in err.splitlines() if "Invalid HTTP_HOST header: 'scanner.example'" in line)
    ]


def test_a_taken_port_is_said_in_portuguese(database):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=database,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1 and time.monotonic() - started < 120
    assert "Servindo" not in done.stdout
    assert done.stderr.strip() == (
        f"CommandError: a porta {port} já está em uso (outro `make run` aberto, ou outro programa). Feche-o, ou "
        f"use outra porta: make run PORT={port + 1}"
    )
