"""The homologation workbook (XLSX, docs/domain.md section 7), written with openpyxl.

Sheets: ``Evento`` (the event and its settings), ``Condições`` (each homologation condition met or not, with
the reason, the rights and the deadline), ``Participantes``, ``Rodadas`` (every board of every round, byes,
forfeits, absences), ``Classificação`` (final standings with the tiebreaks in their order and the order used
per tie group), ``Desempenho`` (games against rated opponents, score in them, their average rating,
performance rating) and ``Vagas`` (spots per category: average, ratings counted, qualified players).

Dates are date cells, numbers are number cells, a percentage a fraction shown as one (``0.0%``), text is text
(never a formula: names and every other string go through ``safetext.append_row``), header rows are frozen and
columns sized to their content (a long text wraps). Every sheet prints on A4, fitted to the page's width, its
header row repeated on each page, sideways when it is wide; the page's header says the event and the state.

The state is said honestly (issue 28, point 7): the file downloaded before the sending is recorded is the one a
director may e-mail, so its first sheet's first line says "Estado: rascunho — ainda não registrado como enviado"
(or "Enviado em dd/mm/aaaa" once recorded), and so does the header of every printed page. The document's title
and author (``workbook.properties``) name the event and its chief arbiter.

Read, compute, present: the workbook is a pure function of the homologation report
(:func:`tournaments.homologation.report.homologation_check`: the tournament's snapshot read once, the standings,
the conditions and the spots computed from it), one function per sheet. Every point a sheet shows comes from the
standings' own rules (``tournaments.domain.snapshot``: ``board_records``, ``off_board``), so "Rodadas" and
"Classificação" cannot disagree.

Public entry points: :func:`homologation_workbook` (build, no write), :func:`homologation_xlsx` (bytes, no write:
the staff page downloads it with a GET and records the export with a separate POST) and
:func:`export_homologation` (the command: to a file path, atomically, recording the export time).
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone, translation
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from tournaments.core.agreement import plural
from tournaments.core.files import write_atomically
from tournaments.core.labels import tiebreak_label
from tournaments.core.safetext import append_row
from tournaments.domain import performances
from tournaments.domain.snapshot import OffBoard, SnapRound, SnapSettings, Snapshot, board_records, off_board
from tournaments.homologation.changes import change_lines
from tournaments.homologation.conditions import rating_list_text
from tournaments.homologation.report import HomologationReport, homologation_check
from tournaments.homologation.services import homologation_mark_exported, results_complete
from tournaments.models.choices import (
    Acceleration,
    PairingProgramRule,
    ParticipantRule,
    ProgressiveMove,
    RoundFormat,
    SpotTieRule,
    Top3Order,
    Variant,
)
from tournaments.rounds.scoring import FORFEITS, entry_label, is_played
from tournaments.standings.compute import number
from tournaments.standings.ratings import by_number, snapshot_estimates
from tournaments.standings.readings import order_reason_text, regulation_readings, spot_note_text, unplayed_source

if TYPE_CHECKING:
    from tournaments.audit.services import Actor
    from tournaments.models import Tournament

DATE_FORMAT = "DD/MM/YYYY"
DATETIME_FORMAT = "DD/MM/YYYY HH:MM"
PERCENT_FORMAT = "0.0%"
HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE4EE")
DRAFT_FILL = PatternFill("solid", fgColor="FFF2CC")
SENT_FILL = PatternFill("solid", fgColor="E2EFDA")
WRAP_AT = 50  # a column whose text is longer wraps at this width (characters)
LINE_HEIGHT = 15  # points: a line of the default font (Calibri 11), as a spreadsheet draws a row
# characters of ordinary text in a column per unit of its width (a unit is one "0" of the default font; words and
# spaces are narrower): about 60 fit in the 50 of a wrapped column; 1.15 errs on the side of a line to spare
CHARS_PER_WIDTH = 1.15
LANDSCAPE_FROM = 120  # a sheet whose columns add up to more than this many characters prints sideways
SHEETS = ("Evento", "Condições", "Participantes", "Rodadas", "Classificação", "Desempenho", "Vagas")
_WITHDRAWAL = {"approved": "aprovada pelo árbitro", "abandonment": "abandono"}
_STATUS = {"published": "publicada", "draft": "rascunho"}


def _local_naive(dt: datetime | None, tz_name: str) -> datetime | None:
    if dt is None:
        return None
    return timezone.localtime(dt, ZoneInfo(tz_name)).replace(tzinfo=None)


def place_cells(rank: object) -> tuple[int | None, str | None]:
    """A place as the standings show it ("3", or "3-4" when shared) -> (the place as a number, the shared range
    said in words or None): a spreadsheet sorts and filters the first column, a reader sees the tie."""
    if rank is None:
        return None, None
    first, _sep, last = str(rank).partition("-")
    if not last:
        return int(first), None
    return int(first), f"{first}º a {last}º (dividido)"


def as_shown(value: int | Decimal | Fraction | None) -> object:
    """A rounded figure as the pages show it (``fmt_number``: two decimals, half to even), as a number."""
    if value is None:
        return None
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return number(Decimal(value).quantize(Decimal("0.01")))


_FORMAT_WIDTH = {DATETIME_FORMAT: 16, DATE_FORMAT: 10, PERCENT_FORMAT: 6}


def _number_format(value: object) -> str | None:
    if isinstance(value, datetime):
        return DATETIME_FORMAT
    if isinstance(value, date):
        return DATE_FORMAT
    return None


def _header_width(text: object) -> int:
    """A header wraps between its words: its column needs its longest word."""
    return max((len(word) for word in str(text).split()), default=0)


class _Sheet:
    """A worksheet with a header row: tracks column widths and formats dates and percentages."""

    def __init__(self, wb: Workbook, title: str, header: Sequence[Any], first: bool = False) -> None:
        ws = wb.active if first else wb.create_sheet()
        assert isinstance(ws, Worksheet)  # a new workbook's active sheet is a worksheet
        self.ws: Worksheet = ws
        self.ws.title = title
        self.widths: list[int] = []
        self.count = 0
        self.header_rows: list[int] = []
        self.header(header)
        self.ws.freeze_panes = "A2"

    def header(self, values: Sequence[Any]) -> None:
        """A header row (the first one, or one inside the sheet): bold, filled, wrapping between its words."""
        self.row(values, header=True)
        self.header_rows.append(self.count)
        for cell in self.ws[self.count]:
            cell.font = HEADER_FONT
            cell.fill = HEADER_FILL
            cell.alignment = Alignment(vertical="center", wrap_text=True)

    def row(self, values: Sequence[Any], formats: dict[int, str] | None = None, header: bool = False) -> None:
        """Append a row; ``formats``: {column index: number format} (a percentage is a fraction, 0.5 = 50%)."""
        values = [v if v is None or isinstance(v, (str, date, datetime)) else number(v) for v in values]
        values = append_row(self.ws, values)  # user text as text cells, never a formula
        self.count += 1
        for i, v in enumerate(values):
            if v is None:
                continue
            fmt = (formats or {}).get(i) or _number_format(v)
            if fmt:
                self.ws.cell(self.count, i + 1).number_format = fmt
            length = _header_width(v) if header else _FORMAT_WIDTH.get(fmt or "", len(str(v)))
            if i >= len(self.widths):
                self.widths.append(0)
            self.widths[i] = max(self.widths[i], length)

    def finish(self) -> None:
        wrapped = []
        for i, w in enumerate(self.widths, start=1):
            self.ws.column_dimensions[get_column_letter(i)].width = min(max(w + 2, 6), WRAP_AT)
            if w + 2 > WRAP_AT:
                wrapped.append(i)
        for i in wrapped:  # a long text wraps inside its column rather than widening the printed page
            for (cell,) in self.ws.iter_rows(min_row=2, min_col=i, max_col=i):
                cell.alignment = Alignment(vertical="top", wrap_text=True)
        self.row_heights(wrapped)
        total = sum(min(max(w + 2, 6), WRAP_AT) for w in self.widths)
        print_setup(self.ws, landscape=total > LANDSCAPE_FROM)

    def row_heights(self, wrapped: list[int]) -> None:
        """A row whose text wraps is as tall as its lines, its cells aligned at the top. The height is written in
        the file: LibreOffice keeps a row one line tall whatever wraps in it (so the wrapped lines printed over the
        rows below), and Excel only fits the rows of a file it wrote itself."""
        ws = self.ws
        for r in range(1, self.count + 1):
            header = r in self.header_rows
            lines = 1
            for i in range(1, len(self.widths) + 1) if header else wrapped:
                value = ws.cell(r, i).value
                if isinstance(value, str) and value:
                    width = ws.column_dimensions[get_column_letter(i)].width * (1.0 if header else CHARS_PER_WIDTH)
                    lines = max(lines, len(textwrap.wrap(value, max(int(width) - 1, 1), break_on_hyphens=False)))
            if lines > 1:
                ws.row_dimensions[r].height = LINE_HEIGHT * lines
                for cell in ws[r]:
                    align = cell.alignment
                    cell.alignment = Alignment(horizontal=align.horizontal, vertical="top", wrap_text=align.wrap_text)


def _header_footer_text(text: str) -> str:
    """Text for a printed page's header or footer: "&" is its code character."""
    return text.replace("&", "&&")[:120]


