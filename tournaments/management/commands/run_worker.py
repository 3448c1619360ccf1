"""``manage.py run_worker``: the background worker (django-tasks' database queue) that outlives database outages.

``manage.py db_worker`` ends at the first database error while it waits for work (a 5-second PostgreSQL outage
ended it, issue 34.6). This command runs the same worker (django-tasks-db's ``Worker``, in batch mode: every task
due, then back here) in a loop that, on a lost or refused connection, closes the connections, waits (1 s, doubling
up to ``--max-wait``) and starts again; a task the outage interrupted is failed by the library and, for a stage's
verification, taken up again by the sweep (a lease that expired, issue 34.5). Every ``--sweep`` seconds, and at
start, it runs that sweep (``tasks.verification_resume`` at the federation).

``--supervise`` (``make run``): run the worker as a child process and start it again whenever it ends for any
reason (a crash, a kill, an error this loop does not catch), after a short wait; SIGTERM or Ctrl+C stop both. In
production systemd supervises it instead (``deploy/systemd/damas-worker.service``, ``Restart=always``).
"""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import InterfaceError, OperationalError, close_old_connections, connections
from django.utils.crypto import get_random_string

log = logging.getLogger("tournaments.worker")

OUTAGE_ERRORS = (OperationalError, InterfaceError)  # the connection failed, was lost or was refused
RESTART_WAIT = 2.0  # seconds before a supervised worker that ended is started again


def sweep() -> None:
    """Work left behind by a worker that died: at the federation, the verifications whose lease expired."""
    if settings.DAMAS_ROLE == "federation":
        from tournaments.federation.tasks import verification_resume

        verification_resume()


class Command(BaseCommand):
    help = (
        "O worker de segundo plano (fila do django-tasks no banco), que sobrevive a quedas do banco de dados: "
        "espera e reconecta. Com --supervise, reinicia o worker sempre que ele parar (make run)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--interval", type=float, default=1.0, help="segundos entre duas consultas à fila")
        parser.add_argument("--max-wait", type=float, default=30.0, help="espera máxima entre tentativas de reconexão")
        parser.add_argument("--sweep", type=float, default=60.0, help="segundos entre duas varreduras")
        parser.add_argument("--supervise", action="store_true", help="reinicia o worker sempre que ele parar")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["supervise"]:
            self.supervise(options)
        else:
            self.work(options["interval"], options["max_wait"], options["sweep"])

    def supervise(self, options: dict[str, Any]) -> None:
        argv = [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_worker"]
        argv += ["--interval", str(options["interval"]), "--max-wait", str(options["max_wait"])]
        argv += ["--sweep", str(options["sweep"])]
        stopping = False
        child: subprocess.Popen[bytes] | None = None

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True
            if child is not None and child.poll() is None:
                child.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while not stopping:
            child = subprocess.Popen(argv)
            code = child.wait()
            if stopping:
                break
            self.stderr.write(f"worker terminou (código {code}); reiniciando em {RESTART_WAIT:.0f} s")
            time.sleep(RESTART_WAIT)

    def work(self, interval: float, max_wait: float, sweep_every: float) -> None:
        from django_tasks_db.compat import DEFAULT_TASK_BACKEND_ALIAS, DEFAULT_TASK_QUEUE_NAME
        from django_tasks_db.management.commands.db_worker import Worker

        worker = Worker(
            queue_names=[DEFAULT_TASK_QUEUE_NAME],
            interval=interval,
            batch=True,
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=False,
            max_tasks=None,
            worker_id=get_random_string(32),
            excluded_queue_names=[],
        )
        worker.configure_signals()
        wait, down_since, next_sweep = 1.0, None, 0.0
        while worker.running:
            try:
                close_old_connections()
                if time.monotonic() >= next_sweep:
                    sweep()
                    next_sweep = time.monotonic() + sweep_every
                worker.run()  # every task due, then back here
            except OUTAGE_ERRORS as exc:
                if down_since is None:
                    down_since = time.monotonic()
                    log.error("worker: database unreachable (%s: %s); trying again", type(exc).__name__, exc)
                connections.close_all()
                time.sleep(wait)
                wait = min(wait * 2, max_wait)
                continue
            if down_since is not None:
                log.warning("worker: database reachable again after %.0f s", time.monotonic() - down_since)
                down_since, wait = None, 1.0
            if worker.running:
                time.sleep(interval)
