"""``TiebreakCalculator.values`` (one pass per player, what the standings use) against the method of each key (the
readable definitions), on random events: the same numbers of the same types, Decimal scales and every setting
that changes the arithmetic included."""

import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.standings import build as random_tournament
from tournaments.domain import (
    ByeValue,
    Format,
    GameResult,
    PlayerData,
    RoundKind,
    RoundRecord,
    Scoring,
    StandingsSettings,
    TiebreakCalculator,
    TournamentData,
    TournamentError,
    UnplayedRules,
    compute_standings,
)
from tournaments.domain.model import DummyCapRounds

HALF = Scoring(Decimal("1"), Decimal("0.5"), Decimal("0"))
ODD = Scoring(Decimal("2.5"), 1, 0)


def rescored(t, scoring, fmt, seed):
    """``t`` with another scoring and format: records rebuilt from their games (single-game keeps game 1), byes
    derived, some absences worth a draw (given, as the app passes them)."""
    rng = random.Random(seed)
    players = []
    for p in t.players:
        recs = []
        for rec in p.rounds:
            if rec.games:
                games = rec.games[:1] if fmt == Format.SINGLE_GAME else rec.games
                recs.append(RoundRecord.from_games(rec.opponent, games, scoring))
            elif rec.kind is RoundKind.BYE:
                recs.append(RoundRecord(RoundKind.BYE))
            elif rec.kind is RoundKind.ABSENT and rng.random() < 0.5:
                recs.append(
                    RoundRecord(RoundKind.ABSENT, points=scoring.draw * (1 if fmt == Format.SINGLE_GAME else 2))
                )
            else:
                recs.append(rec)
        players.append(PlayerData(p.id, p.name, p.rating, tuple(recs)))
    return TournamentData(
        players=tuple(players),
        rounds_completed=t.rounds_completed,
        planned_rounds=t.planned_rounds + rng.randint(0, 2),
        format=fmt,
        scoring=scoring,
        bye_value=rng.choice(list(ByeValue)),
        unplayed_rules=rng.choice(list(UnplayedRules)),
        provisional_rating=rng.choice((1600, 1601)),
    )


def by_methods(calc, pid, group):
    """The values from the method of each key."""
    return calc.values_by_methods(pid, group)


def test_every_tiebreak_of_the_catalogue_is_in_both_ways():
    """Issue 39.11: a tiebreak added to the catalogue fails here until its method and its term in ``values`` exist."""
    from tournaments.domain import TIEBREAK_KEYS

    calc = TiebreakCalculator(random_tournament(12, 3), StandingsSettings())
    pid = next(iter(calc.players))
    assert tuple(calc.values(pid, {pid})) == tuple(calc.values_by_methods(pid, {pid})) == TIEBREAK_KEYS


def de_by_definition(calc, pid, group):
    """C.07 6.1: points against the others of the group in played encounters, the mean of repeated ones."""
    met = [q for q in group if q != pid and q in calc.encounters[pid]]
    if not met:
        return None
    total = sum(Fraction(sum(calc.encounters[pid][q])) / len(calc.encounters[pid][q]) for q in met)
    return total


def same(a, b):
    return type(a) is type(b) and a == b and str(a) == str(b)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=1, max_value=40),
    rounds=st.integers(min_value=0, max_value=11),
    seed=st.integers(min_value=0, max_value=10**6),
    scale=st.sampled_from(["default", "half", "odd"]),
    fmt=st.sampled_from(list(Format)),
    cut=st.integers(min_value=0, max_value=3),
    counts_unplayed=st.booleans(),
    cap=st.sampled_from(list(DummyCapRounds)),
)
def test_values_equal_the_methods(players, rounds, seed, scale, fmt, cut, counts_unplayed, cap):
    t = random_tournament(players, rounds, seed)
    if scale != "default" or fmt != Format.MICRO_MATCH:
        t = rescored(t, {"default": Scoring(), "half": HALF, "odd": ODD}[scale], fmt, seed)
    s = StandingsSettings(corrected_cut=cut, corrected_counts_unplayed=counts_unplayed, dummy_cap_rounds=cap)
    calc = TiebreakCalculator(t, s)
    groups: dict = {}
    for pid, score in calc.score.items():
        groups.setdefault(score, []).append(pid)
    for group in groups.values():
        for pid in group:
            fast = calc.values(pid, frozenset(group))
            slow = by_methods(calc, pid, group)
            assert list(fast) == list(slow)
            for key in fast:
                assert same(fast[key], slow[key]), (pid, key, fast[key], slow[key])
            de = fast["direct_encounter"]
            if len(group) > 1:
                assert (de is None) == (de_by_definition(calc, pid, group) is None)
                if de is not None:
                    assert Fraction(de) == de_by_definition(calc, pid, group)


