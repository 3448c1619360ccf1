from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.core.errors import ServiceError
from tournaments.federation import outbox
from tournaments.federation.presenters import outgoing_state
from tournaments.federation.tasks import schedule_send
from tournaments.interchange.cli import error_text, fail, get_tournament


class Command(BaseCommand):
    help = (
        "Envia o evento à federação (FEDERATION_URL, com a credencial FEDERATION_TOKEN). Sem conexão, fica na fila "
        "e o worker (manage.py db_worker) o envia quando a conexão voltar."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="SLUG")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = get_tournament(options["slug"])
        try:
            outgoing, created = outbox.submission_queue(tournament=tournament, user=None)
        except ServiceError as exc:
            fail(error_text(exc))
        outbox.send_due()  # one try now; if the federation cannot be reached, the worker tries again later
        schedule_send()
        outgoing.refresh_from_db()
        prefix = "na fila" if created else "mesmo arquivo já na fila ou enviado"
        self.stdout.write(f"{tournament.slug}: {prefix}; situação: {outgoing_state(outgoing)}\n", ending="")
