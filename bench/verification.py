"""Benchmark: the federation's verification of a stage (issue 29), pure (no database), as the worker runs it.

    .venv/bin/python bench/verification.py [players] [rounds]

Two stages: the 34-player stage of the tests (engine-paired; every round re-paired, no finding) and a synthetic
``players`` x ``rounds`` stage (tournaments.interchange.synthetic) whose rounds are made to claim this product's
engine, so that every round is re-paired (the worst case: each one differs and is reported). Prints the
verification time of each (best of 3) and the number of findings.
"""

import json
import os
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

STAGE = Path(__file__).resolve().parent.parent / "tests" / "data" / "federation" / "etapa-caruaru.json"


def registry_of(data):
    from tournaments.federation.verification import Registry, RegistryPlayer

    players = {
        p["cbjd_id"]: RegistryPlayer(p["cbjd_id"], p["name"], p["rating"], p.get("sex", ""), None)
        for p in data["players"]
    }
    return Registry(date(2026, 10, 1), "lista", players)


def best_of(n, fn):
    times, result = [], None
    for _ in range(n):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(players=300, rounds=9):
    from tournaments.federation.verification import ENGINE_NAME, verify
    from tournaments.interchange.synthetic import synthetic_tournament

    stage = json.loads(STAGE.read_text(encoding="utf-8"))
    synthetic = synthetic_tournament(players=players, rounds=rounds)
    for rnd in synthetic["rounds"]:
        rnd["engine"] = ENGINE_NAME
    for label, data in (("stage of the tests, 34 x 7", stage), (f"synthetic {players} x {rounds}", synthetic)):
        registry = registry_of(data)
        seconds, result = best_of(3, lambda d=data, r=registry: verify(d, r))
        print(f"{label:32} {seconds:7.3f} s   findings {len(result.findings):3}   rights {result.rights}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
