"""Benchmark: a season's next rating list (issue 40), pure: 40 stages of 300 players by default, 9 rounds of
micro-matches (2 games a board), a national list of 3 × that many players, unrated players among them.

    .venv/bin/python bench/ratings.py [stages] [players] [rounds]

Prints, side by side in one run: the product's ``next_list`` (tournaments/domain/ratings.py) and a textbook peer
(the same formula as one flat loop over the games, written here), their time (best of 3), peak memory
(tracemalloc), and whether their new ratings agree for every player.
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.domain.edition import RatingMethod
from tournaments.domain.ratings import Game, Standing, next_list
from tournaments.domain.tiebreaks import round_half_up

SCORES = (1.0, 0.5, 0.0)


def season(stages: int, players: int, rounds: int, seed: int = 7):
    rng = random.Random(seed)
    national = players * 3
    standings = {
        i: Standing(None if rng.random() < 0.08 else rng.randint(1200, 2500), rng.randint(0, 200))
        for i in range(national)
    }
    games: dict[int, list[Game]] = {i: [] for i in range(national)}
    count = 0
    for s in range(stages):
        name = f"CBJD-2026-{s + 1:03d}"
        field = rng.sample(range(national), players)
        for r in range(1, rounds + 1):
            rng.shuffle(field)
            for a, b in zip(field[0::2], field[1::2]):
                for number in (1, 2):
                    if rng.random() < 0.02:
                        continue  # a forfeited game: no game
                    score = rng.choice(SCORES)
                    games[a].append(Game(b, score, r, number, name))
                    games[b].append(Game(a, 1 - score, r, number, name))
                    count += 1
    return standings, games, count


def peer(standings, games, method: RatingMethod) -> dict[int, int | None]:
    """The textbook formula, one flat loop (no explanation lines, no first ratings)."""
    out = {}
    for key, st in standings.items():
        if st.rating is None:
            out[key] = None
            continue
        if st.rated_games < method.new_games:
            k = method.k_new
        elif st.rating >= method.top_rating:
            k = method.k_top
        else:
            k = method.k
        total = 0.0
        for g in games.get(key, ()):
            opp = standings[g.opponent].rating
            if opp is None:
                continue
            d = max(-400, min(400, st.rating - opp))
            total += k * (float(g.score) - 1 / (1 + 10 ** (-d / 400)))
        out[key] = round_half_up(Fraction(st.rating) + Fraction(total).limit_denominator(10**9))
    return out


def measure(fn):
    """Best time of 3 runs, then the peak memory of one more run under tracemalloc (which slows it down)."""
    best, result = None, None
    for _ in range(3):
        start = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak, result


def main() -> None:
    stages, players, rounds = (int(a) for a in (sys.argv[1:] + ["40", "300", "9"][len(sys.argv) - 1 :])[:3])
    standings, games, count = season(stages, players, rounds)
    method = RatingMethod()
    print(
        f"season: {stages} stages x {players} players x {rounds} rounds, {count:,} games, {len(standings):,} on the list"
    )
    ours_t, ours_m, ours = measure(lambda: next_list(standings, games, method))
    peer_t, peer_m, theirs = measure(lambda: peer(standings, games, method))
    agree = all(ours[k].new_rating == theirs[k] for k in standings if standings[k].rating is not None)
    new = sum(1 for e in ours.values() if e.new_player)
    print(f"{'':<28} {'time (best of 3)':>16} {'peak memory':>12}")
    print(f"{'next_list (product)':<28} {ours_t:>14.2f} s {ours_m / 2**20:>9.1f} MB")
    print(f"{'textbook loop (peer)':<28} {peer_t:>14.2f} s {peer_m / 2**20:>9.1f} MB")
    print(f"new ratings agree for every rated player: {'yes' if agree else 'NO'}; first ratings given: {new}")


if __name__ == "__main__":
    main()
