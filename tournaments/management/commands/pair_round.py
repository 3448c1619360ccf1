import logging

from django.core.management.base import BaseCommand

from tournaments.core.agreement import plural
from tournaments.interchange.cli import error_text, fail, get_tournament

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Emparceira a próxima rodada pelo sistema holandês e a publica (com --draft, deixa como rascunho)."

    def add_arguments(self, parser):
        parser.add_argument("slug", metavar="SLUG")
        parser.add_argument("--draft", action="store_true", help="deixa a rodada como rascunho (não publica)")

    def handle(self, *args, **options):
        tournament = get_tournament(options["slug"])
        try:
            from tournaments.core.errors import ServiceError
            from tournaments.rounds.services import round_pair
        except ImportError as exc:
            fail(f"motor de emparceiramento indisponível: {exc}")
        try:
            rnd = round_pair(tournament=tournament, user=None, publish=not options["draft"])
        except ServiceError as exc:
            fail(error_text(exc))
        except Exception:  # an internal error (the round's transaction was rolled back): logged, then one line
            logger.exception("pair_round %s: internal error while pairing", tournament.slug)
            fail("falha interna no emparceiramento (nada foi gravado; o erro está no log)")
        boards = rnd.boards.count()
        bye = rnd.seats.filter(side="bye").select_related("entry").first()
        status = "rascunho" if options["draft"] else "publicada"
        text = f"Rodada {rnd.number} emparceirada ({status}): {boards} {plural(boards, 'mesa', 'mesas')}"
        if bye:
            text += f", bye para o nº {bye.entry.pairing_number}"
        self.stdout.write(text)
