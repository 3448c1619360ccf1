"""Load test: a crowd on the public pages, read-only and then while an arbiter saves results, side by side.

    .venv/bin/python bench/load.py [--seconds 30] [--slices 3] [--clients 200] [--save-every 3] [--workers N]
                                   [--compare-with REF] [--db auto|postgres|sqlite] [--cache auto|redis|memory]

For this tree (and, with ``--compare-with REF``, for the code of git revision REF too, checked out in a temporary
``git worktree`` and run the same way, one after the other):

1. Builds a throw-away production site (testkit/server.py): its own database (a fresh PostgreSQL database on
   127.0.0.1:5432 when it answers, else a temporary SQLite file), the demo tournament, collectstatic, then pairs
   round 5 (``manage.py pair_round``) and starts gunicorn with config/gunicorn.py and DJANGO_ENV=production on a
   free 127.0.0.1 port. The cache is Redis (``BENCH_REDIS_URL``, default redis://127.0.0.1:6379/15, under a key
   prefix of the run's own, deleted at the end) when it answers, else each worker's memory.
2. Read-only: ``--clients`` concurrent clients (asyncio, one connection per request) fetch the public standings,
   pairings, cross table and player cards for ``--seconds`` seconds.
3. With writes: the same crowd for as long again, while an "arbiter" (a thread) logged in on the staff results
   page (``/gestao/t/<slug>/rodada/5/resultados/``) saves one board every ``--save-every`` seconds.
   The two phases run in turn, in ``--slices`` slices each (read-only, with writes, read-only, ...), so that the
   load other work puts on a shared machine weighs on both alike.
4. Prints, per code and phase, requests/s, errors and latency percentiles, and the with-writes throughput as a
   share of the read-only one (target: at least 80 %); checks every saved result is stored and shows on every
   worker's public pairings page within FRESH_WITHIN seconds (printing how long that took). Exit status 1 on
   errors, a lost result or a page still stale then.

Only 127.0.0.1 is contacted; each phase is bounded in time (and in requests, ``--max-requests``) and stops by
itself; the servers, databases, cache keys and worktree it created are removed at the end.
"""

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from testkit import server as S  # noqa: E402

SLUG = S.DEMO_SLUG
ROUND = 5
TOKENS = ["2-0", "1-1", "0-2"]
# How the public pairings page shows a board still without its result (checked against the page before the load).
PENDING = '<td class="result"><span class="muted">–</span></td>'
FRESH_WITHIN = 10  # seconds after the last save by which every worker must show it

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
PG = {
    "host": os.environ.get("BENCH_PG_HOST", "127.0.0.1"),
    "port": int(os.environ.get("BENCH_PG_PORT", "5432")),
    "user": os.environ.get("BENCH_PG_USER", "postgres"),
}


