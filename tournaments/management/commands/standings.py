import csv
import io
import json

from django.core.management.base import BaseCommand

from tournaments.interchange.cli import fail, get_tournament
from tournaments.safetext import spreadsheet_row
from tournaments.standings import TIEBREAK_LABELS, number, tournament_standings

SHORT = {
    "progressive": "EA",
    "progressive_corrected": "EAC",
    "buchholz": "Mil",
    "buchholz_cut1": "Mil-1",
    "buchholz_median": "MilMed",
    "direct_encounter": "CD",
    "sonneborn_berger": "SB",
    "matches_won": "MV",
    "games_won": "PV",
    "match_points": "PM",
    "opponents_rating": "RMA",
    "truncated_solkoff": "SolkT",
    "riga": "Riga",
}


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
                    row.order_reason or "",
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
        head = f"{'Pos':>5}  {'Nº':>4}  {'Nome':<{width}}  {'Pts':>5}" + "".join(f"  {SHORT[k]:>6}" for k in columns)
        out = [title, "", head]
        for rank, row in lines:
            marks = ""
            if row.withdrawn_from:
                marks = f"  (desistente a partir da rodada {row.withdrawn_from})"
            out.append(
                f"{rank:>5}  {row.id:>4}  {row.name:<{width}}  {_fmt(row.points):>5}"
                + "".join(f"  {_fmt(v):>6}" for v in st.cells(row))
                + marks
            )
        out += ["", "Legenda: " + "; ".join(f"{SHORT[k]} = {TIEBREAK_LABELS[k]}" for k in columns)]
        shown = {row.id for _r, row in lines}
        groups = [g for g in st.tie_groups if len(g.ids) > 1 and shown & set(g.ids)]
        if groups:
            out.append("Desempate por grupo de pontos:")
            for g in groups:
                order = ", ".join(TIEBREAK_LABELS[k] for k in g.order)
                out.append(
                    f"  {_fmt(g.points)} pontos (nº {', '.join(map(str, g.ids))}): {order}."
                    + (f" {g.reason}" if g.reason else "")
                )
        out += list(st.readings)
        return "\n".join(out) + "\n"
