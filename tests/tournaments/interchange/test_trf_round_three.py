"""TRFs written in the middle of an event, imported by the app (issue 27): a round paired whose results are not in
comes in as a published round for the director to enter, absences of later rounds kept; round dates one 132 line
per round; 299 lines counted in the standings and written back; TRF-2026 162 symbols; no round count."""

import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.tournaments.interchange.round_three_files import in_progress
from tournaments.interchange import (
    ImportOptions,
    InterchangeError,
    Upload,
    export_trf,
    import_trf_with_warnings,
    import_upload,
)
from tournaments.models import Absence, Tournament
from tournaments.models.choices import RoundStatus, SeatSide

pytestmark = pytest.mark.django_db


def boards_of(rnd):
    out = []
    for b in rnd.boards.order_by("number").prefetch_related("seats__entry", "games"):
        seats = {s.side: s.entry.pairing_number for s in b.seats.all()}
        out.append((b.number, seats[SeatSide.FIRST], seats[SeatSide.SECOND], [g.result for g in b.games.all()]))
    return out


def test_round_paired_without_results_is_published_for_the_director(director):
    t, warnings = import_trf_with_warnings(in_progress().encode("latin-1"), user=director)
    assert t.planned_rounds == 5
    assert [r.status for r in t.rounds.order_by("number")] == [RoundStatus.PUBLISHED] * 3
    r3 = t.rounds.get(number=3)
    assert boards_of(r3) == [(1, 1, 4, [None]), (2, 7, 2, [None]), (3, 8, 3, [None])]
    assert r3.seats.get(side=SeatSide.BYE).entry.pairing_number == 5
    absences = sorted(
        Absence.objects.filter(entry__tournament=t).values_list("round_number", "entry__pairing_number", "value")
    )
    assert absences == [(3, 6, "draw"), (4, 3, "draw"), (4, 8, "zero")]
    assert (
        "TRF: a rodada 3 está emparceirada sem resultados; importada como publicada, para o diretor lançar os "
        "resultados" in warnings
    )
    # round dates written one 132 line per round are all kept, and written back on one line
    assert t.trf_header["132"] == ["26/03/14", "26/03/14", "26/03/15"]
    assert "132" + " " * 88 + "26/03/14  26/03/14  26/03/15\n" in export_trf(t)


def test_round_partly_entered_keeps_the_results_it_has(director):
    t, warnings = import_trf_with_warnings(in_progress(results3={1: "1", 4: "0"}))
    assert boards_of(t.rounds.get(number=3)) == [(1, 1, 4, ["1-0"]), (2, 7, 2, [None]), (3, 8, 3, [None])]
    t2, warnings2 = import_trf_with_warnings(in_progress(results3={1: "1"}))
    assert boards_of(t2.rounds.get(number=3))[0] == (1, 1, 4, [None])
    assert (
        "linha 14, rodada 3: resultado “1” só na linha do jogador 1 (em branco na do adversário); a mesa fica sem "
        "resultado para o diretor lançar" in warnings2
    )


def test_paired_with_someone_whose_line_says_otherwise_is_refused_naming_both():
    text = in_progress().replace("   5 w 1     2 w", "   5 w 1  0000 - H")
    with pytest.raises(InterchangeError) as exc:
        import_trf_with_warnings(text)
    # the round in progress is the only one wrong: the refusal offers to leave it out (issue 38.6)
    assert exc.value.messages == [
        "TRF, linha 15, rodada 3: o jogador 2 está emparceirado com 7, mas a linha de 7 mostra ninguém nessa rodada; "
        "a rodada 3 está em andamento (sem todos os resultados) e é a única com erro: para importar as rodadas 1 e 2 "
        "e deixar a rodada 3 de fora, importe de novo marcando “deixar de fora a rodada em andamento” (manage.py "
        "import_tournament --leave-out-round-in-progress)"
    ]


NO_COUNT = "TRF sem número de rodadas (linha XXR ou 142)"


