"""The bad-input corpus (issue 15): hostile files and values through every upload page and the text fields of the
staff forms, as a browser posts them. Every case must answer without a server error, and a refused case must
write nothing at all (every table an import or a form writes is counted before and after).

The corpus: the hostile workbooks and CSVs of ``testkit/hostile_files.py``, the committed broken files of
``tests/badinput/corpus/``, each uploaded to all three upload pages (rating list, tournament file, opening
table); the interchange file with every number replaced by NaN, infinities, huge and out-of-range values and
every text by a line break or a control character; and hostile text in every one-line field of the tournament
and player forms. The test prints its size and result.
"""

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from testkit import hostile_files as H
from tests.tournaments.interchange.helpers import COUNTED_MODELS, load
from tests.tournaments.test_form_errors import VALID
from tournaments import models

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[1] / "badinput" / "corpus"
# every table an import writes, and the registry tables the uploads and forms reach
TABLES = (*COUNTED_MODELS, "RatingList", "OpeningTable", "Opening", "Suspension")
NUMBERS = ["NaN", "Infinity", "-Infinity", "1e999", "9" * 5000, "999999999999999999", "2147483648", "-1", "1.55"]
TEXTS = ["\n012 Falso", "\r", "\x00", "\x01", "\x1b[2J", "\u2028", "\u202e", "\x85"]
FORM_TEXTS = [*(f"Nome{t}X" for t in TEXTS), "A" * 100_000, "=cmd|' /C calc'!A0"]


def counts():
    return {name: getattr(models, name).objects.count() for name in TABLES}


def hostile_files():
    files = {
        "dimension-bomb.xlsx": H.declared_dimension_bomb(),
        "million-rows.xlsx": H.million_rows(),
        "million-player-rows.xlsx": H.million_rows_declared_sizes(),
        "far-row.xlsx": H.far_row(),
        "wide-row.xlsx": H.wide_row(),
        "inflating.xlsx": H.inflating_member(),
        "lying.xlsx": H.lying_member(),
        "many-members.xlsx": H.many_members(),
        "laughs.xlsx": H.entity_expansion(),
        "huge-cell.xlsx": H.huge_cell(),
        "bad-shared.xlsx": H.bad_shared_string_index(),
        "backwards.xlsx": H.rows_backwards(),
        "nan.xlsx": H.not_finite_numbers(),
        "long-line.csv": H.csv_long_line(),
        "million.csv": H.csv_million_rows(),
        "flood.zip": H.directory_flood(),
        "corrupt-sp.zip": H.corrupt_deflate_sp_zip(),
        "nul.csv": b"table,code,fen\x00,side_to_move,kind\n",
        "random.bin": bytes(range(256)) * 64,
    }
    for path in sorted(CORPUS.iterdir()):
        if path.suffix != ".py" and path.name != "valid_4_players.trf":
            files[path.name] = path.read_bytes()
    return files


def interchange_variants():
    """small5.json with one value replaced: every number by each of NUMBERS, every text by each of TEXTS."""
    base = load("small5.json")
    leaves = []

    def walk(node, path):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else None
        if items is None:
            leaves.append((path, node))
            return
        for key, value in items:
            walk(value, (*path, key))

    walk(base, ())
    for path, value in leaves:
        if isinstance(value, bool) or path[-1] == "format":
            continue
        bad = (
            NUMBERS if isinstance(value, (int, float)) else [f"x{t}y" for t in TEXTS] if isinstance(value, str) else []
        )
        for literal in bad:
            data = json.loads(json.dumps(base))
            node = data
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = "__X__"
            raw = json.dumps(literal) if isinstance(value, str) else literal
            yield f"{'.'.join(map(str, path))}={literal[:12]!r}", json.dumps(data).replace('"__X__"', raw).encode()


class Tally:
    def __init__(self, client):
        self.client, self.cases, self.refused, self.accepted = client, 0, 0, 0
        self.server_errors, self.partial = [], []

    def post(self, label, url, data):
        before = counts()
        response = self.client.post(url, data)
        after = counts()
        self.cases += 1
        if response.status_code >= 500:
            self.server_errors.append(label)
        changed = {k for k in before if before[k] != after[k]}
        if response.status_code == 302 and changed:
            self.accepted += 1
        else:
            self.refused += 1
            if changed:
                self.partial.append((label, sorted(changed)))


@pytest.fixture
def tally(director):
    from django.test import Client

    from tournaments.registry.services import federation_group

    director.user_permissions.add(*Permission.objects.filter(codename__in=["add_openingtable", "add_player"]))
    director.groups.add(federation_group())  # rating lists are the federation's (issue 15.5)
    client = Client(raise_request_exception=False)
    client.force_login(director)
    return Tally(client)


def test_the_bad_input_corpus(tally, make_tournament, capsys):
    uploads = [
        (reverse("staff:rating_import"), {}),
        (reverse("staff:tournament_import"), {}),
        (reverse("staff:opening_tables"), {"variant": "international-100"}),
    ]
    for name, data in hostile_files().items():
        for url, extra in uploads:
            tally.post(f"{url} {name}", url, {**extra, "file": SimpleUploadedFile(name, data)})
    for label, data in interchange_variants():
        tally.post(f"json {label}", reverse("staff:tournament_import"), {"file": SimpleUploadedFile("t.json", data)})
    tally.refused_files = tally.refused

    t = make_tournament(slug="corpus")
    table = models.OpeningTable.objects.get(code="IDF-64").pk
    for field in ("name", "city", "venue", "chief_arbiter", "slug"):
        for text in FORM_TEXTS:
            data = dict(VALID, opening_table=table, **{field: text})
            tally.post(f"tournament {field}={text[:12]!r}", reverse("staff:tournament_create"), data)
    player = {"name": "Ana Souza", "sex": "F", "state": "PE", "club": "", "cbjd_id": "", "rating": "1500"}
    for field in ("name", "club", "cbjd_id", "rating", "state", "sex"):
        for text in [*FORM_TEXTS, *NUMBERS]:
            tally.post(
                f"player {field}={text[:12]!r}", reverse("staff:entry_add", args=[t.slug]), {**player, field: text}
            )

    with capsys.disabled():
        print(
            f"\nbad-input corpus: {tally.cases} cases, {tally.refused} refused, {tally.accepted} accepted, "
            f"{len(tally.server_errors)} server errors, {len(tally.partial)} partial writes"
        )
    assert tally.server_errors == []
    assert tally.partial == []
    assert tally.cases > 1000 and tally.refused > 900
