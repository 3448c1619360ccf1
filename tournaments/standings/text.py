"""The ``standings`` command's output (docs/interchange.md): the standings (a ``TournamentStandings``, overall or one
category) as text, CSV or JSON, in Portuguese."""

import csv
import io
import json

from tournaments.core.agreement import plural
from tournaments.core.safetext import spreadsheet_row
from tournaments.domain import StandingRow
from tournaments.domain.catalogue import TIEBREAK_BY_KEY
from tournaments.standings.compute import CategoryStandings, TournamentStandings, number
from tournaments.standings.readings import order_reason_text

Lines = list[tuple[str, StandingRow]]  # (rank as shown, row)


def _fmt(value: object) -> str:
    value = number(value)
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def lines_of(st: TournamentStandings, cat: CategoryStandings | None = None) -> list[tuple[str, StandingRow]]:
    """(rank, row) of the overall standings, or of the category ``cat`` (a ``CategoryStandings``)."""
    if cat is not None:
        return [(c.rank, c.row) for c in cat.rows]
    return [(r.rank, r) for r in st.rows]


def as_json(st: TournamentStandings, lines: Lines) -> str:
    return json.dumps([st.row_json(row, rank) for rank, row in lines], ensure_ascii=False, indent=2)


def as_csv(st: TournamentStandings, lines: Lines) -> str:
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
    return buf.getvalue()


def as_text(name: str, st: TournamentStandings, cat: CategoryStandings | None, lines: Lines) -> str:
    columns = st.columns()
    done = st.rounds_completed
    title = f"Classificação — {name} — após {done} {plural(done, 'rodada', 'rodadas')}"
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
