"""Pairing rounds through the engine, publishing, undoing, editing by hand, frozen settings."""

import pytest
from django.utils import translation

from tournaments.core.errors import ServiceError
from tournaments.models import Entry, Round
from tournaments.rounds.results import game_record_result
from tournaments.rounds.selectors import board_pair, rounds_with_boards
from tournaments.rounds.services import round_edit, round_pair, round_publish, round_undo
from tournaments.setup.services import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


def pairs_of(t, number):
    rnd = next(r for r in rounds_with_boards(t) if r.number == number)
    return [tuple(e.pairing_number for e in board_pair(b)) for b in rnd.boards.all()], (
        rnd.bye_seats[0].entry.pairing_number if rnd.bye_seats else None
    )


def fill(t, number, director, result=("1-0", "1-0")):
    for board in Round.objects.get(tournament=t, number=number).boards.all():
        game_record_result(
            board=board, results=dict(enumerate(result, start=1)), expected_version=board.version, user=director
        )


def test_round1_by_rating_top_half_against_bottom_half(field, director, make_player):
    t, entries = field(10)
    # Enter a higher-rated player last: pairing numbers follow the rating, not the entry order.
    from tournaments.entries.services import entry_register

    top = entry_register(tournament=t, player=make_player(name="Top", rating=2400), user=director)
    round_pair(tournament=t, user=director)
    top.refresh_from_db()
    assert top.pairing_number == 1
    boards, bye = pairs_of(t, 1)
    # 11 players: 1-6 v 7-11... Dutch round 1: S1 = 1..5, S2 = 6..10, 11 gets the bye; colours alternate,
    # the top seed has the initial colour (White).
    assert boards == [(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)]
    assert bye == 11


def test_unrated_players_at_provisional_rating(field, director, make_player):
    from tournaments.entries.services import entry_register

    t, entries = field(4)  # 2000, 1990, 1980, 1970
    unrated = entry_register(tournament=t, player=make_player(name="Sem Rating", rating=None), user=director)
    tournament_update(tournament=t, user=director, provisional_rating=1985)
    round_pair(tournament=t, user=director)
    unrated.refresh_from_db()
    assert unrated.pairing_number == 3


def test_refused_while_results_missing_naming_boards(field, director):
    t, entries = field(6)
    rnd = round_pair(tournament=t, user=director, publish=True)
    board = rnd.boards.get(number=1)
    game_record_result(board=board, results={1: "1-0", 2: "1/2"}, expected_version=board.version, user=director)
    with pytest.raises(ServiceError) as exc:
        round_pair(tournament=t, user=director)
    assert "2, 3" in exc.value.messages[0]
    assert t.rounds.count() == 1


def test_draft_must_be_published_before_next(field, director):
    t, entries = field(6)
    round_pair(tournament=t, user=director)
    fill(t, 1, director)
    with pytest.raises(ServiceError):
        round_pair(tournament=t, user=director)
    round_publish(round=t.rounds.get(number=1), user=director)
    assert round_pair(tournament=t, user=director).number == 2


def test_no_rematch_in_round_2(field, director):
    t, entries = field(8)
    round_pair(tournament=t, user=director, publish=True)
    fill(t, 1, director)
    round_pair(tournament=t, user=director, publish=True)
    r1 = {frozenset(p) for p in pairs_of(t, 1)[0]}
    r2 = {frozenset(p) for p in pairs_of(t, 2)[0]}
    assert not r1 & r2
    assert len(r2) == 4


def test_undo_only_without_results_and_only_last(field, director):
    t, entries = field(6)
    r1 = round_pair(tournament=t, user=director, publish=True)
    fill(t, 1, director)
    with pytest.raises(ServiceError):
        round_undo(round=r1, user=director)
    r2 = round_pair(tournament=t, user=director)
    with pytest.raises(ServiceError):
        round_undo(round=r1, user=director)
    round_undo(round=r2, user=director)
    assert list(t.rounds.values_list("number", flat=True)) == [1]


def test_results_frozen_settings(field, director):
    t, entries = field(6)
    tournament_update(tournament=t, user=director, score_win=3)  # allowed before round 1
    round_pair(tournament=t, user=director)
    with pytest.raises(ServiceError) as exc:
        tournament_update(tournament=t, user=director, score_win=2)
    assert "rodada 1" in exc.value.messages[0]
    tournament_update(tournament=t, user=director, city="Olinda")  # not a result setting
    t.refresh_from_db()
    assert (t.score_win, t.city) == (3, "Olinda")


def test_all_planned_rounds(field, director):
    t, entries = field(4, planned_rounds=1)
    round_pair(tournament=t, user=director, publish=True)
    fill(t, 1, director)
    with pytest.raises(ServiceError):
        round_pair(tournament=t, user=director)


