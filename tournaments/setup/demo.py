"""A realistic demo tournament, built through the services (the same path an arbiter's clicks take)."""

import random
from datetime import date

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.entries.services import entry_register, entry_withdraw, rating_list_import
from tournaments.models import Board, Player, Tournament, TournamentRole
from tournaments.models.choices import StaffRole, WithdrawalKind
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair
from tournaments.setup.openings import opening_draw
from tournaments.setup.services import tournament_create

DEMO_SLUG = "circuito-recife-2026"
DEMO_USERNAME = "diretor"
DEMO_PASSWORD = "damas-demo-2026"

FIRST_M = [
    "João",
    "Pedro",
    "Lucas",
    "Gabriel",
    "Rafael",
    "Mateus",
    "Carlos",
    "Antônio",
    "Francisco",
    "Paulo",
    "José",
    "Marcos",
    "Luiz",
    "Thiago",
    "Felipe",
    "Rodrigo",
    "Eduardo",
    "André",
    "Bruno",
    "Daniel",
    "Sebastião",
    "Raimundo",
    "Severino",
    "Vinícius",
    "Caio",
    "Heitor",
    "Davi",
    "Arthur",
]
FIRST_F = [
    "Maria",
    "Ana",
    "Juliana",
    "Fernanda",
    "Camila",
    "Beatriz",
    "Larissa",
    "Patrícia",
    "Aline",
    "Luana",
    "Mariana",
    "Letícia",
    "Débora",
    "Raquel",
    "Isabela",
]
SURNAMES = [
    "Silva",
    "Santos",
    "Oliveira",
    "Souza",
    "Lima",
    "Pereira",
    "Ferreira",
    "Costa",
    "Rodrigues",
    "Almeida",
    "Nascimento",
    "Carvalho",
    "Araújo",
    "Ribeiro",
    "Gomes",
    "Barbosa",
    "Cavalcanti",
    "Albuquerque",
    "Moura",
    "Teixeira",
    "Monteiro",
    "Farias",
    "Batista",
    "Freitas",
    "Correia",
    "Cardoso",
    "Rocha",
    "Dias",
    "Lins",
]
STATES_CLUBS = [
    ("PE", "Clube de Damas do Recife"),
    ("PE", "AABB Olinda"),
    ("PB", "Damas Clube João Pessoa"),
    ("RN", "Associação Potiguar de Damas"),
    ("CE", "Clube Cearense de Damas"),
    ("BA", "Damas Bahia"),
    ("SP", "Clube Paulistano de Damas"),
    ("RJ", "Grêmio Carioca de Damas"),
    ("AL", "Clube Alagoano"),
    ("MG", "Damas BH"),
]
N_PLAYERS = 40
RATING_LIST = "rating-cbjd-2026-10.csv"
RATING_LIST_DATE = date(2026, 10, 31)


def rating_list_csv(players):
    """The demo players as the federation's rating list (CSV, the columns rating lists use)."""
    lines = ["ID CBJD;Nome;Rating;Nascimento;Sexo;UF;Clube"]
    for p in players:
        lines.append(
            f"{p['cbjd_id']};{p['name']};{p['rating']};{p['birth_date']:%d/%m/%Y};{p['sex']};{p['state']};{p['club']}"
        )
    return ("\n".join(lines) + "\n").encode("utf-8")


def demo_players(rng):
    players = []
    used = set()
    for i in range(N_PLAYERS):
        female = i % 5 == 2
        while True:
            name = f"{rng.choice(FIRST_F if female else FIRST_M)} {rng.choice(SURNAMES)} {rng.choice(SURNAMES)}"
            if name not in used:
                used.add(name)
                break
        young = i % 6 == 4
        year = rng.randint(2009, 2013) if young else rng.randint(1958, 2004)
        state, club = rng.choice(STATES_CLUBS)
        players.append(
            {
                "cbjd_id": f"{10000 + i * 37}",
                "name": name,
                "sex": "F" if female else "M",
                "birth_date": date(year, rng.randint(1, 12), rng.randint(1, 28)),
                "state": state,
                "club": club,
                "rating": rng.randint(1500, 2400),
            }
        )
    return players


def _game(rng, white_rating, black_rating):
    expected = 1 / (1 + 10 ** ((black_rating - white_rating) / 400))
    x = rng.random()
    draw_band = 0.35
    if x < expected - draw_band / 2:
        return "1-0"
    if x < expected + draw_band / 2:
        return "1/2"
    return "0-1"


def _play_round(rnd, rng, user, forfeit_board=None):
    boards = Board.objects.filter(round=rnd).prefetch_related("seats__entry", "games").order_by("number")
    for board in boards:
        seats = {s.side: s.entry for s in board.seats.all()}
        first, second = seats["first"], seats["second"]
        if board.number == forfeit_board:
            results = {1: "+/-", 2: "-/+"}  # the second player did not show up: both games W.O. for the first
        else:
            results = {
                1: _game(rng, first.rating or 1600, second.rating or 1600),
                2: _game(rng, second.rating or 1600, first.rating or 1600),
            }
        game_record_result(board=board, results=results, expected_version=board.version, user=user)


@transaction.atomic
def load_demo(stdout=None):
    """Create the demo tournament unless it exists (idempotent). Returns (tournament, created)."""
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing:
        return existing, False
    rng = random.Random(2026)
    User = get_user_model()
    user, _ = User.objects.get_or_create(username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True})
    tournament = tournament_create(
        user=user,
        name="Circuito Nacional de Damas - Etapa Recife",
        slug=DEMO_SLUG,
        variant="brazilian-64",
        format="micro-match",
        planned_rounds=7,
        minutes_per_game=21,
        start_date=date(2026, 11, 7),
        end_date=date(2026, 11, 8),
        city="Recife",
        state="PE",
        venue="Clube Português do Recife",
        chief_arbiter="AI Severino Cavalcanti",
        categories=[
            {"code": "ABS", "name": "Absoluto"},
            {"code": "FEM", "name": "Feminino", "sex": "F"},
            {"code": "S18", "name": "Sub-18", "max_age": 17},
        ],
    )
    TournamentRole.objects.get_or_create(tournament=tournament, user=user, defaults={"role": StaffRole.DIRECTOR})
    # The registry comes from the federation's rating list; round 1 takes its ratings (regulation art. 4) and the
    # homologation page says which list was used.
    players = demo_players(rng)
    rating_list_import(data=rating_list_csv(players), filename=RATING_LIST, user=user, list_date=RATING_LIST_DATE)
    entries = []
    for data in players:
        player = Player.objects.get(cbjd_id=data["cbjd_id"])
        entries.append(entry_register(tournament=tournament, player=player, user=user))
    for number in range(1, 5):
        if number == 3:
            # A withdrawal before round 3 leaves 39 players: rounds 3 and 4 have a bye.
            quitter = sorted(entries, key=lambda e: e.player.name)[7]
            entry_withdraw(entry=quitter, from_round=3, kind=WithdrawalKind.APPROVED, user=user)
        rnd = round_pair(tournament=tournament, user=user, publish=True)
        opening_draw(round=rnd, user=user, seed=f"demo-{number}")
        _play_round(rnd, rng, user, forfeit_board=5 if number == 2 else None)
    tournament.refresh_from_db()
    return tournament, True
