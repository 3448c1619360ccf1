"""The project is consistent: checks pass, migrations match the models, the opening tables load."""
import pytest
from django.core.management import call_command

from tournaments.models import Opening, OpeningTable
from tournaments.openings_data import read_tablita_rows


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


def test_project_copy_of_tablita_matches_shared():
    from pathlib import Path

    from tournaments.openings_data import TABLITA_CSV

    shared = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tablita" / TABLITA_CSV.name
    assert TABLITA_CSV.read_bytes() == shared.read_bytes()
