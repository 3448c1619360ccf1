"""Gunicorn settings for production: ``gunicorn -c config/gunicorn.py config.wsgi``.

Every value can be overridden from the environment, so the same file serves a small club laptop and a
load-balanced pool of app servers:

  GUNICORN_BIND          address to listen on (default 127.0.0.1:8000; behind a load balancer on another
                         machine use 0.0.0.0:8000). ``PORT`` alone also works (binds 0.0.0.0:$PORT, as PaaS do).
  WEB_CONCURRENCY        worker processes (default 2 x CPUs + 1, at least 2, at most 12)
  GUNICORN_THREADS       threads per worker (default 1: sync workers; >1 switches to the gthread worker)
  GUNICORN_TIMEOUT       seconds a worker may spend on one request before it is killed and restarted (default 30)
  GUNICORN_MAX_REQUESTS  recycle a worker after this many requests (default 2000, with jitter), which bounds
                         slow memory growth
  GUNICORN_ACCESS_LOG    access log file, ``-`` for standard output (default), empty to turn it off
  GUNICORN_ERROR_LOG     error log file (default ``-``: standard error)
  LOG_LEVEL              gunicorn's log level (default info)
  GUNICORN_CONTROL_SOCKET  path of gunicorn's control socket for ``gunicornc`` (default: none)

The app servers keep no state on local disk: sessions live in the database, the page cache in Redis
(``REDIS_URL``), static files are read-only files served by WhiteNoise. So any number of them can run behind a
load balancer, and one can be restarted at any time.
"""

import gc
import multiprocessing
import os


def _int(name, default):
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


if os.environ.get("GUNICORN_BIND"):
    bind = [b.strip() for b in os.environ["GUNICORN_BIND"].split(",") if b.strip()]
elif os.environ.get("PORT"):
    bind = [f"0.0.0.0:{os.environ['PORT']}"]
else:
    bind = ["127.0.0.1:8000"]

workers = _int("WEB_CONCURRENCY", max(2, min(multiprocessing.cpu_count() * 2 + 1, 12)))
threads = _int("GUNICORN_THREADS", 1)
worker_class = "gthread" if threads > 1 else "sync"

# A results page or a pairing of a big open takes a few seconds at most; anything past 30 s is stuck.
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
# Idle keep-alive connections from the load balancer (only the gthread worker keeps them).
keepalive = _int("GUNICORN_KEEPALIVE", 5)
# Pending connections the kernel queues while every worker is busy (a crowd refreshing the standings).
backlog = _int("GUNICORN_BACKLOG", 2048)

max_requests = _int("GUNICORN_MAX_REQUESTS", 2000)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", max_requests // 10)

# Bounds on what a client may send before Django sees it (headers; the body limit is Django's).
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

# Load the app in the master once, then fork: faster start, less memory, and a broken deploy fails at once.
preload_app = True
# Worker heartbeat files in memory, not on a (possibly slow or read-only) disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = os.environ.get("GUNICORN_ERROR_LOG", "-")
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# Remote address, request, status, size, time in microseconds and the worker's pid (which worker answered).
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(B)s %(D)sus pid %(p)s "%(a)s"'

# Behind a reverse proxy / load balancer on the same network: trust its X-Forwarded-* headers.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
proxy_allow_ips = forwarded_allow_ips

proc_name = "damas-swiss"

# Gunicorn >= 25 opens a control socket at one fixed path per user ($HOME/.gunicorn/gunicorn.ctl): a second
# server on the same machine (a test, a benchmark, a second site) would take it over. Off unless a path is given.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True


def pre_fork(server, worker):
    # Everything the master loaded (Django, the app, its templates: a few hundred thousand objects) lives as long
    # as the worker: frozen out of the cyclic collector's sight, it is no longer walked by every full collection
    # a worker makes (a 1,000-player standings page triggers several: about a third of its time without this),
    # and the pages the fork shares stay shared (the collector writes to every object it walks). CPython's
    # documented recipe for pre-fork servers (gc.freeze).
    gc.collect()
    gc.freeze()


def post_fork(server, worker):
    # Database connections must never be shared across a fork: drop any the master opened while preloading.
    try:
        from django.db import connections

        connections.close_all()
    except Exception:  # pragma: no cover - Django not loaded (preload off)
        server.log.debug("post_fork: Django not loaded in the master, no connection to close", exc_info=True)
