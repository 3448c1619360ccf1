import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from tournaments.audit.services import audit
from tournaments.interchange.cli import fail
from tournaments.models.choices import AuditAction
from tournaments.registry.services import federation_group


class Command(BaseCommand):
    help = (
        "Cria um oficial da federação (grupo “Federação”: fila de homologação, credenciais, cadastro) ou põe no "
        "grupo um login que já existe. A senha de um login novo é gerada e mostrada uma vez."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("login")
        parser.add_argument("--email", default="")

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        login = options["login"].strip()
        if not login or len(login) > 150 or not all(c.isalnum() or c in "@.+-_" for c in login):
            fail("login inválido: use letras, números e @ . + - _ (até 150).")
        User = get_user_model()
        user = User.objects.filter(username=login).first()
        password = None
        if user is None:
            password = secrets.token_urlsafe(12)
            user = User.objects.create_user(login, email=options["email"], password=password)
        group = federation_group()
        user.groups.add(group)
        audit(
            tournament=None,
            user=None,
            action=AuditAction.OFFICER_CREATE,
            obj=user,
            summary=f"{login} no grupo {group.name}",
        )
        self.stdout.write(f"{login}: oficial da federação (grupo “{group.name}”).")
        if password:
            self.stdout.write(f"Senha (mostrada só agora; troque-a no primeiro acesso): {password}")
