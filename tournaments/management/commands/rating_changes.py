"""``manage.py rating_changes SLUG [--format json]`` (issue 40.2): each entry's rating estimate after the complete
rounds (docs/interchange.md)."""

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import translation

from tournaments.interchange.cli import get_tournament
from tournaments.standings.rating_read import entry_rating_estimates


def _number(value: float | None, digits: int) -> float | None:
    return None if value is None else round(float(value), digits)


class Command(BaseCommand):
    help = (
        "Variação de rating estimada de cada inscrito após as rodadas completas (método Elo da edição do "
        "regulamento), em texto ou JSON. A lista da federação é a que vale."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", metavar="SLUG")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override("pt-br"):
            tournament = get_tournament(options["slug"])
            rows: list[dict[str, Any]] = [
                {
                    "id": entry.number,
                    "name": entry.player.name,
                    "rating": change.rating,
                    "games": change.games,
                    "score": _number(change.score, 1),
                    "expected": _number(change.expected, 2),
                    "change": _number(change.change, 1),
                    "performance": change.performance,
                }
                for entry, change in entry_rating_estimates(tournament)
            ]
            if options["format"] == "json":
                self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
                return
            self.stdout.write(f"{tournament.name}: variação de rating estimada (a lista da federação é a que vale)")
            self.stdout.write(
                f"{'Nº':>4}  {'Nome':<30} {'Rtg':>5} {'Part':>4} {'Pts':>5} {'Esp':>6} {'+/-':>6} {'Perf':>5}"
            )
            for row in rows:
                self.stdout.write(
                    f"{row['id']:>4}  {row['name'][:30]:<30} {row['rating'] or '-':>5} {row['games']:>4} "
                    f"{row['score']:>5} {row['expected']:>6} {row['change']:>+6.1f} {row['performance'] or '-':>5}"
                )
