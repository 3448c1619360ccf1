"""Benchmark: the public standings page of a 300-player, 9-round micro-match tournament.

    .venv/bin/python bench/public_pages.py [--players 300] [--rounds 9] [--seconds 5] [--workers N] [--threads T]
    .venv/bin/python bench/public_pages.py --players 1000 --rounds 11 --compare-with f83918a [--repeat 2]

1. Uncached render time (in process, through the whole middleware stack, cache cleared before every request),
   best and median of 15, wall and CPU: target < 100 ms on 2 cores for 300 players, < 150 ms for 1,000 players
   (issue 17: ``--players 1000 --rounds 11``). Measured twice: in this process as it is, then with the heap
   left by start-up frozen (gc.freeze) as a gunicorn worker runs (config/gunicorn.py freezes the preloaded app
   in the master before forking): without it every full collection of the cyclic GC walks all of Django too.
   The standings computation alone is shown too.
2. Requests per second of the cached page under gunicorn (started here, bound to 127.0.0.1 only, stopped at
   the end) with 8 concurrent clients (a small asyncio client, bounded in time and count, keeping connections
   alive when the server allows it, as browsers do): target >= 500/s. Sync workers close every connection;
   gthread workers keep them alive. The server's CPU per request is read from /proc, so the figure can be
   judged on a machine that other work shares. Without REDIS_URL the cache is per process, so pages live 10 s
   there; a last run starts a private redis-server (127.0.0.1, no persistence, stopped at the end) as the shared
   cache production should use.

``--compare-with REF`` measures the uncached page only (1.), for the code of git revision REF (checked out in a
temporary ``git worktree``, removed at the end) and for this tree, each in a fresh process running this same script
(``--uncached-only``) on a database of its own of the same kind (a SQLite file, or a new PostgreSQL database on
``BENCH_DATABASE_URL``'s server, dropped at the end); ``--repeat N`` alternates the two N times. It prints both
side by side, each figure the best of its runs.

The tournament is built with bulk inserts into a throw-away SQLite file (``BENCH_DATABASE_URL`` to use
another database), never into the project's database.
"""

import argparse
import asyncio
import gc
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the tree whose code is measured: this one, or the other revision's worktree of --compare-with
CODE_ROOT = Path(os.environ.get("BENCH_CODE_ROOT", ROOT))
sys.path.insert(0, str(CODE_ROOT))
DB_FILE = Path(tempfile.gettempdir()) / f"damas_bench_public_{os.getpid()}.sqlite3"
DB_URL = os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{DB_FILE}")
os.environ["DATABASE_URL"] = DB_URL
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
os.environ["DEBUG"] = "0"
# Static files are not collected for the bench (the pages are measured, not their CSS): WhiteNoise's
# warning about the missing STATIC_ROOT is noise here, in this process and in gunicorn's.
os.environ["PYTHONWARNINGS"] = "ignore:No directory at"
warnings.filterwarnings("ignore", message="No directory at")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

SLUG = "bench-publico-300"


def build(players, rounds):
    from testkit.builders import build_tournament
    from tournaments.models import Tournament

    if DB_URL.startswith("sqlite") and DB_FILE.exists():
        DB_FILE.unlink()
    call_command("migrate", verbosity=0, interactive=False)
    Tournament.objects.filter(slug=SLUG).delete()
    t0 = time.perf_counter()
    t = build_tournament(slug=SLUG, players=players, rounds=rounds, planned_rounds=rounds, name="Bench 300")
    if connection.vendor == "postgresql":
        # the planner's statistics of the tables just filled, as autovacuum gathers them on a live database: without
        # them it plans for empty tables (nested loops), and autovacuum may gather them in the middle of a run
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(f"built {players} players x {rounds} rounds in {time.perf_counter() - t0:.1f} s ({DB_URL.split(':')[0]})")
    return t


def target_ms(players):
    return 100 if players <= 300 else 150


def standings_alone(t):
    """The standings' read and computation as the page does them (the code of before the redesign too)."""
    try:
        from tournaments.homologation.report import published_standings
        from tournaments.standings.presenters import standings_table
    except ImportError:  # before the redesign (f83918a): one call read and computed
        from tournaments.presenters.standings import standings_table

        return lambda: standings_table(t)
    return lambda: standings_table(t, published_standings(t))


