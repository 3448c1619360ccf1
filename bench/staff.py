"""Staff-side figures: pairing a 300-entry round through the view, and the results page of a 150-board round.

Builds a throw-away SQLite database (or uses DATABASE_URL), plays rounds 1..K-1 at random through the services,
then times the POST that pairs round K: how long the request takes (a long pairing goes on outside it, and the
director's page follows its progress) and how long until the round is written (polling the job's status as the
progress page does); then the GET of the results page.

    python bench/staff.py [--players 300] [--round 5]
    python bench/staff.py --players 1000 --round 2 --repeat 1

The pairing runs in a background worker (``manage.py db_worker``) that the bench starts and stops, as ``make run``.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--round", type=int, default=5, help="the round to pair (earlier rounds are played first)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    tmp = tempfile.mkdtemp()
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    print(f"database: {connection.vendor}")
    call_command("migrate", verbosity=0)
    from datetime import date

    from tournaments.models import Entry, Player
    from tournaments.rounds.results import game_record_result
    from tournaments.rounds.services import round_pair
    from tournaments.setup.services import tournament_create

    rng = random.Random(1)
    user = get_user_model().objects.create_superuser("bench", password="bench-pass-1")
    t = tournament_create(
        user=user,
        name="Bench",
        slug=f"bench-{rng.randint(0, 10**9)}",
        start_date=date(2026, 1, 1),
        end_date=date(2026, 1, 2),
        planned_rounds=max(args.round, 7),
    )
    players = Player.objects.bulk_create(
        [Player(name=f"Jogador {i:04d}", sex="M", rating=rng.randint(1400, 2400)) for i in range(args.players)]
    )
    Entry.objects.bulk_create([Entry(tournament=t, player=p, rating=p.rating) for p in players])
    codes = ["1-0", "1/2", "0-1"]
    for _number in range(1, args.round):
        rnd = round_pair(tournament=t, user=user, publish=True)
        for board in rnd.boards.all():
            game_record_result(
                board=board,
                results={1: rng.choice(codes), 2: rng.choice(codes)},
                expected_version=board.version,
                user=user,
            )
    # The pairing runs in the background worker, as `make run` starts it beside the server (issue 25 item 8).
    import subprocess

    worker = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "manage.py"),
            "db_worker",
            "--no-reload",
            "--interval",
            "0.2",
            "--no-startup-delay",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
    )
    try:
        measure(args, t, user)
    finally:
        worker.terminate()  # the worker started here (SIGTERM: it finishes the task in hand)
        worker.wait(timeout=60)


def measure(args, t, user):
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournaments.models import PairingJob, Round
    from tournaments.rounds.services import round_undo

    client = Client()
    client.force_login(user)
    answered, ready, polls = [], [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        r = client.post(reverse("staff:round_pair", args=[t.slug]))
        answered.append(time.perf_counter() - start)
        assert r.status_code == 302, r.status_code
        job = PairingJob.objects.filter(tournament=t).first()
        count = 0
        while job.status == "running":
            status = client.get(reverse("staff:pairing_job_status", args=[t.slug, job.pk])).json()
            count += 1
            if status["next"]:
                break
            time.sleep(0.5)
            job.refresh_from_db()
        ready.append(time.perf_counter() - start)
        polls.append(count)
        rnd = Round.objects.get(tournament=t, number=args.round)
        round_undo(round=rnd, user=user)
    print(
        f"pair round {args.round} of {args.players} entries through the view: request answered in "
        f"{statistics.median(answered):.3f} s (max {max(answered):.3f}), round written in median "
        f"{statistics.median(ready):.3f} s (min {min(ready):.3f}, max {max(ready):.3f}; target < 8 s at 1,000 entries), "
        f"{max(polls)} progress polls"
    )
    client.post(reverse("staff:round_pair", args=[t.slug]))
    while PairingJob.objects.filter(tournament=t, status="running").exists():
        time.sleep(0.5)
    url = reverse("staff:results", args=[t.slug, args.round])
    with CaptureQueriesContext(connection) as ctx:
        start = time.perf_counter()
        r = client.get(url)
        elapsed = time.perf_counter() - start
    boards = Round.objects.get(tournament=t, number=args.round).boards.count()
    print(f"results page, {boards} boards: {elapsed * 1000:.0f} ms, {len(ctx.captured_queries)} queries")


if __name__ == "__main__":
    main()
