from django.core.management.base import BaseCommand

from tournaments.setup.demo import load_demo


class Command(BaseCommand):
    help = "Load a realistic demo tournament (40 players, 7 rounds, 4 played). Running it again changes nothing."

    def handle(self, *args, **options):
        tournament, created = load_demo()
        if created:
            self.stdout.write(f"Torneio de demonstração criado: {tournament.name} ({tournament.slug})")
        else:
            self.stdout.write(f"Torneio de demonstração já existe: {tournament.slug}")
