"""The overall standings read as plain rows (tournaments.standings.selectors.overall_standings, the overall standings pages)
against the read every other page uses (tournament_standings): the same domain input record for record (kinds,
opponents, points and their types), the same rows, tie groups and participants, on tournaments with every kind of
round: forfeits, double forfeits, byes (worth a win, a draw, other points), announced absences (zero, draw),
withdrawals, late entries, rounds kept for one player alone, drafts and incomplete rounds, other point systems."""

import pytest

from tests.tournaments.interchange.helpers import direct_encounter_file, import_named, load
from tests.tournaments.interchange.test_trf_accept import (
    chained_forfeits,
    hand_edited,
    line,
    participation_point,
    three_points_for_a_win,
    trf_file,
    withdrawals,
)
from tournaments.interchange import import_data, import_trf_with_warnings
from tournaments.interchange.synthetic import synthetic_tournament
from tournaments.models import Game, Round
from tournaments.standings.selectors import overall_standings, tournament_standings

pytestmark = pytest.mark.django_db


def assert_same(t, public):
    full = tournament_standings(t, public=public, rights=False)
    rows = overall_standings(t, public=public)
    # repr: the same values of the same types (an int 2 and a Decimal 2 are equal, their reprs are not)
    assert repr(rows.data) == repr(full.data)
    assert repr(rows.standings) == repr(full.standings)
    assert rows.as_json() == full.as_json()
    assert rows.tie_groups == full.tie_groups
    assert rows.participation == full.participation
    assert rows.columns() == full.columns() and rows.rights is full.rights is False
    assert {
        pid: (e.pk, e.pairing_number, e.rating, e.player.name, e.player.state) for pid, e in rows.entries.items()
    } == {pid: (e.pk, e.pairing_number, e.rating, e.player.name, e.player.state) for pid, e in full.entries.items()}
    assert rows.categories == [] and rows.rounds_completed == full.rounds_completed
    return rows


def full_with_round_three():
    """full.json with its draft round 3 played and published: the withdrawal (from round 3), the late entry (round
    2), a draw-valued absence, a forfeit and a double forfeit in the counted rounds."""
    data = load("full.json")
    data["tournament"]["slug"] = "completo-3"
    third = data["rounds"][2]
    third["status"] = "published"
    for board, games in zip(third["boards"], (["1-0", "1/2"], ["-/+", "+/-"], ["0-1", "-/-"]), strict=True):
        board["games"] = games
    return data


def zero_bye_file():
    return trf_file(
        [
            line(1, "Ana", "2.0", ["   2 w 1", "   3 b 1"]),
            line(2, "Bia", "0.0", ["   1 b 0", "   4 w 0"]),
            line(3, "Caio", "0.5", ["        ", "   1 w 0"]),
            line(4, "Davi", "1.5", ["        ", "   2 b 1"]),
        ],
        "BBZ  0.5",
    )


JSON_FILES = {
    "small5": lambda: load("small5.json"),
    "full": lambda: load("full.json"),
    "full-round-3": full_with_round_three,
    "direct-encounter": direct_encounter_file,
    "synthetic-41x6-draft": lambda: synthetic_tournament(41, 6, seed=3, slug="cruzado", drafts=True),
    "synthetic-single-game": lambda: synthetic_tournament(31, 5, seed=5, slug="partida-unica", micro_match=False),
}
TRF_FILES = {
    "one-sided-rounds": hand_edited,
    "chained-forfeits": chained_forfeits,
    "withdrawals": withdrawals,
    "bye-worth-2": three_points_for_a_win,
    "bye-worth-0": lambda: three_points_for_a_win("BBU  0.0", worth=0),
    "forfeit-loss-0": participation_point,
    "forfeit-loss-half": lambda: participation_point("BBF  0.5", forfeit="0.5"),
    "zero-bye-half": zero_bye_file,
}


@pytest.mark.parametrize("public", [True, False], ids=["public", "staff"])
@pytest.mark.parametrize("name", JSON_FILES)
def test_interchange_files(name, public):
    assert_same(import_data(JSON_FILES[name]()), public)


@pytest.mark.parametrize("public", [True, False], ids=["public", "staff"])
@pytest.mark.parametrize("name", TRF_FILES)
def test_trf_files(name, public):
    t, _warnings = import_trf_with_warnings(TRF_FILES[name]())
    rows = assert_same(t, public)
    assert rows.rounds_completed >= 2


def test_every_kind_of_round_is_met():
    """The files above hold every kind of round the standings know, so the comparison covers each."""
    kinds, domain = set(), set()
    for make in JSON_FILES.values():
        st = tournament_standings(import_data(make()), public=False, rights=False)
        kinds |= {r.kind for records in st.history.values() for r in records}
        domain |= {r.kind.value for p in st.data.players for r in p.rounds}
    for make in TRF_FILES.values():
        st = tournament_standings(import_trf_with_warnings(make())[0], public=False, rights=False)
        kinds |= {r.kind for records in st.history.values() for r in records}
        domain |= {r.kind.value for p in st.data.players for r in p.rounds}
    assert kinds == {"played", "forfeit_win", "forfeit_loss", "double_forfeit", "pab", "absent", "withdrawn", "late"}
    assert domain == {
        "played",
        "forfeit_win",
        "forfeit_loss",
        "double_forfeit",
        "bye",
        "absent",
        "withdrawn",
        "not_entered",
    }


