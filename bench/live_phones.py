"""Live pages on a venue's phones: what a phone downloads while it shows a public page, and what 150 of them cost
the server while the arbiter approves results (issue 30).

    .venv/bin/python bench/live_phones.py [--phones 150] [--seconds 60] [--every 5] [--write-every 4] [--workers N]

1. Builds a throw-away production site (testkit/server.py: a fresh PostgreSQL database when 127.0.0.1:5432
   answers, else SQLite; Redis under a key prefix of the run's own when it answers; gunicorn, DJANGO_ENV=production),
   the demo tournament with round 5 paired and published.
2. ``--phones`` phones (asyncio) each open the public pairings page, then do what static/js/live.js does: every
   ``--every`` seconds ask /t/SLUG/versao/ with the ETag they have (If-None-Match), and fetch the page again only
   when the version changed. Every byte sent and received (headers included) is counted per phone.
3. Two phases of ``--seconds`` each, printed side by side: idle (nothing changes), then with the arbiter
   approving a board's results every ``--write-every`` seconds (``manage.py shell`` in the site's environment,
   through game_record_result as the results page does).
4. Prints requests/s, p95 of the version checks and of the page fetches, bytes per phone per minute, and checks
   every phone ended on the last version.

Only 127.0.0.1 is contacted; the run is bounded in time and stops by itself; what it created is removed.
"""

import argparse
import asyncio
import os
import random
import shutil
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import PG, REDIS_URL, percentile, pg_reachable  # noqa: E402
from testkit import server as S  # noqa: E402

SLUG = S.DEMO_SLUG
PAGE = f"/t/{SLUG}/emparceiramento/"
VERSION = f"/t/{SLUG}/versao/"
APPROVE = """
from tournaments.models import Board
from tournaments.rounds.results import game_record_result
board = Board.objects.filter(round__tournament__slug={slug!r}, round__number=5, games__result__isnull=True).order_by("number").first()
if board is not None:
    game_record_result(board=board, results={{1: "1-0", 2: "1/2"}}, expected_version=board.version, user=None)
    print(board.number)
"""