def print_setup(ws: Worksheet, *, landscape: bool) -> None:
    """A4, fitted to the page's width (as many pages tall as it needs), the header row repeated on every page,
    sideways when the sheet is wide; the sheet's name and the page number in the footer."""
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = ws.ORIENTATION_LANDSCAPE if landscape else ws.ORIENTATION_PORTRAIT
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_title_rows = "1:1"
    ws.print_options.gridLines = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.8  # inches: room for the header and footer lines
    ws.page_margins.header = ws.page_margins.footer = 0.3
    footer = ws.oddFooter
    assert footer is not None  # openpyxl makes every sheet's header and footer
    footer.left.text = _header_footer_text(ws.title)
    footer.right.text = "Página &P de &N"


NOT_SENT = (
    "Não enviado: arquivo gerado antes de o envio à federação ser registrado (art. 11); o arquivo enviado traz a "
    "data do envio."
)
DRAFT_STATE = "rascunho — ainda não registrado como enviado à federação"


def _sent(exported: datetime | None, tz: str) -> datetime | str | None:
    """The date the workbook was recorded as sent, or says that this file was made before (issue 26, point 19)."""
    return _local_naive(exported, tz) if exported is not None else NOT_SENT


def state_text(exported: datetime | None, tz: str) -> str:
    """The workbook's state, as its first line says it: a draft until the sending is recorded, then its date
    (issue 28, point 7)."""
    if exported is None:
        return DRAFT_STATE
    return f"enviado em {_local_naive(exported, tz):%d/%m/%Y}"


