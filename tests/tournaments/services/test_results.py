"""Result entry: per-game codes, audit of corrections, stale forms refused with the current value."""

import threading

import pytest
from django.db import connection, connections
from django.utils import translation

from tournaments.core.errors import ConflictError, ServiceError
from tournaments.domain.snapshot import board_records
from tournaments.models import AuditEntry, Board, Game
from tournaments.rounds.results import ReasonRequired, game_record_result, round_record_results
from tournaments.rounds.scoring import board_points, entry_label, parse_entry
from tournaments.rounds.services import round_pair
from tournaments.standings.snapshot import read_snapshot


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


@pytest.fixture
def round1(field, director):
    t, entries = field(6)
    return t, round_pair(tournament=t, user=director, publish=True)


def test_board_point_of_view_tokens():
    # Game 1: the first player is White; game 2: the second player is White.
    assert parse_entry(1, "2-0") == "1-0" and parse_entry(2, "2-0") == "0-1"
    assert parse_entry(1, "1") == "1/2" and parse_entry(2, "1-1") == "1/2"
    assert parse_entry(1, "+") == "+/-" and parse_entry(2, "+") == "-/+"
    assert parse_entry(2, "x") == "-/-" and parse_entry(1, "") is None
    for n in (1, 2):
        for code in ("1-0", "0-1", "1/2", "+/-", "-/+", "-/-"):
            assert parse_entry(n, entry_label(n, code)) == code
    with pytest.raises(ValueError):
        parse_entry(1, "3-0")


def test_micro_match_points():
    scoring = {"win": 2, "draw": 1, "loss": 0}
    assert board_points({1: "1-0", 2: "0-1"}, scoring) == (4, 0)  # first won both games
    assert board_points({1: "1-0", 2: "1-0"}, scoring) == (2, 2)
    assert board_points({1: "1/2", 2: "0-1"}, scoring) == (3, 1)
    assert board_points({1: "-/-", 2: "-/-"}, scoring) == (0, 0)


@pytest.mark.django_db
def test_record_and_correct_with_audit(round1, director):
    t, rnd = round1
    board = rnd.boards.get(number=1)
    game_record_result(board=board, results={1: "1-0", 2: "1/2"}, expected_version=1, user=director)
    board.refresh_from_db()
    assert board.version == 2
    with pytest.raises(ReasonRequired) as refused:  # a correction needs a reason: nothing changes without it
        game_record_result(board=board, results={2: "0-1"}, expected_version=2, user=director)
    assert refused.value.corrections == ["Mesa 1: partida 2 de 1-1 para 2-0"]  # first player's side, micro notation
    assert [g.result for g in Game.objects.filter(board=board).order_by("number")] == ["1-0", "1/2"]
    game_record_result(board=board, results={2: "0-1"}, expected_version=2, user=director, reason="súmula conferida")
    entries = AuditEntry.objects.filter(action__startswith="result.").order_by("id")
    assert [e.action for e in entries] == ["result.enter", "result.correct"]
    assert entries[1].old == {"games": {"1": "1-0", "2": "1/2"}}
    assert entries[1].new == {"games": {"1": "1-0", "2": "0-1"}, "round": 1, "board": 1, "micro": True}
    assert entries[1].reason == "súmula conferida" and entries[0].reason == ""
    assert entries[1].username == "diretor"


@pytest.mark.django_db
def test_stale_form_refused_showing_current_value(round1, director):
    t, rnd = round1
    board = rnd.boards.get(number=2)
    game_record_result(board=board, results={1: "1-0", 2: "1-0"}, expected_version=1, user=director)
    with pytest.raises(ConflictError) as exc:
        game_record_result(board=board, results={1: "0-1", 2: "0-1"}, expected_version=1, user=director)
    assert exc.value.current == {1: "1-0", 2: "1-0"}
    assert "Gravado agora: 1: 2-0 / 2: 0-2." in exc.value.messages[0]  # first player's side, micro notation
    assert [g.result for g in Game.objects.filter(board=board).order_by("number")] == ["1-0", "1-0"]


