"""Staff pages read a round in a fixed number of queries, whatever its number of boards."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.models import Entry, Player
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


def quick_tournament(make_tournament, n):
    t = make_tournament()
    players = Player.objects.bulk_create([Player(name=f"J{n}-{i:03d}", sex="M", rating=1500 + i) for i in range(n)])
    Entry.objects.bulk_create([Entry(tournament=t, player=p, rating=p.rating) for p in players])
    return t


def count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("page", ["staff:results", "staff:round"])
def test_query_count_does_not_grow_with_boards(make_tournament, director, client, page):
    client.force_login(director)
    counts = []
    for n in (20, 300):  # 10 and 150 boards
        t = quick_tournament(make_tournament, n)
        round_pair(tournament=t, user=director)
        counts.append(count(client, reverse(page, args=[t.slug, 1])))
    assert counts[0] == counts[1], counts