def document_properties(wb: Workbook, settings: SnapSettings, exported: datetime | None) -> None:
    """The document's title, subject, author (the chief arbiter, else the program), and its state said in the
    description and on the printed pages' header."""
    state = state_text(exported, settings.time_zone)
    props = wb.properties
    props.title = f"Homologação — {settings.name}"
    props.subject = "Relatório de homologação de etapa (CBJD)"
    props.creator = settings.chief_arbiter or "damas-swiss"
    props.lastModifiedBy = "damas-swiss"
    props.keywords = "homologação, CBJD, damas, sistema suíço"
    props.description = f"Estado: {state}"
    props.language = "pt-BR"
    header = _header_footer_text(f"{settings.name} — Estado: {state}")
    for ws in wb.worksheets:
        assert isinstance(ws, Worksheet) and ws.oddHeader is not None  # openpyxl makes every sheet's header
        ws.oddHeader.center.text = header


def homologation_workbook(
    tournament: Tournament, report: HomologationReport | None = None, exported_at: datetime | None = None
) -> Workbook:
    """Build the workbook (nothing is written to the database), in Portuguese whatever the active language.
    ``report``: the homologation report (read when not given); ``tournament`` gives the words of the regulation's
    readings in force (``regulation_readings``) on the "Evento" sheet."""
    with translation.override("pt-br"):
        if report is None:
            report = homologation_check(tournament)
        wb = Workbook()
        exported = exported_at or report.exported_at
        event_sheet(wb, report, exported, regulation_readings(tournament))
        conditions_sheet(wb, report, exported)
        participants_sheet(wb, report)
        rounds_sheet(wb, report)
        standings_sheet(wb, report)
        performance_sheet(wb, report)
        spots_sheet(wb, report)
        document_properties(wb, report.settings, exported)
        for ws in wb.worksheets:
            ws.sheet_view.zoomScale = 100
        return wb


