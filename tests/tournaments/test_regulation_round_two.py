"""Issue 26, "Regulation fidelity, round two": the homologation verdict cannot be bent after the fact, and every
reading is said. Through the services, the interchange file, the homologation report and the workbook. Each test
quotes the words of the regulation it enforces (seed 000, "REGULAMENTO ... CIRCUITO NACIONAL")."""

import json
from datetime import date, timedelta

import pytest
from django.utils import translation

from tests.tournaments.interchange.helpers import make_homologable, send_on_time
from tournaments.core.errors import ServiceError
from tournaments.homologation.report import homologation_check
from tournaments.interchange import import_data
from tournaments.interchange.jsonfile import export_data
from tournaments.interchange.synthetic import synthetic_tournament
from tournaments.models import AuditEntry, Round, SettingsChange, Tournament
from tournaments.setup.services import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


def event(players=30, rounds=7, slug="etapa", **changes):
    data = synthetic_tournament(players, rounds, seed=7, slug=slug)
    data["tournament"].update(changes)
    for p in data["players"]:
        p["rating"] += 150
    return data


def failing(report):
    return {c.key for c in report.conditions if not c.met}


# ------------------------------------------------------------------------------ point 1: the settings are locked
# Art. 6: "Todo Circuito Nacional que for realizado nas condições a seguir: Mínimo de 30 participantes. Mínimo de
# 7 rodadas de pelo menos 21 x 21 minutos ou 5 rodadas 30x30 minutos usando a Tablita em micro-match. ...
# Critérios de emparceiramento de acordo com o estipulado pela CBJD e somente serão aceitos o uso dos softs ‘48’ e
# Swiss Perfect." The event is judged as it "for realizado" (was held): not as its settings read afterwards.


def bent_event(edition_with):
    """25 players, 15 minutes, paired by Swiss-Manager under an edition reading art. 5 strictly: three conditions
    fail."""
    edition_with(pairing_program_rule="strict")
    t = import_data(event(25, minutes_per_game=15))
    make_homologable(t)
    Round.objects.filter(tournament=t).update(engine="Swiss-Manager")
    return t


def test_settings_that_decide_the_homologation_change_after_round_1_only_with_a_reason(director, edition_with):
    t = bent_event(edition_with)
    assert failing(homologation_check(t)) == {"participants", "rounds_and_time", "pairing_engine"}
    with pytest.raises(ServiceError) as refused:
        tournament_update(tournament=t, user=director, minutes_per_game=21)
    assert "motivo" in refused.value.messages[0] and "minutos por jogador por partida" in refused.value.messages[0]
    assert Tournament.objects.get(pk=t.pk).minutes_per_game == 15 and not SettingsChange.objects.exists()


def test_an_imported_change_needs_its_reason_and_a_known_setting():
    from tournaments.interchange.errors import InterchangeError

    data = event(30, slug="sem-motivo")
    data["settings_changes"] = [
        {"field": "minutes_per_game", "before": 15, "after": 21, "at": "2026-11-09T10:00:00-03:00", "by": "x"},
        {"field": "city_name", "before": 2, "after": 3, "at": "2026-11-09T10:00:00-03:00", "by": "x", "reason": "r"},
        {"field": "planned_rounds", "before": 7, "after": 5, "at": "ontem", "by": "x", "reason": "r"},
    ]
    with pytest.raises(InterchangeError) as refused:
        import_data(data)
    text = "\n".join(refused.value.messages)
    assert "item 1" in text and "motivo" in text
    assert "item 2" in text and "configuração desconhecida: 'city_name'" in text
    assert "item 3" in text and "data e hora inválida" in text
    assert not Tournament.objects.filter(slug="sem-motivo").exists()


def test_before_round_1_settings_change_freely(director):
    data = event(30, slug="antes")
    data["rounds"] = []
    t = import_data(data)
    tournament_update(tournament=t, user=director, minutes_per_game=30, planned_rounds=5)
    assert not SettingsChange.objects.exists()
    assert Tournament.objects.filter(pk=t.pk, minutes_per_game=30, planned_rounds=5).exists()


