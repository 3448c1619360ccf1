"""Random circuit stages run through the venue's own services (the engine pairs every round), exported as the
interchange file: the property tests of issue 36.1 compare the venue's report of the imported file with the
federation's verification of the same file. Every stage has what makes spots move: double spots, a small
category, byes, forfeits, abandonments, approved withdrawals, late entrants, announced absences, unrated players,
and each reading of the regulation drawn at random."""

import random
from datetime import date

from django.contrib.auth import get_user_model

from tournaments.entries.services import absence_announce, entry_register, entry_withdraw
from tournaments.federation.verification import Registry, RegistryPlayer
from tournaments.interchange import export_data
from tournaments.models import Player
from tournaments.models.choices import WithdrawalKind
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair
from tournaments.setup.openings import opening_draw
from tournaments.setup.services import tournament_create

FIRST_F = ["Ana", "Carla", "Elisa", "Gabriela", "Íris", "Luana", "Nair"]
FIRST_M = ["Bruno", "Davi", "Fábio", "Heitor", "João", "Marcos", "Otávio", "Raul"]
LAST = ["Albuquerque", "Barbosa", "Cavalcanti", "Duarte", "Esteves", "Ferraz", "Gouveia", "Holanda", "Lins"]
CATEGORIES = [
    {"code": "ABS", "name": "Absoluto"},
    {"code": "FEM", "name": "Feminino", "sex": "F"},
    {"code": "S18", "name": "Sub-18", "max_age": 17},
    {"code": "S12", "name": "Sub-12", "max_age": 11},  # a few players at most
]
READINGS = {
    "double_spot_rule": ["both", "pass"],
    "spot_tie_rule": ["committee", "share"],
    "unrated_in_average": ["provisional", "rated_only"],
    "participant_rule": ["played", "present"],
    "time_unit": ["game", "match"],
    "spots_min_entries": [0, 4],
}


def random_stage(seed: int) -> dict:
    """Play a random 7-round stage of 29 to 38 players at the venue and return its interchange file."""
    rng = random.Random(seed)
    user = get_user_model().objects.create_user(f"diretor-{seed}")
    readings = {key: rng.choice(values) for key, values in READINGS.items()}
    t = tournament_create(
        user=user,
        name=f"Etapa aleatória {seed}",
        slug=f"etapa-aleatoria-{seed}",
        variant="brazilian-64",
        format="micro-match",
        planned_rounds=7,
        minutes_per_game=rng.choice([21, 30]),
        start_date=date(2026, 10, 18),
        end_date=date(2026, 10, 18),
        city="Recife",
        state="PE",
        categories=CATEGORIES,
        **readings,
    )
    count = rng.randint(29, 38)
    late = {rng.randrange(count): rng.choice([2, 3]) for _ in range(rng.randint(0, 2))}
    players = []
    for i in range(count):
        woman = rng.random() < 0.35
        age = rng.choice([10, 11, 14, 16, 17, 25, 40, 60]) if rng.random() < 0.5 else 30
        players.append(
            Player.objects.create(
                name=f"{rng.choice(FIRST_F if woman else FIRST_M)} {LAST[i % 9]} {LAST[(i * 7 + seed) % 9]} {i}",
                sex="F" if woman else "M",
                birth_date=date(2026 - age, 1 + i % 12, 1 + i % 27),
                rating=None if rng.random() < 0.1 else rng.randint(1500, 2450),
                cbjd_id=f"PE{seed:03d}{i:03d}",
                state="PE",
                club="Clube",
            )
        )
    entries = {i: entry_register(tournament=t, player=p, user=user) for i, p in enumerate(players) if i not in late}
    leaving = rng.sample(sorted(entries), k=rng.randint(1, 3))
    leave_at = {
        i: (rng.randint(2, 6), rng.choice([WithdrawalKind.APPROVED, WithdrawalKind.ABANDONMENT])) for i in leaving
    }
    for number in range(1, 8):
        for i, r in late.items():
            if r == number:
                entries[i] = entry_register(tournament=t, player=players[i], user=user, late_entry_round=r)
        for i, (r, kind) in leave_at.items():
            if r == number:
                entry_withdraw(entry=entries[i], from_round=r, kind=kind, user=user)
        if number > 1 and rng.random() < 0.4:
            absent = rng.choice([i for i in entries if i not in leave_at])
            absence_announce(entry=entries[absent], round_number=number, user=user)
        rnd = round_pair(tournament=t, user=user, publish=True)
        opening_draw(round=rnd, user=user, seed=f"aleatoria-{seed}-{number}")
        for board in rnd.boards.order_by("number"):
            if rng.random() < 0.06:
                results = rng.choice([{1: "+/-", 2: "+/-"}, {1: "-/+", 2: "-/+"}, {1: "-/-", 2: "-/-"}])
            else:
                results = {1: rng.choice(["1-0", "1/2", "0-1"]), 2: rng.choice(["1-0", "1/2", "0-1"])}
            game_record_result(board=board, results=results, expected_version=board.version, user=user)
    return export_data(t)


def registry_agreeing(data: dict) -> Registry:
    """The federation's registry agreeing with the file: every player on the list at the file's rating."""
    players = {
        p["cbjd_id"]: RegistryPlayer(
            p["cbjd_id"], p["name"], p.get("rating"), p.get("sex") or "", date.fromisoformat(p["birth_date"])
        )
        for p in data["players"]
    }
    return Registry(date(2026, 10, 1), "rating-cbjd-2026-10.csv", players)
