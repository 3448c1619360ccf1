"""Benchmark: the public standings page of a 300-player, 9-round micro-match tournament.

    .venv/bin/python bench/public_pages.py [--players 300] [--rounds 9] [--seconds 5] [--workers 4]

1. Uncached render time (in process, through the whole middleware stack, cache cleared before every request),
   best and median of 15: target < 100 ms on 2 cores. The standings computation alone is shown too.
2. Requests per second of the cached page under gunicorn (started here, bound to 127.0.0.1 only, stopped at
   the end) with 8 concurrent clients (a small asyncio client, bounded in time and count): target >= 500/s.

The tournament is built with bulk inserts into a throw-away SQLite file (``BENCH_DATABASE_URL`` to use
another database), never into the project's database.
"""
import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DB_FILE = Path(tempfile.gettempdir()) / "damas_bench_public.sqlite3"
DB_URL = os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{DB_FILE}")
os.environ["DATABASE_URL"] = DB_URL
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
os.environ["DEBUG"] = "0"

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

SLUG = "bench-publico-300"


def build(players, rounds):
    from tests.public.builders import build_tournament
    from tournaments.models import Tournament

    if DB_URL.startswith("sqlite") and DB_FILE.exists():
        DB_FILE.unlink()
    call_command("migrate", verbosity=0, interactive=False)
    Tournament.objects.filter(slug=SLUG).delete()
    t0 = time.perf_counter()
    t = build_tournament(slug=SLUG, players=players, rounds=rounds, planned_rounds=rounds, name="Bench 300")
    print(f"built {players} players x {rounds} rounds in {time.perf_counter() - t0:.1f} s ({DB_URL.split(':')[0]})")
    return t


def uncached(t, runs=15):
    from tournaments.views.public import standings_table

    client = Client()
    url = f"/t/{t.slug}/classificacao/"
    client.get(url)  # imports, template loading
    times = []
    for _ in range(runs):
        cache.clear()
        with CaptureQueriesContext(connection) as ctx:
            t0 = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - t0)
        assert response.status_code == 200, response.status_code
        queries = len(ctx.captured_queries)  # read now: the next request resets the query log
    compute = []
    for _ in range(5):
        t0 = time.perf_counter()
        standings_table(t)
        compute.append(time.perf_counter() - t0)
    cached = []
    for _ in range(50):
        t0 = time.perf_counter()
        client.get(url)
        cached.append(time.perf_counter() - t0)
    print(f"uncached standings page: best {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms "
          f"(target < 100 ms), {queries} queries, {len(response.content) // 1024} KB; "
          f"of which standings computation {min(compute) * 1000:.0f} ms; "
          f"cached in process: median {statistics.median(cached) * 1000:.1f} ms")
    return url


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def fetch(host, port, path):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    data = await reader.read()
    writer.close()
    return data[:12] == b"HTTP/1.1 200" or data[:12] == b"HTTP/1.0 200"


async def load(host, port, path, clients, seconds, max_requests):
    done = errors = 0
    deadline = time.perf_counter() + seconds

    async def worker():
        nonlocal done, errors
        while time.perf_counter() < deadline and done + errors < max_requests:
            try:
                ok = await asyncio.wait_for(fetch(host, port, path), timeout=10)
            except (OSError, asyncio.TimeoutError):
                ok = False
            if ok:
                done += 1
            else:
                errors += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return done, errors, time.perf_counter() - t0


def served(path, workers, seconds, clients=8):
    port = free_port()
    env = dict(os.environ)
    proc = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi:application", "-b", f"127.0.0.1:{port}",
         "-w", str(workers), "--log-level", "warning", "--timeout", "30"],
        cwd=ROOT, env=env,
    )
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        # warm every worker's cache (the default cache is per process)
        asyncio.run(load("127.0.0.1", port, path, clients, 30, 30 * workers))
        done, errors, elapsed = asyncio.run(load("127.0.0.1", port, path, clients, seconds, 200_000))
        print(f"gunicorn, {workers} workers, {clients} concurrent clients on 127.0.0.1, cached standings page: "
              f"{done / elapsed:.0f} requests/s ({done} in {elapsed:.1f} s, {errors} errors; target >= 500/s)")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main():
    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (other work on the "
          f"machine slows every figure below)")
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--no-server", action="store_true")
    args = parser.parse_args()
    t = build(args.players, args.rounds)
    path = uncached(t)
    connection.close()
    if not args.no_server:
        served(path, args.workers, args.seconds)
    if DB_URL.startswith("sqlite") and DB_FILE.exists():
        DB_FILE.unlink()


if __name__ == "__main__":
    main()