def percentile(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def pg_reachable():
    try:
        import psycopg

        with psycopg.connect(dbname="postgres", connect_timeout=3, **PG):
            return True
    except Exception:
        return False


# ------------------------------------------------------------------------------------------- public clients


async def fetch(port, path, timeout):
    """One GET on a new connection; returns the status code (0 when the answer is not HTTP)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: damas-load\r\n"
            f"Accept-Language: pt-BR\r\nConnection: close\r\n\r\n".encode()
        )
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    head = data[:16].split(b" ")
    return int(head[1]) if len(head) > 1 and head[0].startswith(b"HTTP/") and head[1].isdigit() else 0


async def crowd(port, pages, clients, seconds, max_requests, timeout=30):
    stats = {"latencies": [], "errors": [], "by_page": {}}
    deadline = time.perf_counter() + seconds
    count = 0

    async def client(seed):
        nonlocal count
        rng = random.Random(seed)
        while time.perf_counter() < deadline and count < max_requests:
            count += 1
            name = rng.choice(list(pages))
            path = rng.choice(pages[name])
            t0 = time.perf_counter()
            try:
                status = await fetch(port, path, timeout)
            except (TimeoutError, OSError) as exc:
                status = f"{type(exc).__name__}"
            elapsed = time.perf_counter() - t0
            stats["by_page"].setdefault(name, []).append(elapsed)
            if status == 200:
                stats["latencies"].append(elapsed)
            else:
                stats["errors"].append((path, status))

    t0 = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    stats["elapsed"] = time.perf_counter() - t0
    return stats


# -------------------------------------------------------------------------------------------------- arbiter


class Arbiter:
    """Logs in, then, while a with-writes slice lasts, saves one board of the round every ``every`` seconds (that
    board's fields only, as the page's script posts them), going on with the next board in the next slice."""

    def __init__(self, port, every, seed=7):
        self.port, self.every, self.rng = port, every, random.Random(seed)
        self.intended = {}  # board id -> (token game 1, token game 2)
        self.saves, self.errors, self.latencies = 0, [], []
        self.pending = []

    def timed(self, fn, *args):
        t0 = time.perf_counter()
        resp = fn(*args)
        self.latencies.append(time.perf_counter() - t0)
        return resp

    def prepare(self):
        """Log in and open the results page before the crowd comes (only the saves fall in the measured phase)."""
        self.browser = S.Browser(self.port)
        self.browser.login()
        self.page = self.browser.get(S.results_path(SLUG, ROUND))
        assert self.page.status == 200, self.page.status
        self.pending = sorted(S.results_form(self.page.text))

    def start(self):
        """Saves in a thread until ``stop()`` (or the round is done)."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="arbiter", daemon=True)
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=120)
        if self._thread.is_alive():
            self.errors.append("the arbiter did not stop within 120 s")

    def _run(self):
        try:
            self._save_until_stopped()
        except Exception as exc:  # reported, never hidden
            self.errors.append(f"{type(exc).__name__}: {exc}")

    def _save_until_stopped(self):
        browser, path = self.browser, S.results_path(SLUG, ROUND)
        while self.pending and not self._stop.wait(self.every):
            board_id = self.pending.pop(0)
            fields = S.results_form(self.page.text)[board_id]
            self.intended[board_id] = (self.rng.choice(TOKENS), self.rng.choice(TOKENS))
            data = {"csrfmiddlewaretoken": browser.csrf(self.page.text), f"b{board_id}_v": fields["v"]}
            data[f"b{board_id}_g1"], data[f"b{board_id}_g2"] = self.intended[board_id]
            resp = self.timed(browser.post, path, data)
            if resp.status != 302:
                self.errors.append(f"save of board id {board_id}: HTTP {resp.status}")
            else:
                self.saves += 1
            self.page = self.timed(browser.get, path)  # the page the redirect shows, with the fresh versions
            if self.page.status != 200:
                self.errors.append(f"GET {path}: {self.page.status}")
                return


# ----------------------------------------------------------------------------------------------------- main


def summary(stats):
    lat = stats["latencies"]
    total = len(lat) + len(stats["errors"])
    return {
        "requests": total,
        "rps": total / stats["elapsed"],
        "errors": len(stats["errors"]),
        "p50": percentile(lat, 0.5) * 1000,
        "p95": percentile(lat, 0.95) * 1000,
        "p99": percentile(lat, 0.99) * 1000,
        "first_errors": stats["errors"][:3],
    }


def public_pages(site):
    """The pages the crowd reads, each kind equally often (a player card is one of ten players' cards)."""
    players = S.request(site.port, "GET", f"/t/{SLUG}/jogadores/")
    entry_ids = sorted(set(re.findall(rf'href="/t/{SLUG}/jogadores/(\d+)/"', players.text)))[:10]
    pages = {
        "standings": [f"/t/{SLUG}/classificacao/"],
        "pairings": [f"/t/{SLUG}/emparceiramento/"],
        "cross table": [f"/t/{SLUG}/tabela-cruzada/"],
        "player card": [f"/t/{SLUG}/jogadores/{e}/" for e in entry_ids],
    }
    for paths in pages.values():
        for path in paths:
            assert S.request(site.port, "GET", path).status == 200, path
    return pages


def merged(slices):
    """The stats of several slices of one phase as one."""
    return {
        "latencies": [x for st in slices for x in st["latencies"]],
        "errors": [x for st in slices for x in st["errors"]],
        "elapsed": sum(st["elapsed"] for st in slices),
    }


