"""A realistic demo tournament, built through the services (the same path an arbiter's clicks take).

It is dated from the day it is loaded (issue 37.12): the event starts that day, with 4 of its 7 rounds played,
on the federation's rating list of a week before; the players' ages are the same on any day. ``make run`` loads
it into an empty database only, at the first run (issue 37.7): a deleted demo stays deleted; ``manage.py demo``
loads it on purpose, ``manage.py demo --remove`` takes it away with its made-up players.
"""

import random
from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone

from tournaments.accounts.director import DIRECTOR_USERNAME, venue_director
from tournaments.entries.services import entry_register, entry_withdraw, rating_list_import
from tournaments.models import Board, Player, RatingList, Tournament, TournamentRole
from tournaments.models.choices import StaffRole, WithdrawalKind
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair
from tournaments.setup.openings import opening_draw
from tournaments.setup.services import tournament_create

DEMO_SLUG = "circuito-recife-2026"
DEMO_USERNAME = DIRECTOR_USERNAME  # the venue's director login directs the demo

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
DEMO_NAME = "Circuito Nacional de Damas - Etapa Recife"
N_PLAYERS = 40
RATING_LIST_DAYS_BEFORE = 7  # the rating list in force: published a week before the event


def demo_ids() -> list[str]:
    """The made-up players' CBJD IDs."""
    return [f"{10000 + i * 37}" for i in range(N_PLAYERS)]


def rating_list_csv(players):
    """The demo players as the federation's rating list (CSV, the columns rating lists use)."""
    lines = ["ID CBJD;Nome;Rating;Nascimento;Sexo;UF;Clube"]
    for p in players:
        lines.append(
            f"{p['cbjd_id']};{p['name']};{p['rating']};{p['birth_date']:%d/%m/%Y};{p['sex']};{p['state']};{p['club']}"
        )
    return ("\n".join(lines) + "\n").encode("utf-8")


def demo_players(rng, year=2026):
    """The made-up players, aged as of ``year`` (the event's): the same ages whatever the year."""
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
        born = rng.randint(year - 17, year - 13) if young else rng.randint(year - 68, year - 22)
        state, club = rng.choice(STATES_CLUBS)
        players.append(
            {
                "cbjd_id": demo_ids()[i],
                "name": name,
                "sex": "F" if female else "M",
                "birth_date": date(born, rng.randint(1, 12), rng.randint(1, 28)),
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


def is_empty_database() -> bool:
    """A venue's first run: no tournament and no login yet (the demo goes only there, issue 37.7)."""
    from django.contrib.auth import get_user_model

    return not Tournament.objects.exists() and not get_user_model().objects.exists()


@transaction.atomic
def remove_demo() -> bool:
    """Delete the demo tournament and its made-up players and rating list (those entered in another tournament
    stay). False when there is no demo."""
    tournament = Tournament.objects.filter(slug=DEMO_SLUG, name=DEMO_NAME).first()
    if tournament is None:
        return False
    tournament.delete()
    Player.objects.filter(cbjd_id__in=demo_ids(), entries__isnull=True).delete()
    RatingList.objects.filter(filename__startswith="rating-cbjd-demo-").delete()
    return True


@transaction.atomic
def load_demo(stdout=None, *, today=None):
    """Create the demo tournament unless it exists (idempotent), starting ``today`` (default: the day it is loaded).
    Returns (tournament, created)."""
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing:
        return existing, False
    start = today or timezone.localdate()
    list_date = start - timedelta(days=RATING_LIST_DAYS_BEFORE)
    rng = random.Random(2026)
    user, _needs_password = venue_director()  # its password is demo_login's to set, at the first run
    tournament = tournament_create(
        user=user,
        name=DEMO_NAME,
        slug=DEMO_SLUG,
        variant="brazilian-64",
        format="micro-match",
        planned_rounds=7,
        minutes_per_game=21,
        start_date=start,
        end_date=start + timedelta(days=1),
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
    players = demo_players(rng, start.year)
    filename = f"rating-cbjd-demo-{list_date:%Y-%m}.csv"
    rating_list_import(data=rating_list_csv(players), filename=filename, user=user, list_date=list_date)
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
