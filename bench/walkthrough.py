"""The director's day, timed: the walkthrough of issue 28 in a real browser, step by step, for two versions of the
code side by side in one run (clicks, page loads, seconds per step).

    .venv/bin/python bench/walkthrough.py [--before REV] [--after REV] [--players 51] [--rounds 3]

For each revision (default: ``--before`` the commit before issue 28's work began, ``--after`` HEAD), the code of
that revision is unpacked into a temporary folder (``git archive``), migrated on a SQLite file of its own, given
the same national list (320 players, as the federation publishes it) and the same director, and served by
``manage.py runserver`` on a free 127.0.0.1 port (background work run at once). Chromium (Debian's, through
Playwright) then walks the day: log in, create a micro-match event, enter the field by pasting CBJD IDs, create
the arbiter's account and open the invite on a phone, then each round: pair, draw the opening, publish, print the
result slips, and enter the results with two people on one round (the director types the first half of the boards
on the laptop while the arbiter, on a phone, types the second half on the page she opened before the director
saved), a correction with its reason in round 1, a late entry before round 2; at the end the standings and the
homologation workbook.

Each step counts what the person had to do: clicks (and key presses that submit), page loads, and seconds. When a
save leaves boards unsaved (a version that refuses the second arbiter's page), the arbiter reloads and types her
boards again, and the step counts that too. The two versions' figures print side by side; the figures depend on
the machine's load, so only the side-by-side comparison of one run means anything.

Only 127.0.0.1 is contacted; the folders and servers are removed at the end.
"""

import argparse
import os
import random
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
from collections import OrderedDict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from testkit.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

# The last commit before issue 28's work (its first landing, cfae046, merges two arbiters' pages: issue 28.1).
DEFAULT_BEFORE = "cfae046^"
PASSWORD = "senha-forte-walk-123"
SLUG = "etapa-walk"
TOKENS = ["2-0", "1-1", "0-2"]

SETUP = """
from django.contrib.auth.models import Permission, User
from tournaments.models import Player
import random
rng = random.Random(28)
first = ["Ana", "Bruno", "Carla", "Davi", "Elisa", "Fábio", "Gabriela", "Heitor", "Íris", "João", "Karina", "Lucas",
         "Marta", "Nilo", "Olga", "Paulo", "Quitéria", "Rafael", "Sônia", "Tiago"]
last = ["Lins", "Cavalcanti", "Souza", "Araújo", "Monteiro", "Dias", "Farias", "Nascimento", "Campos", "Barros",
        "Teixeira", "Moura", "Queiroz", "Rocha", "Siqueira", "Vidal"]
players = []
for i in range(320):
    f = first[i % len(first)]
    players.append(Player(name=f"{f} {last[(i * 7) % len(last)]} {last[(i * 3 + 5) % len(last)]} {i}",
                          sex="F" if f[-1] in "ae" or f in ("Íris", "Olga") else "M",
                          rating=rng.randint(1100, 2200), cbjd_id=f"WK{i:04d}", state="PE", club="Clube Walk"))
Player.objects.bulk_create(players)
d = User.objects.create_user("diretora", password="PASSWORD_HERE", first_name="Marta")
d.user_permissions.add(Permission.objects.get(codename="add_tournament"))
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """One revision's code in a temporary folder, with its own SQLite file, served by runserver."""

    def __init__(self, rev, python):
        self.rev = rev
        self.folder = Path(tempfile.mkdtemp(prefix="damas-walk-"))
        self.python = python
        self.port = free_port()
        self.server = None
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(self.folder)], input=archive, check=True)
        self.db = self.folder / "db.sqlite3"
        self.env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.db}",
            "DEBUG": "1",
            "TASKS_BACKEND": "immediate",
            "REDIS_URL": "",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        self.env.pop("DJANGO_SETTINGS_MODULE", None)

    def manage(self, *args, **kw):
        return subprocess.run(
            [self.python, "manage.py", *args], cwd=self.folder, env=self.env, check=True, capture_output=True, **kw
        )

    def start(self):
        self.manage("migrate", "--noinput")
        self.manage("shell", "-c", SETUP.replace("PASSWORD_HERE", PASSWORD))
        self.server = subprocess.Popen(
            [self.python, "manage.py", "runserver", "--noreload", "--nothreading", f"127.0.0.1:{self.port}"],
            cwd=self.folder,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"{self.rev}: runserver did not start")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def saved_games(self, number):
        with sqlite3.connect(self.db) as con:
            return con.execute(
                "SELECT count(*) FROM tournaments_game g JOIN tournaments_board b ON g.board_id = b.id "
                "JOIN tournaments_round r ON b.round_id = r.id JOIN tournaments_tournament t ON r.tournament_id = t.id "
                "WHERE t.slug = ? AND r.number = ? AND g.result IS NOT NULL AND g.result != ''",
                (SLUG, number),
            ).fetchone()[0]

    def stop(self):
        if self.server:
            self.server.terminate()
            self.server.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