# ------------------------------------------------------------------------------ point 3: withdrawal in the last round
# Art. 10: "Não abandonar a competição antes do término desta, o que implicará em suspensão automática por 3 meses
# de todas as competições em todo o território nacional."


def test_an_abandonment_in_the_last_round_is_recorded_and_triggers_article_10(director):
    from tournaments.entries.services import entry_withdraw
    from tournaments.models import Entry, Suspension

    t = import_data(event(30, slug="abandono"))
    make_homologable(t)
    report = homologation_check(t)
    assert report.rights
    absoluto = next(c for c in report.standings.categories if c.category.code == "ABS")
    assert absoluto.qualification.spots == 2
    first, second = absoluto.qualification.qualified
    leaver = Entry.objects.select_related("player").get(
        tournament=t, player__name=report.standings.entries[first].player.name
    )
    suspension = entry_withdraw(entry=leaver, from_round=7, kind="abandonment", user=director, note="Saiu na 7ª")
    assert suspension is not None and suspension.start_date == t.end_date
    assert Entry.objects.get(pk=leaver.pk).withdrawn_from_round == 7
    assert Suspension.objects.filter(player=leaver.player, source="abandonment").count() == 1
    absoluto = next(
        c for c in homologation_check(Tournament.objects.get(pk=t.pk)).standings.categories if c.category.code == "ABS"
    )
    assert first not in absoluto.qualification.qualified
    assert absoluto.qualification.qualified[0] == second
    assert [n.code for n in absoluto.qualification.notes] == ["abandoned"]


# ------------------------------------------------------------------------------ point 16: exactly 3 months
# Art. 10: "suspensão automática por 3 meses".


def test_an_article_10_suspension_ends_on_its_end_day(director, make_tournament, make_player):
    from tournaments.entries.services import abandonment_suspend, entry_register

    t = make_tournament(start_date=date(2026, 11, 8), end_date=date(2026, 11, 8))
    player = make_player()
    entry = entry_register(tournament=t, player=player, user=director)
    suspension = abandonment_suspend(entry=entry, user=director)
    assert (suspension.start_date, suspension.end_date) == (date(2026, 11, 8), date(2027, 2, 8))
    on_the_day = make_tournament(start_date=date(2027, 2, 8), end_date=date(2027, 2, 8))
    assert entry_register(tournament=on_the_day, player=player, user=director).pk
    the_day_before = make_tournament(start_date=date(2027, 2, 7), end_date=date(2027, 2, 7))
    with pytest.raises(ServiceError):
        entry_register(tournament=the_day_before, player=player, user=director)


# ------------------------------------------------------------------------------ point 4: the sending
# Art. 11: "Enviar os resultados, rodada por rodada, no máximo em até 2 dias após a data do evento para
# homologação junto à CBJD".


def test_the_sending_is_recorded_only_once_the_results_are_complete_and_never_moved(director):
    from tournaments.homologation.services import homologation_mark_exported
    from tournaments.models import Game

    t = import_data(event(30, slug="envio"))
    game = Game.objects.filter(board__round__tournament=t, board__round__number=7).first()
    result = game.result
    Game.objects.filter(pk=game.pk).update(result=None)
    with pytest.raises(ServiceError) as refused:
        homologation_mark_exported(tournament=t, user=director)
    assert "resultados estão completos" in refused.value.messages[0]
    assert Tournament.objects.get(pk=t.pk).homologation_exported_at is None
    Game.objects.filter(pk=game.pk).update(result=result)
    first = homologation_mark_exported(tournament=t, user=director)
    again = homologation_mark_exported(tournament=t, user=director)
    assert again == first == Tournament.objects.get(pk=t.pk).homologation_exported_at
    assert AuditEntry.objects.filter(tournament=t, action="homologation.resend").count() == 1


