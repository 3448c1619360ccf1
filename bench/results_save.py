"""Benchmark: saving a big round's results page (issue 25 item 2, issue 28 item 1).

Pairs round 1 of an N-player micro-match tournament (400 boards at 800 players) in a throw-away database, then
POSTs the results page through Django's test client as a browser does:

- every board typed at once (the form's fields as the page names them, one per game and one per board);
- one board typed on the whole page (a correction on a big round);
- the packed form the page's script sends (one field with the changed boards only), where the code has it:
  every board typed, and one board typed.

Prints, for each: the status, the seconds of the POST (and of the page it redirects to) and the number of
queries. Django's field limit (``DATA_UPLOAD_MAX_NUMBER_FIELDS``, 1,000) answers 400 to a post of more fields
(about 333 micro-match boards); the first case is timed with the limit raised, so old and new can be compared,
and the status under the real limit is printed too.

    .venv/bin/python bench/results_save.py                      # this checkout
    .venv/bin/python bench/results_save.py --players 1000
    .venv/bin/python bench/results_save.py --against 8b69c8c    # this checkout and a revision, side by side
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/damas_x .venv/bin/python bench/results_save.py

``--against REV`` checks REV out in a temporary git worktree and runs this same script there (same database
URL, its own throw-away database), then prints both columns.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def measure(root: Path, players: int) -> dict:
    sys.path.insert(0, str(root))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    sys.path.append(str(HERE.parent))
    from throwaway_db import run_in_throwaway_db

    return run_in_throwaway_db(_measure, players, name="results_save")


def _import(*paths: str):
    import importlib

    errors = []
    for path in paths:
        module, _, name = path.rpartition(".")
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            errors.append(exc)
    raise ImportError(errors)


def _paired_round(players: int):
    """(user, round) of an N-player tournament whose round 1 is paired and published."""
    import random
    from datetime import date

    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tournaments.models import Entry, Player

    tournament_create = _import(
        "tournaments.setup.services.tournament_create", "tournaments.services.tournaments.tournament_create"
    )
    round_pair = _import("tournaments.rounds.services.round_pair", "tournaments.services.rounds.round_pair")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    rng = random.Random(7)
    user = get_user_model().objects.create_superuser("bench", password="bench-pass-1")
    t = tournament_create(
        user=user, name="Bench", slug="bench-results", start_date=date(2026, 1, 1), end_date=date(2026, 1, 2)
    )
    people = Player.objects.bulk_create(
        [Player(name=f"Jogador {i:04d}", sex="M", rating=rng.randint(1400, 2400)) for i in range(players)]
    )
    Entry.objects.bulk_create([Entry(tournament=t, player=p, rating=p.rating) for p in people])
    return user, round_pair(tournament=t, user=user, publish=True)


class Page:
    """The results page of ``rnd`` as a logged-in browser posts it; each post timed into ``out``."""

    def __init__(self, user, rnd, out):
        import random

        from django.test import Client
        from django.urls import reverse

        self.rnd, self.out = rnd, out
        self.url = reverse("staff:results", args=[rnd.tournament.slug, rnd.number])
        self.client = Client()
        self.client.force_login(user)
        rng = random.Random(7)
        boards = list(rnd.boards.order_by("number").prefetch_related("games"))
        self.first = boards[0].pk
        self.every = {b.number for b in boards}
        self.choice = {(b.number, g.number): rng.choice(["2-0", "1-1", "0-2"]) for b in boards for g in b.games.all()}

    def form(self, typed_boards):
        """The fields as the page names them, with each board's current version; boards not in ``typed_boards``
        posted blank, as a browser without the page's script sends them."""
        from tournaments.models import Round

        fresh = Round.objects.get(pk=self.rnd.pk).boards.order_by("number").prefetch_related("games")
        data = {}
        for board in fresh:
            data[f"b{board.pk}_v"] = str(board.version)
            for game in board.games.all():
                typed = board.number in typed_boards
                data[f"b{board.pk}_g{game.number}"] = self.choice[(board.number, game.number)] if typed else ""
        return data

    def post(self, data, label):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        from tournaments.models import Game

        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = self.client.post(self.url, data)
            elapsed = time.perf_counter() - start
        queries = len(ctx.captured_queries)  # before the next request, which empties Django's query log
        page = None
        if response.status_code == 302:
            start = time.perf_counter()
            self.client.get(response["Location"])
            page = time.perf_counter() - start
        saved = Game.objects.filter(board__round=self.rnd, result__isnull=False).count()
        self.out[label] = {
            "status": response.status_code,
            "post_s": elapsed,
            "queries": queries,
            "page_s": page,
            "games_saved": saved,
        }
        Game.objects.filter(board__round=self.rnd).update(result=None)