async def get(port, path, etag=None, timeout=30):
    """One GET on a new connection as a phone's browser sends it; (status, etag, bytes sent, bytes received)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    head = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: Mozilla/5.0 (Linux; Android 14) Mobile\r\n"
        "Accept: */*\r\nAccept-Language: pt-BR,pt;q=0.9\r\nAccept-Encoding: gzip, deflate\r\n"
        + (f"If-None-Match: {etag}\r\nCache-Control: no-cache\r\n" if etag else "")
        + "Connection: close\r\n\r\n"
    ).encode()
    try:
        writer.write(head)
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
    status_line, _, rest = data.partition(b"\r\n")
    parts = status_line.split(b" ")
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    headers = rest.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    tag = next(
        (line.split(":", 1)[1].strip() for line in headers.split("\r\n") if line.lower().startswith("etag:")), None
    )
    return status, tag, len(head), len(data)


class Phone:
    def __init__(self):
        self.sent = self.received = 0
        self.etag = None
        self.version = None
        self.checks, self.pages, self.errors = [], [], []

    async def open(self, port):
        t0 = time.perf_counter()
        status, _tag, sent, received = await get(port, PAGE)
        self.pages.append(time.perf_counter() - t0)
        self.sent += sent
        self.received += received
        if status != 200:
            self.errors.append(("page", status))

    async def run(self, port, seconds, every, rng):
        await asyncio.sleep(rng.uniform(0, every))  # phones were opened at different moments
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            t0 = time.perf_counter()
            try:
                status, tag, sent, received = await get(port, VERSION, self.etag)
            except (TimeoutError, OSError) as exc:
                self.errors.append(("check", type(exc).__name__))
                await asyncio.sleep(every)
                continue
            self.checks.append(time.perf_counter() - t0)
            self.sent += sent
            self.received += received
            if status == 200 and tag != self.etag:
                if self.etag is not None:
                    await self.open(port)  # the version changed: fetch the page again
                self.etag = tag
            elif status not in (200, 304):
                self.errors.append(("check", status))
            await asyncio.sleep(max(0.0, every - (time.perf_counter() - t0)))


async def phase(port, phones, seconds, every):
    rng = random.Random(5)
    for phone in phones:
        phone.sent = phone.received = 0
        phone.checks, phone.pages, phone.errors = [], [], []
    t0 = time.perf_counter()
    await asyncio.gather(*(p.run(port, seconds, every, rng) for p in phones))
    return time.perf_counter() - t0


class Arbiter(threading.Thread):
    def __init__(self, site, every, stop):
        super().__init__(daemon=True)
        self.site, self.every, self.stop = site, every, stop
        self.boards, self.errors = [], []

    def run(self):
        while not self.stop.is_set():
            t0 = time.perf_counter()
            try:
                out = self.site.manage("shell", "-c", APPROVE.format(slug=SLUG), timeout=60).strip()
                if out:
                    self.boards.append(int(out.split()[-1]))
            except Exception as exc:  # reported, never hidden
                self.errors.append(str(exc)[:200])
            self.stop.wait(max(0.0, self.every - (time.perf_counter() - t0)))


def report(name, phones, elapsed):
    checks = [x for p in phones for x in p.checks]
    pages = [x for p in phones for x in p.pages]
    requests = len(checks) + len(pages)
    per_minute = [(p.sent + p.received) * 60 / elapsed for p in phones]
    errors = [e for p in phones for e in p.errors]
    return [
        name,
        f"{requests / elapsed:.0f}",
        f"{percentile(checks, 0.95) * 1000:.0f}",
        f"{percentile(pages, 0.95) * 1000:.0f}" if pages else "–",
        f"{len(pages) / len(phones):.1f}",
        f"{sum(per_minute) / len(per_minute) / 1024:.1f}",
        f"{max(per_minute) / 1024:.1f}",
        str(len(errors)),
    ]


def measure(site, args):
    """The two phases on a started site; prints the table; True when nothing went wrong."""
    phones = [Phone() for _ in range(args.phones)]

    async def open_all():
        await asyncio.gather(*(p.open(site.port) for p in phones))

    asyncio.run(open_all())
    first_page = sum(p.received for p in phones) / len(phones)
    print(f"{args.phones} phones opened {PAGE}: {first_page / 1024:.1f} KiB each (the page, not compressed)")
    rows = [["phase", "req/s", "p95 check ms", "p95 page ms", "pages/phone", "KiB/phone/min", "max", "errors"]]
    elapsed = asyncio.run(phase(site.port, phones, args.seconds, args.every))
    rows.append(report("idle", phones, elapsed))
    stop = threading.Event()
    arbiter = Arbiter(site, args.write_every, stop)
    arbiter.start()
    elapsed = asyncio.run(phase(site.port, phones, args.seconds, args.every))
    stop.set()
    arbiter.join(90)
    rows.append(report(f"approving ({len(arbiter.boards)} boards)", phones, elapsed))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)))
    final = S.request(site.port, "GET", VERSION).header("ETag")
    print(f"arbiter errors: {len(arbiter.errors)}; phones on the last version after one more check: ", end="")
    # every phone checks once more: all must reach the final version
    asyncio.run(phase(site.port, phones, args.every + 0.5, args.every))
    behind = sum(1 for p in phones if p.etag != final)
    print(f"{len(phones) - behind}/{len(phones)}")
    return not arbiter.errors and behind == 0 and all(r[-1] == "0" for r in rows[1:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--every", type=float, default=5, help="seconds between version checks (live.js: 5)")
    parser.add_argument("--write-every", type=float, default=4)
    parser.add_argument("--workers", type=int, default=max(2, min((os.cpu_count() or 1) * 2 + 1, 12)))
    args = parser.parse_args()
    args.phones = min(max(args.phones, 1), 1000)
    args.seconds = min(max(args.seconds, 5), 600)

    folder = S.temp_folder("damas-live-")
    database = S.Database.postgres(**PG) if pg_reachable() else S.Database.sqlite(folder)
    redis_url = "" if S.redis_unreachable(REDIS_URL) else REDIS_URL
    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"database: {database.kind}; cache: {'Redis' if redis_url else 'per-process memory'}; {args.workers} workers")
    site = S.Site(database, folder, redis_url=redis_url, workers=args.workers, extra_env={"GUNICORN_ACCESS_LOG": ""})
    ok = True
    try:
        site.prepare()
        site.manage("pair_round", SLUG)
        site.start()
        ok = measure(site, args)
    finally:
        site.stop()
        database.drop()
        site.clear_cache()
        shutil.rmtree(folder, ignore_errors=True)
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
