"""The guessing attacks of issue 34 (items 2 and 3), run through the whole stack (Django's test client, every
middleware), and what they leave the rightful users:

A. 26 addresses x 8 wrong PINs at one tournament; then every player's right PIN from a fresh address, and one
   from an attacking address.
B. 20 wrong passwords at the director's login from 20 addresses; then the right password from a new device and
   from the director's own browser (logged in before the attack).
C. 40 wrong PINs at once from one address at another tournament (threads; PostgreSQL only: SQLite serialises the
   requests anyway): how many were read (answered "unknown code") against the bound (8 before, 6 now).

    .venv/bin/python bench/attacks.py [--compare-with REF]
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/attacks.py --compare-with REF

``--compare-with REF`` runs this same script on the code of git revision REF (a temporary ``git worktree``,
removed at the end) and on this tree, each in a fresh process and a throw-away database, and prints both side by
side. The attacks use only URLs and answers, so they run on any revision since the players' codes (issue 30).
"""

import argparse
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE_ROOT = Path(os.environ.get("BENCH_CODE_ROOT", ROOT))  # the tree whose code is attacked
sys.path.insert(0, str(CODE_ROOT))
sys.path.insert(1, str(ROOT))
os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL", "sqlite:///:memory:")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["ALLOWED_HOSTS"] = "testserver"
os.environ["DEBUG"] = "0"
os.environ.pop("REDIS_URL", None)

PASSWORD = "senha-forte-123"


def pin(slug, code, address):
    from django.test import Client

    r = Client().post(f"/t/{slug}/minha-mesa/entrar/", {"code": code}, REMOTE_ADDR=address)
    return "in" if r.status_code == 302 else ("unknown" if "desconhecido" in r.content.decode() else "refused")


def login(password, address, client=None):
    from django.test import Client

    r = (client or Client()).post("/entrar/", {"username": "diretora", "password": password}, REMOTE_ADDR=address)
    wait = f", {r['Retry-After']} s" if r.has_header("Retry-After") else ""
    return "in" if r.status_code == 302 else f"refused ({r.status_code}{wait})"


def event(director, slug, players):
    from testkit.builders import build_tournament
    from tournaments.reporting.services import codes_issue

    t = build_tournament(slug=slug, players=players, rounds=2, user=director, complete_last=False)
    codes_issue(tournament=t, user=director)
    return t


def pins_attack(director):
    from tournaments.models import PlayerCode

    t = event(director, "alvo", 20)
    pins = list(PlayerCode.objects.filter(tournament=t).values_list("pin", flat=True))
    start = time.perf_counter()
    for a in range(26):
        for _ in range(8):
            pin(t.slug, "ZZZZZZ", f"203.0.113.{a + 1}")
    answers = [pin(t.slug, p, f"198.51.100.{i + 1}") for i, p in enumerate(pins)]
    return {
        "A: 26 x 8 wrong PINs (s)": round(time.perf_counter() - start, 1),
        "A: right PINs accepted from fresh addresses": f"{answers.count('in')}/{len(pins)}",
        "A: right PIN from an attacking address": pin(t.slug, pins[0], "203.0.113.2"),
    }


def passwords_attack():
    from django.test import Client

    own = Client()
    login(PASSWORD, "198.51.100.200", own)
    own.post("/sair/")
    start = time.perf_counter()
    for i in range(20):
        login(f"chute-{i}", f"203.0.113.{100 + i}")
    return {
        "B: 20 wrong passwords from 20 addresses (s)": round(time.perf_counter() - start, 1),
        "B: right password, new device": login(PASSWORD, "198.51.100.201"),
        "B: right password, the owner's browser": login(PASSWORD, "198.51.100.200", own),
    }


def parallel_attack(director):
    from testkit.threads import at_once

    t = event(director, "paralelo", 6)
    results = at_once(40, lambda: pin(t.slug, "YYYYYY", "10.0.0.1"))
    return {
        "C: 40 parallel wrong PINs, read": results.count("unknown"),
        "C: 40 parallel wrong PINs, refused": results.count("refused"),
    }


def attack():
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the refusals are the point, not news
    director = get_user_model().objects.create_user("diretora", password=PASSWORD, is_superuser=True)
    out = {**pins_attack(director), **passwords_attack()}
    if connection.vendor == "postgresql":
        out.update(parallel_attack(director))
    return out


def run_here():
    import django

    django.setup()
    from bench.throwaway_db import run_in_throwaway_db

    figures = run_in_throwaway_db(attack, name="attacks")
    print("FIGURES " + json.dumps(figures, ensure_ascii=False))
    return figures


def figures_of(code_root):
    env = {**os.environ, "BENCH_CODE_ROOT": str(code_root)}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--here"], env=env, capture_output=True, text=True, check=False
    )
    for line in done.stdout.splitlines():
        if line.startswith("FIGURES "):
            return json.loads(line[len("FIGURES ") :])
    raise SystemExit(f"{code_root}: no figures\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")


def compare(ref):
    rev = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref], capture_output=True, text=True, check=True
    ).stdout.strip()
    worktree = Path(tempfile.mkdtemp(prefix="damas-bench-attacks-"))
    worktree.rmdir()
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(worktree), rev], check=True)
    try:
        before, after = figures_of(worktree), figures_of(ROOT)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=False)
    print(f"\n{'attack':48s} {rev:>16s} {'this tree':>16s}")
    for key in after:
        print(f"{key:48s} {before.get(key, '-')!s:>16s} {after[key]!s:>16s}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare-with", metavar="REF", help="also attack git revision REF's code, side by side")
    parser.add_argument("--here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.compare_with and not args.here:
        compare(args.compare_with)
    else:
        for key, value in run_here().items():
            print(f"{key:48s} {value}")
