"""Hostile interchange files are refused quickly with one clear reason, nothing written."""

import json

import pytest

from tournaments.interchange import InterchangeError, import_json
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_deeply_nested_json_refused():
    with pytest.raises(InterchangeError) as exc:
        import_json("[" * 200_000 + "]" * 200_000)
    assert "aninhado" in exc.value.messages[0]
    assert Tournament.objects.count() == 0


def test_too_many_players_refused_before_reading_them():
    data = {"format": "damas-swiss/1", "tournament": {}, "players": [{"id": i} for i in range(1, 6002)], "rounds": []}
    with pytest.raises(InterchangeError) as exc:
        import_json(json.dumps(data))
    assert "jogadores demais" in exc.value.messages[0]


def test_file_over_the_size_limit_refused():
    with pytest.raises(InterchangeError) as exc:
        import_json(b" " * (20 * 1024 * 1024 + 1))
    assert "grande demais" in exc.value.messages[0]


@pytest.mark.parametrize(("field", "limit", "label"), [("name", 120, "nome"), ("club", 120, "clube")])
def test_a_player_text_longer_than_its_field_is_refused_not_cut(field, limit, label):
    """Issue 25, item 13: a long name used to be cut silently at 120 characters."""
    from tests.tournaments.interchange.helpers import load

    data = load("small5.json")
    data["players"][2][field] = "Maria " + "da Silva " * 20
    long = len(data["players"][2][field])
    with pytest.raises(InterchangeError) as exc:
        import_json(json.dumps(data))
    assert any(f"{label} com {long} caracteres (no máximo {limit})" in m for m in exc.value.messages)
    assert Tournament.objects.count() == 0


def test_a_tournament_name_longer_than_its_field_is_refused():
    from tests.tournaments.interchange.helpers import load

    data = load("small5.json")
    data["tournament"]["name"] = "Aberto " * 40
    with pytest.raises(InterchangeError) as exc:
        import_json(json.dumps(data))
    assert any("nome do torneio com 280 caracteres (no máximo 200)" in m for m in exc.value.messages)
    assert Tournament.objects.count() == 0
