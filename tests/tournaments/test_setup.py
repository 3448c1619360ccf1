"""The project is consistent: checks pass, migrations match the models, the opening tables load."""

import pytest
from django.core.management import call_command

from tournaments.models import Opening, OpeningTable
from tournaments.setup.openings_data import read_tablita_rows


def test_manage_check_is_clean():
    call_command("check", fail_level="WARNING")


@pytest.mark.django_db
def test_no_missing_migrations():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db
def test_opening_tables_loaded_by_migration():
    assert OpeningTable.objects.count() == 3
    assert Opening.objects.count() == 1631
    counts = {t.code: (t.openings.count(), t.openings.filter(active=True).count()) for t in OpeningTable.objects.all()}
    assert counts == {"IDF-64": (745, 736), "FMJD-64": (736, 725), "IDF-64-basic": (150, 150)}


@pytest.mark.django_db
def test_opening_rows_match_the_project_csv():
    rows = {(r["table"], r["code"]): r for r in read_tablita_rows()}
    for o in Opening.objects.select_related("table").filter(table__code="IDF-64")[:50]:
        r = rows[(o.table.code, o.code)]
        assert (o.fen, o.kind, o.moves) == (r["fen"], r["kind"], r["moves"])
        assert o.active == (r["excluded_for_brazilian"] != "yes")


# The official file as published in shared/data/tablita (sha256), so that an accidental edit of the project's copy
# shows; a federation update changes this digest and the counts below together.
OFFICIAL_TABLITA_SHA256 = "6cd05af9a72fe983edc7171b265bc547d286e6916996d042d83964a0865037f6"


def test_project_copy_of_tablita_is_the_official_file():
    import csv
    import hashlib
    from collections import Counter

    from tournaments.setup.openings_data import TABLITA_CSV

    assert hashlib.sha256(TABLITA_CSV.read_bytes()).hexdigest() == OFFICIAL_TABLITA_SHA256
    with TABLITA_CSV.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    # docs/domain.md section 4: IDF 745 (736 under Brazilian rules), FMJD 736 (725), IDF basic 150
    counts = Counter((r["table"], r["excluded_for_brazilian"] == "yes") for r in rows)
    assert counts == {
        ("IDF-64", False): 736,
        ("IDF-64", True): 9,
        ("FMJD-64", False): 725,
        ("FMJD-64", True): 11,
        ("IDF-64-basic", False): 150,
    }
