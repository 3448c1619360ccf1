"""Write tests/data/federation/etapa-caruaru.json: a 7-round stage of 34 players run through this product's
services (engine-paired rounds, tablita drawn, a forfeit, an announced absence, an approved withdrawal and an
abandonment), exported as the interchange file. Run once against a throw-away database:

    DATABASE_URL=sqlite:////tmp/etapa.sqlite3 .venv/bin/python manage.py migrate -v0
    DATABASE_URL=sqlite:////tmp/etapa.sqlite3 .venv/bin/python manage.py shell -c "import tests.federation.make_stage"
"""

import json
import random
from datetime import date
from pathlib import Path

from django.contrib.auth import get_user_model

from tournaments.entries.services import absence_announce, entry_register, entry_withdraw
from tournaments.interchange import export_data
from tournaments.models import Player
from tournaments.models.choices import WithdrawalKind
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair
from tournaments.setup.openings import opening_draw
from tournaments.setup.services import tournament_create

WOMEN = ["Ana", "Carla", "Elisa", "Gabriela", "Íris", "Luana"]
MEN = ["Bruno", "Davi", "Fábio", "Heitor", "João", "Marcos", "Otávio"]
LAST = ["Albuquerque", "Barbosa", "Cavalcanti", "Duarte", "Esteves", "Ferraz", "Gouveia", "Holanda", "Lins"]

rng = random.Random(29)
user = get_user_model().objects.create_user("diretora-caruaru")
t = tournament_create(
    user=user,
    name="Circuito Nacional de Damas - Etapa Caruaru",
    slug="etapa-caruaru-2026",
    variant="brazilian-64",
    format="micro-match",
    planned_rounds=7,
    minutes_per_game=21,
    start_date=date(2026, 10, 18),
    end_date=date(2026, 10, 18),
    city="Caruaru",
    state="PE",
    categories=[
        {"code": "ABS", "name": "Absoluto"},
        {"code": "FEM", "name": "Feminino", "sex": "F"},
        {"code": "S18", "name": "Sub-18", "max_age": 17},
    ],
)
entries = []
for i in range(34):
    player = Player.objects.create(
        name=f"{(WOMEN if i % 3 == 0 else MEN)[i % 6]} {LAST[i % 9]} {LAST[(i // 9 + 4) % 9]}",
        sex="F" if i % 3 == 0 else "M",
        birth_date=date(2010 - (i % 4), 1 + i % 12, 1 + i % 27) if i % 5 == 0 else date(1980 + i, 3, 9),
        rating=2350 - i * 12 if i != 20 else None,
        cbjd_id=f"PE{4100 + i}",
        state="PE",
        club="Clube de Damas de Caruaru",
    )
    entries.append(entry_register(tournament=t, player=player, user=user))
for number in range(1, 8):
    if number == 3:
        entry_withdraw(entry=entries[30], from_round=3, kind=WithdrawalKind.APPROVED, user=user)
    if number == 4:
        absence_announce(entry=entries[11], round_number=4, user=user)
    if number == 5:
        entry_withdraw(entry=entries[25], from_round=5, kind=WithdrawalKind.ABANDONMENT, user=user)
    rnd = round_pair(tournament=t, user=user, publish=True)
    opening_draw(round=rnd, user=user, seed=f"caruaru-{number}")
    for board in rnd.boards.order_by("number"):
        if number == 2 and board.number == 4:
            results = {1: "+/-", 2: "-/+"}
        else:
            results = {1: rng.choice(["1-0", "1/2", "0-1"]), 2: rng.choice(["1-0", "1/2", "0-1", "1/2"])}
        game_record_result(board=board, results=results, expected_version=board.version, user=user)
out = Path(__file__).resolve().parents[1] / "data" / "federation" / "etapa-caruaru.json"
out.write_text(json.dumps(export_data(t), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
print(out)