def both_phases(site, pages, args, result):
    """Read-only and with-writes slices in turn (``--slices`` of each), so that a change in the machine's load
    during the run weighs on both phases alike; returns the arbiter."""
    arbiter = Arbiter(site.port, args.save_every)
    arbiter.prepare()
    read_only, with_writes = [], []
    length = args.seconds / args.slices
    for _ in range(args.slices):
        read_only.append(asyncio.run(crowd(site.port, pages, args.clients, length, args.max_requests)))
        arbiter.start()
        try:
            with_writes.append(asyncio.run(crowd(site.port, pages, args.clients, length, args.max_requests)))
        finally:
            arbiter.stop()
    result["read-only"] = summary(merged(read_only))
    result["with writes"] = summary(merged(with_writes))
    al = arbiter.latencies
    result["arbiter"] = {
        "saves": arbiter.saves,
        "p50": statistics.median(al) * 1000 if al else float("nan"),
        "max": max(al) * 1000 if al else float("nan"),
    }
    if arbiter.errors:
        result["notes"].append(f"ARBITER ERRORS: {arbiter.errors[:3]}")
    return arbiter


def check_stored(site, arbiter, args, result, shared_cache):
    """Nothing lost: every board saved holds what the arbiter typed, and every worker's public pairings page shows
    it. Right after the last save the first reader rebuilds the page while the others get the previous version
    for that moment (stale-while-revalidate): the crowd asks again until every answer is fresh, for at most
    ``FRESH_WITHIN`` seconds, and the time that took is printed."""
    from concurrent.futures import ThreadPoolExecutor

    browser = S.Browser(site.port)
    browser.login()
    final = S.results_form(browser.get(S.results_path(SLUG, ROUND)).text)
    wrong = [b for b, typed in arbiter.intended.items() if (final[b].get("g1"), final[b].get("g2")) != typed]
    result["stored"] = f"{len(arbiter.intended) - len(wrong)}/{len(arbiter.intended)} saved boards stored as typed"
    if wrong:
        result["notes"].append(f"LOST OR WRONG RESULTS: board ids {wrong[:5]}")
    expected_pending = len(final) - len(arbiter.intended)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.workers * 2) as pool:
        while True:
            answers = list(
                pool.map(lambda _i: S.request(site.port, "GET", f"/t/{SLUG}/emparceiramento/"), range(args.workers * 6))
            )
            shown = {a.text.count(PENDING) for a in answers if a.status == 200}
            waited = time.perf_counter() - t0
            if shown == {expected_pending} or waited > FRESH_WITHIN:
                break
            time.sleep(0.1)
    result["fresh"] = f"every worker fresh after {waited * 1000:.0f} ms"
    if shared_cache and shown != {expected_pending}:
        result["notes"].append(
            f"STALE public pairings after {FRESH_WITHIN} s: pending boards shown {shown}, {expected_pending} left"
        )


def run_code(label, root, args, database, redis_url, folder):
    """Both phases on a site running the code at ``root``; returns the figures and what went wrong (``notes``)."""
    site = S.Site(
        database, folder, redis_url=redis_url, workers=args.workers, extra_env={"GUNICORN_ACCESS_LOG": ""}, root=root
    )  # an access log line per request would be the bottleneck
    result = {"label": label, "notes": []}
    try:
        t0 = time.perf_counter()
        site.prepare()
        site.manage("pair_round", SLUG)
        site.start()
        print(f"[{label}] site ready in {time.perf_counter() - t0:.1f} s at {site.base}", flush=True)
        pages = public_pages(site)
        arbiter = both_phases(site, pages, args, result)
        print(
            f"[{label}] read-only: {result['read-only']['rps']:.0f} req/s; with writes: "
            f"{result['with writes']['rps']:.0f} req/s, {arbiter.saves} saves",
            flush=True,
        )
        for phase in ("read-only", "with writes"):
            if result[phase]["errors"]:
                result["notes"].append(f"{phase}: ERRORS, first: {result[phase]['first_errors']}")
        check_stored(site, arbiter, args, result, bool(redis_url))
    finally:
        site.stop()
        database.drop()
        site.clear_cache()
    return result


