"""Helpers shared by the interchange, standings, homologation and command tests (files in data/)."""

import copy
import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
COUNTED_MODELS = (
    "Tournament",
    "Category",
    "Player",
    "Entry",
    "Round",
    "Board",
    "Seat",
    "Game",
    "Absence",
    "OneSidedRound",
    "AuditEntry",
)


def load(name):
    return copy.deepcopy(json.loads((DATA / name).read_text(encoding="utf-8")))


def import_named(name_or_data):
    from tournaments.interchange import import_data

    return import_data(load(name_or_data) if isinstance(name_or_data, str) else name_or_data)


def row_counts():
    """Rows of every table an import writes (to prove that a rejected file wrote nothing)."""
    from tournaments import models

    return {name: getattr(models, name).objects.count() for name in COUNTED_MODELS}


def make_homologable(tournament, engine=True):
    """Mark every round as paired by the product's engine (an import marks them as imported) and the results as
    sent to the federation on the day after the last day (within the 2-day deadline)."""
    send_on_time(tournament)
    if engine:
        from tournaments.homologation.conditions import engine_name
        from tournaments.models import Round

        # paired here (an explanation recorded): an imported round naming the engine would be paired again and
        # compared (issue 26), and the test files are not the Dutch system's pairings
        Round.objects.filter(tournament=tournament).update(engine=engine_name(), explanation={"paired": "here"})


def send_on_time(tournament, days_after=1):
    """Record the homologation workbook as sent ``days_after`` days after the last day, at noon local time."""
    from datetime import datetime, time, timedelta
    from zoneinfo import ZoneInfo

    from tournaments.models import Tournament

    day = tournament.end_date + timedelta(days=days_after)
    when = datetime.combine(day, time(12), tzinfo=ZoneInfo(tournament.time_zone))
    Tournament.objects.filter(pk=tournament.pk).update(homologation_exported_at=when)
    tournament.homologation_exported_at = when


def direct_encounter_file():
    """4 players, 2 rounds: 1 and 2 tie on 5 points after meeting (2 won their micro-match 3-1)."""
    data = load("small5.json")
    data["tournament"].update(slug="confronto-4", rounds=2)
    data["players"] = data["players"][:4]
    data["rounds"] = [
        {
            "number": 1,
            "opening": "1-IV",
            "bye": None,
            "absent": [],
            "boards": [
                {"board": 1, "first": 1, "second": 3, "games": ["1-0", "0-1"]},
                {"board": 2, "first": 2, "second": 4, "games": ["1/2", "1/2"]},
            ],
        },
        {
            "number": 2,
            "opening": "2-IV",
            "bye": None,
            "absent": [],
            "boards": [
                {"board": 1, "first": 1, "second": 2, "games": ["0-1", "1/2"]},
                {"board": 2, "first": 3, "second": 4, "games": ["1-0", "0-1"]},
            ],
        },
    ]
    return data
