"""Each database constraint rejects bad data (the invariants hold even if a service forgets a check)."""

from datetime import date

import pytest
from django.db import IntegrityError, transaction

from tournaments.models import (
    Absence,
    Board,
    Category,
    Entry,
    ForbiddenPair,
    Game,
    Player,
    Round,
    Seat,
    Suspension,
    Tournament,
)

pytestmark = pytest.mark.django_db


def rejects(fn):
    with pytest.raises(IntegrityError), transaction.atomic():
        fn()


@pytest.fixture
def t(make_tournament):
    return make_tournament()


@pytest.fixture
def two_entries(t, make_player):
    return [Entry.objects.create(tournament=t, player=make_player(), pairing_number=i) for i in (1, 2)]


def test_cbjd_id_unique_when_present(make_player):
    make_player(cbjd_id="123")
    rejects(lambda: Player.objects.create(name="Outro", sex="M", cbjd_id="123"))
    # Several players without a CBJD ID are fine.
    Player.objects.create(name="Sem ID 1", sex="M", cbjd_id=None)
    Player.objects.create(name="Sem ID 2", sex="F", cbjd_id=None)
    rejects(lambda: Player.objects.create(name="Vazio", sex="F", cbjd_id=""))


@pytest.mark.parametrize("rating", [0, 99, 3001, 10000])
def test_rating_out_of_range_rejected(rating):
    rejects(lambda: Player.objects.create(name="X", sex="M", rating=rating))


@pytest.mark.parametrize("rating", [None, 100, 1600, 3000])
def test_rating_in_range_accepted(rating):
    Player.objects.create(name="X", sex="M", rating=rating)


def test_entry_rating_range_and_player_once(t, make_player):
    p = make_player()
    rejects(lambda: Entry.objects.create(tournament=t, player=p, rating=5000))
    Entry.objects.create(tournament=t, player=p, rating=1800)
    rejects(lambda: Entry.objects.create(tournament=t, player=p))


def test_pairing_number_unique_in_tournament(t, make_player):
    Entry.objects.create(tournament=t, player=make_player(), pairing_number=1)
    rejects(lambda: Entry.objects.create(tournament=t, player=make_player(), pairing_number=1))


def test_withdrawal_fields_consistent(t, make_player):
    rejects(lambda: Entry.objects.create(tournament=t, player=make_player(), status="withdrawn"))
    rejects(lambda: Entry.objects.create(tournament=t, player=make_player(), withdrawn_from_round=3))


def test_sex_and_suspension_dates(make_player):
    rejects(lambda: Player.objects.create(name="X", sex="X"))
    p = make_player()
    rejects(
        lambda: Suspension.objects.create(
            player=p, start_date=date(2026, 5, 1), end_date=date(2026, 4, 1), source="tribunal"
        )
    )


def test_tournament_dates_rounds_and_scoring(t):
    base = {"name": "X", "start_date": date(2026, 1, 2), "end_date": date(2026, 1, 2)}
    rejects(lambda: Tournament.objects.create(slug="a", **{**base, "end_date": date(2026, 1, 1)}))
    rejects(lambda: Tournament.objects.create(slug="b", planned_rounds=0, **base))
    rejects(lambda: Tournament.objects.create(slug="c", score_win=1, score_draw=1, **base))
    rejects(lambda: Tournament.objects.create(slug="d", variant="chess", **base))
    rejects(lambda: Tournament.objects.create(slug=t.slug, **base))


def test_category_code_unique(t):
    rejects(lambda: Category.objects.create(tournament=t, code="ABS", name="Outro"))
    rejects(lambda: Category.objects.create(tournament=t, code="X", name="X", min_age=20, max_age=10))


def test_one_board_number_per_round_and_one_game_number_per_board(t):
    r = Round.objects.create(tournament=t, number=1)
    rejects(lambda: Round.objects.create(tournament=t, number=1))
    b = Board.objects.create(round=r, number=1)
    rejects(lambda: Board.objects.create(round=r, number=1))
    rejects(lambda: Board.objects.create(round=r, number=0))
    Game.objects.create(board=b, number=1)
    rejects(lambda: Game.objects.create(board=b, number=1))
    rejects(lambda: Game.objects.create(board=b, number=3))


@pytest.mark.parametrize("result", ["2-0", "1-1", "", "x"])
def test_result_values_checked(t, result):
    b = Board.objects.create(round=Round.objects.create(tournament=t, number=1), number=1)
    rejects(lambda: Game.objects.create(board=b, number=1, result=result))


@pytest.mark.parametrize("result", [None, "1-0", "1/2", "0-1", "+/-", "-/+", "-/-"])
def test_result_values_accepted(t, result):
    b = Board.objects.create(round=Round.objects.create(tournament=t, number=1), number=1)
    Game.objects.create(board=b, number=1, result=result)


def test_player_at_most_once_per_round(t, two_entries):
    a, b = two_entries
    r = Round.objects.create(tournament=t, number=1)
    b1, b2 = Board.objects.create(round=r, number=1), Board.objects.create(round=r, number=2)
    Seat.objects.create(round=r, entry=a, board=b1, side="first")
    # Same player on another board, on the other side, or as the bye: all refused.
    rejects(lambda: Seat.objects.create(round=r, entry=a, board=b2, side="second"))
    rejects(lambda: Seat.objects.create(round=r, entry=a, side="bye"))
    # Two players on the same side of one board: refused.
    rejects(lambda: Seat.objects.create(round=r, entry=b, board=b1, side="first"))
    # A bye must have no board; a board seat must have one.
    rejects(lambda: Seat.objects.create(round=r, entry=b, board=b2, side="bye"))
    rejects(lambda: Seat.objects.create(round=r, entry=b, side="first"))


def test_one_bye_per_round(t, make_player):
    r = Round.objects.create(tournament=t, number=1)
    e1 = Entry.objects.create(tournament=t, player=make_player())
    e2 = Entry.objects.create(tournament=t, player=make_player())
    Seat.objects.create(round=r, entry=e1, side="bye")
    rejects(lambda: Seat.objects.create(round=r, entry=e2, side="bye"))


def test_absence_once_and_forbidden_pair_distinct(t, two_entries):
    a, b = two_entries
    Absence.objects.create(entry=a, round_number=2)
    rejects(lambda: Absence.objects.create(entry=a, round_number=2))
    rejects(lambda: ForbiddenPair.objects.create(tournament=t, entry_a=a, entry_b=a))
    rejects(lambda: ForbiddenPair.objects.create(tournament=t, entry_a=a, entry_b=b, from_round=4, to_round=2))