def test_values_on_a_large_event_equal_the_methods():
    t = random_tournament(300, 11, 7)
    calc = TiebreakCalculator(t)
    groups: dict = {}
    for pid, score in calc.score.items():
        groups.setdefault(score, []).append(pid)
    for group in groups.values():
        for pid in group:
            fast, slow = calc.values(pid, set(group)), by_methods(calc, pid, group)
            assert all(same(fast[k], slow[k]) for k in fast)


def test_repeated_encounters_give_an_exact_mean():
    """Two players who met twice: the mean of the two encounters, a Fraction when it is not whole."""
    W, D = GameResult.WIN, GameResult.DRAW
    one = (RoundRecord.from_games(2, (W, D)), RoundRecord.from_games(2, (D, D)))
    two = tuple(RoundRecord.from_games(1, tuple(g.mirror for g in r.games)) for r in one)
    t = TournamentData(
        players=(PlayerData(1, "A", 1800, one), PlayerData(2, "B", None, two)), rounds_completed=2, planned_rounds=2
    )
    calc = TiebreakCalculator(t)
    assert calc.values(1, {1, 2})["direct_encounter"] == Fraction(5, 2)
    assert calc.values(2, {1, 2})["direct_encounter"] == Fraction(3, 2)
    assert calc.values(1, {1, 2})["opponents_rating"] == 1600 and calc.values(2, {1, 2})["opponents_rating"] == 1800


def test_records_as_strings_read_as_the_enums():
    """Kinds and game results given as their codes give the same records as the enums (the calculator
    classifies each distinct pair once, whichever form comes first)."""
    t = random_tournament(30, 6, 3)
    as_codes = TournamentData(
        players=tuple(
            PlayerData(
                p.id,
                p.name,
                p.rating,
                tuple(RoundRecord(str(r.kind), r.opponent, r.points, tuple(str(g) for g in r.games)) for r in p.rounds),
            )
            for p in t.players
        ),
        rounds_completed=t.rounds_completed,
        planned_rounds=t.planned_rounds,
        format=t.format,
    )
    for first, second in ((t, as_codes), (as_codes, t)):
        a, b = TiebreakCalculator(first), TiebreakCalculator(second)
        assert a.records == b.records
        assert all(type(g) is GameResult for recs in a.records.values() for r in recs for g in r.games)
        assert all(type(r.kind) is RoundKind for recs in a.records.values() for r in recs)
    assert compute_standings(t).as_json() == compute_standings(as_codes).as_json()


@pytest.mark.parametrize(
    "record, message",
    [
        (RoundRecord(RoundKind.PLAYED, 2, None, (GameResult.FORFEIT_WIN,)), "needs a game played over the board"),
        (RoundRecord(RoundKind.PLAYED, None, None, (GameResult.WIN,)), "needs an opponent"),
        (RoundRecord(RoundKind.PLAYED, 9, None, (GameResult.WIN,)), "unknown opponent 9"),
        (RoundRecord(RoundKind.PLAYED, 2, 1.5, (GameResult.WIN,)), "must be an int or a Decimal, not float"),
    ],
)
def test_bad_records_are_refused_after_a_good_one_of_the_same_shape(record, message):
    """The once-per-shape classification never lets a bad record through because a good one (player 1's won
    game) came first."""

    players = (
        PlayerData(1, "A", None, (RoundRecord.from_games(2, (GameResult.WIN,)), RoundRecord(RoundKind.BYE))),
        PlayerData(2, "B", None, (RoundRecord.from_games(1, (GameResult.LOSS,)), record)),
    )
    with pytest.raises(TournamentError, match=message):
        TiebreakCalculator(TournamentData(players=players, rounds_completed=2, planned_rounds=2))


def test_round_record_is_still_a_frozen_dataclass():
    """RoundRecord's own __init__ (cheaper than the generated one) keeps the dataclass's behaviour."""
    import dataclasses

    r = RoundRecord(RoundKind.PLAYED, 3, 2, (GameResult.WIN, GameResult.LOSS))
    assert r == RoundRecord(kind=RoundKind.PLAYED, opponent=3, points=2, games=(GameResult.WIN, GameResult.LOSS))
    assert hash(r) == hash(RoundRecord(RoundKind.PLAYED, 3, 2, (GameResult.WIN, GameResult.LOSS)))
    assert RoundRecord(RoundKind.BYE) == RoundRecord(RoundKind.BYE, None, None, ())
    assert r != dataclasses.replace(r, opponent=4)
    assert dataclasses.replace(r, opponent=4).opponent == 4 and dataclasses.astuple(r)[:3] == (RoundKind.PLAYED, 3, 2)
    assert [f.name for f in dataclasses.fields(r)] == ["kind", "opponent", "points", "games"]
    assert (
        repr(RoundRecord(RoundKind.BYE))
        == "RoundRecord(kind=<RoundKind.BYE: 'bye'>, opponent=None, points=None, games=())"
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.points = 4  # type: ignore[misc]