def uncached(t, players, runs=15, cached_too=True):
    compute_standings = standings_alone(t)
    client = Client()
    url = f"/t/{t.slug}/classificacao/"
    client.get(url)  # imports, template loading
    for heap in ("this process as it is", "start-up heap frozen, as in a gunicorn worker"):
        if heap.startswith("start-up"):
            gc.collect()  # what config/gunicorn.py's pre_fork does in the master
            gc.freeze()
        times, cpu = [], []
        for _ in range(runs):
            cache.clear()
            with CaptureQueriesContext(connection) as ctx:
                t0, c0 = time.perf_counter(), time.process_time()
                response = client.get(url)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            assert response.status_code == 200, response.status_code
            queries = len(ctx.captured_queries)  # read now: the next request resets the query log
        compute = []
        for _ in range(5):
            c0 = time.process_time()
            compute_standings()
            compute.append(time.process_time() - c0)
        print(
            f"uncached standings page ({heap}): wall best {min(times) * 1000:.0f} ms, median "
            f"{statistics.median(times) * 1000:.0f} ms; CPU best {min(cpu) * 1000:.0f} ms, median "
            f"{statistics.median(cpu) * 1000:.0f} ms (target < {target_ms(players)} ms for {players} players); "
            f"{queries} queries, {len(response.content) // 1024} KB; of which the standings (DB read + computation, "
            f"tournaments.standings: snapshot read, computation, rows) {min(compute) * 1000:.0f} ms CPU; load average {os.getloadavg()[0]:.1f}"
        )
    gc.unfreeze()
    if not cached_too:
        return url
    cached = []
    for _ in range(50):
        t0 = time.perf_counter()
        client.get(url)
        cached.append(time.perf_counter() - t0)
    print(f"cached standings page, in process: median {statistics.median(cached) * 1000:.1f} ms")
    return url


def server_cpu(master_pid):
    """CPU seconds (user + system) used so far by gunicorn's master and its workers, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        if pid == master_pid or ppid == master_pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Connection:
    """One client's HTTP/1.1 connection: kept alive when the server allows it, reopened when it closes."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None
        self.cookie = b""  # the CSRF cookie, sent back as a browser does after its first visit

    async def get(self, path):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n".encode() + self.cookie + b"\r\n")
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = head.split(b" ", 2)[1]
        length, close = 0, False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
            elif name == b"set-cookie" and value.strip().startswith(b"csrftoken="):
                self.cookie = b"Cookie: " + value.strip().split(b";", 1)[0] + b"\r\n"
        await self.reader.readexactly(length)
        if close:
            self.close()
        return status == b"200"

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def load(host, port, path, clients, seconds, max_requests):
    done = errors = 0
    deadline = time.perf_counter() + seconds

    async def worker():
        nonlocal done, errors
        conn = Connection(host, port)
        while time.perf_counter() < deadline and done + errors < max_requests:
            try:
                ok = await asyncio.wait_for(conn.get(path), timeout=10)
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                conn.close()
                ok = False
            if ok:
                done += 1
            else:
                errors += 1
        conn.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return done, errors, time.perf_counter() - t0


def start_redis():
    """A private redis-server on a free 127.0.0.1 port, no persistence (None when redis-server is absent)."""
    exe = shutil.which("redis-server")
    if not exe:
        return None, None
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(50):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    return None, None


def served(path, workers, seconds, clients=8, threads=0, redis_url=None):
    port = free_port()
    env = dict(os.environ)
    if redis_url:
        env["REDIS_URL"] = redis_url
    proc = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "gunicorn"),
            "config.wsgi:application",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(workers),
            "--log-level",
            "warning",
            "--timeout",
            "30",
        ]
        + (["-k", "gthread", "--threads", str(threads), "--keep-alive", "5"] if threads else []),
        cwd=ROOT,
        env=env,
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
        cpu0 = server_cpu(proc.pid)
        done, errors, elapsed = asyncio.run(load("127.0.0.1", port, path, clients, seconds, 200_000))
        cpu = server_cpu(proc.pid) - cpu0
        kind = (f"gthread x{threads}, keep-alive" if threads else "sync") + (
            ", shared Redis cache" if redis_url else ", per-process cache: pages live 10 s"
        )
        print(
            f"gunicorn ({kind}), {workers} workers, {clients} concurrent clients on 127.0.0.1, cached standings page: "
            f"{done / elapsed:.0f} requests/s ({done} in {elapsed:.1f} s, {errors} errors; target >= 500/s); "
            f"server CPU {cpu / max(done, 1) * 1000:.2f} ms per request, i.e. at most "
            f"{done / cpu if cpu else 0:.0f} requests/s per core once the machine is not shared"
        )
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


UNCACHED_LINE = re.compile(
    r"uncached standings page \((?P<heap>[^)]*)\): wall best (?P<wall>\d+) ms, median (?P<wall_median>\d+) ms; "
    r"CPU best (?P<cpu>\d+) ms, median (?P<cpu_median>\d+) ms .*?; (?P<queries>\d+) queries, (?P<kb>\d+) KB;"
    r".* (?P<standings>\d+) ms CPU;"
)


