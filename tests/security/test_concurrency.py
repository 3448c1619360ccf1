"""Two arbiters pairing the same round at once create one round (real threads, PostgreSQL row locks)."""

import threading

import pytest
from django.db import connection, connections

from tournaments.core.errors import ServiceError
from tournaments.models import Round, Seat
from tournaments.rounds.services import round_pair


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_arbiters_pair_at_once_one_round(field, director):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are real only on PostgreSQL (SQLite serialises writers); CI runs this on PostgreSQL")
    t, entries = field(30)
    barrier, outcomes = threading.Barrier(2), []

    def pair():
        try:
            barrier.wait()
            outcomes.append(("ok", round_pair(tournament=t, user=director, publish=True).number))
        except ServiceError as exc:
            outcomes.append(("refused", exc.messages[0]))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=pair) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(k for k, _ in outcomes) == ["ok", "refused"]
    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1]
    assert Seat.objects.filter(round__tournament=t).count() == 30
