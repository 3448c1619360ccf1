import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.core.agreement import plural
from tournaments.federation.selectors import registry_at
from tournaments.federation.verification import verify
from tournaments.interchange.cli import error_text, fail
from tournaments.interchange.errors import InterchangeError
from tournaments.interchange.jsonfile import load_json, validate_file
from tournaments.models.editions import all_editions


class Command(BaseCommand):
    help = (
        "Verifica um arquivo de intercâmbio como a federação: 1ª rodada pelo rating nacional da data do evento, "
        "rodadas do motor reemparceiradas, classificação e vagas recalculadas, suspensões (não grava nada)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE.json")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            with open(path, "rb") as fh:
                raw = fh.read(50 * 1024 * 1024 + 1)
        except OSError as exc:
            fail(f"não foi possível ler {path}: {exc.strerror or exc}")
        try:
            data = load_json(raw)
            validate_file(data)
        except InterchangeError as exc:
            fail(f"arquivo ilegível: {error_text(exc)}")
        # judged by the edition in force on its start date, among those shipped and those published (issue 35.1)
        result = verify(
            data, registry_at(date.fromisoformat(data["tournament"]["start_date"])), editions=all_editions()
        )
        if options["format"] == "json":
            self.stdout.write(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
            return
        t = data["tournament"]
        out = [f"Verificação — {t.get('name')}", ""]
        list_text = f"{result.list_date:%d/%m/%Y}" if result.list_date else "nenhuma"
        out.append(f"Lista nacional em vigor na data do evento: {list_text}")
        out.append(f"Participantes: {result.participants} · rodadas completas: {result.rounds_completed}")
        out.append("")
        for f in result.findings:
            out.append(f"[{'IMPEDE' if f.blocking else 'INFO'}] {f.code} ({f.article}): {f.message}")
        if not result.findings:
            out.append("Nenhum apontamento.")
        out += ["", f"Direito a vagas: {'sim' if result.rights else 'não'}", "", "Vagas por categoria:"]
        for q in result.qualification:
            names = ", ".join(p["name"] for p in q["qualified"]) or "-"
            spots = f"{q['spots']} {plural(q['spots'], 'vaga', 'vagas')}"
            out.append(f"  {q['code']}: média {q['average'] or '-'}, {spots}; classificados: {names}")
        self.stdout.write("\n".join(out) + "\n", ending="")
