"""Issue 25 item 9: no stampede after a saved result. A page cached before a write is rebuilt by one request (the
one that takes its lock); while it rebuilds, the other requests get the previous version at once, without a query,
instead of all computing the same page. Nobody holding the lock, the next view shows the write."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from testkit.builders import build_tournament
from tournaments.core import cache as page_versions
from tournaments.models import Board
from tournaments.public.page_cache import WHOLE_PAGE
from tournaments.rounds.results import game_record_result

pytestmark = pytest.mark.django_db

SAVED = '<td class="result"><strong>4&nbsp;–&nbsp;0</strong>'  # board 1's micro-match won 2-0 · 2-0


@pytest.fixture
def event(director):
    return build_tournament(slug="sem-estouro", players=12, rounds=2, user=director, complete_last=False)


def save_board_1(event, director, capture):
    board = Board.objects.get(round__tournament=event, round__number=2, number=1)
    with capture(execute=True):
        game_record_result(board=board, results={1: "1-0", 2: "0-1"}, expected_version=board.version, user=director)


@pytest.mark.parametrize("logged_in", [False, True])
def test_while_one_request_rebuilds_a_page_the_others_get_the_previous_version(
    client,
    event,
    director,
    logged_in,
    django_assert_max_num_queries,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    url = reverse("public:round", args=[event.slug, 2])
    if logged_in:
        client.force_login(director)
        key = page_versions.page_key(event.pk, "round", "pt-br", 2)  # the tables, cached apart from the layout
    else:
        key = page_versions.page_key(
            event.pk, WHOLE_PAGE, "pt-br", "tournaments.public.views.round_detail", "number=2"
        )  # the whole page
    before = client.get(url).content.decode()
    assert SAVED not in before
    assert cache.get(key) is not None
    save_board_1(event, director, django_capture_on_commit_callbacks)

    assert page_versions.rebuild_lock(key)  # another app server is rebuilding the page
    stale = client.get(url).content.decode()
    assert SAVED not in stale  # the previous version, at once
    if not logged_in:
        with django_assert_num_queries(0):  # computed by nobody here
            client.get(url)

    page_versions.release(key)  # the rebuild is over (or its lock expired)
    fresh = client.get(url).content.decode()
    assert SAVED in fresh
    built_for, _payload = cache.get(key)
    assert built_for == page_versions.version(event.pk)
    assert cache.get(f"lock:{key}") is None  # the request that rebuilt it let the lock go
    with django_assert_max_num_queries(0 if not logged_in else 10):
        assert SAVED in client.get(url).content.decode()


def test_a_page_without_an_entry_is_built_without_waiting_for_a_lock(client, event, director):
    url = reverse("public:round", args=[event.slug, 2])
    key = page_versions.page_key(event.pk, WHOLE_PAGE, "pt-br", "tournaments.public.views.round_detail", "number=2")
    assert page_versions.rebuild_lock(key)  # held elsewhere, but there is nothing to serve in its place
    assert client.get(url).status_code == 200
    assert cache.get(key) is not None


def test_a_page_gone_since_it_was_cached_is_dropped_not_served_stale(
    client, event, director, django_capture_on_commit_callbacks
):
    from tournaments.rounds.services import round_undo

    url = reverse("public:round", args=[event.slug, 2])
    key = page_versions.page_key(event.pk, WHOLE_PAGE, "pt-br", "tournaments.public.views.round_detail", "number=2")
    assert client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):  # the version changes when the undo commits
        round_undo(round=event.rounds.get(number=2), user=director)
    assert client.get(url).status_code == 404
    assert cache.get(key) is None
