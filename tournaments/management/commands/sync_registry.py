from typing import Any

from django.core.management.base import BaseCommand

from tournaments.core.errors import ServiceError
from tournaments.federation.presenters import sync_summary
from tournaments.federation.registry_sync import registry_download
from tournaments.interchange.cli import error_text, fail


class Command(BaseCommand):
    help = "Baixa da federação a lista de rating nacional e as suspensões em vigor (registra a data da lista)."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            sync = registry_download(user=None)
        except ServiceError as exc:
            fail(error_text(exc))
        date = f"{sync.list_date:%d/%m/%Y}" if sync.list_date else "sem data"
        self.stdout.write(
            f"lista {sync.list_name} de {date}: {sync_summary(sync.players, sync.suspensions)}\n",
            ending="",
        )
