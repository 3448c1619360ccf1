"""Loading the official opening tables (tablita) shipped in ``tournaments/data/``.

Used by the data migration and by tests; the app never reads ``../shared`` at run time.
"""

import csv
from pathlib import Path

TABLITA_CSV = Path(__file__).resolve().parent.parent / "data" / "draughts64_drawing_tables.csv"

TABLE_NAMES = {
    "IDF-64": "Tabela oficial IDF (64 casas)",
    "FMJD-64": "Tabela FMJD (64 casas)",
    "IDF-64-basic": "Tabela básica IDF (64 casas)",
}
DEFAULT_TABLE = "IDF-64"


def read_tablita_rows(path=TABLITA_CSV):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def load_opening_tables(OpeningTable, Opening, path=TABLITA_CSV):
    """Create or update every table and position; positions excluded under Brazilian rules start inactive."""
    rows = read_tablita_rows(path)
    tables = {}
    for code in dict.fromkeys(r["table"] for r in rows):
        tables[code], _ = OpeningTable.objects.update_or_create(
            code=code, defaults={"name": TABLE_NAMES.get(code, code), "variant": "brazilian-64"}
        )
    existing = {(o.table_id, o.code): o for o in Opening.objects.all()}
    new = []
    for position, r in enumerate(rows):
        table = tables[r["table"]]
        excluded = r["excluded_for_brazilian"].strip().lower() in {"yes", "true", "1"}
        values = {
            "category": int(r["category"]) if r["category"].strip().isdigit() else None,
            "fen": r["fen"],
            "side_to_move": r["side_to_move"],
            "kind": r["kind"],
            "moves": r["moves"],
            "raw": r["raw"],
            "excluded_for_brazilian": excluded,
            "position": position,
        }
        current = existing.get((table.pk, r["code"]))
        if current is None:
            new.append(Opening(table=table, code=r["code"], active=not excluded, **values))
        else:
            for k, v in values.items():
                setattr(current, k, v)
            current.save()
    Opening.objects.bulk_create(new, batch_size=500)
    return len(rows)