def _measure(players: int) -> dict:
    from django.conf import settings
    from django.db import connection

    user, rnd = _paired_round(players)
    out: dict = {"database": connection.vendor, "players": players}
    page = Page(user, rnd, out)
    out |= {"boards": len(page.every), "fields": len(page.form(page.every))}
    page.post(page.form(page.every), "all_boards_real_limit")
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 100_000
    page.post(page.form(page.every), "all_boards")
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
    page.post(page.form({1}), "one_board_every_field")
    if "js/results.js" in page.client.get(page.url).content.decode():  # the page's script packs changed boards
        page.post({"packed": json.dumps(page.form(page.every))}, "all_boards_packed")
        one = {k: v for k, v in page.form({1}).items() if k.startswith(f"b{page.first}_")}
        page.post({"packed": json.dumps(one)}, "one_board_packed")
    return out


def table(columns: dict[str, dict]) -> None:
    names = list(columns)
    first = columns[names[0]]
    print(
        f"{first['database']}, {first['players']} players, {first['boards']} boards, {first['fields']} form fields; "
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    rows = [
        ("all_boards_real_limit", "every board typed, Django's 1,000-field limit"),
        ("all_boards", "every board typed (limit raised)"),
        ("one_board_every_field", "one board typed, page of all boards"),
        ("all_boards_packed", "every board typed, packed by the page's script"),
        ("one_board_packed", "one board typed, packed by the page's script"),
    ]
    print(f"{'':48}" + "".join(f"{n:>40}" for n in names))
    for key, label in rows:
        cells = []
        for n in names:
            r = columns[n].get(key)
            if r is None:
                cells.append("-")
            elif r["status"] != 302:
                cells.append(f"HTTP {r['status']} in {r['post_s']:.2f} s")
            else:
                cells.append(f"{r['post_s']:.2f} s, {r['queries']} q, {r['games_saved']} g, page {r['page_s']:.2f} s")
        print(f"{label:48}" + "".join(f"{c:>40}" for c in cells))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=800)
    ap.add_argument("--against", help="a git revision to run side by side (old vs this checkout)")
    ap.add_argument("--tree", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.tree:
        result = measure(Path(args.tree), args.players)
        print(json.dumps(result))
        return
    root = HERE.parent.parent
    columns: dict[str, dict] = {}
    if args.against:
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp) / "old"
            subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", str(tree), args.against], check=True)
            try:
                run = subprocess.run(
                    [sys.executable, str(HERE), "--tree", str(tree), "--players", str(args.players)],
                    check=True,
                    capture_output=True,
                    text=True,
                    cwd=tree,
                )
                columns[args.against] = json.loads(run.stdout.strip().splitlines()[-1])
            finally:
                subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], check=True)
    run = subprocess.run(
        [sys.executable, str(HERE), "--tree", str(root), "--players", str(args.players)],
        check=True,
        capture_output=True,
        text=True,
        cwd=root,
    )
    columns["this checkout"] = json.loads(run.stdout.strip().splitlines()[-1])
    table(columns)


if __name__ == "__main__":
    main()
