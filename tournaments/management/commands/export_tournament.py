from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.interchange import InterchangeError, crosstable_sp, export_json, export_trf
from tournaments.interchange.cli import error_text, fail, get_tournament, write_atomically


class Command(BaseCommand):
    help = (
        "Exporta o torneio no arquivo de intercâmbio JSON. Pela extensão de -o também: .trf (TRF-2026, "
        "partida única) ou .tsv/.txt (tabela cruzada no formato do Swiss Perfect)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="SLUG")
        parser.add_argument("-o", "--output", required=True, metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = get_tournament(options["slug"])
        path = options["output"]
        suffix = path.lower().rsplit(".", 1)[-1] if "." in path else ""
        try:
            if suffix == "trf":
                text = export_trf(tournament)
            elif suffix in ("tsv", "txt"):
                text = crosstable_sp(tournament)
            else:
                text = export_json(tournament)
        except InterchangeError as exc:
            fail(error_text(exc))
        write_atomically(path, text.encode("utf-8"))
