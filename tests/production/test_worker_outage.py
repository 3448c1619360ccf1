"""The background worker outlives the database (issue 34.6): ``manage.py run_worker`` waits out an outage and
reconnects (``manage.py db_worker`` ended at the first error while idle), ``--supervise`` (``make run``) starts it
again when it dies, and production runs it under systemd (``deploy/systemd/damas-worker.service``)."""

import configparser
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from testkit import server as S

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "systemd" / "damas-worker.service"


class Proxy:
    """A TCP proxy to PostgreSQL that can be stopped (connections cut, new ones refused) and started again on the
    same port: a database outage as the worker sees it."""

    def __init__(self, target=("127.0.0.1", 5432)):
        self.target, self.port = target, S.free_port()
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener = None

    def start(self):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.listener.listen(50)
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a, b):
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def stop(self):
        self.listener.close()
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


def _postgres_or_skip():
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=2):
            return
    except OSError as exc:
        pytest.skip(f"PostgreSQL is not running on 127.0.0.1:5432 ({exc}); CI runs this with PostgreSQL")


def enqueue(site, n):
    site.manage(
        "shell",
        "-c",
        f"from tournaments.federation.tasks import verify_submission\nfor i in range({n}): "
        "verify_submission.enqueue(10**9 + i)",
    )


def done(site):
    return site.db.query("select count(*) from django_tasks_database_dbtaskresult where status = 'SUCCESSFUL'")[0][0]


def wait_for(condition, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.postgres
def test_the_worker_survives_a_postgresql_outage():
    """A real outage: the worker's connections cut and refused for 5 s (a proxy in front of PostgreSQL). The idle
    worker keeps running, reconnects, and runs the tasks queued after the database came back."""
    _postgres_or_skip()
    folder = S.temp_folder("damas-worker-outage-")
    db = S.Database.postgres()
    proxy = Proxy()
    proxy.start()
    site = S.Site(db, folder)
    proc = None
    try:
        site.manage("migrate", "--noinput", "-v", "0")
        env = {**site.env, "DATABASE_URL": db.url.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")}
        log = open(Path(folder) / "worker.out", "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            [S.PYTHON, str(ROOT / "manage.py"), "run_worker", "--interval", "0.2", "--max-wait", "1"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        enqueue(site, 2)
        assert wait_for(lambda: done(site) == 2, 60), (Path(folder) / "worker.out").read_text()
        proxy.stop()  # the outage, while the worker is idle
        time.sleep(5)
        assert proc.poll() is None, "the worker ended during the outage:\n" + (Path(folder) / "worker.out").read_text()
        proxy.start()
        enqueue(site, 3)
        assert wait_for(lambda: done(site) == 5, 60), (Path(folder) / "worker.out").read_text()
        assert proc.poll() is None
        out = (Path(folder) / "worker.out").read_text()
        assert "database unreachable" in out and "reachable again" in out
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=20)
        proxy.stop()
        db.drop()
        shutil.rmtree(folder, ignore_errors=True)


def _children(pid):
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def test_make_run_s_supervisor_starts_a_dead_worker_again():
    """``run_worker --supervise`` (what ``make run`` starts): a worker killed outright (SIGKILL) is started again;
    SIGTERM stops the supervisor and its worker."""
    folder = S.temp_folder("damas-worker-supervise-")
    db = S.Database.sqlite(folder)
    site = S.Site(db, folder)
    proc = None
    try:
        site.manage("migrate", "--noinput", "-v", "0")
        proc = subprocess.Popen(
            [S.PYTHON, str(ROOT / "manage.py"), "run_worker", "--supervise", "--interval", "0.2"],
            cwd=ROOT,
            env=site.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert wait_for(lambda: len(_children(proc.pid)) == 1, 30)
        first = _children(proc.pid)[0]
        os.kill(first, signal.SIGKILL)
        assert wait_for(lambda: _children(proc.pid) not in ([], [first]), 30)
        enqueue(site, 1)
        assert wait_for(lambda: done(site) == 1, 60)  # the new worker works
        second = _children(proc.pid)[0]
        proc.terminate()
        proc.wait(timeout=30)
        assert not Path(f"/proc/{second}").exists() or "zombie" in Path(f"/proc/{second}/status").read_text()
        assert "worker terminou (código -9); reiniciando" in proc.stderr.read().decode()
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


def test_the_worker_loop_waits_out_a_database_error(db, monkeypatch, settings):
    """The loop itself, on any database (SQLite too): a database error in the worker is waited out and the worker
    goes on; only a stop signal ends it."""
    from django.db import OperationalError
    from django_tasks_db.management.commands import db_worker

    from tournaments.management.commands import run_worker

    settings.DAMAS_ROLE = "venue"
    calls = []

    def run(self):
        calls.append(time.monotonic())
        if len([c for c in calls if not isinstance(c, tuple)]) <= 2:
            raise OperationalError("server closed the connection unexpectedly")
        self.running = False  # the third run: as if stopped by SIGTERM

    monkeypatch.setattr(db_worker.Worker, "run", run)
    monkeypatch.setattr(db_worker.Worker, "configure_signals", lambda self: None)
    monkeypatch.setattr(run_worker.time, "sleep", lambda s: calls.append(("slept", s)))
    run_worker.Command().work(interval=0.1, max_wait=30, sweep_every=60)
    assert [c for c in calls if isinstance(c, tuple)] == [("slept", 1.0), ("slept", 2.0)]
    assert len([c for c in calls if not isinstance(c, tuple)]) == 3


def test_the_systemd_unit_restarts_the_worker_always():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # keys are case-sensitive in systemd
    unit.read(UNIT)
    service = unit["Service"]
    assert service["Restart"] == "always" and float(service["RestartSec"]) > 0
    exec_start = service["ExecStart"].split()
    assert exec_start[1:3] == ["manage.py", "run_worker"] and "--supervise" not in exec_start  # systemd supervises
    assert (ROOT / "tournaments" / "management" / "commands" / "run_worker.py").exists()
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    docs = (ROOT / "docs" / "production.md").read_text()
    assert "deploy/systemd/damas-worker.service" in docs and "Restart=always" in docs
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return  # the structure above is the test where systemd is absent
    with_paths = (
        UNIT.read_text()
        .replace("/srv/damas-swiss/.venv/bin/python", os.path.realpath(S.PYTHON))
        .replace("/srv/damas-swiss", str(ROOT))
        .replace("/etc/damas-swiss/env", "/dev/null")
    )
    folder = Path(S.temp_folder("damas-unit-"))
    try:
        (folder / "damas-worker.service").write_text(with_paths)
        check = subprocess.run(
            [analyze, "verify", str(folder / "damas-worker.service")], capture_output=True, text=True
        )
        assert check.returncode == 0 and check.stderr.strip() == "", check.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)
