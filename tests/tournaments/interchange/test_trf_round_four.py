"""Real files, round four (issue 38): absences a TRF announces for the round to pair (JaVaFo's ``XXZ``, and the
other programs' round-to-pair cells), every warning shown with what changes points first, the reading that follows
the declared points, byes written ``0000 - `` that the declared points settle, birth dates ``1975.  .``, and a
round in progress that contradicts itself left out on request. Each file is written here, in its program's
layout (``round_four_files``)."""

import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from pairing import trffile
from tests.tournaments.interchange.round_four_files import both_white, javafo, rating_system, round_to_pair_column
from tests.tournaments.interchange.test_trf_real_files import app_pairs, engine_pairs, same_tournament
from tournaments.interchange import (
    ImportOptions,
    InterchangeError,
    Upload,
    export_trf,
    import_trf_with_warnings,
    import_upload,
    notices,
)
from tournaments.models import Absence, Tournament
from tournaments.models.choices import SeatSide
from tournaments.standings import tournament_standings

pytestmark = pytest.mark.django_db


def absences(t):
    return sorted(
        Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number", "value")
    )


def points_of(t):
    st = tournament_standings(t, public=False, rights=False)
    return {row.id: Decimal(str(row.points)) for row in st.rows}


def paired_players(boards, bye):
    return {x for b in boards for x in b} | ({bye} - {None})


# -------------------------------------------------------------------------------------------- 38.1 absences
def test_javafo_xxz_players_are_absent_from_the_round_to_pair(director):
    text = javafo()
    t, warnings = import_trf_with_warnings(text, user=director)
    assert absences(t) == [(4, 3, "zero"), (9, 1, "zero"), (9, 2, "zero"), (9, 3, "zero")]
    assert (
        "linha 13: XXZ (JaVaFo): os jogadores 4 e 9 não jogam a rodada 3: ausências anunciadas, valendo zero, como o "
        "“ausente” que o diretor marca; o emparceiramento dessa rodada não os inclui" in warnings
    )
    assert not any("ignorada" in w and "XXZ" in w for w in warnings)
    boards, bye = app_pairs(t, director)
    # 7 players: 3 boards and the bye; neither 4 nor 9 (absent all along) is paired, as the engine pairs the file
    assert len(boards) == 3 and bye is not None
    assert paired_players(boards, bye) == {1, 2, 3, 5, 6, 7, 8}
    assert (boards, bye) == engine_pairs(text)


def test_the_engine_reads_xxz_and_writes_it_back():
    doc = trffile.parse(javafo())
    assert doc.absent_next == [(13, 4), (13, 9)] and doc.warnings == []
    assert "XXZ 4 9\n" in trffile.write(doc)
    with pytest.raises(trffile.InvalidTrf, match="jogador 'x' inválido em XXZ"):
        trffile.parse(javafo(xxz="XXZ 4 x"))


def test_an_xxz_player_that_does_not_exist_is_refused_naming_the_line():
    with pytest.raises(InterchangeError, match="TRF, linha 13: XXZ com jogador inexistente 12"):
        import_trf_with_warnings(javafo(xxz="XXZ 4 12"))


def test_the_export_of_an_xxz_import_reads_back_as_the_same_tournament(director):
    t, _w = import_trf_with_warnings(javafo(), user=director)
    exported = export_trf(t)
    assert engine_pairs(exported) == engine_pairs(javafo())
    again, _w = import_trf_with_warnings(exported)
    assert same_tournament(t, again)


@pytest.mark.parametrize(
    "cell,value",
    [
        ("0000 - Z", "zero"),  # bbpPairings, JaVaFo: a zero-point bye requested in advance
        ("0000 - H", "draw"),  # a half-point bye requested in advance
        ("0000 -", "zero"),  # Swiss-Manager: the blank result cut off at the end of the line
        ("0000 H", "draw"),  # the bye's letter where the colour goes, the result blank
        ("0000 Z", "zero"),
    ],
)
def test_the_round_to_pair_column_says_the_same_as_xxz(cell, value, director):
    text = round_to_pair_column(cell)
    t, _w = import_trf_with_warnings(text, user=director)
    assert (4, 3, value) in absences(t)
    boards, bye = app_pairs(t, director)
    assert 4 not in paired_players(boards, bye) and 9 not in paired_players(boards, bye)
    assert (boards, bye) == engine_pairs(text)


