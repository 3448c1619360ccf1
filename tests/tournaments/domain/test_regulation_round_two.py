"""Issue 26 (regulation fidelity, round two), the pure readings: the CBJD exceptions of art. 6 a), b), c) and the
qualification spots of art. 6 (unrated players in the average, small categories, a player qualified in two
categories, the unrounded average). Every test quotes the words of seed 000 it enforces."""

from fractions import Fraction

from tests.tournaments.domain.domain_builder import build
from tests.tournaments.domain.test_domain_regulation import TOP3_PLAYERS, TOP3_ROUNDS
from tournaments.domain import (
    Candidate,
    CategorySpots,
    SpotNote,
    StandingsSettings,
    award_categories,
    category_qualification,
    compute_standings,
    spots_for_average,
)
from tournaments.domain.standings import (
    NORMAL_ORDER,
    REASON_ACCELERATION_BUCHHOLZ_END,
    REASON_ACCELERATION_END,
    REASON_DIRECT_PAIR,
    REASON_TOP3_BUCHHOLZ_END,
    TOP3_ORDER_END,
)

# ------------------------------------------------------------------------------------------ point 9, exception c)
# Art. 6: "o escore acumulado não poderá ser utilizado como primeiro critério de desempate nas 3 situações a
# seguir: ... c) quando os 3 maiores ratings da competição vencerem todos os seus adversários e tenham jogado e
# empatado entre si."


def _top3(rounds, **settings):
    return compute_standings(build(TOP3_PLAYERS, rounds, fmt="micro-match"), StandingsSettings(**settings))


def test_exception_c_a_bye_is_no_opponent_and_does_not_switch_it_off():
    """C had the pairing-allocated bye in round 1 (J was absent): C still beat every opponent C had."""
    rounds = [list(r) for r in TOP3_ROUNDS]
    rounds[0] = [(1, 4, "WW"), (2, 5, "WW"), (3, "bye"), (6, 7, "WW"), (8, 9, "WL"), (10, "absent")]
    s = _top3(rounds)
    assert {r.id for r in s.rows[:3]} == {1, 2, 3}
    assert [r.points for r in s.rows[:3]] == [16, 16, 16]
    assert all(r.order == TOP3_ORDER_END and r.order_reasons == (REASON_TOP3_BUCHHOLZ_END,) for r in s.rows[:3])


# D (1900) loses to A in round 1 and wins the other four: 16 points, level with the three.
FOURTH_ROUNDS = [list(r) for r in TOP3_ROUNDS]
FOURTH_ROUNDS[1][2] = (4, 6, "WW")
FOURTH_ROUNDS[2][2] = (4, 5, "WW")


def test_exception_c_a_fourth_player_on_the_same_points_does_not_switch_it_off():
    s = _top3(FOURTH_ROUNDS)
    top = s.rows[:4]
    assert {r.id for r in top} == {1, 2, 3, 4} and {r.points for r in top} == {16}
    assert all(r.order == TOP3_ORDER_END for r in top)
    assert all(r.order_reasons == (REASON_TOP3_BUCHHOLZ_END,) for r in top)
    # Buchholz decides first: the progressive order would have been C, B, A (50, 48, 46)
    buchholz = [r.tiebreaks["buchholz"] for r in top]
    assert buchholz == sorted(buchholz, reverse=True)
    assert [r.id for r in top].index(1) < [r.id for r in top].index(3)


def test_exception_c_scope_is_a_stated_setting():
    """The other reading, "the tie group is exactly the three", keeps the normal order for the group of four."""
    s = _top3(FOURTH_ROUNDS, top3_scope="exact")
    assert all(r.order == NORMAL_ORDER and r.order_reasons == () for r in s.rows[:4])


