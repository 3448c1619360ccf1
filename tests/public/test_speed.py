"""The hot public pages of a 300-player, 9-round tournament: few queries, cached, and the cache follows writes."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from testkit.builders import build_tournament
from tournaments.models import Board, Round
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_publish

pytestmark = pytest.mark.django_db

MAX_QUERIES = 15


@pytest.fixture
def big(director):
    return build_tournament(slug="open-300", players=300, rounds=9, user=director, planned_rounds=10)


@pytest.mark.parametrize(
    "name,args,rows",
    [
        ("public:standings", [], 300),
        ("public:pairings", [], 150),
        ("public:pairings_alpha", [], 300),
        ("public:round", [9], 150),
        ("public:standings_category", ["FEM"], 75),
    ],
)
def test_hot_pages_use_at_most_15_queries_and_then_come_from_the_cache(
    client, big, name, args, rows, django_assert_max_num_queries
):
    url = reverse(name, args=[big.slug, *args])
    cache.clear()
    with django_assert_max_num_queries(MAX_QUERIES):
        first = client.get(url)
    assert first.status_code == 200
    assert first.content.count(b"<tr") >= rows
    with django_assert_max_num_queries(0):  # the whole page from the cache (the slug -> id map included)
        again = client.get(url)
    assert again.status_code == 200


def test_standings_show_every_player_with_shared_places(client, big):
    html = client.get(reverse("public:standings", args=[big.slug])).content.decode()
    assert html.split("<tbody>")[1].count("<tr>") + html.count('<tr class="qualified">') == 300
    assert "tie-group" in html


def test_a_saved_result_shows_on_the_next_view(client, big, director, django_capture_on_commit_callbacks):
    # A tenth round, published, without results yet.
    build_round = Round.objects.create(tournament=big, number=10, status="draft")
    seats = list(Round.objects.get(tournament=big, number=9).seats.select_related("entry").order_by("id"))
    from tournaments.models import Game, Seat

    board = Board.objects.create(round=build_round, number=1)
    Seat.objects.create(round=build_round, entry=seats[0].entry, board=board, side="first")
    Seat.objects.create(round=build_round, entry=seats[1].entry, board=board, side="second")
    Game.objects.bulk_create([Game(board=board, number=1), Game(board=board, number=2)])

    url = reverse("public:pairings", args=[big.slug])
    before = client.get(url).content.decode()
    assert "Rodada 9" in before and "Rodada 10" not in before  # the draft does not show

    # The services bump the cache version on commit: run those callbacks as a real commit would.
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=build_round, user=director)
    after_publish = client.get(url).content.decode()
    assert "Rodada 10" in after_publish, "publishing a round drops the cached page"
    assert "4&nbsp;–&nbsp;0" not in after_publish

    with django_capture_on_commit_callbacks(execute=True):
        game_record_result(board=board, results={1: "1-0", 2: "0-1"}, expected_version=None, user=director)
    after_result = client.get(url).content.decode()
    assert "4&nbsp;–&nbsp;0" in after_result, "a saved result drops the cached page"


def test_pages_live_briefly_in_a_per_process_cache_and_long_in_a_shared_one(monkeypatch):
    from types import SimpleNamespace

    from tournaments.public import page_cache

    local = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    monkeypatch.setattr(page_cache, "settings", SimpleNamespace(CACHES=local))
    assert page_cache.page_timeout() == page_cache.LOCAL_PAGE_TIMEOUT <= 10
    shared = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://x"}}
    monkeypatch.setattr(page_cache, "settings", SimpleNamespace(CACHES=shared))
    assert page_cache.page_timeout() == page_cache.PAGE_TIMEOUT


def test_a_deleted_tournament_is_gone_from_the_cached_pages_at_once(client, director, make_tournament):
    """The slug -> id memo is dropped by a signal receiver connected in TournamentsConfig.ready."""
    t = make_tournament(slug="vai-sair")
    url = f"/t/{t.slug}/"
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # now served from the page cache, slug remembered
    t.delete()
    assert client.get(url).status_code == 404