@pytest.mark.django_db
def test_invalid_code_refused(round1, director):
    t, rnd = round1
    board = rnd.boards.get(number=1)
    with pytest.raises(ServiceError):
        game_record_result(board=board, results={1: "2-0"}, expected_version=1, user=director)
    with pytest.raises(ServiceError):
        game_record_result(board=board, results={3: "1-0"}, expected_version=1, user=director)


@pytest.mark.django_db
def test_page_save_is_all_or_nothing_for_a_bad_value(round1, director):
    t, rnd = round1
    b1, b2 = rnd.boards.get(number=1), rnd.boards.get(number=2)
    with pytest.raises(ServiceError) as refused:
        round_record_results(
            round=rnd, user=director, rows=[(b1.pk, 1, {1: "1-0", 2: "1-0"}), (b2.pk, 1, {1: "2-0", 2: "0-1"})]
        )
    assert refused.value.messages == ["Resultado inválido “2-0” na partida 1 da mesa 2."]
    assert Game.objects.filter(board__round=rnd, result__isnull=False).count() == 0
    assert AuditEntry.objects.filter(action__startswith="result.").count() == 0


def stored(board):
    return [g.result for g in Game.objects.filter(board=board).order_by("number")]


@pytest.mark.django_db
def test_page_save_flags_only_the_board_whose_typed_value_differs_from_one_saved_meanwhile(round1, director):
    """Issue 28 item 1: two arbiters split a round. The second's form is out of date on every board the first saved;
    her blank boxes there are no change, her own boards are saved, and only a board where she typed a value that
    differs from the one stored meanwhile is flagged (not saved), with both values."""
    t, rnd = round1
    b1, b2, b3 = (rnd.boards.get(number=n) for n in (1, 2, 3))
    # the first arbiter saves boards 1 and 2 (version 1 -> 2)
    first = round_record_results(
        round=rnd, user=director, rows=[(b1.pk, 1, {1: "1-0", 2: "0-1"}), (b2.pk, 1, {1: "1/2", 2: "1/2"})]
    )
    assert first.saved == [1, 2] and first.stale == []
    # the second, on a form opened before: board 1 left blank (sent blank), board 2 typed differently, board 3 hers
    second = round_record_results(
        round=rnd,
        user=director,
        rows=[
            (b1.pk, 1, {1: None, 2: None}),
            (b2.pk, 1, {1: "1-0", 2: "1/2"}),
            (b3.pk, 1, {1: "0-1", 2: "-/-"}),
        ],
    )
    assert second.saved == [3]
    assert [(s.number, s.stored, s.typed) for s in second.stale] == [(2, {1: "1/2", 2: "1/2"}, {1: "1-0", 2: "1/2"})]
    assert second.stale[0].message(True) == (
        "A mesa 2 não foi salva: outro árbitro salvou 1: 1-1 / 2: 1-1 enquanto você digitava 1: 2-0 / 2: 1-1. "
        "Confira e salve de novo."
    )
    assert stored(b1) == ["1-0", "0-1"] and stored(b2) == ["1/2", "1/2"] and stored(b3) == ["0-1", "-/-"]
    assert AuditEntry.objects.filter(action="result.enter").count() == 3


@pytest.mark.django_db
def test_a_stale_form_fills_the_games_left_empty_and_keeps_the_boxes_it_showed(round1, director):
    t, rnd = round1
    b1, b2 = rnd.boards.get(number=1), rnd.boards.get(number=2)
    round_record_results(round=rnd, user=director, rows=[(b1.pk, 1, {1: "1-0"}), (b2.pk, 1, {1: "1/2", 2: "1-0"})])
    # board 1: the other arbiter typed game 1 only; this form types game 2 over an empty game: saved.
    # board 2: this form showed 1/2 and 1-0 (known from its hidden field) and corrects game 2 only, while game 2 is
    # still what it showed: a correction (needs its reason), not a conflict; game 1's box as shown is no change.
    out = round_record_results(
        round=rnd,
        user=director,
        rows=[(b1.pk, 1, {1: None, 2: "0-1"}, {1: None, 2: None}), (b2.pk, 1, {1: "1/2", 2: "0-1"}, None)],
        reason="súmula",
    )
    assert out.saved == [1] and [s.number for s in out.stale] == [2]  # without what it showed: typed 0-1 over 1-0
    assert stored(b1) == ["1-0", "0-1"]
    b2.refresh_from_db()
    out = round_record_results(
        round=rnd, user=director, rows=[(b2.pk, 1, {1: "1/2", 2: "0-1"}, {1: "1/2", 2: "1-0"})], reason="súmula"
    )
    assert out.saved == [2] and out.stale == [] and stored(b2) == ["1/2", "0-1"]
    assert AuditEntry.objects.get(action="result.correct", object_id=str(b2.pk)).reason == "súmula"
    # a box showed 1-0 that another arbiter has corrected since: this form's untouched box changes nothing
    out = round_record_results(
        round=rnd, user=director, rows=[(b2.pk, 2, {1: "1/2", 2: "1-0"}, {1: "1/2", 2: "1-0"})], reason="x"
    )
    assert out.saved == [] and out.stale == [] and stored(b2) == ["1/2", "0-1"]