# ------------------------------------------------------------------------------------------ point 10, exception b)
# Art. 6, b): "quando o desempate for entre dois jogadores, passando o confronto direto a ser o primeiro critério
# de desempate".
#
# Five micro-match rounds, 10 players; R (1), Q (2) and P (3) finish on 14 points.
#   Q beats P 4-0 in round 1.  P: 0, 4, 4, 4, 2 -> running 0, 4, 8, 12, 14 = progressive 38, corrected 38.
#   Q: 4, 0, 2, 4, 4 -> running 4, 4, 6, 10, 14 = progressive 38, corrected 34.
#   R: 4, 4, 4, 2, 0 -> running 4, 8, 12, 14, 14 = progressive 52: first.
# P and Q are left level by the progressive score inside a tie of three: the tiebreak is now between two players.
PQR_PLAYERS = [(i, n, 2000 - 10 * i) for i, n in enumerate("RQPabcdefg", start=1)]
PQR_ROUNDS = [
    [(2, 3, "WW"), (1, 4, "WW"), (5, 6, "WL"), (7, 8, "WL"), (9, 10, "WL")],
    [(2, 5, "LL"), (3, 6, "WW"), (1, 7, "WW"), (4, 9, "WL"), (8, 10, "WL")],
    [(2, 4, "DD"), (3, 7, "WW"), (1, 8, "WW"), (5, 9, "WL"), (6, 10, "WL")],
    [(2, 6, "WW"), (3, 8, "WW"), (1, 5, "DD"), (4, 10, "WL"), (7, 9, "WL")],
    [(2, 7, "WW"), (3, 9, "DD"), (1, 10, "LL"), (4, 5, "WL"), (6, 8, "WL")],
]


def _pqr(**settings):
    return compute_standings(build(PQR_PLAYERS, PQR_ROUNDS, fmt="micro-match"), StandingsSettings(**settings))


def test_exception_b_two_players_left_level_inside_a_larger_tie_go_by_their_encounter():
    s = _pqr()
    top = s.rows[:3]
    assert [(r.id, r.points, r.tiebreaks["progressive"]) for r in top] == [(1, 14, 52), (2, 14, 38), (3, 14, 38)]
    assert s.row(3).tiebreaks["progressive_corrected"] == 38 > s.row(2).tiebreaks["progressive_corrected"] == 34
    # Q beat P 4-0: Q is ahead, and the row says why
    assert [r.rank for r in top] == ["1", "2", "3"]
    assert s.row(2).order_reasons == s.row(3).order_reasons == (REASON_DIRECT_PAIR,)
    assert s.row(1).order_reasons == ()


def test_exception_b_scope_is_a_stated_setting():
    """The other reading: only a score group of exactly two players; then the corrected progressive score puts
    the player who lost 4-0 ahead."""
    s = _pqr(direct_encounter_scope="group")
    assert [r.id for r in s.rows[:3]] == [1, 3, 2]
    assert all(r.order_reasons == () for r in s.rows[:3])


# ------------------------------------------------------------------------------------------ point 11, exception a)
# Art. 6, a): "quando for utilizado o acelerador de emparceiramento". The acceleration gives virtual points in the
# first rounds; the corrected progressive score (cut 1) still adds the running scores of round 2 on, so it is
# distorted too: Buchholz comes first, the progressive scores after it.


def test_exception_a_acceleration_puts_buchholz_first():
    data = build(PQR_PLAYERS, PQR_ROUNDS, fmt="micro-match", acceleration_used=True)
    s = compute_standings(data, StandingsSettings())
    # (a tie of two who met puts their direct encounter before it, exception b)
    assert all(r.order[-3:] == ("buchholz", "progressive_corrected", "progressive") for r in s.rows)
    assert all(REASON_ACCELERATION_BUCHHOLZ_END in r.order_reasons for r in s.rows)
    old = compute_standings(data, StandingsSettings(acceleration_order="corrected"))
    assert all(r.order[-3:] == ("progressive_corrected", "buchholz", "progressive") for r in old.rows)
    assert all(REASON_ACCELERATION_END in r.order_reasons for r in old.rows)


# ------------------------------------------------------------------------------------------ point 7, unrated
# Art. 6: "uma vaga se o rating médio dos 30 maiores ratings for igual ou superior a 1900; duas vagas se a média
# dos 30 maiores ratings estiver entre 2001 e 2149".