def print_table(results, args):
    print(
        f"\n{args.clients} clients, {args.seconds:.0f} s per phase; with writes = an arbiter saving a board every "
        f"{args.save_every:g} s"
    )
    header = f"{'code':24s} {'phase':12s} {'req/s':>7s} {'p50 ms':>7s} {'p95 ms':>7s} {'p99 ms':>7s} {'errors':>6s}"
    print(header)
    print("-" * len(header))
    for r in results:
        for phase in ("read-only", "with writes"):
            f = r.get(phase)
            if f:
                print(
                    f"{r['label']:24s} {phase:12s} {f['rps']:7.0f} {f['p50']:7.0f} {f['p95']:7.0f} {f['p99']:7.0f} "
                    f"{f['errors']:6d}"
                )
        if r.get("read-only") and r.get("with writes"):
            share = r["with writes"]["rps"] / r["read-only"]["rps"] * 100
            a = r["arbiter"]
            print(
                f"{'':24s} with writes / read-only: {share:.0f} % (target >= 80 %); arbiter {a['saves']} saves, "
                f"p50 {a['p50']:.0f} ms, max {a['max']:.0f} ms; {r['stored']}; {r.get('fresh', '')}"
            )
        for note in r["notes"]:
            print(f"{'':24s} {note}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30, help="length of each phase")
    parser.add_argument(
        "--slices", type=int, default=3, help="each phase in this many slices, read-only and with writes in turn"
    )
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--save-every", type=float, default=3.0, help="seconds between two saves of the arbiter")
    parser.add_argument("--workers", type=int, default=max(2, min((os.cpu_count() or 1) * 2 + 1, 12)))
    parser.add_argument("--max-requests", type=int, default=1_000_000, help="hard cap on public requests per phase")
    parser.add_argument("--compare-with", metavar="REF", help="also run the code of this git revision (e.g. main)")
    parser.add_argument("--db", choices=["auto", "postgres", "sqlite"], default="auto")
    parser.add_argument("--cache", choices=["auto", "redis", "memory"], default="auto")
    args = parser.parse_args()
    args.seconds = min(max(args.seconds, 1), 3600)
    args.clients = min(max(args.clients, 1), 2000)
    args.save_every = min(max(args.save_every, 0.2), 60)
    args.slices = min(max(args.slices, 1), 20)

    use_pg = args.db == "postgres" or (args.db == "auto" and pg_reachable())
    redis_reason = S.redis_unreachable(REDIS_URL) if args.cache != "memory" else "not asked for"
    if args.cache == "redis" and redis_reason:
        sys.exit(redis_reason)
    redis_url = "" if redis_reason else REDIS_URL
    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        f"database: {'PostgreSQL (fresh database on ' + PG['host'] + ')' if use_pg else 'SQLite (temporary file)'}; "
        f"cache: {'Redis ' + redis_url if redis_url else 'per-process memory (' + redis_reason + ')'}; "
        f"gunicorn (config/gunicorn.py), {args.workers} workers, DJANGO_ENV=production",
        flush=True,
    )
    codes = [("this tree", ROOT)]
    worktree = None
    if args.compare_with:
        worktree = S.temp_folder("damas-load-code-")
        shutil.rmtree(worktree)
        rev = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", args.compare_with],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(worktree), rev], check=True)
        codes.insert(0, (f"{args.compare_with} ({rev})", Path(worktree)))
    results = []
    try:
        for label, root in codes:
            folder = S.temp_folder("damas-load-")
            database = S.Database.postgres(**PG) if use_pg else S.Database.sqlite(folder)
            try:
                results.append(run_code(label, root, args, database, redis_url, folder))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
                if redis_url and root != ROOT:
                    S.delete_prefixed(redis_url, "damas")  # an older code's keys may ignore CACHE_KEY_PREFIX
    finally:
        if worktree:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=False)
    print_table(results, args)
    ok = len(results) == len(codes) and not any(r["notes"] for r in results)
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
