"""Load test: a crowd on the public pages while an arbiter enters a whole round's results.

    .venv/bin/python bench/load.py [--seconds 60] [--clients 200] [--workers N] [--db auto|postgres|sqlite]
                                   [--cache auto|redis|memory]

1. Builds a throw-away production site (tests/production/server.py): its own database (a fresh PostgreSQL
   database on 127.0.0.1:5432 when it answers, else a temporary SQLite file), the demo tournament, collectstatic,
   then pairs round 5 (``manage.py pair_round``) and starts gunicorn with config/gunicorn.py and
   DJANGO_ENV=production on a free 127.0.0.1 port. The cache is Redis (redis://127.0.0.1:6379/15, under a key
   prefix of the run's own, deleted at the end; other keys there are left alone)
   when it answers, else each worker's memory.
2. ``--clients`` concurrent clients (asyncio, one connection per request) fetch the public standings, pairings,
   cross table and player cards for ``--seconds`` seconds.
3. Meanwhile an "arbiter" (a thread) logs in and types round 5 board by board on the staff results page
   (``/gestao/t/<slug>/rodada/5/resultados/``), saving the whole form after each board as the page does.
4. Prints requests, errors, latency percentiles and requests/s, then checks every result of the round is stored
   (nothing lost) and shows on the public round page. Exit status 1 when there were errors or a lost result.

Only 127.0.0.1 is contacted; the run is bounded in time (and in requests, ``--max-requests``) and stops by itself;
the server, database and cache it created are removed at the end.
"""

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
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


class Arbiter(threading.Thread):
    """Logs in, then types the round board by board, saving the form after each board (as the page's button)."""

    def __init__(self, port, spread_seconds, seed=7):
        super().__init__(name="arbiter", daemon=True)
        self.port, self.spread, self.rng = port, spread_seconds, random.Random(seed)
        self.intended = {}  # board id -> (token game 1, token game 2)
        self.saves, self.errors, self.latencies = 0, [], []

    def timed(self, fn, *args):
        t0 = time.perf_counter()
        resp = fn(*args)
        self.latencies.append(time.perf_counter() - t0)
        return resp

    def run(self):
        try:
            self._run()
        except Exception as exc:  # reported, never hidden
            self.errors.append(f"{type(exc).__name__}: {exc}")

    def _run(self):
        browser = S.Browser(self.port)
        time.sleep(min(2.0, self.spread / 10))  # the crowd is already there
        self.timed(browser.login)
        path = S.results_path(SLUG, ROUND)
        page = self.timed(browser.get, path)
        if page.status != 200:
            self.errors.append(f"GET {path}: {page.status}")
            return
        boards = sorted(S.results_form(page.text))
        pause = self.spread / max(1, len(boards))
        for board_id in boards:
            time.sleep(pause * self.rng.uniform(0.5, 1.0))
            form = S.results_form(page.text)
            self.intended[board_id] = (self.rng.choice(TOKENS), self.rng.choice(TOKENS))
            data = {"csrfmiddlewaretoken": browser.csrf(page.text)}
            for bid, fields in form.items():
                data[f"b{bid}_v"] = fields["v"]
                for name, value in fields.items():
                    if name != "v":
                        data[f"b{bid}_{name}"] = value  # what the page shows (earlier boards: their saved results)
            data[f"b{board_id}_g1"], data[f"b{board_id}_g2"] = self.intended[board_id]
            resp = self.timed(browser.post, path, data)
            if resp.status != 302:
                self.errors.append(f"save of board id {board_id}: HTTP {resp.status}")
            else:
                self.saves += 1
            page = self.timed(browser.get, path)  # the page the redirect shows, with the fresh versions
            if page.status != 200:
                self.errors.append(f"GET {path}: {page.status}")
                return


