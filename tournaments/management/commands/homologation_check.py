import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.core.agreement import plural
from tournaments.homologation.report import homologation_check
from tournaments.interchange.cli import get_tournament


class Command(BaseCommand):
    help = "Verifica as condições de homologação (regulamento CBJD) e as vagas por categoria."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", metavar="SLUG")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = get_tournament(options["slug"])
        report = homologation_check(tournament)
        if options["format"] == "json":
            self.stdout.write(json.dumps(report.as_json(), ensure_ascii=False, indent=2))
            return
        out = [f"Homologação — {tournament.name}", ""]
        for c in report.conditions:
            out.append(f"[{'OK' if c.met else 'NÃO'}] {c.key} ({c.article}): {c.detail}")
        out += [
            "",
            f"Direito a vagas: {'sim' if report.rights else 'não'}",
            f"Prazo para envio dos resultados: {report.deadline:%d/%m/%Y} ({report.deadline_detail})",
        ]
        if report.exported_at:
            out.append(f"Relatório exportado em: {report.exported_at:%d/%m/%Y %H:%M}")
        out += ["", "Vagas por categoria:"]
        for q in report.categories:
            average = f"{float(q.exact_average):.2f}" if q.exact_average is not None else "-"
            qualified = ", ".join(map(str, q.qualified)) if q.qualified else "-"
            out.append(
                f"  {q.code}: {q.entries} participantes, média {average} ({q.counted} ratings), "
                f"{q.spots} {plural(q.spots, 'vaga', 'vagas')}; classificados: {qualified}"
            )
        self.stdout.write("\n".join(out) + "\n", ending="")
