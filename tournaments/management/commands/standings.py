import csv
import io
import json

from django.core.management.base import BaseCommand
from django.utils import translation

from tournaments.core.safetext import spreadsheet_row
from tournaments.domain.catalogue import TIEBREAK_BY_KEY
from tournaments.interchange.cli import fail, get_tournament
from tournaments.standings.readings import order_reason_text
from tournaments.standings.selectors import number, tournament_standings


def _fmt(value):
    value = number(value)
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


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
        st = tournament_standings(tournament, public=False)
        code = options["category"]
        if code is not None:
            try:
                cat = st.category(code)
            except KeyError:
                fail(
                    f"categoria “{code}” não existe no torneio {tournament.slug} "
                    f"(há: {', '.join(c.code for c in st.categories) or 'nenhuma'})"
                )
            lines = [(c.rank, c.row) for c in cat.rows]
        else:
            cat = None
            lines = [(r.rank, r) for r in st.rows]
        fmt = options["format"]
        if fmt == "json":
            self.stdout.write(json.dumps([st.row_json(row, rank) for rank, row in lines], ensure_ascii=False, indent=2))
        elif fmt == "csv":
            columns = st.columns()
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow(["rank", "id", "name", "points", *columns, "order", "order_reason"])
            for rank, row in lines:
                values = ["" if v is None else _fmt(v) for v in st.cells(row)]
                line = [
                    rank,
                    row.id,
                    row.name,
                    _fmt(row.points),
                    *values,
                    " > ".join(row.order),
                    order_reason_text(row.order_reasons),
                ]
                writer.writerow(spreadsheet_row(line))  # names as text: a spreadsheet never runs them as formulas
            self.stdout.write(buf.getvalue(), ending="")
        else:
            self.stdout.write(self._text(tournament, st, cat, lines), ending="")

    def _text(self, tournament, st, cat, lines):
        columns = st.columns()
        title = f"Classificação — {tournament.name} — após {st.rounds_completed} rodada(s)"
        if cat is not None:
            title += f" — categoria {cat.code} ({cat.category.name})"
        width = max([len(row.name) for _r, row in lines] + [4])
        abbrs = [TIEBREAK_BY_KEY[k].abbr_pt for k in columns]
        widths = [max(6, len(a)) for a in abbrs]
        head = f"{'Pos':>5}  {'Nº':>4}  {'Nome':<{width}}  {'Pts':>5}" + "".join(
            f"  {a:>{w}}" for a, w in zip(abbrs, widths)
        )
        out = [title, "", head]
        for rank, row in lines:
            marks = ""
            if row.withdrawn_from:
                marks = f"  (desistente a partir da rodada {row.withdrawn_from})"
            out.append(
                f"{rank:>5}  {row.id:>4}  {row.name:<{width}}  {_fmt(row.points):>5}"
                + "".join(f"  {_fmt(v):>{w}}" for v, w in zip(st.cells(row), widths))
                + marks
            )
        out += ["", "Legenda: " + "; ".join(f"{a} = {TIEBREAK_BY_KEY[k].name_pt}" for a, k in zip(abbrs, columns))]
        shown = {row.id for _r, row in lines}
        groups = [g for g in st.tie_groups if len(g.ids) > 1 and shown & set(g.ids)]
        if groups:
            out.append("Desempate por grupo de pontos:")
            for g in groups:
                order = ", ".join(TIEBREAK_BY_KEY[k].name_pt for k in g.order)
                out.append(
                    f"  {_fmt(g.points)} pontos (nº {', '.join(map(str, g.ids))}): {order}."
                    + (f" {order_reason_text(g.reasons)}" if g.reasons else "")
                )
        out += list(st.readings)
        return "\n".join(out) + "\n"
