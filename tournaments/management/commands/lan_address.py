"""Print the address the players' phones open on the venue's Wi-Fi, with a QR code (``make run LAN=1``)."""

import io

import segno
from django.core.management.base import BaseCommand

from tournaments.core.lan import local_addresses


class Command(BaseCommand):
    help = "Endereço do laptop na rede local (Wi-Fi do local de jogo), com um QR code para os celulares."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-qr", action="store_true", help="sem o QR code no terminal")

    def handle(self, *args, **options):
        addresses = local_addresses()
        port = options["port"]
        if not addresses:
            self.stdout.write(
                self.style.WARNING(
                    "Nenhum endereço de rede local encontrado: conecte o laptop ao Wi-Fi do local de jogo "
                    "e rode de novo (os celulares precisam estar na mesma rede)."
                )
            )
            return
        urls = [f"http://{address}:{port}/" for address in addresses]
        self.stdout.write("")
        self.stdout.write("  Celulares dos jogadores (mesma rede Wi-Fi do laptop):")
        for url in urls:
            self.stdout.write(f"    {url}")
        if not options["no_qr"]:
            self.stdout.write("")
            drawing = io.StringIO()
            segno.make(urls[0], error="m").terminal(out=drawing, compact=True)
            self.stdout.write(drawing.getvalue())
        self.stdout.write("")
