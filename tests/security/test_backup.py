"""Backup and restore: every tournament exported to the interchange file and restored into an empty database
with nothing lost (the demo's round trip), the pairing engine of each round included."""

import json

import pytest

from tournaments.homologation.report import homologation_check
from tournaments.interchange import export_json, import_json
from tournaments.models import AuditEntry, Entry, Game, Player, Round, Tournament
from tournaments.setup.demo import load_demo

pytestmark = pytest.mark.django_db


def test_demo_round_trip_into_an_empty_database():
    tournament, created = load_demo()
    assert created
    backup = export_json(tournament)
    before = homologation_check(tournament).as_json()
    counts = (Entry.objects.count(), Round.objects.count(), Game.objects.exclude(result=None).count())
    # Empty the database of tournaments and players.
    AuditEntry.objects.all().delete()
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    assert Game.objects.count() == 0
    restored = import_json(backup, user=None)
    assert (Entry.objects.count(), Round.objects.count(), Game.objects.exclude(result=None).count()) == counts
    assert json.loads(export_json(restored)) == json.loads(backup)
    assert set(Round.objects.values_list("engine", flat=True)) == {r.engine for r in Round.objects.all()}
    assert "imported" not in set(Round.objects.values_list("engine", flat=True))
    after = homologation_check(restored).as_json()
    # Same verdict on every condition. A restored file is an import: its rounds are paired again from the file and
    # found the same, which the conditions of art. 4 and 5 now say (issue 26, point 2).
    assert [(c["key"], c["met"]) for c in after["conditions"]] == [(c["key"], c["met"]) for c in before["conditions"]]
    changed = [a["detail"] for a, b in zip(after["conditions"], before["conditions"], strict=True) if a != b]
    assert changed and all("de novo" in detail for detail in changed), changed
    assert after["categories"] == before["categories"]