def test_unrated_players_are_counted_beside_the_average_and_rated_only_is_offered():
    # 4 rated at 2150 and 2 unrated at the provisional 1600: (4*2150 + 2*1600) / 6 = 1966.67 -> 1 spot
    ratings = [2150, 2150, 2150, 2150, None, None]
    q = category_qualification("ABS", ratings, participants=40)
    assert (q.counted, q.unrated, q.spots, q.rated_only) == (6, 2, 1, False)
    assert q.exact_average == Fraction(4 * 2150 + 2 * 1600, 6)
    rated = category_qualification("ABS", ratings, participants=40, unrated_rule="rated_only")
    assert (rated.counted, rated.unrated, rated.spots, rated.rated_only) == (4, 0, 3, True)
    assert rated.exact_average == 2150


# ------------------------------------------------------------------------------------------ point 8
# Art. 6: "Oferecerá por categoria: uma vaga ... duas vagas ... três vagas".


def test_a_small_category_earns_spots_unless_the_minimum_setting_says_otherwise():
    women = [2200, 2180, 2160, 2150]  # 4 players, average 2172.5: three spots by the average
    q = category_qualification("FEM", women, participants=40)
    assert (q.spots, q.below_minimum) == (3, False)
    small = category_qualification("FEM", women, participants=40, min_entries=10)
    assert (small.spots, small.spots_by_average, small.below_minimum) == (0, 3, True)


def cand(pid, place):
    return Candidate(pid, place, points=20 - place)


def test_a_player_qualified_in_two_categories_is_said_or_passes_the_spot_on():
    absoluto = CategorySpots("ABS", 2, [cand(1, 1), cand(2, 2), cand(3, 3), cand(4, 4)])
    feminino = CategorySpots("FEM", 1, [cand(1, 1), cand(3, 3), cand(4, 4)])
    both = award_categories([absoluto, feminino])
    assert both["ABS"] == ((1, 2), ())
    assert both["FEM"] == ((1,), (SpotNote("double", (1,)),))
    passed = award_categories([absoluto, feminino], double_rule="pass")
    assert passed["ABS"] == ((1, 2), ())
    assert passed["FEM"] == ((3,), (SpotNote("passed_on", (1,)),))


def test_passing_a_spot_on_keeps_the_abandonment_note_apart():
    absoluto = CategorySpots("ABS", 1, [cand(1, 1), cand(2, 2)])
    feminino = CategorySpots("FEM", 1, [cand(1, 1), Candidate(3, 3, points=17, abandoned=True), cand(4, 4)])
    passed = award_categories([absoluto, feminino], double_rule="pass")
    assert passed["FEM"] == ((4,), (SpotNote("abandoned", (3,)), SpotNote("passed_on", (1,))))


# ------------------------------------------------------------------------------------------ point 13
# "igual ou superior a 1900", "entre 2001 e 2149": the mean is compared unrounded.


def test_the_average_is_not_rounded():
    assert spots_for_average(Fraction(4001, 2), participants=40) == 1  # 2000.5
    q = category_qualification("ABS", [2001, 2000], participants=40)
    assert (q.exact_average, q.spots) == (Fraction(4001, 2), 1)


# ------------------------------------------------------------------------------------------ point 1, as played
# Art. 6: "Todo Circuito Nacional que for realizado nas condições a seguir": the event as it was held.


def test_the_settings_as_played_are_each_setting_before_its_first_change():
    from dataclasses import dataclass
    from datetime import UTC, datetime

    from tournaments.domain.settings_lock import SettingsChange, as_played

    @dataclass(frozen=True)
    class Settings:
        minutes_per_game: int = 21
        min_participants: int = 20
        opening_table: str = ""

    now = datetime(2026, 11, 9, 10, tzinfo=UTC)
    later = datetime(2026, 11, 9, 11, tzinfo=UTC)
    changes = [
        SettingsChange("minutes_per_game", 21, 25, later, "d", "second"),  # listed first, made later
        SettingsChange("minutes_per_game", 15, 21, now, "d", "first"),
        SettingsChange("min_participants", 30, 20, now, "d", "r"),
        SettingsChange("opening_table", "IDF-64", None, now, "d", "r"),
        SettingsChange("spot_tie_rule", "committee", "share", now, "d", "not a field of these settings"),
    ]
    assert as_played(Settings(), changes) == Settings(15, 30, "IDF-64")
    assert as_played(Settings(opening_table="IDF-64"), changes[4:]) == Settings(opening_table="IDF-64")
