"""Issue 35.1: the bye's and the announced absence's values as readings of the regulation's edition. The text says
nothing of them and leaves omitted cases to each stage's organiser (art. 13): the shipped editions say so, and a
stage's own value applies, frozen at round 1. An edition the federation publishes may fix one: a stage's value is
then the edition's on every path (page, admin, service, shell), and an imported stage whose file scored its rounds
with another keeps the file's scores and fails the ``unplayed_values`` condition, at the venue and at the
federation alike."""

from datetime import date

import pytest
from django.urls import reverse

from tests.tournaments.interchange.test_trf_accept import points_of, three_points_for_a_win
from tournaments.core.errors import ServiceError
from tournaments.entries.services import entry_register
from tournaments.federation.verification import Registry, RegistryPlayer, verify
from tournaments.homologation.report import homologation_check
from tournaments.interchange import export_data, import_trf_with_warnings
from tournaments.rounds.services import round_pair
from tournaments.setup.services import tournament_update
from tournaments.standings.readings import regulation_readings

ORGANISER_BYE = "BYE do emparceiramento vale: vitória — decidido pela organização da etapa antes da rodada 1 (art. 13)."


def stage_of(make_tournament, make_player, director, players=9):
    t = make_tournament()
    for i in range(players):
        entry_register(tournament=t, player=make_player(name=f"Jogador {i}", rating=2000 - i), user=director)
    return t


def test_under_the_shipped_edition_the_organiser_sets_the_bye_and_the_page_says_so(
    client, director, make_tournament, make_player
):
    t = stage_of(make_tournament, make_player, director)
    tournament_update(tournament=t, user=director, bye_value="draw", absence_value="draw")
    t.refresh_from_db()
    assert (t.bye_value, t.absence_value) == ("draw", "draw")
    readings = regulation_readings(t)
    assert (
        "BYE do emparceiramento vale: empate — decidido pela organização da etapa antes da rodada 1 (art. 13)."
        in readings
    )
    assert "Ausência comunicada vale: empate — decidido pela organização da etapa antes da rodada 1 (art. 13)." in (
        readings
    )
    client.force_login(director)
    form = client.get(reverse("staff:settings", args=[t.slug])).context["form"]
    assert not form.fields["bye_value"].disabled and not form.fields["absence_value"].disabled
    report = homologation_check(t)
    assert "unplayed_values" not in {c.key for c in report.conditions}  # no condition: nothing fixed


def test_an_edition_fixing_the_bye_at_a_draw_sets_it_on_every_path(
    client, admin_client, director, make_tournament, make_player, edition_with
):
    edition_with(bye_value="draw")
    t = stage_of(make_tournament, make_player, director)
    assert (t.edition_code, t.bye_value, t.absence_value) == ("teste-1", "draw", "zero")
    # the settings page shows it fixed and never takes it
    client.force_login(director)
    url = reverse("staff:settings", args=[t.slug])
    form = client.get(url).context["form"]
    assert form.fields["bye_value"].disabled and not form.fields["absence_value"].disabled
    assert form.fields["bye_value"].help_text == (
        "BYE do emparceiramento vale: empate — fixado pela edição “teste-1” (art. 13)."
    )
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data.update(bye_value="win", absence_value="draw", opening_table="")
    client.post(url, data)
    t.refresh_from_db()
    assert (t.bye_value, t.absence_value) == ("draw", "draw")  # the organiser's absence, the edition's bye
    # the service refuses it plainly
    with pytest.raises(ServiceError, match="teste-1.: valor do BYE do emparceiramento não pode ser definido"):
        tournament_update(tournament=t, user=director, bye_value="win")
    # the admin shows it read only
    html = admin_client.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert 'name="bye_value"' not in html and 'name="bye_points"' not in html and 'name="absence_value"' in html
    # the shell: the edition's value wins on save, an imported point system's own bye points with it
    t.bye_value, t.bye_points = "win", 3
    t.save()
    t.refresh_from_db()
    assert (t.bye_value, t.bye_points) == ("draw", None)
    assert "BYE do emparceiramento vale: empate — fixado pela edição “teste-1” (art. 13)." in regulation_readings(t)


def test_a_stage_played_here_under_the_fixed_bye_meets_the_condition(
    director, make_tournament, make_player, edition_with
):
    edition_with(bye_value="draw")
    t = stage_of(make_tournament, make_player, director)  # 9 players: a bye in round 1
    round_pair(tournament=t, user=director, publish=True)
    report = homologation_check(t)
    condition = report.condition("unplayed_values")
    assert condition.met and condition.decides_rights
    assert condition.detail == (
        "A edição “teste-1” fixa o BYE do emparceiramento em empate (2 pontos). Toda rodada sem jogo foi pontuada "
        "assim."
    )
    assert (condition.article, condition.quote) == (
        "art. 13",
        "Todos os casos omissos serão resolvidos pela Comissão Organizadora de cada Circuito Nacional.",
    )
    assert report.snapshot.rounds[0].byes and report.settings.bye_round_points == 2  # a draw of the micro-match


