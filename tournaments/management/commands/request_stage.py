from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.core.errors import ServiceError
from tournaments.federation import outbox, stage_outbox
from tournaments.federation.tasks import schedule_send
from tournaments.interchange.cli import error_text, fail, get_tournament
from tournaments.models import OutgoingStatus, StageRequest


class Command(BaseCommand):
    help = (
        "Pede à federação o registro do evento como etapa do Circuito (nome, cidade, datas, formato), com a "
        "credencial FEDERATION_TOKEN. Sem conexão, o pedido fica na fila e o worker o envia quando a conexão voltar; "
        "a resposta liga o evento ao identificador da etapa (CBJD-AAAA-NNN). Uma etapa recusada no calendário é pedida "
        "de novo, corrigida: a federação reabre a mesma etapa."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="SLUG")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = get_tournament(options["slug"])
        try:
            stage_outbox.stage_request_queue(tournament=tournament, user=None)
        except ServiceError as exc:
            fail(error_text(exc))
        outbox.send_due()  # one try now; the worker tries again later
        schedule_send()
        tournament.refresh_from_db()
        request = StageRequest.objects.get(tournament=tournament)
        if tournament.stage_id and request.status == OutgoingStatus.RECEIVED:  # a refused stage asked again: answered
            late = " (registrada tarde)" if request.late else ""
            self.stdout.write(f"{tournament.slug}: etapa {tournament.stage_id}{late}\n", ending="")
        else:
            self.stdout.write(f"{tournament.slug}: pedido na fila ({request.last_error or 'aguardando'})\n", ending="")