# --------------------------------------------------------------------------------- 38.2 warnings that matter
def test_every_warning_is_kept_what_changes_points_first(director):
    text = rating_system(extra_births=44)
    _t, warnings = import_trf_with_warnings(text, user=director)
    births = [w for w in warnings if "data de nascimento" in w]
    assert len(births) == 44 and not any(w.startswith("e mais") for w in warnings)
    points = [w for w in warnings if notices.consequence_of(w) == notices.POINTS]
    # the declared points that differ (player 6) come first, before the 44 birth dates, and say how it was decided
    assert warnings[: len(points)] == points
    assert "linha 13: o jogador 6 declara 1.5 pontos, mas os resultados somam 1.0; vale a soma dos resultados" in points
    assert any("seguir os pontos declarados" in w and "--follow-declared-points" in w for w in points)
    order = [notices.consequence_of(w) for w in warnings]
    assert order == sorted(order)


def test_following_the_declared_points(director):
    text = rating_system()
    t, _w = import_trf_with_warnings(text, user=director)
    assert points_of(t)[6] == Decimal("1.0")
    t2, warnings = import_trf_with_warnings(text, user=director, follow_declared=True)
    assert points_of(t2)[6] == Decimal("1.5")
    entry = t2.entries.get(pairing_number=6)
    assert entry.points_adjustment == Decimal("0.5") and "pontos declarados no arquivo (1.5)" in (
        entry.points_adjustment_reason
    )
    assert (
        "linha 13: o jogador 6 declara 1.5 pontos, mas os resultados somam 1.0; valem os pontos declarados (“seguir os "
        "pontos declarados”): +0.5 como pontos fora das partidas" in warnings
    )
    # written back (a 299 line) and read again with the same points
    again, _w = import_trf_with_warnings(export_trf(t2))
    assert points_of(again) == points_of(t2)


def test_the_command_prints_every_warning_grouped_and_takes_the_option(tmp_path):
    path = tmp_path / "estadual.trf"
    path.write_bytes(rating_system(extra_births=44).encode("latin-1"))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), stdout=out, stderr=err)
    lines = err.getvalue().splitlines()
    assert lines[0] == "4 avisos que mudam pontos:"
    assert (
        all(x.startswith("aviso: ") for x in lines[1:5])
        and lines[5] == "44 avisos que mudam direitos (categorias, vagas):"
    )
    assert sum(1 for x in lines if x.startswith("aviso: ")) == 48
    assert "44 avisos que mudam direitos (categorias, vagas):" in lines
    assert not any("e mais" in x for x in lines)
    out2, err2 = io.StringIO(), io.StringIO()
    call_command(
        "import_tournament", str(path), "--follow-declared-points", "--slug", "copia", stdout=out2, stderr=err2
    )
    assert out2.getvalue().strip() == "copia"
    assert points_of(Tournament.objects.get(slug="copia"))[6] == Decimal("1.5")


def test_the_page_folds_every_warning_by_consequence_and_offers_the_option(client, director):
    client.force_login(director)
    form = client.get(reverse("staff:tournament_import")).content.decode()
    assert 'name="follow_declared_points"' in form and 'name="leave_out_round_in_progress"' in form
    upload = SimpleUploadedFile("estadual.trf", rating_system(extra_births=44).encode("latin-1"))
    page = client.post(reverse("staff:tournament_import"), {"file": upload}, follow=True).content.decode()
    points_at = page.index("avisos que mudam pontos")
    rights_at = page.index("44 avisos que mudam direitos")
    assert points_at < rights_at
    assert page.count('<details class="import-warnings"') == 2
    assert '<details class="import-warnings" data-consequence="0" open>' in page
    assert '<details class="import-warnings" data-consequence="2">' in page  # folded
    assert page.count("data de nascimento “31.02.1990”") == 44
    upload = SimpleUploadedFile("estadual.trf", rating_system().encode("latin-1"))
    client.post(reverse("staff:tournament_import"), {"file": upload, "follow_declared_points": "on", "slug": "seguido"})
    assert points_of(Tournament.objects.get(slug="seguido"))[6] == Decimal("1.5")


