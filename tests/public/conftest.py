import pytest
from django.core.cache import cache

from testkit.builders import build_tournament


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def published(db, director):
    """30 players, 5 published rounds (all results in) and a draft round 6."""
    return build_tournament(slug="aberto-teste", players=31, rounds=5, draft_round=True, user=director)


@pytest.fixture(autouse=True)
def _forget_slugs():
    from tournaments.public import page_cache

    page_cache._SLUGS.clear()
    yield
    page_cache._SLUGS.clear()
