from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.homologation.workbook import export_homologation
from tournaments.interchange.cli import fail, get_tournament


class Command(BaseCommand):
    help = "Gera a planilha de homologação (XLSX) e registra quando foi exportada."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="SLUG")
        parser.add_argument("-o", "--output", required=True, metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = get_tournament(options["slug"])
        try:
            export_homologation(tournament, options["output"])
        except OSError as exc:
            fail(f"não foi possível gravar {options['output']}: {exc.strerror or exc}")
