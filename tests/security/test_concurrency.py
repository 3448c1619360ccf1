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


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_arbiters_save_overlapping_pages_at_once(field, director):
    """Issue 28 item 1 on PostgreSQL: two results pages saved at once, each with its own boards and both with boards
    1 and 2 (listed in opposite orders: the boards are locked in id order, so neither waits on the other crosswise).
    Each overlapping board ends with one arbiter's values, the other arbiter's page flags it; both pages' own
    boards are saved; nothing is lost, one audit line per board saved."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are real only on PostgreSQL (SQLite serialises writers); CI runs this on PostgreSQL")
    from tournaments.models import AuditEntry, Board, Game
    from tournaments.rounds.results import round_record_results

    t, _entries = field(12)
    rnd = round_pair(tournament=t, user=director, publish=True)
    ids = {b.number: b.pk for b in Board.objects.filter(round=rnd)}
    pages = {
        "laptop": [(ids[1], 1, {1: "1-0", 2: "1-0"}), (ids[2], 1, {1: "1-0", 2: "1-0"}), (ids[3], 1, {1: "1/2"})],
        "phone": [(ids[2], 1, {1: "0-1", 2: "0-1"}), (ids[1], 1, {1: "0-1", 2: "0-1"}), (ids[4], 1, {1: "1/2"})],
    }
    barrier, outcomes = threading.Barrier(2), {}

    def save(name):
        try:
            barrier.wait()
            outcomes[name] = round_record_results(round=rnd, rows=pages[name], user=director)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save, args=(name,)) for name in pages]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert set(outcomes) == {"laptop", "phone"}  # both answered (no deadlock)
    first, second = sorted(outcomes, key=lambda name: len(outcomes[name].saved), reverse=True)
    assert outcomes[first].saved == sorted([1, 2, 3 if first == "laptop" else 4]) and outcomes[first].stale == []
    assert outcomes[second].saved == [3 if second == "laptop" else 4]
    assert sorted(s.number for s in outcomes[second].stale) == [1, 2]
    winner = {"laptop": ["1-0", "1-0"], "phone": ["0-1", "0-1"]}[first]
    for n in (1, 2):
        assert [g.result for g in Game.objects.filter(board_id=ids[n]).order_by("number")] == winner
    assert Game.objects.filter(board_id__in=[ids[3], ids[4]], number=1, result="1/2").count() == 2
    assert AuditEntry.objects.filter(action="result.enter").count() == 4
