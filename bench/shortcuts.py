"""Benchmark: the three speed shortcuts of the standings, each measured against the plain way, side by side in one
run (issue 39.10: each is kept only where this shows it pays; the figures go in a comment beside the shortcut).

    PYTHONPATH=. .venv/bin/python bench/shortcuts.py [players] [rounds]     # default 1000 x 11 (issue 17's size)

1. Tiebreaks: ``TiebreakCalculator.values`` (one pass over a player's rounds, what the standings use) against the
   method of each key (``progressive``, ``buchholz_cut``, ...: the readable definitions), for every player.
2. The cyclic garbage collector paused while the standings are computed (``standings.compute.gc_paused``) against
   left running, in a heap holding Django and the app (the venue's ``make run``), then with that heap frozen
   (``gc.freeze``, as a gunicorn worker's: config/gunicorn.py).
3. The standings table's rows written by the presenter (``standings.presenters._add_rows_html``) against the
   template markup they replaced (12 template tags a row, autoescaped).

CPU seconds, best of 5 (the figure to judge on a shared machine; the load average is printed too).
"""

import gc
import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.template import Context, Template  # noqa: E402
from django.utils.safestring import SafeString  # noqa: E402

from bench.standings import build  # noqa: E402
from tests.public.test_standings_rows_html import TEMPLATE_ROWS as REFERENCE_MARKUP  # noqa: E402
from tournaments.domain import StandingsSettings, TiebreakCalculator, compute_standings  # noqa: E402
from tournaments.standings.compute import gc_paused  # noqa: E402
from tournaments.standings.presenters import _add_rows_html  # noqa: E402

REPEAT = 5

# The rows' markup before the presenter wrote it: the reference the test compares the presenter with.
TEMPLATE_ROWS = Template(REFERENCE_MARKUP)


def best(fn, repeat=REPEAT):
    """Best CPU seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times)


def tiebreaks(data):
    settings = StandingsSettings()
    calc = TiebreakCalculator(data, settings)
    groups = {}
    for pid in calc.players:
        groups.setdefault(calc.score[pid], []).append(pid)
    group_of = {pid: group for group in groups.values() for pid in group}
    fast = best(lambda: [calc.values(pid, group_of[pid]) for pid in calc.players])
    plain = best(lambda: [calc.values_by_methods(pid, group_of[pid]) for pid in calc.players])
    whole = best(lambda: compute_standings(data, settings))
    assert all(calc.values(p, group_of[p]) == calc.values_by_methods(p, group_of[p]) for p in calc.players)
    return fast, plain, whole


def collector(data):
    settings = StandingsSettings()

    def paused():
        with gc_paused():
            compute_standings(data, settings)

    def running():
        compute_standings(data, settings)

    ballast = [{"n": i, "s": str(i)} for i in range(300_000)]  # a long-lived heap as a served app's
    out = {"heap": (best(running), best(paused))}
    gc.collect()
    gc.freeze()
    out["frozen"] = (best(running), best(paused))
    gc.unfreeze()
    del ballast
    return out


def rows(n):
    def make():
        return [
            {
                "rank": i,
                "name": f"Jogador Número {i:04d} & Cia",
                "url": f"/t/etapa/jogador/{i}/",
                "info": f"{1400 + i % 900} · Clube {i % 40}",
                "points": f"{(n - i) // 50}",
                "cells": SafeString("".join(f'<td class="num">{(i * k) % 97}</td>' for k in range(5))),
                "group": {"text": f"Empate em {(n - i) // 50} pontos"} if i % 7 == 0 else None,
                "unrated": i % 11 == 0,
                "withdrawn": "desistiu" if i % 97 == 0 else "",
                "qualified": i <= 3,
                "overall": i,
            }
            for i in range(1, n + 1)
        ]

    hand = best(lambda: _add_rows_html(make(), 9, False)) - best(make)
    table = {"rows": make(), "span": 9, "category": None}
    template = best(lambda: TEMPLATE_ROWS.render(Context({"table": table})))
    return hand, template


def main():
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    data = build(players, rounds)
    print(f"{players} players x {rounds} rounds; load average {os.getloadavg()[0]:.1f}; CPU s, best of {REPEAT}")
    fast, plain, whole = tiebreaks(data)
    print(
        f"1. tiebreaks of every player: values() {fast:.3f}  by the methods {plain:.3f}  "
        f"(x{plain / fast:.1f}; the whole compute_standings {whole:.3f}, of which values() saves "
        f"{(plain - fast) / (whole - fast + plain):.0%})"
    )
    for heap, (running, paused) in collector(data).items():
        print(
            f"2. compute_standings, {heap:6}: collector running {running:.3f}  paused {paused:.3f}  "
            f"({(running - paused) / running:+.0%} saved)"
        )
    hand, template = rows(players)
    print(
        f"3. standings rows HTML: by the presenter {hand:.4f}  by the template {template:.4f}  (x{template / hand:.1f})"
    )


if __name__ == "__main__":
    main()