class Meter:
    """Clicks, page loads and seconds, per step."""

    def __init__(self):
        self.steps = OrderedDict()
        self.current = None
        self.notes = {}

    def step(self, name):
        meter = self

        class _Step:
            def __enter__(self):
                meter.current = name
                meter.steps.setdefault(name, {"clicks": 0, "loads": 0, "seconds": 0.0})
                self.start = time.perf_counter()

            def __exit__(self, *exc):
                meter.steps[name]["seconds"] += time.perf_counter() - self.start
                meter.current = None
                return False

        return _Step()

    def watch(self, page):
        page.on("load", lambda _p: self._count("loads"))

    def _count(self, what, n=1):
        if self.current:
            self.steps[self.current][what] += n

    def click(self, page, selector, wait=True):
        self._count("clicks")
        page.click(selector)
        if wait:
            page.wait_for_load_state()

    def note(self, name, text):
        self.notes[name] = text


def fill_if_present(page, selector, value):
    if page.locator(selector).count():
        if not page.locator(selector).is_visible():
            # folded away (advanced settings): open what holds it
            page.evaluate(
                "sel => { const el = document.querySelector(sel); const d = el && el.closest('details'); "
                "if (d) d.open = true; }",
                selector,
            )
        page.fill(selector, value)


def log_in(meter, page, base, username):
    page.goto(f"{base}/entrar/?next=/gestao/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    meter.click(page, "form button[type=submit]:not(.link-button)")


class Walk:
    """One version's day: a method per step, each measured by the meter."""

    def __init__(self, site, players, browser):
        self.site = site
        self.base = site.url
        self.players = players
        self.meter = Meter()
        self.rng = random.Random(7)
        self.desk_ctx = browser.new_context(
            viewport={"width": 1366, "height": 768}, locale="pt-BR", accept_downloads=True
        )
        self.arb_ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="pt-BR"
        )
        self.desk = self.desk_ctx.new_page()
        self.desk.set_default_timeout(60000)
        self.meter.watch(self.desk)
        self.arb = None

    def close(self):
        self.desk_ctx.close()
        self.arb_ctx.close()

    def log_in(self):
        with self.meter.step("1. entrar (diretora)"):
            log_in(self.meter, self.desk, self.base, "diretora")

    def create(self, rounds):
        desk = self.desk
        with self.meter.step("2. criar o torneio"):
            desk.goto(f"{self.base}/gestao/novo/")
            desk.fill("#id_name", "Etapa Walk")
            fill_if_present(desk, "#id_slug", SLUG)
            fill_if_present(desk, "#id_planned_rounds", str(rounds))
            fill_if_present(desk, "#id_start_date", "2026-11-07")
            fill_if_present(desk, "#id_end_date", "2026-11-08")
            fill_if_present(desk, "#id_city", "Caruaru")
            idf = desk.locator("#id_opening_table option").filter(has_text=re.compile("IDF")).first
            if idf.count():
                desk.select_option("#id_opening_table", idf.get_attribute("value"))
            self.meter.click(desk, "form.form-grid button[type=submit]")
            desk.wait_for_url(re.compile(rf"/gestao/t/{SLUG}/$"))

    def paste(self, step, ids):
        with self.meter.step(step):
            self.desk.goto(f"{self.base}/gestao/t/{SLUG}/inscritos/")
            self.meter.click(self.desk, "#paste summary", wait=False)
            self.desk.fill("#id_lines", "\n".join(ids))
            self.meter.click(self.desk, "#enter-list")

    def arbiter(self):
        step = "4. conta do árbitro e convite no celular"
        with self.meter.step(step):
            self.desk.goto(f"{self.base}/gestao/t/{SLUG}/equipe/")
            self.desk.fill("#account_full_name", "Paula Árbitra")
            self.desk.fill("#account_username", "arbitra")
            self.meter.click(self.desk, "#create-account")
            invite = self.desk.input_value("#invite-url")
            arb = self.arb = self.arb_ctx.new_page()
            arb.set_default_timeout(60000)
            self.meter.watch(arb)
            arb.goto(invite)
            arb.fill("#id_new_password1", PASSWORD)
            arb.fill("#id_new_password2", PASSWORD)
            self.meter.click(arb, "#set-password")
            if "/entrar/" in arb.url:
                log_in(self.meter, arb, self.base, "arbitra")
                self.meter.note(step, "had to log in after choosing the password")

    def pair(self, number):
        desk = self.desk
        with self.meter.step("5. emparceirar, sortear, publicar, imprimir súmulas (por rodada)"):
            desk.goto(f"{self.base}/gestao/t/{SLUG}/")
            self.meter.click(desk, "#pair-next")
            presence = "#confirm-presence, #presence-confirm, form#presence button[type=submit]"
            if desk.locator(presence).count():  # a version that asks who is present first: nobody is absent here
                self.meter.click(desk, presence)
            desk.wait_for_url(re.compile(rf"/rodada/{number}/$"), timeout=180000)
            self.meter.click(desk, "#draw-opening")
            self.meter.click(desk, "#publish")
            slips = desk.locator(".print-links a").filter(has_text=re.compile("súmula", re.I)).first
            href = slips.get_attribute("href")
            self.meter._count("clicks")
            desk.goto(f"{self.base}{href}" if href.startswith("/") else href)

    def type_boards(self, page, values, first, last):
        inputs = page.locator("input.result-input")
        for i in range(first, last):
            inputs.nth(i).fill(values[i])

    def results(self, number):
        """Two people on one round: both open the page, the director saves her half, then the arbiter hers."""
        path = f"{self.base}/gestao/t/{SLUG}/rodada/{number}/resultados/"
        with self.meter.step("7. resultados a quatro mãos (por rodada)"):
            self.desk.goto(path)
            self.arb.goto(path)
            total = self.desk.locator("input.result-input").count()
            half = total // 4 * 2  # whole boards: two games each
            values = [self.rng.choice(TOKENS) for _ in range(total)]
            self.type_boards(self.desk, values, 0, half)
            self.meter.click(self.desk, "#save-results")
            self.type_boards(self.arb, values, half, total)
            self.meter.click(self.arb, "#save-results")
            retries = 0
            while self.site.saved_games(number) < total and retries < 3:
                retries += 1  # her boards were not saved: she reloads and types them again
                self.arb.goto(path)
                self.type_boards(self.arb, values, half, total)
                self.meter.click(self.arb, "#save-results")
            if retries:
                self.meter.note(f"7. round {number}", f"arbiter typed her boards again {retries}×")
            if self.site.saved_games(number) < total:
                raise RuntimeError(f"round {number}: {self.site.saved_games(number)} of {total} games saved")
        return path

    def correct(self, path):
        desk = self.desk
        with self.meter.step("8. correção com motivo (rodada 1)"):
            desk.goto(path)
            first = desk.locator("input.result-input").nth(0)
            first.fill("0-2" if first.input_value() != "0-2" else "2-0")
            self.meter.click(desk, "#save-results")
            desk.fill("#reason", "súmula assinada pelos dois jogadores")
            desk.check("input[name=confirm_correction]")
            self.meter._count("clicks")
            self.meter.click(desk, "#save-results")

    def reports(self):
        step = "9. classificação e planilha de homologação"
        with self.meter.step(step):
            self.desk.goto(f"{self.base}/gestao/t/{SLUG}/classificacao/")
            self.desk.goto(f"{self.base}/gestao/t/{SLUG}/homologacao/")
            link = self.desk.locator("a[href$='/xlsx/'], a[href*='xlsx']").first
            with self.desk.expect_download() as info:
                self.meter._count("clicks")
                link.click()
            self.meter.note(step, f"workbook {Path(info.value.path()).stat().st_size} bytes")


