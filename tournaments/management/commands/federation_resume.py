from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from tournaments.federation import client, outbox, stage_outbox
from tournaments.federation.tasks import schedule_send, sync_pending
from tournaments.models import OutgoingStatus, OutgoingSubmission, StageRequest


class Command(BaseCommand):
    help = (
        "Põe de novo na fila do worker os envios à federação pendentes (arquivos, pedidos de registro de etapa, "
        "impressões das rodadas) e a consulta da situação dos enviados e das etapas pedidas "
        "(`make run` o chama ao iniciar: um worker interrompido com o computador fechado não perde nada); na "
        "federação, as verificações de etapas que um worker interrompido deixou por terminar."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.DAMAS_ROLE == "federation":
            from tournaments.federation.tasks import verification_resume

            resumed = verification_resume()
            self.stdout.write(f"verificações retomadas: {resumed}\n", ending="")
            return
        # the stage requests and the rounds' fingerprints go with the same queue (issue 35.2, 35.4)
        pending = (
            OutgoingSubmission.objects.filter(status=OutgoingStatus.PENDING).count()
            + StageRequest.objects.filter(status=OutgoingStatus.PENDING).count()
        )
        waiting = OutgoingSubmission.objects.filter(status__in=outbox.OPEN).count() + stage_outbox.undecided().count()
        if pending or (client.configured() and stage_outbox.unsent_fingerprints().exists()):
            schedule_send()
        if waiting:
            sync_pending.enqueue()
        self.stdout.write(f"envios pendentes: {pending}; aguardando decisão: {waiting}\n", ending="")
