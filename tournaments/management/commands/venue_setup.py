"""What ``make run`` does before it serves, in one process (issue 37.10's start time): migrate the database, load
the demo at the first run (``demo --first-run``; ``--demo 1`` loads it if missing, ``--demo 0`` never), and make the
director's login once (``demo_login``). Each of those commands still runs alone; here they share one start of
Django instead of three (about a second each on an idle laptop, ten on a loaded one)."""

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = (
        "Prepara o local de jogo antes de servir (make run): migra o banco, carrega a demonstração no primeiro uso "
        "e cria o login do diretor uma vez."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="http://127.0.0.1:8000/")
        parser.add_argument(
            "--demo",
            choices=["auto", "1", "0"],
            default="auto",
            help="auto: a demonstração só num banco vazio; 1: carrega se faltar; 0: nunca",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        out = {"stdout": self.stdout, "stderr": self.stderr}
        call_command("migrate", interactive=False, verbosity=options["verbosity"], **out)
        if options["demo"] != "0":
            call_command("demo", first_run=options["demo"] == "auto", **out)
        call_command("demo_login", url=options["url"], **out)