def walk(site, players, rounds, browser, out):
    day = Walk(site, players, browser)
    try:
        day.log_in()
        day.create(rounds)
        day.paste("3. inscrever o campo (colar IDs)", [f"WK{i:04d}" for i in range(players)])
        day.arbiter()
        for number in range(1, rounds + 1):
            if number == 2:
                day.paste("6. inscrição tardia (antes da rodada 2)", [f"WK{players:04d}"])
            day.pair(number)
            path = day.results(number)
            if number == 1:
                day.correct(path)
        day.reports()
        if out:
            day.desk.screenshot(path=str(out / f"walkthrough-{site.rev.replace('^', '_')}.png"), full_page=True)
    finally:
        day.close()
    return day.meter


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=DEFAULT_BEFORE)
    parser.add_argument("--after", default="HEAD")
    parser.add_argument("--players", type=int, default=51)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--screenshots", type=Path, default=None, help="folder for a last screenshot of each run")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for label, rev in (("before", args.before), ("after", args.after)):
            site = Site(rev, sys.executable)
            try:
                site.start()
                started = time.perf_counter()
                results[label] = (walk(site, args.players, args.rounds, browser, args.screenshots), rev)
                print(f"{label} ({rev}): walked in {time.perf_counter() - started:.1f} s", flush=True)
            except Exception as exc:  # report which version could not walk, and go on
                traceback.print_exc()
                print(f"{label} ({rev}): could not walk: {type(exc).__name__}: {exc}", flush=True)
            finally:
                site.stop()
        browser.close()
    print(f"\nwalkthrough: {args.players} players, {args.rounds} rounds, micro-match; load {os.getloadavg()[0]:.1f}")
    names = list(OrderedDict.fromkeys(n for m, _ in results.values() for n in m.steps))
    header = f"{'step':<62}" + "".join(f"{lab + ' clicks/loads/s':>28}" for lab in results)
    print(header)
    totals = {lab: [0, 0, 0.0] for lab in results}
    for name in names:
        row = f"{name:<62}"
        for lab, (m, _) in results.items():
            s = m.steps.get(name)
            if s is None:
                row += f"{'-':>28}"
                continue
            totals[lab][0] += s["clicks"]
            totals[lab][1] += s["loads"]
            totals[lab][2] += s["seconds"]
            row += f"{s['clicks']:>14}/{s['loads']:>4}/{s['seconds']:>7.1f}"
        print(row)
    print(f"{'total':<62}" + "".join(f"{c:>14}/{lo:>4}/{sec:>7.1f}" for c, lo, sec in totals.values()))
    for lab, (m, _rev) in results.items():
        for name, text in m.notes.items():
            if text:
                print(f"  {lab}: {name}: {text}")


if __name__ == "__main__":
    main()
