from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.setup.demo import is_empty_database, load_demo, remove_demo


class Command(BaseCommand):
    help = (
        "Load a realistic demo tournament (40 players, 7 rounds, 4 played), dated from today. Running it again "
        "changes nothing. --first-run: only into an empty database (what `make run` does); --remove: delete it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--first-run",
            action="store_true",
            help="carrega a demonstração só num banco vazio (sem torneios nem logins): o primeiro `make run`",
        )
        parser.add_argument(
            "--remove", action="store_true", help="apaga o torneio de demonstração e os jogadores inventados dele"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["remove"]:
            if remove_demo():
                self.stdout.write("Torneio de demonstração apagado, com os jogadores inventados dele.")
            else:
                self.stdout.write("Não há torneio de demonstração neste banco.")
            return
        if options["first_run"] and not is_empty_database():
            return  # a venue already in use: a deleted demo stays deleted (`make run DEMO=1` brings it back)
        tournament, created = load_demo()
        if created:
            self.stdout.write(f"Torneio de demonstração criado: {tournament.name} ({tournament.slug})")
            self.stdout.write("  (para apagá-lo: .venv/bin/python manage.py demo --remove)")
        else:
            self.stdout.write(f"Torneio de demonstração já existe: {tournament.slug}")
