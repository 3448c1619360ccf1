"""``make run``'s server (issue 37.10): Django's threaded WSGI server, as ``runserver`` runs it, without its
development banner ("Do not use it in a production setting") and without reloading; it prints the addresses to open
once it listens (this computer's, and in LAN mode the ones the phones on the venue's Wi-Fi use), and a port already
taken is said in Portuguese with what to do. Each request is not printed (settings: ``django.server``); refusals
print one line, internal errors their traceback.

A venue serves tens of phones on its own Wi-Fi, the same as ``runserver`` did; the federation's server runs
gunicorn (config/gunicorn.py, docs/production.md).
"""

from __future__ import annotations

import errno
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.servers.basehttp import get_internal_wsgi_application, run

from tournaments.core.lan import local_addresses

ANY = ("0.0.0.0", "")


def parse_address(text: str) -> tuple[str, int]:
    host, _sep, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError(f"endereço inválido: {text!r} (use HOST:PORTA, por exemplo 127.0.0.1:8000)")
    return host or "127.0.0.1", int(port)


def addresses_to_open(host: str, port: int) -> list[tuple[str, str]]:
    """(address, who opens it) for the console: this computer's, then the Wi-Fi's when serving every address."""
    here = "127.0.0.1" if host in ANY else host
    shown = [(f"http://{here}:{port}/", "neste computador")]
    if host in ANY:
        shown += [(f"http://{a}:{port}/", "nos celulares, no Wi-Fi do local") for a in local_addresses()]
    return shown


class Command(BaseCommand):
    help = (
        "Serve o site no local de jogo (make run): mostra os endereços a abrir quando já atende; uma porta em uso "
        "é dita em português. Sem recarregar o código; Ctrl+C para."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000", metavar="HOST:PORTA")

    def handle(self, *args: Any, **options: Any) -> None:
        host, port = parse_address(options["addrport"])
        handler = get_internal_wsgi_application()
        try:
            run(host, port, handler, threading=True, on_bind=lambda bound: self.announce(host, int(bound)))
        except OSError as exc:
            raise CommandError(self.why(exc, port)) from exc
        except KeyboardInterrupt:
            self.stdout.write("\nServidor parado.")

    def announce(self, host: str, port: int) -> None:
        width = max(len(url) for url, _who in addresses_to_open(host, port))
        self.stdout.write("Servindo (Ctrl+C para parar):")
        for url, who in addresses_to_open(host, port):
            self.stdout.write(f"  {url.ljust(width)}  {who}")
        if settings.DEBUG:
            self.stdout.write("  (DEBUG ligado: erros mostram as páginas de diagnóstico do Django)")
        sys.stdout.flush()

    @staticmethod
    def why(exc: OSError, port: int) -> str:
        if exc.errno == errno.EADDRINUSE:
            return (
                f"a porta {port} já está em uso (outro `make run` aberto, ou outro programa). Feche-o, ou use "
                f"outra porta: make run PORT={port + 1}"
            )
        if exc.errno == errno.EACCES:
            return (
                f"sem permissão para usar a porta {port}: use uma porta acima de 1024, por exemplo make run PORT=8000"
            )
        if exc.errno == errno.EADDRNOTAVAIL:
            return "este computador não tem esse endereço: use 127.0.0.1, ou make run LAN=1 para o Wi-Fi do local"
        return f"não foi possível servir na porta {port}: {exc.strerror or exc}"