def test_an_imported_file_that_scored_the_bye_otherwise_keeps_its_scores_and_fails_at_the_venue_and_the_federation(
    client, director, edition_with
):
    edition = edition_with(bye_value="draw")
    # win 3, draw 1, the bye worth 3 (a win): Davi's bye in round 1, Edu's in round 2
    t, _warnings = import_trf_with_warnings(three_points_for_a_win("BBU  3.0", worth=3), user=director)
    assert (t.edition_code, t.bye_value, t.bye_points) == ("teste-1", "win", None)
    assert (points_of(t)[4], points_of(t)[5]) == ("4", "3")  # the file's scores, kept
    expected = (
        "Não atendido: o BYE do emparceiramento valeu 3 pontos (rodada 1: Davi; rodada 2: Edu); a edição “teste-1” "
        "fixa empate (a pontuação do evento mantém esses valores)."
    )
    condition = homologation_check(t).condition("unplayed_values")
    assert not condition.met
    assert condition.detail == ("A edição “teste-1” fixa o BYE do emparceiramento em empate (1 ponto). " + expected)
    readings = regulation_readings(t)
    assert (
        "BYE do emparceiramento vale: vitória — fixado pela edição “teste-1” (art. 13). Este evento importado mantém "
        "o valor com que o arquivo pontuou as rodadas; a edição fixa empate (ver o relatório de homologação)."
    ) in readings
    # the homologation page and the public standings say it, with the condition, its article and its words
    client.force_login(director)
    page = client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    assert "Valores das rodadas sem jogo" in page and "valeu 3 pontos (rodada 1: Davi; rodada 2: Edu)" in page
    assert "Todos os casos omissos serão resolvidos pela Comissão Organizadora" in page
    public = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    assert "BYE do emparceiramento vale: vitória — fixado pela edição “teste-1” (art. 13)." in public
    # a later save keeps the file's value (the report names it); the federation finds the same from the file
    t.save()
    t.refresh_from_db()
    assert t.bye_value == "win"
    data = export_data(t)
    result = verify(data, registry_of_trf(data), editions=[edition])
    finding = next(f for f in result.findings if f.code == "unplayed_values")
    assert finding.blocking and finding.article == "art. 13" and expected in finding.message
    assert not result.rights
    # under the shipped edition (the organiser's) the same file has no such finding
    assert "unplayed_values" not in [f.code for f in verify(data, registry_of_trf(data)).findings]


def registry_of_trf(data):
    """The federation's registry knowing the TRF's players (their IDs, ratings and no birth date: adults)."""
    players = {}
    for p in data["players"]:
        p["cbjd_id"] = f"PE-{p['id']:04d}"
        players[p["cbjd_id"]] = RegistryPlayer(p["cbjd_id"], p["name"], p.get("rating"), "M", None)
    return Registry(date(2026, 1, 1), "lista.csv", players)


def test_an_imported_file_without_byes_takes_the_editions_value(director, edition_with):
    edition_with(bye_value="draw", absence_value="draw")
    text = three_points_for_a_win("BBU  3.0", worth=3).replace("0000 - U", "0000 - Z")
    t, _warnings = import_trf_with_warnings(text, user=director)
    assert (t.bye_value, t.absence_value) == ("draw", "draw")  # no round scored a bye or a plain absence


def test_an_imported_absence_worth_a_draw_under_an_edition_fixing_zero_is_named(director, edition_with):
    edition_with(absence_value="zero")
    # Davi's round 1 is a half-point bye (H): an absence announced, worth a draw (1 point at W 3, D 1)
    text = three_points_for_a_win("BBU  3.0", worth=3).replace("0000 - U     2 b =", "0000 - H     2 b =")
    t, _warnings = import_trf_with_warnings(text, user=director)
    assert points_of(t)[4] == "2"  # the file's draw, kept
    condition = homologation_check(t).condition("unplayed_values")
    assert not condition.met
    assert condition.detail == (
        "A edição “teste-1” fixa a ausência comunicada em zero (0 pontos). Não atendido: uma ausência comunicada "
        "valeu 1 ponto (rodada 1: Davi); a edição “teste-1” fixa zero (a pontuação do evento mantém esses valores)."
    )


def test_the_federations_verify_event_judges_by_the_editions_it_published(director, edition_with, tmp_path, capsys):
    """verify_event (and the server's verification) read the editions the federation published, not only the
    shipped ones: a file whose bye was worth a win under an edition fixing a draw is blocked there too."""
    import json

    from django.core.management import call_command

    edition_with(bye_value="draw")
    t, _warnings = import_trf_with_warnings(three_points_for_a_win("BBU  3.0", worth=3), user=director)
    path = tmp_path / "etapa.json"
    path.write_text(json.dumps(export_data(t)), encoding="utf-8")
    call_command("verify_event", str(path), "--format", "json")
    out = json.loads(capsys.readouterr().out)
    finding = next(f for f in out["findings"] if f["code"] == "unplayed_values")
    assert finding["article"] == "art. 13" and "a edição “teste-1” fixa empate" in finding["message"]
    assert out["rights"] is False


def test_a_swiss_perfect_bye_worth_a_win_under_an_edition_fixing_a_draw_is_named(edition_with):
    from tests.tournaments.interchange.test_sp_spaces import SPACED
    from tournaments.interchange import Upload, import_upload

    edition_with(bye_value="draw")
    t = import_upload(Upload(SPACED, "Aberto de Garanhuns.txt")).tournament  # Lima's round 2 is 0:W
    assert (t.edition_code, t.bye_value) == ("teste-1", "win")
    condition = homologation_check(t).condition("unplayed_values")
    assert not condition.met
    assert "o BYE do emparceiramento valeu 1 ponto (rodada 2: Lima, Bruno); a edição “teste-1” fixa empate" in (
        condition.detail
    )
