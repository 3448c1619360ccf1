"""Benchmark: the live version check every phone makes every 5 s (``/t/SLUG/versao/``, issue 34.14), as CPU per
request in the app server's process, for an older revision's code and this tree's, side by side in one run.

    .venv/bin/python bench/live_version.py [--compare-with REF] [--requests 4000] [--repeat 3]

Each code runs in a fresh process of its own (this script with ``--measure``; the older revision checked out in a
temporary ``git worktree``, removed at the end), on a throw-away SQLite database with a small published tournament,
with the same cache: Redis (``BENCH_REDIS_URL``, default redis://127.0.0.1:6379/15, under a key prefix of the run's
own, deleted at the end) when it answers, else the per-process memory cache. The requests go through Django's WSGI
handler (the whole middleware stack, as under gunicorn, without the HTTP parsing): a phone's check with the ETag it
has (a 304 with no body, the common case) and one without (200 with the version). Printed: CPU microseconds per
request (``time.process_time``), the best of ``--repeat`` runs of ``--requests`` each. Target: < 300 µs for the
304 (1,000 phones at one check every 5 s then take 6 % of a core).
"""

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE_ROOT = Path(os.environ.get("BENCH_CODE_ROOT", ROOT))
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
DEFAULT_REF = "a62fd81"  # main before the fast path of the version check (issue 34.14)
SLUG = "bench-ao-vivo"


def measure(requests, repeat):
    """In this process: the code of CODE_ROOT, its figures as one JSON line."""
    sys.path.insert(0, str(CODE_ROOT))
    folder = Path(tempfile.mkdtemp(prefix="damas-bench-version-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
    os.environ["DEBUG"] = "0"
    os.environ["PYTHONWARNINGS"] = "ignore"
    import warnings

    warnings.filterwarnings("ignore")
    import django

    django.setup()
    from django.core.cache import cache, caches
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.management import call_command

    from testkit.builders import build_tournament

    try:
        call_command("migrate", verbosity=0, interactive=False)
        build_tournament(slug=SLUG, players=20, rounds=3)
        handler = WSGIHandler()

        def environ(etag=None):
            env = {
                "REQUEST_METHOD": "GET",
                "PATH_INFO": f"/t/{SLUG}/versao/",
                "QUERY_STRING": "",
                "SERVER_NAME": "127.0.0.1",
                "SERVER_PORT": "8000",
                "HTTP_HOST": "127.0.0.1:8000",
                "REMOTE_ADDR": "127.0.0.1",
                "HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 14) Mobile",
                "HTTP_ACCEPT": "*/*",
                "HTTP_ACCEPT_LANGUAGE": "pt-BR,pt;q=0.9",
                "HTTP_ACCEPT_ENCODING": "gzip, deflate",
                "HTTP_CACHE_CONTROL": "no-cache",
                "wsgi.url_scheme": "http",
                "wsgi.input": __import__("io").BytesIO(b""),
                "wsgi.errors": sys.stderr,
                "wsgi.version": (1, 0),
                "wsgi.multithread": False,
                "wsgi.multiprocess": True,
                "wsgi.run_once": False,
                "SERVER_PROTOCOL": "HTTP/1.1",
            }
            if etag:
                env["HTTP_IF_NONE_MATCH"] = etag
            return env

        answers = {}

        def one(etag=None):
            out = {}

            def start_response(status, headers, exc_info=None):
                out["status"], out["headers"] = status, dict(headers)

            body = b"".join(handler(environ(etag), start_response))
            return out["status"], out["headers"], body

        status, headers, body = one()
        assert status.startswith("200"), status
        etag = headers["ETag"]
        assert one(etag)[0].startswith("304")
        for _ in range(300):  # warm up
            one(etag)
        for name, tag in (("304", etag), ("200", None)):
            best = None
            for _ in range(repeat):
                start = time.process_time()
                for _ in range(requests):
                    one(tag)
                per = (time.process_time() - start) / requests * 1e6
                best = per if best is None else min(best, per)
            answers[name] = round(best, 1)
        answers["cache"] = type(caches["default"]).__name__
        print(json.dumps(answers))
    finally:
        with contextlib.suppress(Exception):  # the cache is only the bench's (its own key prefix)
            cache.clear()
        shutil.rmtree(folder, ignore_errors=True)


def redis_answers():
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


def run_code(root, requests, repeat, redis_url):
    env = {**os.environ, "BENCH_CODE_ROOT": str(root)}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
        env["CACHE_KEY_PREFIX"] = f"bench-version-{uuid.uuid4().hex[:10]}"
    proc = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--measure",
            "--requests",
            str(requests),
            "--repeat",
            str(repeat),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the measure failed for {root}:\n{proc.stdout}\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--compare-with", metavar="REF", default=DEFAULT_REF)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.requests, args.repeat)
        return
    print(
        f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (other work on the "
        "machine slows every figure below)"
    )
    redis_url = REDIS_URL if redis_answers() else ""
    rev = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", args.compare_with], capture_output=True, text=True, check=True
    ).stdout.strip()
    worktree = Path(tempfile.mkdtemp(prefix="damas-bench-version-code-"))
    worktree.rmdir()
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(worktree), rev], check=True)
    try:
        rows = [(f"{args.compare_with} ({rev})", run_code(worktree, args.requests, args.repeat, redis_url))]
        rows.append(("this tree", run_code(ROOT, args.requests, args.repeat, redis_url)))
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=False)
    print(
        f"\nversion check /t/SLUG/versao/, CPU µs per request (best of {args.repeat} x {args.requests}), cache: "
        f"{rows[0][1]['cache']} (target < 300 µs for the 304):"
    )
    print(f"{'code':28s} {'304 (ETag)':>11s} {'200':>8s}")
    for label, f in rows:
        print(f"{label:28s} {f['304']:11.1f} {f['200']:8.1f}")


if __name__ == "__main__":
    main()
