"""A synthetic but consistent interchange file (benchmarks, tests, load tests): no database access.

Pairings are a simple score-group Swiss (no rematch, at most one bye each, pairing numbers in rating order);
results follow the Elo expectation with a fixed seed, so the same arguments give the same file.
"""

import random
from datetime import date, timedelta

from tournaments.interchange.jsonfile import FORMAT
from tournaments.setup.openings_data import read_tablita_rows

FIRST = [
    "Ana",
    "Bruno",
    "Carla",
    "Davi",
    "Elisa",
    "Fábio",
    "Gabriela",
    "Heitor",
    "Íris",
    "João",
    "Larissa",
    "Marcos",
    "Nair",
    "Otávio",
    "Paula",
    "Raul",
    "Sara",
    "Tiago",
    "Úrsula",
    "Vítor",
]
LAST = [
    "Silva",
    "Santos",
    "Oliveira",
    "Souza",
    "Lima",
    "Pereira",
    "Costa",
    "Almeida",
    "Ribeiro",
    "Gomes",
    "Barbosa",
    "Cavalcanti",
    "Moura",
    "Teixeira",
    "Farias",
    "Batista",
    "Freitas",
    "Correia",
    "Rocha",
    "Dias",
]
STATES = ["PE", "PB", "RN", "CE", "BA", "SP", "RJ", "AL", "MG"]


def _game(rng, white, black):
    expected = 1 / (1 + 10 ** ((black - white) / 400))
    x = rng.random()
    if x < expected - 0.15:
        return "1-0"
    if x < expected + 0.15:
        return "1/2"
    return "0-1"


def _pair(order, met, rng, budget=200000):
    """Top-down pairing avoiding rematches, backtracking when the bottom gets stuck."""
    import sys

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * len(order) + 100))
    nodes = [0]

    def solve(left):
        if not left:
            return []
        nodes[0] += 1
        if nodes[0] > budget:
            return None
        a, rest = left[0], left[1:]
        for i, b in enumerate(rest):
            if b in met[a]:
                continue
            tail = solve(rest[:i] + rest[i + 1 :])
            if tail is not None:
                return [(a, b)] + tail
        return None

    return solve(list(order))


def synthetic_tournament(
    players=300, rounds=9, seed=2026, slug=None, micro_match=True, drafts=False, start=date(2026, 11, 7)
):
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1500, 2450) for _ in range(players)), reverse=True)
    codes = [r["code"] for r in read_tablita_rows() if r["table"] == "IDF-64" and r["excluded_for_brazilian"] != "yes"]
    opening_codes = rng.sample(codes, rounds)
    plist = []
    for i, rating in enumerate(ratings, start=1):
        female = i % 5 == 3
        year = rng.randint(2009, 2013) if i % 7 == 4 else rng.randint(1955, 2004)
        cats = ["ABS"] + (["FEM"] if female else []) + (["S18"] if start.year - year <= 17 else [])
        plist.append(
            {
                "id": i,
                "cbjd_id": f"S{seed % 1000:03d}{i:05d}",
                "name": f"{rng.choice(FIRST)} {rng.choice(LAST)} {i}",
                "sex": "F" if female else "M",
                "birth_date": date(year, rng.randint(1, 12), rng.randint(1, 28)).isoformat(),
                "state": rng.choice(STATES),
                "club": f"Clube {rng.randint(1, 40)}",
                "rating": rating,
                "categories": cats,
            }
        )
    rating_of = {p["id"]: p["rating"] for p in plist}
    score = {p["id"]: 0 for p in plist}
    met = {p["id"]: set() for p in plist}
    had_bye = set()
    out_rounds = []
    per_game = 2 if micro_match else 1
    for number in range(1, rounds + 1):
        order = sorted(score, key=lambda pid: (-score[pid], pid))
        bye = None
        if len(order) % 2:
            bye = next(pid for pid in reversed(order) if pid not in had_bye)
            order.remove(bye)
            had_bye.add(bye)
        if number == 1:
            half = len(order) // 2
            pairs = [(order[i], order[i + half]) for i in range(half)]
        else:
            pairs = _pair(order, met, rng)
            tries = 0
            while pairs is None and tries < 50:
                tries += 1
                shuffled = list(order)
                for k in range(0, len(shuffled) - 1, 2):
                    if rng.random() < 0.5:
                        shuffled[k], shuffled[k + 1] = shuffled[k + 1], shuffled[k]
                pairs = _pair(shuffled, met, rng)
            if pairs is None:
                raise RuntimeError("no pairing without rematch found")
        boards = []
        last = drafts and number == rounds
        for board, (a, b) in enumerate(pairs, start=1):
            if rng.random() < 0.5 and number > 1:
                a, b = b, a
            if last:
                games = [None] * per_game
            else:
                games = [_game(rng, rating_of[a], rating_of[b])]
                if micro_match:
                    games.append(_game(rng, rating_of[b], rating_of[a]))
                pts = {"1-0": (2, 0), "1/2": (1, 1), "0-1": (0, 2)}
                g1 = pts[games[0]]
                score[a] += g1[0]
                score[b] += g1[1]
                if micro_match:
                    g2 = pts[games[1]]
                    score[b] += g2[0]
                    score[a] += g2[1]
            met[a].add(b)
            met[b].add(a)
            boards.append({"board": board, "first": a, "second": b, "games": games})
        if bye is not None and not last:
            score[bye] += 2 * per_game
        out_rounds.append(
            {
                "number": number,
                "status": "draft" if last else "published",
                "opening": opening_codes[number - 1] if micro_match else None,
                "boards": boards,
                "bye": bye,
                "absent": [],
            }
        )
    return {
        "format": FORMAT,
        "tournament": {
            "name": f"Aberto sintético {players}x{rounds}",
            "slug": slug or f"sintetico-{players}-{rounds}-{seed}",
            "variant": "brazilian-64",
            "format": "micro-match" if micro_match else "single-game",
            "rounds": rounds,
            "minutes_per_game": 21,
            "start_date": start.isoformat(),
            "end_date": (start + timedelta(days=1)).isoformat(),
            "city": "Recife",
            "state": "PE",
            "scoring": {"win": 2, "draw": 1, "loss": 0},
            "bye": "win",
            "acceleration": "none",
            "tiebreaks": "cbjd",
            "min_participants": 30,
            "opening_table": "IDF-64" if micro_match else None,
        },
        "categories": [
            {"code": "ABS", "name": "Absoluto"},
            {"code": "FEM", "name": "Feminino", "sex": "F"},
            {"code": "S18", "name": "Sub-18", "max_age": 17},
        ],
        "players": plist,
        "rounds": out_rounds,
    }