# ------------------------------------------------------------------------------ point 2: imported files are checked
# Art. 4: "A primeira rodada tem que ser, obrigatoriamente, emparceirada utilizando-se o rating nacional
# atualizado." Art. 5: "Apenas serão aceitos emparceiramentos feitos pelos softs Swiss Perfect e “48”."


def engine_file(slug, shuffle_round1=False):
    from tournaments.rounds.pairing_bridge import ENGINE_NAME

    data = event(30, slug=slug)
    for r in data["rounds"]:
        r["engine"] = ENGINE_NAME
    if shuffle_round1:  # 1-2, 3-4, ...: the strongest meet each other in round 1 (the file stops there)
        data["rounds"] = data["rounds"][:1]
        boards = data["rounds"][0]["boards"]
        players = sorted(p for b in boards for p in (b["first"], b["second"]))
        for b, i in zip(boards, range(0, len(players), 2)):
            b["first"], b["second"] = players[i], players[i + 1]
    return data


# ------------------------------------------------------------------------------ point 5: a kept rating
# Art. 4: "A primeira rodada tem que ser, obrigatoriamente, emparceirada utilizando-se o rating nacional
# atualizado."


# ------------------------------------------------------------------------------ point 6: 100 squares
# Art. 2 and 6: "Mínimo de 7 rodadas de pelo menos 21 x 21 minutos ou 5 rodadas 30x30 minutos usando a Tablita
# em micro-match."


# ------------------------------------------------------------------------------ point 12: per game or per match
# Art. 2: "21 minutos x 21 minutos, ou 5 rodadas 30x30 minutos (para ambas as partidas)".


# ------------------------------------------------------------------------------ point 14: suspensions
# Art. 6: "Não tenha na lista de participantes um jogador que esteja cumprindo pena disciplinar imposta pela
# CBJD."


# ------------------------------------------------------------------------------ point 15: a withdrawal's kind
# Art. 10: "Não abandonar a competição antes do término desta, o que implicará em suspensão automática".


# ------------------------------------------------------------------------------ point 17: a year of birth
# Art. 12: "Enviar na relação de participantes todas as datas de nascimentos de todos os participantes menores de
# 21 anos."


# ------------------------------------------------------------------------------ point 19: the workbook and the sending
# Art. 11: "Enviar os resultados, rodada por rodada, no máximo em até 2 dias após a data do evento".


def test_a_workbook_made_before_the_sending_says_so_and_after_it_carries_the_date(director, tmp_path):
    from datetime import datetime

    from openpyxl import load_workbook

    from tournaments.homologation.workbook import export_homologation, homologation_workbook

    t = import_data(event(30, slug="planilha"))
    before = dict(homologation_workbook(t)["Evento"].iter_rows(min_row=2, values_only=True))
    assert before["Exportado em"].startswith("Não enviado: arquivo gerado antes de o envio")
    path = tmp_path / "h.xlsx"
    export_homologation(t, path, user=director)  # complete results: recorded as sent
    sent = Tournament.objects.get(pk=t.pk).homologation_exported_at
    event_sheet = dict(load_workbook(path)["Evento"].iter_rows(min_row=2, values_only=True))
    assert isinstance(event_sheet["Exportado em"], datetime)
    export_homologation(t, tmp_path / "again.xlsx", user=director)  # again: the date of the first sending stays
    assert Tournament.objects.get(pk=t.pk).homologation_exported_at == sent
    again = dict(load_workbook(tmp_path / "again.xlsx")["Evento"].iter_rows(min_row=2, values_only=True))
    assert again["Exportado em"] == event_sheet["Exportado em"]


