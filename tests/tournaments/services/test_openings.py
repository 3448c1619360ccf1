"""The tablita draw: reproducible from its seed, never repeats in a tournament, logged; venue codes."""

import pytest
from django.utils import translation

from tournaments.core.errors import ServiceError
from tournaments.models import Opening, OpeningDraw
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair
from tournaments.setup.openings import _candidates, opening_draw, opening_set_code, pick

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


def test_same_seed_same_opening(field, director):
    t, entries = field(4)
    rnd = round_pair(tournament=t, user=director)
    candidates = _candidates(t)
    assert len(candidates) == 736  # the IDF table under Brazilian rules
    expected = pick(candidates, "abc")
    draw = opening_draw(round=rnd, user=director, seed="abc")
    assert draw.opening == expected and draw.seed == "abc" and draw.method == "random" and draw.drawn_by == director
    rnd.refresh_from_db()
    assert rnd.opening == expected
    assert expected.active and not expected.excluded_for_brazilian


def test_never_repeats_an_opening_used_in_the_tournament(field, director):
    t, entries = field(4)
    rnd = round_pair(tournament=t, user=director)
    first = opening_draw(round=rnd, user=director, seed="s1").opening
    assert first not in _candidates(t)
    opening_draw(round=rnd, user=director, seed="s2")  # a redraw replaces the round's opening
    assert OpeningDraw.objects.filter(round=rnd).count() == 2


def test_venue_code_and_refusals(field, director):
    t, entries = field(4)
    rnd = round_pair(tournament=t, user=director)
    draw = opening_set_code(round=rnd, user=director, code="1-iv")
    assert draw.opening.code == "1-IV" and draw.method == "venue" and draw.seed == ""
    with pytest.raises(ServiceError) as exc:
        opening_set_code(round=rnd, user=director, code="99-ZZZ")
    assert "99-ZZZ" in exc.value.messages[0]
    excluded = Opening.objects.filter(table__code="IDF-64", active=False).first()
    with pytest.raises(ServiceError):
        opening_set_code(round=rnd, user=director, code=excluded.code)


def test_opening_frozen_once_results_exist(field, director):
    t, entries = field(4)
    rnd = round_pair(tournament=t, user=director, publish=True)
    opening_draw(round=rnd, user=director, seed="x")
    board = rnd.boards.first()
    game_record_result(board=board, results={1: "1-0"}, expected_version=board.version, user=director)
    with pytest.raises(ServiceError):
        opening_draw(round=rnd, user=director, seed="y")


def test_per_board_draw(field, director):
    from tournaments.setup.services import tournament_update

    t, entries = field(6)
    tournament_update(tournament=t, user=director, opening_draw_mode="board")
    rnd = round_pair(tournament=t, user=director)
    draws = opening_draw(round=rnd, user=director)
    codes = [d.opening.code for d in draws]
    assert len(codes) == 3 and len(set(codes)) == 3
    assert all(b.opening_id for b in rnd.boards.all())