def _bye_text(settings: SnapSettings) -> str:
    if settings.bye_points is not None:
        return f"{settings.bye_points} {plural(settings.bye_points, 'ponto', 'pontos')} por partida"
    return "vitória" if settings.bye_value == "win" else "empate"


def _opening_table_text(settings: SnapSettings) -> str:
    """The opening table (tablita) by its name, its code beside it; or free openings."""
    if not settings.opening_table:
        return "nenhuma (aberturas livres)"
    if settings.opening_table_name and settings.opening_table_name != settings.opening_table:
        return f"{settings.opening_table_name} (código {settings.opening_table})"
    return settings.opening_table


def event_sheet(wb: Workbook, report: HomologationReport, exported: datetime | None, readings: list[str]) -> None:
    """Evento: the event and its settings."""
    s, st = report.settings, report.standings
    ev = _Sheet(wb, "Evento", ["Campo", "Valor"], first=True)
    ev.row(["Estado", state_text(exported, s.time_zone)])
    for cell in ev.ws[ev.count]:
        cell.font = HEADER_FONT
        cell.fill = DRAFT_FILL if exported is None else SENT_FILL
    rows = [
        ("Arquivo gerado em", _local_naive(timezone.now(), s.time_zone)),
        ("Torneio", s.name),
        ("Endereço (slug)", s.slug),
        ("Cidade", s.city),
        ("UF", s.state),
        ("Local", s.venue),
        ("Árbitro principal", s.chief_arbiter),
        ("Data de início", s.start_date),
        ("Data de término", s.end_date),
        ("Modalidade", Variant(s.variant).label),
        ("Formato", RoundFormat(s.format).label),
        ("Rodadas previstas", s.planned_rounds),
        ("Rodadas completas", st.rounds_completed),
        ("Minutos por jogador por partida", s.minutes_per_game),
        ("Pontos por vitória", s.score_win),
        ("Pontos por empate", s.score_draw),
        ("Pontos por derrota", s.score_loss),
        ("Bye (emparceiramento) vale", f"{_bye_text(s)} — {unplayed_source(s.edition, s.circuit_stage, 'bye_value')}"),
        (
            "Ausência comunicada vale",
            f"{'empate' if s.absence_value == 'draw' else 'zero'} — "
            + unplayed_source(s.edition, s.circuit_stage, "absence_value"),
        ),
        ("Acelerador", Acceleration(s.acceleration).label),
        (
            "Desempate",
            "Perfil CBJD" if s.tiebreak_profile == "cbjd" else ", ".join(tiebreak_label(k) for k in s.tiebreak_keys),
        ),
        ("Tabela de aberturas (tablita)", _opening_table_text(s)),
        ("Motor de emparceiramento", report.engine),
        ("Lista de rating usada (art. 4)", rating_list_text(s)),
        ("Inscritos", len(st.entries)),
        ("Participantes (art. 6)", len(st.participation)),
        ("Quem conta como participante (art. 6)", ParticipantRule(s.participant_rule).label),
        ("Mínimo de participantes (art. 6)", s.min_participants),
        ("Empate na última vaga (art. 6, 13)", SpotTieRule(s.spot_tie_rule).label),
        ("Condição do programa de emparceiramento (art. 5)", PairingProgramRule(s.pairing_program_rule).label),
        ("Exceções a) e c) do art. 6", ProgressiveMove(s.progressive_move).label),
        ("Exceção c) do art. 6", Top3Order(s.top3_order).label),
        ("Prazo para envio dos resultados (art. 6, 11)", report.deadline),
        ("Situação do prazo", report.deadline_detail),
        ("Exportado em", _sent(exported, s.time_zone)),
    ]
    # the settings that decide the homologation changed after round 1 (the verdict judges them as before)
    rows += [("Alteração depois da 1ª rodada", line) for line in change_lines(report.settings_changes, s.time_zone)]
    # the rounds changed after they were published (issue 35.4: their fingerprints no longer match)
    rows += [("Rodada alterada depois de publicada", line) for line in report.chain_lines]
    rows += [("Leitura do regulamento", reading) for reading in readings]
    for key, value in rows:
        ev.row([key, value])
    ev.finish()


