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
