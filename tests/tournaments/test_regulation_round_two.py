"""Issue 26, "Regulation fidelity, round two": the homologation verdict cannot be bent after the fact, and every
reading is said. Through the services, the interchange file, the homologation report and the workbook. Each test
quotes the words of the regulation it enforces (seed 000, "REGULAMENTO ... CIRCUITO NACIONAL")."""

from datetime import date

import pytest
from django.utils import translation

from tests.tournaments.interchange.helpers import make_homologable
from tournaments.core.errors import ServiceError
from tournaments.homologation.report import homologation_check
from tournaments.interchange import import_data
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


def bent_event(director):
    """25 players, 15 minutes, paired by Swiss-Manager under the strict reading of art. 5: three conditions fail."""
    t = import_data(event(25, minutes_per_game=15, pairing_program_rule="strict"))
    make_homologable(t)
    Round.objects.filter(tournament=t).update(engine="Swiss-Manager")
    return t


def test_settings_that_decide_the_homologation_change_after_round_1_only_with_a_reason(director):
    t = bent_event(director)
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
        {"field": "score_win", "before": 2, "after": 3, "at": "2026-11-09T10:00:00-03:00", "by": "x", "reason": "r"},
        {"field": "planned_rounds", "before": 7, "after": 5, "at": "ontem", "by": "x", "reason": "r"},
    ]
    with pytest.raises(InterchangeError) as refused:
        import_data(data)
    text = "\n".join(refused.value.messages)
    assert "item 1" in text and "motivo" in text
    assert "item 2" in text and "configuração desconhecida: 'score_win'" in text
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
    leaver = report.standings.entries[first]
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
