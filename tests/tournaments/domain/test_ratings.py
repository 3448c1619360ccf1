"""Rating changes (issue 40), against cases worked out by hand, and the zero-sum property.

Hand arithmetic used below (E = 1 / (1 + 10^(-D/400)), D capped at ±400):
- D = -400 (or below): E = 1 / (1 + 10) = 1/11 = 0.0909...
- D = +200: E = 1 / (1 + 10^-0.5) = 1 / 1.316227766 = 0.759746927
- D = 0: E = 0.5
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.edition import RatingMethod
from tournaments.domain.model import GameResult, RoundKind, RoundRecord
from tournaments.domain.ratings import (
    Game,
    RatingMethodError,
    Standing,
    changes,
    expected_score,
    games_of_records,
    k_factor,
    next_list,
    player_change,
)

ELO = RatingMethod()
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def test_expected_score_is_capped_at_400_points():
    assert expected_score(1600, 2000) == pytest.approx(1 / 11)
    assert expected_score(1600, 2300) == pytest.approx(1 / 11)  # 700 apart counts as 400
    assert expected_score(2300, 1600) == pytest.approx(10 / 11)
    assert expected_score(2000, 1800) == pytest.approx(0.759746927)
    assert expected_score(1750, 1750) == 0.5


def test_k_by_experience_then_strength():
    assert k_factor(ELO, 1500, 0) == 40
    assert k_factor(ELO, 2500, 29) == 40  # fewer than 30 rated games: 40 whatever the rating
    assert k_factor(ELO, 2399, 30) == 20
    assert k_factor(ELO, 2400, 30) == 10


def test_a_win_against_a_player_more_than_400_above():
    ratings = {1: 1600, 2: 2100}
    c = player_change(1, Standing(1600, 50), [Game(2, WIN)], ratings, ELO)
    assert c.k == 20 and c.games == 1 and c.score == 1
    assert c.expected == pytest.approx(1 / 11)
    assert c.change == pytest.approx(20 * 10 / 11)  # 18.18
    assert c.change_shown == 18.2 and c.new_rating == 1618
    loser = player_change(2, Standing(2100, 50), [Game(1, LOSS)], ratings, ELO)
    assert loser.change == pytest.approx(-200 / 11) and loser.new_rating == 2082  # 2100 - 18.18


def test_draws_between_equals_and_with_a_stronger_player():
    assert player_change(1, Standing(1800, 40), [Game(2, DRAW)], {2: 1800}, ELO).change == 0
    c = player_change(1, Standing(2000, 40), [Game(2, DRAW)], {2: 1800}, ELO)
    assert c.change == pytest.approx(20 * (0.5 - 0.759746927))  # -5.19
    assert c.change_shown == -5.2 and c.new_rating == 1995


def test_a_micro_match_is_two_games_and_a_forfeit_or_bye_none():
    # players 1 (1900, new: K 40) and 2 (1900); round 1 a micro-match 1 won a game and drew one; round 2 player 1
    # won by forfeit against 3; round 3 a bye
    records = {
        10: [
            RoundRecord(RoundKind.PLAYED, 2, 3, (GameResult.WIN, GameResult.DRAW)),
            RoundRecord(RoundKind.FORFEIT_WIN, 3, 4, (GameResult.FORFEIT_WIN, GameResult.FORFEIT_WIN)),
            RoundRecord(RoundKind.BYE, None, 2),
        ],
        20: [RoundRecord(RoundKind.PLAYED, 1, 1, (GameResult.LOSS, GameResult.DRAW))],
        30: [],
    }
    games = games_of_records(records, {1: 10, 2: 20, 3: 30})
    assert games[10] == [Game(20, WIN, 1, 1), Game(20, DRAW, 1, 2)]
    assert games[30] == []
    result = changes({10: Standing(1900, 5), 20: Standing(1900, 100), 30: Standing(1700, 100)}, games, ELO)
    assert result[10].games == 2 and result[10].score == Fraction(3, 2)
    assert result[10].change == pytest.approx(40 * (1 - 0.5) + 40 * (0.5 - 0.5))  # +20
    assert result[20].change == pytest.approx(20 * (0 - 0.5))  # -10: its K is 20
    assert result[30].games == 0 and result[30].change == 0 and result[30].performance is None


def test_a_game_against_an_unrated_player_counts_only_for_the_unrated_one():
    ratings = {1: 1800, 2: None}
    rated = player_change(1, Standing(1800, 40), [Game(2, WIN)], ratings, ELO)
    assert rated.games == 0 and rated.change == 0
    unrated = player_change(2, Standing(None), [Game(1, LOSS)], ratings, ELO)
    assert unrated.games == 1 and unrated.performance == 1800 - 800 and unrated.first_rating is None


def test_a_first_rating_after_nine_rated_games_over_one_or_more_stages():
    ratings = dict.fromkeys(range(1, 10), 1800)
    eight = [Game(i, WIN if i % 2 else LOSS) for i in range(1, 9)]  # 4 of 8: 50 %
    assert player_change(0, Standing(None), eight, ratings, ELO).first_rating is None
    nine = [*eight, Game(9, DRAW)]  # 4.5 of 9: 50 %, Ra 1800, dp 0
    first = player_change(0, Standing(None), nine, ratings, ELO)
    assert first.first_rating == 1800 and first.new_rating == 1800
    # three games already played in an earlier stage: six more are enough
    assert player_change(0, Standing(None, rated_games=3), eight[:6], ratings, ELO).first_rating == 1800


def test_the_explanation_adds_up_to_the_change():
    ratings = {1: 1650, 2: 1900, 3: 2400, 4: 1500}
    games = [Game(2, WIN, 1, 1), Game(2, DRAW, 1, 2), Game(3, LOSS, 2, 1), Game(4, WIN, 3, 1)]
    c = player_change(1, Standing(1650, 12), games, ratings, ELO)
    assert [(line.opponent_rating, line.score) for line in c.lines] == [(1900, 1), (1900, 0.5), (2400, 0), (1500, 1)]
    assert sum(line.change for line in c.lines) == pytest.approx(c.change)
    for line in c.lines:
        assert line.change == pytest.approx(40 * (float(line.score) - line.expected))


def test_the_next_list_rates_every_stage_from_the_list_at_the_period_start():
    standings = {1: Standing(1800, 40), 2: Standing(1800, 40), 3: Standing(None)}
    games = {
        1: [Game(2, WIN, 1, 1, "CBJD-2026-001"), Game(2, WIN, 1, 1, "CBJD-2026-002")],
        2: [Game(1, LOSS, 1, 1, "CBJD-2026-001"), Game(1, LOSS, 1, 1, "CBJD-2026-002")],
    }
    out = next_list(standings, games, ELO)
    # both stages from 1800 v 1800 (not 1810 v 1790 after the first): +10 twice
    assert out[1].by_stage == (("CBJD-2026-001", 10.0, 1), ("CBJD-2026-002", 10.0, 1))
    assert out[1].new_rating == 1820 and out[2].new_rating == 1780 and out[1].rated_games == 42
    assert out[3].new_rating is None and not out[3].new_player


def test_an_unknown_method_is_refused_in_portuguese():
    with pytest.raises(RatingMethodError, match="Método de rating"):
        player_change(1, Standing(1800), [], {}, RatingMethod(method="glicko"))


@st.composite
def stage(draw):
    n = draw(st.integers(2, 12))
    ratings = draw(st.lists(st.integers(1000, 2600), min_size=n, max_size=n))
    games: dict[int, list[Game]] = {i: [] for i in range(n)}
    for _ in range(draw(st.integers(0, 30))):
        a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if a == b:
            continue
        score = draw(st.sampled_from([WIN, DRAW, LOSS]))
        games[a].append(Game(b, score))
        games[b].append(Game(a, 1 - score))
    return ratings, games


@settings(max_examples=200, deadline=None)
@given(stage(), st.sampled_from([10, 20, 40]))
def test_changes_sum_to_zero_among_rated_players_with_one_k(data, k):
    ratings, games = data
    method = RatingMethod(k_new=k, k=k, k_top=k)
    result = changes({i: Standing(r, 50) for i, r in enumerate(ratings)}, games, method)
    assert sum(c.change for c in result.values()) == pytest.approx(0, abs=1e-9)


def test_a_withdrawn_stage_is_taken_back_by_the_next_list():
    standings = {1: Standing(1800, 40), 2: Standing(1800, 40)}
    games = {
        1: [Game(2, WIN, 1, 1, "A"), Game(2, DRAW, 1, 1, "B")],
        2: [Game(1, LOSS, 1, 1, "A"), Game(1, DRAW, 1, 1, "B")],
    }
    out = next_list(standings, games, ELO, withdrawn={"A"})
    # stage A (+10 for player 1, counted by an earlier list) is taken back; stage B's draw changes nothing
    assert out[1].by_stage == (("A", -10.0, -1), ("B", 0.0, 1))
    assert out[1].new_rating == 1790 and out[2].new_rating == 1810 and out[1].rated_games == 40
