"""Build a published tournament quickly through the ORM (bulk inserts), for the public-page tests and the bench.

The pairing is a plain score-ordered one (this is about pages, not pairing quality); results are random but
reproducible from the seed.
"""

import random
from datetime import date
from decimal import Decimal

from tournaments.models import Board, Category, Entry, Game, Opening, Player, Round, Seat
from tournaments.models.choices import RoundStatus, SeatSide
from tournaments.rounds.scoring import board_points
from tournaments.setup.services import tournament_create

RESULTS = ["1-0", "1/2", "0-1", "1-0", "0-1", "1/2", "1-0", "0-1", "+/-"]


def build_tournament(
    *,
    slug="aberto-teste",
    players=30,
    rounds=5,
    draft_round=False,
    user=None,
    seed=7,
    name="Aberto de Teste",
    complete_last=True,
    draft_results=False,
    **fields,
):
    """``draft_round``: one more round, left as a draft (with results when ``draft_results``: they must not show).
    ``complete_last=False`` leaves the last published round without results."""
    rng = random.Random(seed)
    fields.setdefault("start_date", date(2026, 11, 7))
    fields.setdefault("end_date", date(2026, 11, 9))
    fields.setdefault("planned_rounds", max(rounds + (1 if draft_round else 0), 1))
    fields.setdefault("city", "Recife")
    fields.setdefault("state", "PE")
    t = tournament_create(
        user=user,
        name=name,
        slug=slug,
        categories=[{"code": "ABS", "name": "Absoluto"}, {"code": "FEM", "name": "Feminino", "sex": "F"}],
        **fields,
    )
    cats = {c.code: c for c in Category.objects.filter(tournament=t)}
    base = Player.objects.count()
    people = Player.objects.bulk_create(
        [
            Player(
                name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {i:03d}",
                sex="F" if i % 4 == 0 else "M",
                rating=rng.randint(1400, 2300) if i % 10 else None,
                cbjd_id=f"{slug[:6]}{base + i:05d}",
                state=rng.choice(["PE", "PB", "SP", "RJ", "BA"]),
                club="Clube de Damas",
            )
            for i in range(players)
        ]
    )
    ordered = sorted(people, key=lambda p: (-(p.rating or 1600), p.name))
    entries = Entry.objects.bulk_create(
        [Entry(tournament=t, player=p, rating=p.rating, pairing_number=n) for n, p in enumerate(ordered, start=1)]
    )
    through = Entry.categories.through
    links = [through(entry_id=e.pk, category_id=cats["ABS"].pk) for e in entries]
    links += [through(entry_id=e.pk, category_id=cats["FEM"].pk) for e, p in zip(entries, ordered) if p.sex == "F"]
    through.objects.bulk_create(links)
    openings = list(Opening.objects.filter(table=t.opening_table, active=True).order_by("position")[:30])
    scoring = {"win": t.score_win, "draw": t.score_draw, "loss": t.score_loss}
    score = {e.pk: Decimal(0) for e in entries}
    total = rounds + (1 if draft_round else 0)
    for number in range(1, total + 1):
        is_draft = draft_round and number == total
        complete = draft_results if is_draft else (complete_last or number < rounds)
        rnd = Round.objects.create(
            tournament=t,
            number=number,
            opening=openings[number - 1] if openings else None,
            status=RoundStatus.DRAFT if is_draft else RoundStatus.PUBLISHED,
        )
        order = sorted(entries, key=lambda e: (-score[e.pk], e.pairing_number))
        bye = order.pop() if len(order) % 2 else None
        pairs = [
            (order[i], order[i + 1]) if (i // 2 + number) % 2 else (order[i + 1], order[i])
            for i in range(0, len(order), 2)
        ]
        boards = Board.objects.bulk_create([Board(round=rnd, number=i) for i in range(1, len(pairs) + 1)])
        seats, games = [], []
        for board, (a, b) in zip(boards, pairs):
            seats += [
                Seat(round=rnd, entry=a, board=board, side=SeatSide.FIRST),
                Seat(round=rnd, entry=b, board=board, side=SeatSide.SECOND),
            ]
            results = {}
            for g in (1, 2):
                code = rng.choice(RESULTS) if complete else None
                results[g] = code
                games.append(Game(board=board, number=g, result=code))
            if complete:
                pa, pb = board_points(results, scoring)
                score[a.pk] += pa
                score[b.pk] += pb
        if bye is not None:
            seats.append(Seat(round=rnd, entry=bye, side=SeatSide.BYE))
            score[bye.pk] += t.score_win * 2
        Seat.objects.bulk_create(seats)
        Game.objects.bulk_create(games)
    return t


FIRST = ["João", "Maria", "Ana", "Pedro", "Ângela", "Édson", "Lucas", "Íris", "Otávio", "Beatriz", "Caio", "Sofia"]
LAST = ["Silva", "Araújo", "Souza", "Lima", "Cavalcanti", "Oliveira", "Ferreira", "Lins", "Monteiro", "Dias"]