def _rights_note(report: HomologationReport) -> str:
    """How the rights are decided, and a late sending said beside them: the federation judges it (art. 11)."""
    note = "Decidido pelas sete primeiras condições; o envio no prazo é julgado pela CBJD."
    late = report.deadline_late
    if late:
        note += f" O envio tem {late} {'dia' if late == 1 else 'dias'} de atraso: a CBJD julga o atraso."
    return note


def conditions_sheet(wb: Workbook, report: HomologationReport, exported: datetime | None) -> None:
    """Condições: each homologation condition met or not, with the reason; the rights and the deadline."""
    co = _Sheet(wb, "Condições", ["Condição", "Artigo", "Cumprida", "Detalhe", "Texto do regulamento"])
    for c in report.conditions:
        co.row([c.label or c.key, c.article, "Sim" if c.met else "Não", c.detail, c.quote])
    co.row([])
    co.row(["Direito a vagas", "art. 6", "Sim" if report.rights else "Não", _rights_note(report)])
    co.row(["Prazo para envio dos resultados", "art. 6, 11", report.deadline, report.deadline_detail])
    sent = _sent(exported, report.settings.time_zone)  # a date, or the sentence that says it is not sent yet
    co.row(["Exportado em", "art. 11", *((sent, "") if exported is not None else ("Não", sent))])
    co.finish()


PARTICIPANTS_HEADER = [
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
]


def participants_sheet(wb: Workbook, report: HomologationReport) -> None:
    """Participantes: every entry, its situation and whether it is a participant (art. 6)."""
    st, settings = report.standings, report.settings
    pa = _Sheet(wb, "Participantes", PARTICIPANTS_HEADER)
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
            notes.append(f"sem rating (provisório {settings.provisional_rating})")
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
                ", ".join(e.categories),
                situation,
                "; ".join(notes),
                participant,
            ]
        )
    pa.finish()


# Why an entry was on no board (``domain.snapshot.OffBoard``), as the "Rodadas" sheet says it.
OFF_BOARD_NOTE = {
    OffBoard.LATE: "ainda não inscrito (entrada tardia)",
    OffBoard.WITHDRAWN: "desistente",
    OffBoard.ANNOUNCED: "ausência comunicada",
    OffBoard.NOT_PAIRED: "ausente (não emparceirado)",
}
# A one-sided round's TRF character, in words.
ONE_SIDED_NOTE = {
    "1": "vitória",
    "=": "empate",
    "0": "derrota",
    "+": "vitória por W.O.",
    "-": "derrota por W.O.",
    "U": "bye",
}


