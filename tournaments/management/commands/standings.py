from django.core.management.base import BaseCommand
from django.utils import translation

from tournaments.homologation.report import homologation_check
from tournaments.interchange.cli import fail, get_tournament
from tournaments.standings import text


class Command(BaseCommand):
    help = (
        "Classificação do torneio (todas as rodadas completas, rascunhos incluídos), geral ou de uma "
        "categoria, em texto, CSV ou JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", metavar="SLUG")
        parser.add_argument("--format", choices=["text", "csv", "json"], default="text")
        parser.add_argument("--category", metavar="CODE", default=None)

    def handle(self, *args, **options):
        with translation.override("pt-br"):  # the command speaks Portuguese (docs/interchange.md)
            self._handle(options)

    def _handle(self, options):
        tournament = get_tournament(options["slug"])
        st = homologation_check(tournament).standings  # the spots awarded as the homologation decides
        code = options["category"]
        cat = None
        if code is not None:
            try:
                cat = st.category(code)
            except KeyError:
                fail(
                    f"categoria “{code}” não existe no torneio {tournament.slug} "
                    f"(há: {', '.join(c.code for c in st.categories) or 'nenhuma'})"
                )
        lines = text.lines_of(st, cat)
        fmt = options["format"]
        if fmt == "json":
            self.stdout.write(text.as_json(st, lines))
        elif fmt == "csv":
            self.stdout.write(text.as_csv(st, lines), ending="")
        else:
            self.stdout.write(text.as_text(tournament.name, st, cat, lines), ending="")