def test_three_edits_after_the_event_do_not_turn_a_failing_event_into_rights(director, edition_with):
    t = bent_event(edition_with)
    tournament_update(tournament=t, user=director, minutes_per_game=21, reason="Tempo digitado errado")
    # the minimum and the art. 5 reading are the edition's: a stage cannot set them, with or without a reason
    # (issue 35.1; before, both changed with a reason and only the "as played" rule kept the verdict)
    for change in ({"min_participants": 20}, {"pairing_program_rule": "named"}):
        with pytest.raises(ServiceError, match="edição"):
            tournament_update(tournament=t, user=director, reason="Regulamento de 2010", **change)
    t = Tournament.objects.get(pk=t.pk)
    assert (t.minutes_per_game, t.min_participants, t.pairing_program_rule) == (21, 30, "strict")
    changes = list(SettingsChange.objects.filter(tournament=t).values_list("field", "before", "after", "by", "reason"))
    assert changes == [("minutes_per_game", 15, 21, "diretor", "Tempo digitado errado")]
    audited = AuditEntry.objects.filter(tournament=t, action="tournament.settings").order_by("id")
    assert [a.reason for a in audited] == ["Tempo digitado errado"]
    report = homologation_check(t)
    assert failing(report) == {"participants", "rounds_and_time", "pairing_engine"}
    assert not report.rights
    # the page and the workbook list every change (the report carries them)
    assert [(c.field, c.before, c.after, c.reason) for c in report.settings_changes] == [
        (f, b, a, r) for f, b, a, _by, r in changes
    ]


def test_the_interchange_file_carries_the_changes_and_reads_them_back(director, edition_with):
    t = bent_event(edition_with)
    tournament_update(tournament=t, user=director, minutes_per_game=21, reason="Tempo digitado errado")
    data = export_data(t)
    (change,) = data["settings_changes"]
    assert {k: change[k] for k in ("field", "before", "after", "by", "reason")} == {
        "field": "minutes_per_game",
        "before": 15,
        "after": 21,
        "by": "diretor",
        "reason": "Tempo digitado errado",
    }
    assert change["at"] == SettingsChange.objects.get().at.isoformat()
    data["tournament"]["slug"] = "etapa-copia"
    copy = import_data(json.loads(json.dumps(data)))
    assert export_data(copy)["settings_changes"] == data["settings_changes"]
    make_homologable(copy)
    Round.objects.filter(tournament=copy).update(engine="Swiss-Manager")
    assert "rounds_and_time" in failing(homologation_check(Tournament.objects.get(pk=copy.pk)))


def test_round_1_is_derived_again_from_the_ratings_the_file_gives(director):
    from tournaments.homologation.repairing import check_imported_pairings, imported_rounds
    from tournaments.rounds.selectors import pairing_read

    t = import_data(engine_file("por-rating"))
    entries, snapshot = pairing_read(t)
    first, _claimed = check_imported_pairings(t, entries, snapshot, imported_rounds(t))
    assert first.matches  # the synthetic file pairs round 1 top half against bottom half

    t = import_data(engine_file("embaralhada", shuffle_round1=True))
    send_on_time(t)
    entries, snapshot = pairing_read(t)
    first, _claimed = check_imported_pairings(t, entries, snapshot, imported_rounds(t))
    assert not first.matches and (1, 2) in first.missing and (1, 16) in first.extra
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    assert "round1_by_rating" in failing(report)
    assert "1-16" in report.condition("round1_by_rating").detail


def test_every_round_naming_this_engine_is_paired_again_and_a_mismatch_is_a_finding(director):
    from tournaments.homologation.repairing import check_imported_pairings, imported_rounds
    from tournaments.rounds.selectors import pairing_read

    t = import_data(engine_file("motor"))
    send_on_time(t)
    entries, snapshot = pairing_read(t)
    _first, claimed = check_imported_pairings(t, entries, snapshot, imported_rounds(t))
    assert [c.round for c in claimed] == [1, 2, 3, 4, 5, 6, 7]
    different = [c.round for c in claimed if not c.matches]
    # the synthetic file pairs its own way (round 1 top half against bottom half, the top half always White; later
    # rounds by score with random colours): the Dutch system alternates colours in round 1 and pairs otherwise later
    assert different == [1, 2, 3, 4, 5, 6, 7]
    assert claimed[0].extra and all(set(p) in [set(q) for q in claimed[0].missing] for p in claimed[0].extra)
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    assert "pairing_engine" in failing(report)
    detail = report.condition("pairing_engine").detail
    assert f"rodada {different[0]}" in detail