class TestManualEdit:
    def setup_round2(self, field, director):
        t, entries = field(6)
        round_pair(tournament=t, user=director, publish=True)
        fill(t, 1, director)
        rnd = round_pair(tournament=t, user=director)
        by_no = {e.pairing_number: e.pk for e in Entry.objects.filter(tournament=t)}
        return t, rnd, by_no, pairs_of(t, 1)[0]

    def test_rematch_refused(self, field, director):
        t, rnd, by_no, r1 = self.setup_round2(field, director)
        (a, b), (c, d), (e, f) = r1
        with pytest.raises(ServiceError) as exc:
            round_edit(
                round=rnd, user=director, pairs=[(by_no[a], by_no[b]), (by_no[c], by_no[e]), (by_no[d], by_no[f])]
            )
        assert any("rodada 1" in m for m in exc.value.messages)

    def test_nobody_twice_and_everyone_present(self, field, director):
        t, rnd, by_no, r1 = self.setup_round2(field, director)
        (a, b), (c, d), (e, f) = r1
        with pytest.raises(ServiceError) as exc:
            round_edit(round=rnd, user=director, pairs=[(by_no[a], by_no[c]), (by_no[a], by_no[d])])
        text = " ".join(exc.value.messages)
        assert "mais de uma vez" in text and "não foi emparceirad" in text

    def test_valid_edit_saved_and_marked(self, field, director):
        t, rnd, by_no, r1 = self.setup_round2(field, director)
        engine = pairs_of(t, 2)[0]
        played = {frozenset(p) for p in r1}
        engine_set = {frozenset(p) for p in engine}

        def matchings(players):
            if not players:
                yield []
                return
            a, rest = players[0], players[1:]
            for i, b in enumerate(rest):
                for m in matchings(rest[:i] + rest[i + 1 :]):
                    yield [(a, b)] + m

        # A legal pairing (no rematch) that is not the engine's.
        new = next(
            m
            for m in matchings(sorted(by_no))
            if not {frozenset(p) for p in m} & played and {frozenset(p) for p in m} != engine_set
        )
        rnd, warnings = round_edit(round=rnd, user=director, pairs=[(by_no[x], by_no[y]) for x, y in new])
        assert pairs_of(t, 2)[0] == new
        assert Round.objects.get(pk=rnd.pk).manually_edited
        # The quality check names the engine's pairs the edit did not keep.
        dropped = [f"{x}-{y}" for x, y in engine if frozenset((x, y)) not in {frozenset(p) for p in new}]
        assert dropped
        assert any(all(d in w for d in dropped) for w in warnings), warnings

    def test_second_bye_refused(self, field, director):
        t, entries = field(5)
        round_pair(tournament=t, user=director, publish=True)
        fill(t, 1, director)
        bye1 = pairs_of(t, 1)[1]
        rnd = round_pair(tournament=t, user=director)
        by_no = {e.pairing_number: e.pk for e in Entry.objects.filter(tournament=t)}
        others = [n for n in range(1, 6) if n != bye1]
        with pytest.raises(ServiceError) as exc:
            round_edit(
                round=rnd,
                user=director,
                pairs=[(by_no[others[0]], by_no[others[1]]), (by_no[others[2]], by_no[others[3]])],
                bye=by_no[bye1],
            )
        assert any("BYE" in m or "bye" in m.lower() for m in exc.value.messages)


def test_round1_numbers_follow_the_engines_seeding_rule(make_tournament, make_player, director):
    """One round-1 rule (``pairing.api.seed_key``): rating, an unrated entry at the provisional rating, then the
    FMJD rating, the title (GMIF before MF, as WGM before FM), the name whatever its case and accents."""
    from pairing import PlayerState, seed_order
    from tournaments.entries.services import entry_register

    t = make_tournament(provisional_rating=1600)
    people = [
        ("Zeca", 1500, None, ""),
        ("Sem Rating", None, None, ""),
        ("Mestre", 1700, None, "MF"),
        ("Grande Mestra", 1700, None, "GMIF"),
        ("Internacional", 1700, None, "MI"),
        ("Com FMJD", 1700, 1900, ""),
        ("álvaro", 1500, None, ""),
        ("Bruno", 1500, None, ""),
    ]
    for name, rating, fmjd, title in people:
        player = make_player(name=name, rating=rating, fmjd_rating=fmjd, title=title)
        entry_register(tournament=t, player=player, user=director)
    round_pair(tournament=t, user=director)
    numbered = list(
        Entry.objects.filter(tournament=t).order_by("pairing_number").values_list("player__name", flat=True)
    )
    assert numbered == [
        "Com FMJD",
        "Internacional",
        "Grande Mestra",
        "Mestre",
        "Sem Rating",
        "álvaro",
        "Bruno",
        "Zeca",
    ]
    # the engine's own order of the same players is the same
    states = [PlayerState(id=0, name=n, rating=r or 0, fmjd_rating=f or 0, title=ti) for n, r, f, ti in people]
    assert [p.name for p in seed_order(states, provisional_rating=1600)] == numbered