# --------------------------------------------------------------------------- 38.3 byes settled by the points
def test_byes_written_without_a_result_follow_the_declared_points(director):
    t, warnings = import_trf_with_warnings(rating_system(), user=director)
    byes = {r.number: r.seats.get(side=SeatSide.BYE).entry.pairing_number for r in t.rounds.order_by("number")}
    assert byes == {1: 7, 2: 4}
    pts = points_of(t)
    assert (pts[7], pts[4]) == (Decimal(2), Decimal(1))
    assert (
        "linha 14: a rodada 1 do jogador 7, sem adversário e sem resultado (“0000 - ”), valeria zero (não "
        "emparceirado), e os resultados somariam 1.0; o jogador declara 2.0 pontos, que só um bye explica: seguidos "
        "os pontos declarados (rodada 1: bye do emparceiramento (U))" in warnings
    )
    assert notices.consequence_of(warnings[0]) == notices.POINTS
    # half a game's points: a half-point bye, an absence worth a draw
    t2, warnings2 = import_trf_with_warnings(rating_system(points7="1.5"), user=director)
    assert t2.rounds.get(number=1).seats.filter(side=SeatSide.BYE).count() == 0
    assert (7, 1, "draw") in absences(t2) and points_of(t2)[7] == Decimal("1.5")
    # declared points that no bye explains leave the round as it was: not paired, zero
    t3, warnings3 = import_trf_with_warnings(rating_system(points7="2.5"), user=director)
    assert t3.rounds.get(number=1).seats.filter(side=SeatSide.BYE).count() == 0 and points_of(t3)[7] == 1
    assert "linha 14: o jogador 7 declara 2.5 pontos, mas os resultados somam 1.0; vale a soma dos resultados" in (
        warnings3
    )


# ------------------------------------------------------------------------------------------ 38.4 birth years
def test_a_birth_date_with_its_month_and_day_blank_keeps_the_year(director):
    t, warnings = import_trf_with_warnings(rating_system(), user=director)
    born = {e.pairing_number: (e.player.birth_date, e.player.birth_year) for e in t.entries.select_related("player")}
    assert born[1] == (None, 1975) and born[7] == (None, 2012)
    assert not any("data de nascimento" in w for w in warnings)
    from tournaments.categories.services import category_preset

    category, _n = category_preset(tournament=t, user=director, code="VET")
    assert sorted(category.entries.values_list("pairing_number", flat=True)) == [6]  # born 1959


# ------------------------------------------------------------------------------- 38.6 a round that contradicts
def test_a_round_in_progress_that_contradicts_itself_is_refused_with_the_offer():
    with pytest.raises(InterchangeError) as exc:
        import_trf_with_warnings(both_white())
    first = exc.value.messages[0]
    assert first.startswith("TRF, linha 14, rodada 3: 1 e 4 com a mesma cor; a rodada 3 está em andamento")
    assert "“deixar de fora a rodada em andamento”" in first and "--leave-out-round-in-progress" in first


def test_leaving_the_round_in_progress_out(director, tmp_path):
    text = both_white()
    t, warnings = import_trf_with_warnings(text, user=director, leave_out_in_progress=True)
    assert list(t.rounds.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert absences(t) == [(3, 4, "draw"), (6, 3, "draw"), (8, 4, "zero")]
    assert any("a rodada 3, em andamento, ficou de fora, como pedido" in w for w in warnings)
    # the round is paired again here as the engine pairs the file (which re-pairs the round in progress)
    assert app_pairs(t, director) == engine_pairs(text)
    path = tmp_path / "campina.trf"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(CommandError, match="--leave-out-round-in-progress"):
        call_command("import_tournament", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    out = io.StringIO()
    call_command(
        "import_tournament", str(path), "--leave-out-round-in-progress", "--slug", "sem-r3", stdout=out,
        stderr=io.StringIO(),
    )  # fmt: skip
    assert Tournament.objects.get(slug="sem-r3").rounds.count() == 2
    imported = import_upload(
        Upload(text.encode("latin-1"), "g.trf"), options=ImportOptions(leave_out_round_in_progress=True, slug="g2")
    )
    assert imported.tournament.rounds.count() == 2


def test_birth_date_check_keeps_date(director):
    """A full date still reads as a date (the year-alone reading takes only blank or zero months and days)."""
    assert trffile.parse_date("1975.03.") == (None, None, False)
    assert trffile.parse_date("1975.03.02") == (date(1975, 3, 2), 1975, True)
