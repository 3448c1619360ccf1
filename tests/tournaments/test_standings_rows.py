"""One snapshot type, two builders: the standings of a tournament read from the database
(``tournaments.standings.read_snapshot``) against those of its interchange file read without a database
(``tournaments.domain.interchange.snapshot_from_interchange`` of ``export_data``), through the one computation
(``standings_of``): the same domain input record for record (kinds, opponents, points and their types), the same
rows, tie groups and participants, on tournaments with every kind of round: forfeits, double forfeits, byes (worth
a win, a draw, other points), announced absences (zero, draw), withdrawals, late entries, rounds kept for one player
alone, drafts and incomplete rounds, other point systems. (Issue 24: this replaced the comparison of the second
overall computation, now deleted, with the first.)"""

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
from tournaments.domain.interchange import snapshot_from_interchange
from tournaments.domain.snapshot import OffBoard, counted_rounds, off_board
from tournaments.interchange import import_data, import_trf_with_warnings
from tournaments.interchange.jsonfile import export_data
from tournaments.interchange.synthetic import synthetic_tournament
from tournaments.models import Game, Round
from tournaments.models.editions import all_editions
from tournaments.standings import read_snapshot, standings_of, tournament_standings

pytestmark = pytest.mark.django_db


def assert_same(t, public):
    db = standings_of(read_snapshot(t, public=public))
    # the file judged by the editions this database knows (issue 35.1: the federation's, received with the registry)
    pure = standings_of(snapshot_from_interchange(export_data(t), public=public, editions=all_editions()))
    # repr: the same values of the same types (an int 2 and a Decimal 2 are equal, their reprs are not)
    assert repr(db.data) == repr(pure.data)
    assert repr(db.standings) == repr(pure.standings)
    assert db.as_json() == pure.as_json()
    assert db.tie_groups == pure.tie_groups
    assert db.participation == pure.participation
    assert db.columns() == pure.columns() and db.rights is pure.rights is False
    # (a file numbers every player: before round 1 the database has no pairing number yet, the standings' number)
    assert {n: (e.number, e.rating, e.player.name, e.player.state) for n, e in db.entries.items()} == {
        n: (e.number, e.rating, e.player.name, e.player.state) for n, e in pure.entries.items()
    }
    assert [c.qualification for c in db.categories] == [c.qualification for c in pure.categories]
    assert db.rounds_completed == pure.rounds_completed
    return db


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
    """The files above hold every kind of round the standings know, and every reason to be on no board, so the
    comparison covers each."""
    domain, reasons = set(), set()
    snapshots = [read_snapshot(import_data(make()), public=False) for make in JSON_FILES.values()]
    snapshots += [read_snapshot(import_trf_with_warnings(make())[0], public=False) for make in TRF_FILES.values()]
    for snapshot in snapshots:
        st = standings_of(snapshot)
        domain |= {r.kind.value for p in st.data.players for r in p.rounds}
        for rnd in counted_rounds(snapshot):
            seated = rnd.seated()
            reasons |= {off_board(snapshot, rnd, e)[0] for e in snapshot.entries if e.pk not in seated}
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
    assert reasons == set(OffBoard)


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
    """small5.json's standings, worked out by hand in test_standings_db.py, from its file alone too."""
    from tests.tournaments.test_standings_db import SMALL5

    assert standings_of(snapshot_from_interchange(load("small5.json"), public=True)).as_json() == SMALL5
    assert tournament_standings(import_named("small5.json")).as_json() == SMALL5


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
def test_participants_who_only_won_by_forfeit(rule, edition_with):
    """With the ``present`` rule a forfeit win makes a participant: the rows keep each side's kind of a board."""
    edition_with(participant_rule=rule)  # the reading is the edition's (issue 35.1)
    data = forfeits_only()
    data["tournament"]["rounds"] = 1
    t = import_data(data)
    st = assert_same(t, False)
    assert st.participation.played == ({1, 2} if rule == "present" else set())


def test_a_board_with_an_empty_seat_or_a_missing_game():
    """A board whose second seat is empty counts for neither player (both builders leave its first player
    unpaired); a board of a micro-match with one game only counts that game."""
    from tournaments.models import Seat

    t = import_data(full_with_round_three())
    Seat.objects.filter(round__tournament=t, round__number=1, board__number=1, side="second").delete()
    Game.objects.filter(board__round__tournament=t, board__round__number=2, board__number=1, number=2).delete()
    assert assert_same(t, True).rounds_completed == 3


def test_a_board_without_games_leaves_its_round_uncounted_alike():
    """One rule for a complete round (every board has its games, every game its result): a board without games
    is not complete, so its round and the rounds after it are not counted (before issue 24 one rule counted the
    round and another then refused its board, and every page failed)."""
    t = import_data(full_with_round_three())
    Game.objects.filter(board__round__tournament=t, board__round__number=2, board__number=1).delete()
    assert assert_same(t, True).rounds_completed == 1
    assert tournament_standings(t, public=False).rounds_completed == 1


def test_the_cyclic_collector_is_paused_while_the_standings_are_computed_and_restored_as_it_was(monkeypatch):
    import gc

    from tournaments.standings import compute as module

    t = import_named("small5.json")
    seen = []
    compute = module.compute_standings

    def watched(*args):
        seen.append(gc.isenabled())
        return compute(*args)

    monkeypatch.setattr(module, "compute_standings", watched)
    assert gc.isenabled()
    assert tournament_standings(t).as_json()[0]["name"] == "Ana Souza"
    assert seen == [False] and gc.isenabled()

    def broken(*args, **kwargs):
        raise RuntimeError("falhou")

    monkeypatch.setattr(module, "read_snapshot", broken)
    with pytest.raises(RuntimeError):
        tournament_standings(t)
    assert gc.isenabled(), "restored after an error"
    gc.disable()
    try:
        with module.gc_paused():
            pass
        assert not gc.isenabled(), "paused by someone else: left to them"
    finally:
        gc.enable()