def test_no_round_count_asks_for_it(director, tmp_path):
    text = in_progress(rounds_line=None)
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(text.encode("latin-1"), "campina.trf"))
    assert exc.value.messages == [
        f"{NO_COUNT}: informe quantas rodadas o torneio terá (campo “número de rodadas” da página de importação, ou a opção "
        "--rounds do manage.py import_tournament)"
    ]
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(text.encode("latin-1"), "campina.trf"), options=ImportOptions(rounds=2))
    assert exc.value.messages == [f"{NO_COUNT}: o número informado (2) é menor que as 4 rodadas que o arquivo já tem"]
    imported = import_upload(Upload(text.encode("latin-1"), "campina.trf"), options=ImportOptions(rounds=7))
    assert imported.tournament.planned_rounds == 7
    assert f"{NO_COUNT}: o torneio fica com 7 rodadas, como informado na importação" in imported.warnings
    # the command line's --rounds
    path = tmp_path / "campina.trf"
    path.write_bytes(text.encode("latin-1"))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), "--rounds", "6", stdout=out, stderr=err)
    slug = out.getvalue().strip()
    assert Tournament.objects.get(slug=slug).planned_rounds == 6
    assert f"aviso: {NO_COUNT}: o torneio fica com 6 rodadas, como informado na importação" in err.getvalue()
    with pytest.raises(CommandError, match="informe quantas rodadas o torneio terá"):
        call_command("import_tournament", str(path), stdout=out, stderr=err)
    # an entry list (no round played) is asked for its rounds too; a file with its count keeps it
    entries = "\r\n".join(x[:89].rstrip() if x.startswith("001") else x for x in text.split("\r\n"))
    with pytest.raises(InterchangeError, match="informe quantas rodadas"):
        import_upload(Upload(entries.encode("latin-1"), "inscritos.trf"))
    imported = import_upload(Upload(in_progress().encode("latin-1"), "c.trf"), options=ImportOptions(rounds=9))
    assert imported.tournament.planned_rounds == 5
    assert "TRF: o arquivo diz 5 rodadas; o número informado (9) não foi usado" in imported.warnings


def test_finished_file_without_round_count_is_taken_as_finished_and_said():
    text = in_progress(rounds_line=None, results3={1: "1", 4: "0", 2: "=", 7: "=", 3: "0", 8: "1"})
    text = text.replace("  0000 - H\r\n", "\r\n").replace("  0000 - Z\r\n", "\r\n")
    t, warnings = import_trf_with_warnings(text)
    assert t.planned_rounds == 3
    assert (
        f"{NO_COUNT}: o torneio fica com as 3 rodadas do arquivo, como encerrado; se ele continua, importe de novo "
        "informando o número de rodadas" in warnings
    )


def test_upload_page_asks_for_the_rounds(client, director):
    client.force_login(director)
    text = in_progress(rounds_line=None).encode("latin-1")
    page = client.get(reverse("staff:tournament_import"))
    assert "número de rodadas" in page.content.decode()
    r = client.post(reverse("staff:tournament_import"), {"file": SimpleUploadedFile("campina.trf", text)})
    assert r.status_code == 200
    assert "informe quantas rodadas o torneio terá" in r.content.decode()
    r = client.post(
        reverse("staff:tournament_import"), {"file": SimpleUploadedFile("campina.trf", text), "rounds": "7"}
    )
    t = Tournament.objects.get(name="Aberto de Campina Grande")
    assert r.status_code == 302 and r.url == reverse("staff:tournament", kwargs={"slug": t.slug})
    assert t.planned_rounds == 7


def test_no_stand_in_end_date_when_the_start_date_is_unknown():
    text = in_progress().replace("042 2026/03/14\r\n", "").replace("052 2026/03/15\r\n", "")
    t, warnings = import_trf_with_warnings(text)
    assert t.start_date_unknown and (t.start_date, t.end_date) == (date(2026, 3, 14), date(2026, 3, 14))
    exported = export_trf(t)
    assert "\n042 " not in exported and "\n052 " not in exported
    # an end date the file gives is written back as written; once the director gives the start, the dates are theirs
    t2, _w = import_trf_with_warnings(in_progress().replace("042 2026/03/14\r\n", ""))
    assert (t2.start_date, t2.end_date) == (date(2026, 3, 14), date(2026, 3, 15))
    exported = export_trf(t2)
    assert "\n052 2026/03/15\n" in exported and "\n042 " not in exported
    Tournament.objects.filter(pk=t2.pk).update(start_date_unknown=False, end_date=date(2026, 3, 16))
    t2.refresh_from_db()
    exported = export_trf(t2)
    assert "\n042 2026/03/14\n" in exported and "\n052 2026/03/16\n" in exported


