"""The homologation workbook (XLSX, docs/domain.md section 7), written with openpyxl.

Sheets: ``Evento`` (the event and its settings), ``Condições`` (each homologation condition met or not, with
the reason, the rights and the deadline), ``Participantes``, ``Rodadas`` (every board of every round, byes,
forfeits, absences), ``Classificação`` (final standings with the tiebreaks in their order and the order used
per tie group), ``Desempenho`` (games against rated opponents, score in them, their average rating,
performance rating) and ``Vagas`` (spots per category: average, ratings counted, qualified players).

Dates are date cells, numbers are number cells, text is text (never a formula: names and every other string
go through ``safetext.append_row``), header rows are frozen and columns sized to their content.

Public entry points: :func:`homologation_workbook` (build, no write), :func:`homologation_xlsx` (bytes, no write:
the staff page downloads it with a GET and records the export with a separate POST) and
:func:`export_homologation` (the command: to a file path, atomically, recording the export time).
"""

from __future__ import annotations

import io
from collections import defaultdict
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone, translation
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from tournaments.core.files import write_atomically
from tournaments.core.labels import tiebreak_label
from tournaments.core.safetext import append_row
from tournaments.domain import performances
from tournaments.homologation.conditions import rating_list_text
from tournaments.homologation.report import homologation_check
from tournaments.homologation.services import homologation_mark_exported, results_complete
from tournaments.models import Absence
from tournaments.rounds.scoring import FORFEITS, board_points, entry_label, is_played
from tournaments.selectors import absence_points, board_pair, bye_points, scoring_of
from tournaments.setup.tiebreak_list import custom_tiebreaks
from tournaments.standings.readings import order_reason_text, regulation_readings, spot_note_text
from tournaments.standings.selectors import number

DATE_FORMAT = "DD/MM/YYYY"
DATETIME_FORMAT = "DD/MM/YYYY HH:MM"
HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE4EE")
SHEETS = ("Evento", "Condições", "Participantes", "Rodadas", "Classificação", "Desempenho", "Vagas")
_WITHDRAWAL = {"approved": "aprovada pelo árbitro", "abandonment": "abandono"}
_STATUS = {"published": "publicada", "draft": "rascunho"}


def _local_naive(dt, tz_name):
    if dt is None:
        return None
    return timezone.localtime(dt, ZoneInfo(tz_name)).replace(tzinfo=None)


def place_cells(rank):
    """A place as the standings show it ("3", or "3-4" when shared) -> (the place as a number, the shared range
    said in words or None): a spreadsheet sorts and filters the first column, a reader sees the tie."""
    if rank is None:
        return None, None
    first, _sep, last = str(rank).partition("-")
    if not last:
        return int(first), None
    return int(first), f"{first}º a {last}º (dividido)"


def as_shown(value):
    """A rounded figure as the pages show it (``fmt_number``: two decimals, half to even), as a number."""
    if value is None:
        return None
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return number(Decimal(value).quantize(Decimal("0.01")))


class _Sheet:
    """A worksheet with a header row: tracks column widths and formats dates."""

    def __init__(self, wb, title, header, first=False):
        self.ws = wb.active if first else wb.create_sheet()
        self.ws.title = title
        self.widths = [len(str(h)) for h in header]
        append_row(self.ws, header)
        for cell in self.ws[1]:
            cell.font = HEADER_FONT
            cell.fill = HEADER_FILL
            cell.alignment = Alignment(vertical="center", wrap_text=False)
        self.ws.freeze_panes = "A2"
        self.count = 1

    def row(self, values):
        values = [v if v is None or isinstance(v, (str, date, datetime)) else number(v) for v in values]
        values = append_row(self.ws, values)  # user text as text cells, never a formula
        self.count += 1
        r = self.count
        for i, v in enumerate(values):
            if v is None:
                continue
            if isinstance(v, datetime):
                self.ws.cell(r, i + 1).number_format = DATETIME_FORMAT
                length = 16
            elif isinstance(v, date):
                self.ws.cell(r, i + 1).number_format = DATE_FORMAT
                length = 10
            else:
                length = len(str(v))
            if i >= len(self.widths):
                self.widths.append(0)
            self.widths[i] = max(self.widths[i], length)

    def finish(self):
        for i, w in enumerate(self.widths, start=1):
            self.ws.column_dimensions[get_column_letter(i)].width = min(max(w + 2, 6), 80)


NOT_SENT = (
    "Não enviado: arquivo gerado antes de o envio à federação ser registrado (art. 11); o arquivo enviado traz a "
    "data do envio."
)


