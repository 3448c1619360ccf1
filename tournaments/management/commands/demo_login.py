"""The venue's director login (``make run``; tournaments/accounts/director.py, issue 37.2).

Made once: at the first run the director types a password (at a terminal) or gets a generated one, shown that
once. Every later run prints the addresses and the user only, and never touches the password: a changed password
sticks and a restart logs nobody out.
"""

import sys
from getpass import getpass
from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandParser

from tournaments.accounts.director import DIRECTOR_USERNAME, generated_password, venue_director


class Command(BaseCommand):
    help = (
        "Cria uma vez o login do diretor do local (senha digitada no primeiro uso, ou gerada e mostrada só essa "
        "vez; nunca a troca depois) e mostra os endereços e o usuário."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000/")
        parser.add_argument(
            "--password",
            default=None,
            help="a senha do primeiro uso, sem perguntar (scripts e testes); ignorada se o login já tem senha",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user, needs_password = venue_director()
        url = options["url"]
        generated = None
        if needs_password:
            password = options["password"] or self.choose(user)
            if password is None:
                password = generated = generated_password()
            user.set_password(password)
            user.save(update_fields=["password"])
        self.stdout.write("")
        self.stdout.write(f"  Endereço:  {url}")
        self.stdout.write(f"  Gestão:    {url}gestao/")
        self.stdout.write(f"  Usuário:   {DIRECTOR_USERNAME}")
        if generated:
            self.stdout.write(f"  Senha:     {generated}")
            self.stdout.write(f"             (anote agora: ela não aparece de novo; para trocar: {url}gestao/senha/)")
        elif not needs_password:
            self.stdout.write(f"  Senha:     a definida no primeiro uso (trocar: {url}gestao/senha/)")
            self.stdout.write(f"             Esqueceu? .venv/bin/python manage.py changepassword {DIRECTOR_USERNAME}")
        self.stdout.write("")

    def choose(self, user: Any) -> str | None:
        """At a terminal, the password the director types (twice); None for a generated one (Enter alone, or no
        terminal)."""
        if not sys.stdin.isatty():
            return None
        self.stdout.write(
            f"\nPrimeiro uso: escolha a senha do login “{DIRECTOR_USERNAME}” (Enter sem digitar: uma gerada)."
        )
        while True:
            typed = getpass("  Senha: ")
            if not typed:
                return None
            try:
                validate_password(typed, user)
            except ValidationError as exc:
                self.stdout.write("  " + " ".join(exc.messages))
                continue
            if getpass("  De novo: ") == typed:
                return typed
            self.stdout.write("  As duas não conferem; digite de novo.")
