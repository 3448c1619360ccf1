import logging

from django.core.management.base import BaseCommand

from tournaments.interchange import InterchangeError, import_file
from tournaments.interchange.cli import error_text, fail

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Cria um torneio a partir de um arquivo de torneio (intercâmbio .json, TRF .trf/.trfx/.txt/.tab, Swiss "
        "Perfect: .zip com .ini/.trn/.sco, um deles com os outros na mesma pasta, ou a tabela cruzada .txt); "
        "imprime o endereço (slug). Avisos da importação vão para a saída de erro."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", metavar="FILE", help="arquivo .json (damas-swiss/1), TRF (partida única) ou do Swiss Perfect"
        )

    def handle(self, *args, **options):
        try:
            imported = import_file(options["file"])
        except InterchangeError as exc:
            fail(error_text(exc))
        except Exception:  # an internal error: nothing was written (all or nothing); logged, then one line
            logger.exception("import_tournament %s: internal error while importing", options["file"])
            fail("falha interna na importação (nada foi gravado; o erro está no log)")
        for warning in imported.warnings:
            self.stderr.write(f"aviso: {warning}")
        self.stdout.write(imported.tournament.slug)