def fresh_database():
    """(database URL, drop) for one measuring process: a SQLite file of its own (the process names it), or a new
    database on ``BENCH_DATABASE_URL``'s PostgreSQL server."""
    if DB_URL.startswith("sqlite"):
        return None, lambda: None
    from urllib.parse import urlsplit

    from testkit.server import Database

    url = urlsplit(DB_URL)
    db = Database.postgres(url.hostname, url.port, url.username, url.password)
    return db.url, db.drop


def measure_code(root, players, rounds):
    """The uncached figures of the code at ``root``, measured by this script in a fresh process."""
    env = dict(os.environ, BENCH_CODE_ROOT=str(root))
    url, drop = fresh_database()
    if url:
        env["BENCH_DATABASE_URL"] = url
    try:
        out = subprocess.run(
            [sys.executable, __file__, "--uncached-only", "--players", str(players), "--rounds", str(rounds)],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        drop()
    if out.returncode != 0:
        sys.exit(f"the measurement of {root} failed:\n{out.stdout}{out.stderr}")
    figures = {}
    for line in out.stdout.splitlines():
        found = UNCACHED_LINE.search(line)
        if found:
            figures[found["heap"]] = {k: v if k == "heap" else int(v) for k, v in found.groupdict().items()}
    return figures


def compare(ref, players, rounds, repeat):
    """The uncached page of REF's code and of this tree's, side by side (each figure the best of ``repeat`` runs)."""
    rev = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref], capture_output=True, text=True, check=True
    ).stdout.strip()
    worktree = Path(tempfile.mkdtemp(prefix="damas-bench-public-"))
    worktree.rmdir()
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(worktree), rev], check=True)
    codes = [(f"{ref} ({rev})" if ref != rev else rev, worktree), ("this tree", ROOT)]
    best = {label: {} for label, _ in codes}
    try:
        for _ in range(repeat):
            for label, root in codes:
                for heap, figures in measure_code(root, players, rounds).items():
                    kept = best[label].setdefault(heap, figures)
                    for key, value in figures.items():
                        if key != "heap":
                            kept[key] = min(kept[key], value)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=False)
    kind = DB_URL.split(":")[0]
    print(
        f"\nuncached standings page, {players} players x {rounds} rounds, {kind}, best of {repeat} x 15 requests "
        f"(ms; target < {target_ms(players)} ms CPU):"
    )
    header = f"{'code':24s} {'heap':10s} {'wall':>6s} {'CPU':>6s} {'CPU med':>8s} {'standings':>10s} {'queries':>8s} {'KB':>5s}"
    print(header)
    for heap in best[codes[0][0]]:
        for label, _ in codes:
            f = best[label].get(heap)
            if f is None:
                continue
            short = "frozen" if heap.startswith("start-up") else "as is"
            print(
                f"{label:24s} {short:10s} {f['wall']:6d} {f['cpu']:6d} {f['cpu_median']:8d} {f['standings']:10d} "
                f"{f['queries']:8d} {f['kb']:5d}"
            )


def main():
    print(
        f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (other work on the "
        f"machine slows every figure below)"
    )
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="only gthread workers with this many threads and keep-alive (0: only sync workers); "
        "default: both, sync then gthread x4",
    )
    parser.add_argument("--no-server", action="store_true")
    parser.add_argument("--no-redis", action="store_true", help="skip the run with a private redis-server as cache")
    parser.add_argument(
        "--compare-with",
        metavar="REF",
        help="only the uncached page, for the code of this git revision and this tree's, side by side",
    )
    parser.add_argument("--repeat", type=int, default=1, help="with --compare-with: measure each code this many times")
    parser.add_argument("--uncached-only", action="store_true", help="only the uncached page (no cached, no server)")
    args = parser.parse_args()
    if args.compare_with:
        compare(args.compare_with, args.players, args.rounds, args.repeat)
        return
    t = build(args.players, args.rounds)
    path = uncached(t, args.players, cached_too=not args.uncached_only)
    connection.close()
    if not args.no_server and not args.uncached_only:
        for threads in [0, 4] if args.threads is None else [args.threads]:
            served(path, args.workers, args.seconds, threads=threads)
        if not args.no_redis:
            redis, url = start_redis()
            if redis is None:
                print("redis-server not found: the shared-cache run is skipped")
            else:
                try:
                    served(
                        path,
                        args.workers,
                        args.seconds,
                        threads=4 if args.threads is None else args.threads,
                        redis_url=url,
                    )
                finally:
                    redis.terminate()
                    redis.wait(timeout=10)
    if DB_URL.startswith("sqlite") and DB_FILE.exists():
        DB_FILE.unlink()


if __name__ == "__main__":
    main()