def test_drafts_gaps_and_incomplete_rounds():
    t = import_data(full_with_round_three())
    assert assert_same(t, True).rounds_completed == 3
    Round.objects.filter(tournament=t, number=2).update(status="draft")  # a gap for the public
    assert assert_same(t, True).rounds_completed == 1
    assert assert_same(t, False).rounds_completed == 3
    Game.objects.filter(board__round__tournament=t, board__round__number=3, board__number=1, number=2).update(
        result=None
    )
    assert assert_same(t, False).rounds_completed == 2


def test_before_round_one_the_players_are_numbered_as_tournament_standings_numbers_them():
    data = load("full.json")
    data["rounds"] = []
    for p in data["players"]:
        p.pop("late_entry", None)
    t = import_data(data)
    t.entries.update(pairing_number=None)
    rows = assert_same(t, True)
    assert rows.rounds_completed == 0 and len(rows.rows) == len(data["players"])


def test_a_tournament_without_players():
    data = load("small5.json")
    data["players"], data["rounds"], data["absences"] = [], [], []
    for category in data.get("categories", []):
        category.pop("players", None)
    t = import_data(data)
    assert assert_same(t, True).rows == ()


def test_the_small_file_by_hand():
    """small5.json's standings, worked out by hand in test_standings_db.py, from the rows too."""
    from tests.tournaments.test_standings_db import SMALL5

    assert overall_standings(import_named("small5.json")).as_json() == SMALL5


def forfeits_only():
    """small5.json after one round in which 1 won both games by forfeit (game 1 as White, game 2 as Black) and 4
    lost both by forfeit against 2: 1 and 2 only won by forfeit, 3 and 4 only lost by forfeit."""
    data = load("small5.json")
    data["tournament"]["slug"] = "so-wo"
    data["rounds"] = data["rounds"][:1]
    data["rounds"][0]["boards"][0]["games"] = ["+/-", "-/+"]
    data["rounds"][0]["boards"][1]["games"] = ["+/-", "-/+"]
    return data


@pytest.mark.parametrize("rule", ["played", "present"])
def test_participants_who_only_won_by_forfeit(rule):
    """With the ``present`` rule a forfeit win makes a participant: the rows keep each side's kind of a board."""
    t = import_data(forfeits_only())
    t.participant_rule = rule
    t.planned_rounds = 1
    t.save(update_fields=["participant_rule", "planned_rounds"])
    st = assert_same(t, False)
    assert st.participation.played == ({1, 2} if rule == "present" else set())


def test_a_board_with_an_empty_seat_or_a_missing_game():
    """A board whose second seat is empty counts for neither player (both roads leave its first player unpaired);
    a board of a micro-match with one game only counts that game."""
    from tournaments.models import Seat

    t = import_data(full_with_round_three())
    Seat.objects.filter(round__tournament=t, round__number=1, board__number=1, side="second").delete()
    Game.objects.filter(board__round__tournament=t, board__round__number=2, board__number=1, number=2).delete()
    assert assert_same(t, True).rounds_completed == 3


def test_a_board_without_games_in_a_counted_round_is_refused_alike():
    t = import_data(full_with_round_three())
    Game.objects.filter(board__round__tournament=t, board__round__number=2, board__number=1).delete()
    with pytest.raises(ValueError, match="round 2: a pending board") as full:
        tournament_standings(t, public=True, rights=False)
    with pytest.raises(ValueError) as rows:
        overall_standings(t, public=True)
    assert str(rows.value) == str(full.value)


def test_the_cyclic_collector_is_paused_while_the_rows_are_computed_and_restored_as_it_was(monkeypatch):
    import gc

    from tournaments.standings import selectors as module

    t = import_named("small5.json")
    seen = []
    compute = module.compute_standings

    def watched(*args):
        seen.append(gc.isenabled())
        return compute(*args)

    monkeypatch.setattr(module, "compute_standings", watched)
    assert gc.isenabled()
    assert overall_standings(t).as_json()[0]["name"] == "Ana Souza"
    assert seen == [False] and gc.isenabled()

    def broken(*args, **kwargs):
        raise RuntimeError("falhou")

    monkeypatch.setattr(module, "standings_rows", broken)
    with pytest.raises(RuntimeError):
        overall_standings(t)
    assert gc.isenabled(), "restored after an error"
    gc.disable()
    try:
        with module.gc_paused():
            pass
        assert not gc.isenabled(), "paused by someone else: left to them"
    finally:
        gc.enable()
