from django.core.management.base import BaseCommand

from tournaments.interchange import InterchangeError, import_file
from tournaments.interchange.cli import error_text, fail


class Command(BaseCommand):
    help = (
        "Cria um torneio a partir de um arquivo de intercâmbio (.json) ou de um TRF (.trf); imprime o endereço (slug)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="arquivo .json (damas-swiss/1) ou .trf (partida única)")

    def handle(self, *args, **options):
        try:
            tournament = import_file(options["file"])
        except InterchangeError as exc:
            fail(error_text(exc))
        self.stdout.write(tournament.slug)
