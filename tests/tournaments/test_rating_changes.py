"""The venue's rating estimate (issue 40.2) through `manage.py rating_changes` on a real migrated database: the
figures worked out by hand for a round of micro-matches with a forfeit."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


def rating_changes(*args):
    out = io.StringIO()
    call_command("rating_changes", *args, stdout=out)
    return out.getvalue()


def test_the_changes_of_a_round_worked_out_by_hand(field, director):
    # 2000 (P01), 1990, 1980, 1970: round 1 pairs P01-P03 and P02-P04 (top half against bottom half)
    t, entries = field(4)
    rnd = round_pair(tournament=t, user=director, publish=True)
    boards = {}
    for board in rnd.boards.all():
        sides = {seat.side: seat.entry.player.name for seat in board.seats.all()}
        boards[sides["first"], sides["second"]] = board
    assert {tuple(sorted(k)) for k in boards} == {("P01", "P03"), ("P02", "P04")}
    # codes are White's view; the first seat is White in game 1 and Black in game 2
    for (first, _second), board in boards.items():
        if "P01" in (first, _second):
            # P01 wins game 1 and draws game 2
            results = {1: "1-0" if first == "P01" else "0-1", 2: "1/2"}
        else:
            # P04 does not come to game 1 (a forfeit: no game); game 2 is a draw
            results = {1: "+/-" if first == "P02" else "-/+", 2: "1/2"}
        game_record_result(board=board, results=results, expected_version=1, user=director)
    rows = {r["name"]: r for r in json.loads(rating_changes(t.slug, "--format", "json"))}
    assert list(rows["P01"]) == ["id", "name", "rating", "games", "score", "expected", "change", "performance"]
    # P01 (2000, K 40: no rated games known) against 1980: E = 1 / (1 + 10^(-20/400)) = 0.52875 a game
    e = 1 / (1 + 10 ** (-20 / 400))
    assert rows["P01"]["games"] == 2 and rows["P01"]["score"] == 1.5
    assert rows["P01"]["expected"] == round(2 * e, 2) == 1.06
    assert rows["P01"]["change"] == round(40 * (1.5 - 2 * e), 1) == 17.7
    assert rows["P03"]["change"] == -17.7
    # the forfeited game is no game: P02 and P04 have one game, a draw; 1990 v 1970: E = 0.52875 too
    assert rows["P02"]["games"] == 1 and rows["P02"]["score"] == 0.5
    assert rows["P02"]["change"] == round(40 * (0.5 - e), 1) == -1.2  # -1.150
    assert rows["P04"]["change"] == 1.2
    # performance: P01 scored 75 % against 1980 (dp 193): 2173
    assert rows["P01"]["performance"] == 2173
    text = rating_changes(t.slug)
    assert "+17.7" in text and "a lista da federação é a que vale" in text


def test_an_unknown_tournament_is_a_one_line_error():
    with pytest.raises(CommandError, match="não encontrado"):
        rating_changes("nao-existe")