def _sent(exported, tz):
    """The date the workbook was recorded as sent, or says that this file was made before (issue 26, point 19)."""
    return _local_naive(exported, tz) if exported is not None else NOT_SENT


def homologation_workbook(tournament, report=None, exported_at=None) -> Workbook:
    """Build the workbook (nothing is written to the database), in Portuguese whatever the active language."""
    with translation.override("pt-br"):
        return _workbook(tournament, report, exported_at)


def _workbook(tournament, report, exported_at):
    if report is None:
        report = homologation_check(tournament)
    st = report.standings
    tz = tournament.time_zone
    wb = Workbook()
    micro = tournament.is_micro_match
    ids = {e.pk: n for n, e in st.entries.items()}

    # Evento.
    ev = _Sheet(wb, "Evento", ["Campo", "Valor"], first=True)
    exported = exported_at or report.exported_at
    rows = [
        ("Torneio", tournament.name),
        ("Endereço (slug)", tournament.slug),
        ("Cidade", tournament.city),
        ("UF", tournament.state),
        ("Local", tournament.venue),
        ("Árbitro principal", tournament.chief_arbiter),
        ("Data de início", tournament.start_date),
        ("Data de término", tournament.end_date),
        ("Modalidade", tournament.get_variant_display()),
        ("Formato", tournament.get_format_display()),
        ("Rodadas previstas", tournament.planned_rounds),
        ("Rodadas completas", st.rounds_completed),
        ("Minutos por jogador por partida", tournament.minutes_per_game),
        ("Pontos por vitória", tournament.score_win),
        ("Pontos por empate", tournament.score_draw),
        ("Pontos por derrota", tournament.score_loss),
        (
            "Bye (emparceiramento) vale",
            f"{tournament.bye_points} ponto(s) por partida"
            if tournament.bye_points is not None
            else "vitória"
            if tournament.bye_value == "win"
            else "empate",
        ),
        ("Ausência comunicada vale", "empate" if tournament.absence_value == "draw" else "zero"),
        ("Acelerador", tournament.get_acceleration_display()),
        (
            "Desempate",
            "Perfil CBJD"
            if custom_tiebreaks(tournament) is None
            else ", ".join(tiebreak_label(k) for k in custom_tiebreaks(tournament) or ()),
        ),
        ("Tabela de aberturas", tournament.opening_table.code if tournament.opening_table_id else "livre"),
        ("Motor de emparceiramento", report.engine),
        ("Lista de rating usada (art. 4)", rating_list_text(tournament)),
        ("Inscritos", len(st.entries)),
        ("Participantes (art. 6)", len(st.participation)),
        ("Quem conta como participante (art. 6)", tournament.get_participant_rule_display()),
        ("Mínimo de participantes (art. 6)", tournament.min_participants),
        ("Empate na última vaga (art. 6, 13)", tournament.get_spot_tie_rule_display()),
        ("Condição do programa de emparceiramento (art. 5)", tournament.get_pairing_program_rule_display()),
        ("Exceções a) e c) do art. 6", tournament.get_progressive_move_display()),
        ("Exceção c) do art. 6", tournament.get_top3_order_display()),
        ("Prazo para envio dos resultados (art. 6, 11)", report.deadline),
        ("Situação do prazo", report.deadline_detail),
        ("Exportado em", _sent(exported, tz)),
    ]
    for reading in regulation_readings(tournament):
        rows.append(("Leitura do regulamento", reading))
    for key, value in rows:
        ev.row([key, value])
    ev.finish()

    # Condições.
    co = _Sheet(wb, "Condições", ["Condição", "Chave", "Artigo", "Cumprida", "Detalhe", "Texto do regulamento"])
    for c in report.conditions:
        co.row([c.label or c.key, c.key, c.article, "Sim" if c.met else "Não", c.detail, c.quote])
    co.row([])
    co.row(
        [
            "Direito a vagas",
            "rights",
            "art. 6",
            "Sim" if report.rights else "Não",
            "Decidido pelas sete primeiras condições; o envio no prazo é julgado pela CBJD.",
        ]
    )
    co.row(["Prazo para envio dos resultados", "deadline_date", "art. 6, 11", report.deadline, report.deadline_detail])
    co.row(["Exportado em", "exported_at", "art. 11", _sent(exported, tz), ""])
    co.finish()

    # Participantes.
    pa = _Sheet(
        wb,
        "Participantes",
        [
            "Nº",
            "ID CBJD",
            "Nome",
            "Sexo",
            "Nascimento",
            "UF",
            "Clube",
            "Rating",
            "Rating FMJD",
            "Título",
            "Categorias",
            "Situação",
            "Observação",
            "Participante (art. 6)",
        ],
    )
    part = st.participation
    for pid in sorted(st.entries):
        e = st.entries[pid]
        p = e.player
        situation = "ativo"
        if e.withdrawn_from_round:
            situation = f"desistente a partir da rodada {e.withdrawn_from_round}"
            if e.withdrawal_kind:
                situation += f" ({_WITHDRAWAL.get(e.withdrawal_kind, e.withdrawal_kind)})"
        elif e.late_entry_round:
            situation = f"entrada na rodada {e.late_entry_round}"
        notes = []
        if e.rating is None:
            notes.append(f"sem rating (provisório {tournament.provisional_rating})")
        if e.declared_adult and p.birth_date is None:
            notes.append("declarado com 21 anos ou mais")
        if e.rating_kept_reason:
            notes.append(f"rating da inscrição mantido pelo diretor: {e.rating_kept_reason}")
        if pid in part.played:
            participant = "sim"
        elif pid in part.to_play:
            participant = "ainda a jogar"
        else:
            participant = "não (não jogou nenhuma partida)"
        pa.row(
            [
                pid,
                p.cbjd_id,
                p.name,
                p.sex,
                p.birth_date,
                p.state,
                p.club,
                e.rating,
                e.fmjd_rating,
                p.title,
                ", ".join(c.code for c in e.categories.all()),
                situation,
                "; ".join(notes),
                participant,
            ]
        )
    pa.finish()

    # Rodadas: every round, drafts included.
    if micro:
        header = [
            "Rodada",
            "Situação",
            "Mesa",
            "Nº 1º (brancas no jogo 1)",
            "1º jogador",
            "Nº 2º (brancas no jogo 2)",
            "2º jogador",
            "Abertura",
            "Jogo 1 (1º de brancas; placar do lado do 1º)",
            "Jogo 2 (2º de brancas; placar do lado do 1º)",
        ]
    else:
        header = ["Rodada", "Situação", "Mesa", "Nº brancas", "Brancas", "Nº pretas", "Pretas", "Abertura", "Resultado"]
    header += ["Pontos 1º", "Pontos 2º", "Placar", "Observação"]
    ro = _Sheet(wb, "Rodadas", header)
    all_rounds = report.all_rounds
    announced = defaultdict(dict)
    for entry_id, n, value in Absence.objects.filter(entry__tournament=tournament).values_list(
        "entry_id", "round_number", "value"
    ):
        announced[n][entry_id] = value
    games_n = tournament.games_per_round
    scoring = scoring_of(tournament)
    for rnd in all_rounds:
        status = _STATUS.get(rnd.status, rnd.status)
        seated: set[int] = set()
        for board in rnd.boards.all():
            first, second = board_pair(board)
            if first is None or second is None:
                continue
            seated.update((first.pk, second.pk))
            results = {g.number: g.result for g in board.games.all()}
            codes = [results.get(n) for n in range(1, games_n + 1)]
            shown = [entry_label(n, results.get(n), micro) or None for n in range(1, games_n + 1)]
            complete = all(c is not None for c in codes)
            p1, p2 = board_points(results, scoring)
            if not complete:
                note = "resultado pendente"
            elif not is_played(results):
                note = "W.O. duplo" if all(c == "-/-" for c in codes) else "W.O."
            elif any(c in FORFEITS for c in codes):
                note = "partida(s) por W.O."
            else:
                note = ""
            opening = board.opening or rnd.opening
            ro.row(
                [
                    rnd.number,
                    status,
                    board.number,
                    ids.get(first.pk),
                    first.player.name,
                    ids.get(second.pk),
                    second.player.name,
                    opening.code if opening else None,
                    *shown,
                    p1 if complete else None,
                    p2 if complete else None,
                    f"{number(p1)}-{number(p2)}" if complete else None,
                    note,
                ]
            )
        for seat in rnd.bye_seats:
            seated.add(seat.entry_id)
            ro.row(
                [
                    rnd.number,
                    status,
                    None,
                    ids.get(seat.entry_id),
                    seat.entry.player.name,
                    None,
                    "BYE",
                    None,
                    *([None] * games_n),
                    bye_points(tournament),
                    None,
                    None,
                    "bye (emparceiramento)",
                ]
            )
        for pid in sorted(st.entries):
            e = st.entries[pid]
            if e.pk in seated:
                continue
            if e.late_entry_round and rnd.number < e.late_entry_round:
                note, pts = "ainda não inscrito (entrada tardia)", 0
            elif e.withdrawn_from_round and rnd.number >= e.withdrawn_from_round:
                note, pts = "desistente", 0
            elif e.pk in announced[rnd.number]:
                note, pts = "ausência comunicada", absence_points(tournament, announced[rnd.number][e.pk])
            else:
                note, pts = "ausente (não emparceirado)", 0
            ro.row(
                [
                    rnd.number,
                    status,
                    None,
                    pid,
                    e.player.name,
                    None,
                    None,
                    None,
                    *([None] * games_n),
                    pts,
                    None,
                    None,
                    note,
                ]
            )
    ro.finish()

    # Classificação.
    columns = st.columns()
    cl = _Sheet(
        wb,
        "Classificação",
        [
            "Lugar",
            "Lugar dividido",
            "Nº",
            "Nome",
            "Rating",
            "Categorias",
            "Pontos",
            *(tiebreak_label(k) for k in columns),
            "Ordem de desempate usada",
            "Motivo da ordem",
            "Situação",
        ],
    )
    for row in st.rows:
        e = st.entries[row.id]
        cl.row(
            [
                *place_cells(row.rank),
                row.id,
                row.name,
                e.rating,
                ", ".join(c.code for c in e.categories.all()),
                row.points,
                *st.cells(row),
                ", ".join(tiebreak_label(k) for k in row.order),
                order_reason_text(row.order_reasons) or ("ordem normal" if len(row.order) else ""),
                f"desistente a partir da rodada {row.withdrawn_from}" if row.withdrawn_from else "",
            ]
        )
    cl.finish()

    # Desempenho.
    perf = performances(st.data)
    de = _Sheet(
        wb,
        "Desempenho",
        [
            "Nº",
            "Nome",
            "Rating",
            "Partidas contra adversários com rating",
            "Pontos nessas partidas",
            "Percentual",
            "Rating médio desses adversários",
            "Performance",
        ],
    )
    for row in st.rows:
        p = perf[row.id]
        de.row(
            [
                row.id,
                row.name,
                st.entries[row.id].rating,
                p.games,
                p.score,
                round(float(p.percentage), 4) if p.percentage is not None else None,
                p.average_rating,
                p.performance,
            ]
        )
    de.finish()

    # Vagas.
    va = _Sheet(
        wb,
        "Vagas",
        [
            "Categoria",
            "Nome",
            "Participantes",
            "Ratings considerados",
            "Média",
            "Vagas",
            "Direito a vagas",
            "Classificados",
            "Observação",
        ],
    )

    def name_of(pid):
        return f"{st.entries[pid].player.name} (nº {pid})"

    for cat in st.categories:
        q = cat.qualification
        names = "; ".join(f"{i}. {name_of(pid)}" for i, pid in enumerate(q.qualified, 1))
        notes = [q.note] if q.note else []
        notes += [spot_note_text(n, name_of, tiebreak_label) for n in q.notes]
        va.row(
            [
                cat.code,
                cat.category.name,
                q.entries,
                q.counted,
                as_shown(q.exact_average),
                q.spots,
                "Sim" if report.rights else "Não",
                names,
                " ".join(notes),
            ]
        )
    va.row([])
    va.row(["Categoria", "Vaga", "Nº", "Nome", "Lugar na categoria", "Lugar dividido", "Rating"])
    for cat in st.categories:
        rank = {c.row.id: c.rank for c in cat.rows}
        for i, pid in enumerate(cat.qualification.qualified, 1):
            va.row([cat.code, i, pid, st.entries[pid].player.name, *place_cells(rank.get(pid)), st.entries[pid].rating])
    va.finish()
    for ws in wb.worksheets:
        ws.sheet_view.zoomScale = 100
    return wb


def _xlsx_bytes(wb):
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def homologation_xlsx(tournament) -> bytes:
    """The workbook as bytes (nothing is written: the export time it shows is the one already recorded)."""
    return _xlsx_bytes(homologation_workbook(tournament))


def export_homologation(tournament, path, user=None):
    """Write the workbook to ``path`` (through a temporary file) and record it as sent to the federation.

    The sending is recorded only once the results are complete, and only the first time (a file written before
    says that it was not sent, a later one carries the first sending's date); it is recorded only if the file is
    written, and the file is left only if it is recorded.
    """
    with transaction.atomic():
        when = homologation_mark_exported(tournament=tournament, user=user) if results_complete(tournament) else None
        write_atomically(path, _xlsx_bytes(homologation_workbook(tournament, exported_at=when)))
    return Path(path)


__all__ = ["SHEETS", "export_homologation", "homologation_workbook", "homologation_xlsx"]