@pytest.mark.django_db
def test_a_page_save_takes_a_fixed_number_of_queries(round1, director, django_assert_max_num_queries):
    t, rnd = round1
    rows = [(b.pk, b.version, {1: "1-0", 2: "0-1"}) for b in rnd.boards.all()]
    with django_assert_max_num_queries(12):  # two boards of three: the round is not complete yet
        out = round_record_results(round=rnd, user=director, rows=rows[:2])
    assert out.saved == [1, 2]
    # the save that completes the round also seals its results' fingerprint (issue 35.4): one snapshot read more,
    # a fixed number of queries whatever the round's size
    with django_assert_max_num_queries(22):
        out = round_record_results(round=rnd, user=director, rows=rows[2:])
    assert out.saved == [3]
    assert Board.objects.filter(round=rnd, version=2).count() == 3
    rnd.refresh_from_db()
    assert rnd.results_fingerprint


@pytest.mark.django_db
def test_forfeits_are_unplayed_and_double_forfeit(round1, director):
    t, rnd = round1
    b1, b2 = rnd.boards.get(number=1), rnd.boards.get(number=2)
    game_record_result(board=b1, results={1: "+/-", 2: "-/+"}, expected_version=1, user=director)
    game_record_result(board=b2, results={1: "-/-", 2: "-/-"}, expected_version=1, user=director)
    snapshot = read_snapshot(t, public=False)
    numbers = {e.pk: e.number for e in snapshot.entries}
    board1, board2 = snapshot.rounds[0].boards[:2]
    first1, second1 = board_records(board1, numbers, snapshot.settings.scoring)
    first2, second2 = board_records(board2, numbers, snapshot.settings.scoring)
    assert first1.kind == "forfeit_win" and first1.points == 4
    assert sorted(r.kind for r in (first1, second1, first2, second2)) == [
        "double_forfeit",
        "double_forfeit",
        "forfeit_loss",
        "forfeit_win",
    ]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_saves_one_wins_nothing_lost(field, director):
    """Real threads against PostgreSQL: 20 saves of one board on the same version: one accepted, 19 conflicts."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are real only on PostgreSQL (SQLite serialises writers); CI runs this on PostgreSQL")
    t, entries = field(6)
    rnd = round_pair(tournament=t, user=director, publish=True)
    board_id = rnd.boards.get(number=1).pk
    outcomes, barrier = [], threading.Barrier(20)
    codes = ["1-0", "0-1", "1/2", "+/-"]

    def save(i):
        try:
            barrier.wait()
            game_record_result(
                board=board_id, results={1: codes[i % 4], 2: codes[(i + 1) % 4]}, expected_version=1, user=director
            )
            outcomes.append(("ok", i))
        except ConflictError:
            outcomes.append(("conflict", i))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=save, args=(i,)) for i in range(20)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    winners = [i for kind, i in outcomes if kind == "ok"]
    assert len(winners) == 1 and len(outcomes) == 20
    board = Board.objects.get(pk=board_id)
    assert board.version == 2
    stored = [g.result for g in board.games.order_by("number")]
    assert stored == [codes[winners[0] % 4], codes[(winners[0] + 1) % 4]]
    assert AuditEntry.objects.filter(action="result.enter", object_id=str(board_id)).count() == 1