def rounds_header(micro: bool) -> list[str]:
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
    return header + ["Pontos 1º", "Pontos 2º", "Placar", "Observação"]


def rounds_sheet(wb: Workbook, report: HomologationReport) -> None:
    """Rodadas: every round, drafts included: its boards, its bye, and every entry on no board with why and what
    the round gave it (the standings' own rule: ``off_board``), a round an imported file kept for one player
    alone included."""
    snapshot = report.snapshot
    ro = _Sheet(wb, "Rodadas", rounds_header(snapshot.settings.games_per_round == 2))
    for rnd in snapshot.rounds:
        status = _STATUS.get(rnd.status, rnd.status)
        for values in _board_rows(snapshot, rnd):
            ro.row([rnd.number, status, *values])
        for values in _bye_rows(snapshot, rnd):
            ro.row([rnd.number, status, *values])
        for values in _off_board_rows(snapshot, rnd):
            ro.row([rnd.number, status, *values])
    ro.finish()


def _board_note(codes: Sequence[str | None]) -> str:
    if any(c is None for c in codes):
        return "resultado pendente"
    results = dict(enumerate(codes, start=1))
    if not is_played(results):
        return "W.O. duplo" if all(c == "-/-" for c in codes) else "W.O."
    if any(c in FORFEITS for c in codes):
        return "partidas por W.O." if sum(c in FORFEITS for c in codes) > 1 else "partida por W.O."
    return ""


def _board_rows(snapshot: Snapshot, rnd: SnapRound) -> Iterator[list[Any]]:
    """The round's boards: the two entries, the opening, each game from the first's side, each side's points (the
    standings' ``board_records``) once every result is in."""
    settings = snapshot.settings
    micro, games_n = settings.games_per_round == 2, settings.games_per_round
    by_pk = snapshot.by_pk()
    numbers = {pk: e.number for pk, e in by_pk.items()}
    for board in rnd.boards:
        if board.first is None or board.second is None:
            continue
        first, second = by_pk[board.first], by_pk[board.second]
        results = board.results
        shown = [entry_label(n, results.get(n), micro) or None for n in range(1, games_n + 1)]
        p1 = p2 = score = None
        if board.complete:
            r1, r2 = board_records(board, numbers, settings.scoring)
            p1, p2, score = r1.points, r2.points, f"{number(r1.points)}-{number(r2.points)}"
        opening = board.opening or rnd.opening
        yield [
            board.number,
            first.number,
            first.player.name,
            second.number,
            second.player.name,
            opening.code if opening else None,
            *shown,
            p1,
            p2,
            score,
            _board_note([results.get(n) for n in range(1, games_n + 1)]),
        ]


def _bye_rows(snapshot: Snapshot, rnd: SnapRound) -> Iterator[list[Any]]:
    settings = snapshot.settings
    by_pk = snapshot.by_pk()
    for pk in rnd.byes:
        entry = by_pk[pk]
        no_games = [None] * settings.games_per_round
        pts = settings.bye_round_points
        yield [None, entry.number, entry.player.name, None, "BYE", None, *no_games, pts, None, None, _BYE_NOTE]


_BYE_NOTE = "bye (emparceiramento)"