def test_a_rating_kept_instead_of_the_current_list_is_a_finding_naming_the_players(director):
    from tournaments.models import Entry

    t = import_data(event(30, slug="mantido"))
    make_homologable(t)
    assert "round1_by_rating" not in failing(homologation_check(t))
    kept = Entry.objects.filter(tournament=t).select_related("player").order_by("pairing_number")[3]
    Entry.objects.filter(pk=kept.pk).update(rating_kept_reason="Lista antiga")
    condition = homologation_check(Tournament.objects.get(pk=t.pk)).condition("round1_by_rating")
    assert not condition.met
    assert kept.player.name in condition.detail and "obrigatoriamente" in condition.detail


def test_a_100_square_event_without_an_opening_table_is_not_silently_exempt(director, edition_with):
    data = event(30, slug="cem-casas", variant="international-100", opening_table=None)
    for r in data["rounds"]:
        r["opening"] = None
    t = import_data(data)
    make_homologable(t)
    condition = homologation_check(t).condition("rounds_and_time")
    assert not condition.met and "Tablita" in condition.detail
    # the reading is the edition's: the venue cannot change it (issue 35.1) ...
    with pytest.raises(ServiceError, match="edição"):
        tournament_update(tournament=t, user=director, tablita_100="free", reason="Leitura da comissão")
    t = Tournament.objects.get(pk=t.pk)
    assert not homologation_check(t).condition("rounds_and_time").met
    # ... and a stage under an edition reading "free openings" meets it, saying so
    edition_with(tablita_100="free")
    data = event(30, slug="cem-livre", variant="international-100", opening_table=None)
    for r in data["rounds"]:
        r["opening"] = None
    free = import_data(data)
    make_homologable(free)
    condition = homologation_check(free).condition("rounds_and_time")
    assert condition.met and "aberturas livres" in condition.detail


def test_the_minutes_are_read_per_game_or_per_micro_match_as_a_stated_setting(director, edition_with):
    per_game = import_data(event(30, slug="por-partida", minutes_per_game=15, time_unit="match"))
    make_homologable(per_game)
    condition = homologation_check(per_game).condition("rounds_and_time")
    # the file's reading is not applied to a stage: the edition's is (issue 35.1)
    assert not condition.met and "cada partida" in condition.detail
    edition_with(time_unit="match")
    per_match = import_data(event(30, slug="por-match", minutes_per_game=15))
    make_homologable(per_match)
    condition = homologation_check(per_match).condition("rounds_and_time")
    assert condition.met and "micro-match inteiro" in condition.detail


def test_the_suspension_check_says_according_to_the_registry_and_lifting_later_changes_nothing(director):
    from tournaments.entries.services import suspension_lift
    from tournaments.models import Entry, Suspension

    t = import_data(event(30, slug="suspenso"))
    make_homologable(t)
    condition = homologation_check(t).condition("no_suspended")
    assert condition.met and "segundo o cadastro" in condition.detail
    player = Entry.objects.filter(tournament=t).select_related("player").first().player
    suspension = Suspension.objects.create(
        player=player,
        start_date=t.start_date - timedelta(days=10),
        end_date=t.end_date + timedelta(days=30),
        source="tribunal",
        reason="Tribunal",
    )
    assert not homologation_check(t).condition("no_suspended").met
    suspension_lift(suspension=suspension, user=director, reason="Recurso aceito depois do evento")
    condition = homologation_check(t).condition("no_suspended")
    assert not condition.met and player.name in condition.detail


def test_a_withdrawal_imported_without_its_kind_is_a_finding_to_classify(director):
    from tournaments.entries.services import entry_classify_withdrawal
    from tournaments.models import Entry, Suspension

    data = event(30, slug="sem-tipo")
    leaver = data["players"][-1]
    leaver["withdrawn_from"] = 7
    data["rounds"][-1]["boards"] = [
        b for b in data["rounds"][-1]["boards"] if leaver["id"] not in (b["first"], b["second"])
    ]
    t = import_data(data)
    make_homologable(t)
    condition = homologation_check(t).condition("no_suspended")
    assert not condition.met and leaver["name"] in condition.detail and "classificar" in condition.detail
    entry = Entry.objects.get(tournament=t, player__name=leaver["name"])
    entry_classify_withdrawal(entry=entry, kind="approved", user=director)
    assert homologation_check(t).condition("no_suspended").met
    assert not Suspension.objects.filter(player=entry.player).exists()