# ----------------------------------------------------------------------------------------------------- main


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--workers", type=int, default=max(2, min((os.cpu_count() or 1) * 2 + 1, 12)))
    parser.add_argument("--max-requests", type=int, default=1_000_000, help="hard cap on public requests")
    parser.add_argument("--db", choices=["auto", "postgres", "sqlite"], default="auto")
    parser.add_argument("--cache", choices=["auto", "redis", "memory"], default="auto")
    parser.add_argument("--no-arbiter", action="store_true", help="the crowd alone (the cached pages' ceiling)")
    args = parser.parse_args()
    args.seconds = min(max(args.seconds, 1), 3600)
    args.clients = min(max(args.clients, 1), 2000)

    folder = S.temp_folder("damas-load-")
    use_pg = args.db == "postgres" or (args.db == "auto" and pg_reachable())
    database = S.Database.postgres(**PG) if use_pg else S.Database.sqlite(folder)
    redis_reason = S.redis_unreachable(REDIS_URL) if args.cache != "memory" else "not asked for"
    if args.cache == "redis" and redis_reason:
        sys.exit(redis_reason)
    redis_url = "" if redis_reason else REDIS_URL
    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        f"database: {'PostgreSQL (fresh database on ' + PG['host'] + ')' if use_pg else 'SQLite (temporary file)'}; "
        f"cache: {'Redis ' + redis_url if redis_url else 'per-process memory (' + redis_reason + ')'}; "
        f"gunicorn (config/gunicorn.py), {args.workers} workers, DJANGO_ENV=production"
    )
    site = S.Site(
        database, folder, redis_url=redis_url, workers=args.workers, extra_env={"GUNICORN_ACCESS_LOG": ""}
    )  # an access log line per request would be the bottleneck
    ok = True
    try:
        t0 = time.perf_counter()
        site.prepare()
        print(site.manage("pair_round", SLUG).strip())
        site.start()
        print(f"site ready in {time.perf_counter() - t0:.1f} s at {site.base}")

        players = S.request(site.port, "GET", f"/t/{SLUG}/jogadores/")
        entry_ids = sorted(set(re.findall(rf'href="/t/{SLUG}/jogadores/(\d+)/"', players.text)))[:10]
        # Each kind of page equally often; a player card is one of ten players' cards.
        pages = {
            "standings": [f"/t/{SLUG}/classificacao/"],
            "pairings": [f"/t/{SLUG}/emparceiramento/"],
            "cross table": [f"/t/{SLUG}/tabela-cruzada/"],
            "player card": [f"/t/{SLUG}/jogadores/{e}/" for e in entry_ids],
        }
        for paths in pages.values():
            for path in paths:
                assert S.request(site.port, "GET", path).status == 200, path
        pending = S.request(site.port, "GET", pages["pairings"][0]).text.count(PENDING)
        if pending == 0:
            sys.exit("the pairings page shows no pending board before the load: update PENDING in bench/load.py")

        arbiter = Arbiter(site.port, spread_seconds=args.seconds * 0.7)
        if not args.no_arbiter:
            arbiter.start()
        stats = asyncio.run(crowd(site.port, pages, args.clients, args.seconds, args.max_requests))
        if not args.no_arbiter:
            arbiter.join(timeout=120)
        if arbiter.is_alive():
            arbiter.errors.append("the arbiter did not finish within 120 s after the load")

        lat = stats["latencies"]
        total = len(lat) + len(stats["errors"])
        print(f"\npublic pages: {args.clients} concurrent clients for {stats['elapsed']:.1f} s")
        print(f"  requests {total}, errors {len(stats['errors'])}, {total / stats['elapsed']:.0f} req/s")
        if lat:
            print(
                f"  latency p50 {percentile(lat, 0.5) * 1000:.0f} ms, p95 {percentile(lat, 0.95) * 1000:.0f} ms, "
                f"p99 {percentile(lat, 0.99) * 1000:.0f} ms, max {max(lat) * 1000:.0f} ms"
            )
        for name, values in sorted(stats["by_page"].items()):
            print(
                f"    {name:12s} {len(values):7d} requests, p50 {percentile(values, 0.5) * 1000:.0f} ms, "
                f"p95 {percentile(values, 0.95) * 1000:.0f} ms"
            )
        if stats["errors"]:
            ok = False
            kinds = {}
            for _path, status in stats["errors"]:
                kinds[status] = kinds.get(status, 0) + 1
            print(f"  ERRORS by kind: {kinds}; first: {stats['errors'][:5]}")

        al = arbiter.latencies
        print(
            f"arbiter: {arbiter.saves} saves of {len(arbiter.intended)} boards, {len(al)} requests, "
            f"p50 {statistics.median(al) * 1000 if al else float('nan'):.0f} ms, "
            f"max {max(al) * 1000 if al else float('nan'):.0f} ms, errors {len(arbiter.errors)}"
        )
        for e in arbiter.errors:
            ok = False
            print(f"  ARBITER ERROR: {e}")

        if args.no_arbiter:
            return 0 if ok else 1
        # Nothing lost: every game of the round is stored, with what the arbiter typed (read back from the page).
        browser = S.Browser(site.port)
        browser.login()
        final = S.results_form(browser.get(S.results_path(SLUG, ROUND)).text)
        wrong = [
            (bid, (f.get("g1"), f.get("g2")), arbiter.intended.get(bid))
            for bid, f in final.items()
            if (f.get("g1"), f.get("g2")) != arbiter.intended.get(bid)
        ]
        missing = database.query(
            "SELECT count(*) FROM tournaments_game g JOIN tournaments_board b ON g.board_id = b.id "
            "JOIN tournaments_round r ON b.round_id = r.id JOIN tournaments_tournament t ON r.tournament_id = t.id "
            f"WHERE t.slug = '{SLUG}' AND r.number = {ROUND} AND g.result IS NULL"
        )[0][0]
        games = database.query(
            "SELECT count(*) FROM tournaments_game g JOIN tournaments_board b ON g.board_id = b.id "
            "JOIN tournaments_round r ON b.round_id = r.id JOIN tournaments_tournament t ON r.tournament_id = t.id "
            f"WHERE t.slug = '{SLUG}' AND r.number = {ROUND}"
        )[0][0]
        # Every worker must show the complete round on the pairings page the crowd was reading (cached all along):
        # ask several times at once so that each worker answers.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=args.workers * 2) as pool:
            answers = list(
                pool.map(lambda _i: S.request(site.port, "GET", f"/t/{SLUG}/emparceiramento/"), range(args.workers * 6))
            )
        stale = sum(1 for a in answers if a.status != 200 or PENDING in a.text)
        print(
            f"results stored: {len(final) - len(wrong)}/{len(final)} boards as typed, {games - missing}/{games} "
            f"games with a result (before the load: {pending} boards pending on the public page); "
            f"public pairings page complete in {len(answers) - stale}/{len(answers)} answers"
        )
        if wrong or missing or len(final) != len(arbiter.intended):
            ok = False
            print(f"  LOST OR WRONG RESULTS: {wrong[:5]}")
        if stale and redis_url:
            ok = False
            print("  STALE PAGES although the cache is shared")
        elif stale:
            print("  (stale pages: each worker keeps its own memory cache; several workers need REDIS_URL)")
    finally:
        site.stop()
        database.drop()
        site.clear_cache()
        shutil.rmtree(folder, ignore_errors=True)
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
