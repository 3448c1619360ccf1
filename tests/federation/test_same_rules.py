"""Issue 36.1, as a property: on random stages played at a venue (tests/federation/stages.py), the venue's report
of the imported file (``homologation_check``) and the federation's verification of the same file give the same
verdict, the same conditions, the same standings and the same qualifiers: one implementation of the rules."""

import copy

import pytest

from tests.federation.stages import random_stage, registry_agreeing
from tournaments.federation.verification import CONDITION_CODES, verify
from tournaments.homologation.report import homologation_check
from tournaments.interchange import import_data
from tournaments.models import Suspension


def standings_rows(standings):
    return [(row.id, row.rank, str(row.points)) for row in standings.rows]


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(8))
def test_the_venue_and_the_federation_agree(seed):
    data = random_stage(seed)
    federation = verify(copy.deepcopy(data), registry_agreeing(data))
    # the stage's own abandonments suspended its players at this database's venue: the imported copy is another
    # event to them, so they go (the verification leaves out a stage's own suspensions too)
    Suspension.objects.all().delete()
    imported = data | {"tournament": data["tournament"] | {"slug": f"importada-{seed}"}}
    venue = homologation_check(import_data(imported))

    # the same verdict, condition by condition
    assert federation.rights is venue.rights
    unmet = {CONDITION_CODES[c.key] for c in venue.conditions if c.decides_rights and not c.met}
    assert {f.code for f in federation.findings if f.blocking} == unmet
    # the same standings
    assert standings_rows(federation.standings) == standings_rows(venue.standings)
    # the same categories, spots and qualifiers (the shape of homologation_check --format json)
    assert federation.categories == venue.as_json()["categories"]
    # and what the season reads: each category's qualifiers (the file's ids are the pairing numbers)
    assert {q["code"]: [p["id"] for p in q["qualified"]] for q in federation.qualification} == {
        q["code"]: q["qualified"] for q in venue.as_json()["categories"]
    }