def test_a_year_of_birth_alone_is_enough_for_a_player_clearly_21_or_older(director):
    from tournaments.models import Player

    t = import_data(event(30, slug="ano"))
    make_homologable(t)
    players = Player.objects.filter(entries__tournament=t).order_by("pk")
    old, young = players[0], players[1]
    Player.objects.filter(pk=old.pk).update(birth_date=None, birth_year=t.start_date.year - 40)
    assert homologation_check(t).condition("birth_dates").met
    Player.objects.filter(pk=young.pk).update(birth_date=None, birth_year=t.start_date.year - 21)
    condition = homologation_check(t).condition("birth_dates")
    assert not condition.met and young.name in condition.detail and old.name not in condition.detail


# ------------------------------------------------------------------------------ point 4: a late sending is said
# Art. 11: "Enviar os resultados, rodada por rodada, no máximo em até 2 dias após a data do evento".


def test_a_late_sending_never_reads_as_rights_without_saying_the_federation_judges_it(director, client):
    from django.urls import reverse

    from tests.tournaments.interchange.helpers import send_on_time
    from tournaments.homologation.workbook import homologation_workbook
    from tournaments.models import TournamentRole

    t = import_data(event(30, slug="atrasado"))
    make_homologable(t)
    send_on_time(t, days_after=12)  # 10 days late
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    assert report.rights
    wb = homologation_workbook(Tournament.objects.get(pk=t.pk))
    rights = next(r for r in wb["Condições"].iter_rows(values_only=True) if r[0] == "Direito a vagas")
    assert rights[2] == "Sim" and "10 dias de atraso" in rights[3] and "a CBJD julga" in rights[3]
    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})
    client.force_login(director)
    html = client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    assert "10 dias de atraso" in html and "a federação julga" in html


# ------------------------------------------------------------------------------ point 1: the changes are listed


def test_the_page_and_the_workbook_list_every_later_change(director, client, edition_with):
    from django.urls import reverse

    from tournaments.homologation.workbook import homologation_workbook
    from tournaments.models import TournamentRole

    t = bent_event(edition_with)
    tournament_update(tournament=t, user=director, minutes_per_game=21, reason="Tempo digitado errado")
    wb = homologation_workbook(Tournament.objects.get(pk=t.pk))
    rows = [r for r in wb["Evento"].iter_rows(values_only=True) if r[0] == "Alteração depois da 1ª rodada"]
    assert len(rows) == 1 and "minutos por jogador por partida: 15 → 21" in rows[0][1]
    assert "diretor" in rows[0][1] and "Tempo digitado errado" in rows[0][1]
    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})
    client.force_login(director)
    html = client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    assert 'id="settings-changes"' in html and "Tempo digitado errado" in html and "15 → 21" in html


# ------------------------------------------------------------------------------ point 7: unrated beside the average


def test_the_unrated_count_is_said_beside_the_average(director):
    from tournaments.homologation.workbook import homologation_workbook

    data = event(30, slug="sem-rating")
    for p in data["players"][-3:]:
        p["rating"] = None
    t = import_data(data)
    make_homologable(t)
    absoluto = next(c for c in homologation_check(t).standings.categories if c.category.code == "ABS")
    assert absoluto.qualification.unrated == 3
    wb = homologation_workbook(t)
    header = next(wb["Vagas"].iter_rows(values_only=True))
    row = next(r for r in wb["Vagas"].iter_rows(min_row=2, values_only=True) if r[0] == "ABS")
    assert row[header.index("Sem rating na média (rating provisório)")] == 3