def _off_board_rows(snapshot: Snapshot, rnd: SnapRound) -> Iterator[list[Any]]:
    """Every entry on no board and not on the bye, by number: why (``off_board``) and the points the round gave
    it, the opponent a one-sided round's line names."""
    seated = rnd.seated()
    lone = {o.entry: o for o in rnd.one_sided}
    by_number = snapshot.by_number()
    no_games = [None] * snapshot.settings.games_per_round
    for entry in sorted(snapshot.entries, key=lambda e: e.number):
        if entry.pk in seated:
            continue
        reason, record = off_board(snapshot, rnd, entry)
        opponent_number = opponent_name = None
        if reason is OffBoard.ONE_SIDED:
            item = lone[entry.pk]
            note = f"registrado só na linha deste jogador no arquivo importado: {ONE_SIDED_NOTE[item.result]}"
            opponent = by_number.get(item.opponent) if item.opponent is not None else None
            opponent_number = item.opponent
            opponent_name = opponent.player.name if opponent is not None else "BYE" if item.result == "U" else None
        else:
            note = OFF_BOARD_NOTE[reason]
        name = entry.player.name
        yield [
            None,
            entry.number,
            name,
            opponent_number,
            opponent_name,
            None,
            *no_games,
            record.points,
            None,
            None,
            note,
        ]


def standings_sheet(wb: Workbook, report: HomologationReport) -> None:
    """Classificação: the final standings with the tiebreaks in their order and the order used per tie group."""
    st = report.standings
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
                ", ".join(e.categories),
                row.points,
                *st.cells(row),
                ", ".join(tiebreak_label(k) for k in row.order),
                order_reason_text(row.order_reasons) or ("ordem normal" if len(row.order) else ""),
                f"desistente a partir da rodada {row.withdrawn_from}" if row.withdrawn_from else "",
            ]
        )
    cl.finish()


def performance_sheet(wb: Workbook, report: HomologationReport) -> None:
    """Desempenho: games against rated opponents, score in them, their average rating, performance rating, and the
    rating estimate (expected score, change; issue 40.2)."""
    st = report.standings
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
            "Rating esperado (pontos)",
            "Rtg +/- (estimativa)",
        ],
    )
    change = by_number(report.snapshot, snapshot_estimates(report.snapshot))  # issue 40.2: the edition's method
    for row in st.rows:
        p = perf[row.id]
        rtg = change[row.id]
        de.row(
            [
                row.id,
                row.name,
                st.entries[row.id].rating,
                p.games,
                p.score,
                float(p.percentage) if p.percentage is not None else None,  # a fraction shown as a percentage
                p.average_rating,
                p.performance,
                round(rtg.expected, 2) if rtg.rating is not None else None,
                rtg.change_shown if rtg.rating is not None else None,
            ],
            formats={5: PERCENT_FORMAT},
        )
    de.finish()


def spots_sheet(wb: Workbook, report: HomologationReport) -> None:
    """Vagas: the spots per category (average, ratings counted, qualified players), then one line per spot."""
    st = report.standings
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
            "Sem rating na média (rating provisório)",
        ],
    )

    def name_of(pid: int) -> str:
        return f"{st.entries[pid].player.name} (nº {pid})"

    for cat in st.categories:
        q = cat.qualification
        names = "; ".join(f"{i}. {name_of(pid)}" for i, pid in enumerate(q.qualified, 1))
        notes = [q.note] if q.note else []
        if q.below_minimum:
            notes.append(
                f"Menos de {report.settings.spots_min_entries} inscritos: a categoria não tem vaga (configuração; pela "
                f"média seriam {q.spots_by_average})."
            )
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
                q.unrated,
            ]
        )
    va.row([])
    va.header(["Categoria", "Vaga", "Nº", "Nome", "Lugar na categoria", "Lugar dividido", "Rating"])
    for cat in st.categories:
        rank = {c.row.id: c.rank for c in cat.rows}
        for i, pid in enumerate(cat.qualification.qualified, 1):
            va.row([cat.code, i, pid, st.entries[pid].player.name, *place_cells(rank.get(pid)), st.entries[pid].rating])
    va.finish()


def _xlsx_bytes(wb: Workbook) -> bytes:
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def homologation_xlsx(tournament: Tournament) -> bytes:
    """The workbook as bytes (nothing is written: the export time it shows is the one already recorded)."""
    return _xlsx_bytes(homologation_workbook(tournament))


def export_homologation(tournament: Tournament, path: str | Path, user: Actor = None) -> Path:
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