@pytest.mark.parametrize(
    "name,slug",
    [
        ("Πανελλήνιο Ατομικό Πρωτάθλημα Ντάμας 2024", "panellinio-atomiko-protathlima-ntamas-2024"),
        ("Чемпионат России по русским шашкам 2024", "chempionat-rossii-po-russkim-shashkam-2024"),
        ("2024", "2024"),
        ("«…»", "torneio-trf"),
    ],
)
def test_greek_and_cyrillic_names_get_a_readable_address(name, slug):
    text = in_progress().replace("012 Aberto de Campina Grande", f"012 {name}")
    t, _w = import_trf_with_warnings(text.encode("utf-8"))
    assert (t.name, t.slug) == (name, slug)
    again, _w = import_trf_with_warnings(text.encode("utf-8"))
    assert again.slug == f"{slug}-2"


def test_299_lines_count_in_the_standings_and_are_written_back(director):
    """A penalty of one point to 4 (round 2), a half-point bonus to 7 (every round), and 2's draw of round 2 worth
    nothing (``299 D ... 0.0 002``): in the standings, the points columns, and the file written back."""
    from tournaments.standings import tournament_standings

    lines = [
        "299          -1.0  002    4",
        "299           0.5  000    7",
        "299 D         0.0  002    2",
    ]
    text = in_progress().replace("### Swiss-Manager", "\r\n".join(lines) + "\r\n### Swiss-Manager")
    # the points columns say what the file counts: 4 has 2.0 - 1.0, 7 1.5 + 0.5, 2 1.5 - 0.5
    for name, before, after in (
        ("Dantas, Rui", "2.0", "1.0"),
        ("Gouveia, Rita", "1.5", "2.0"),
        ("Bezerra, Caio", "1.5", "1.0"),
    ):
        text = _points_column(text, name, before, after)
    t, warnings = import_trf_with_warnings(text, user=director)
    assert not any("declara" in w for w in warnings), warnings
    entries = {e.pairing_number: e for e in t.entries.all()}
    assert {n: e.points_adjustment for n, e in entries.items() if e.points_adjustment} == {
        2: Decimal("-0.5"),
        4: Decimal("-1.0"),
        7: Decimal("0.5"),
    }
    assert entries[4].points_adjustment_reason == "TRF linha 13 (299): penalidade de 1.0 ponto (rodada 2)"
    assert entries[7].points_adjustment_reason == "TRF linha 14 (299): bônus de 0.5 ponto (todas as rodadas)"
    assert entries[2].points_adjustment_reason == "TRF linha 15 (299): empate valendo 0.0 (rodada 2)"
    st = tournament_standings(t, public=False, rights=False)
    points = {row.id: row.points for row in st.rows}
    assert points == {
        1: Decimal("1.5"),
        2: Decimal("1.0"),
        3: Decimal("0.5"),
        4: Decimal("1.0"),
        5: Decimal("0"),
        6: Decimal("0"),
        7: Decimal("2.0"),
        8: Decimal("1.0"),
    }
    exported = export_trf(t)
    assert "299          -1.0  002    4\n" in exported
    assert "299           0.5  000    7\n" in exported
    assert "299 D         0.0  002    2\n" in exported
    again, _w = import_trf_with_warnings(exported)
    assert {e.pairing_number: e.points_adjustment for e in again.entries.all() if e.points_adjustment} == {
        2: Decimal("-0.5"),
        4: Decimal("-1.0"),
        7: Decimal("0.5"),
    }


def _points_column(text, name, before, after):
    at = text.index(name)
    start = text.rindex("\n", 0, at) + 1
    line = text[start : text.index("\r", at)]
    assert line[80:84] == f"{before:>4}", line
    return text.replace(line, line[:80] + f"{after:>4}" + line[84:])
