"""Issue 13: the national circuit's regulation as a federation would check it, point by point, through the
services, the homologation report, the pages and the workbook. Each test quotes the words it enforces (seed 000,
"REGULAMENTO ... CIRCUITO NACIONAL", and the rules of play; seed 001 for international draughts)."""

import io
from datetime import date, datetime, time
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from tests.tournaments.interchange.helpers import make_homologable, send_on_time
from tournaments.core.errors import ServiceError
from tournaments.entries.services import (
    entry_keep_rating,
    entry_register,
    entry_reinstate,
    entry_withdraw,
    rating_list_import,
    suspension_lift,
)
from tournaments.games.services import RuleConflict, game_attach_pdn
from tournaments.homologation.conditions import RIGHTS_KEYS
from tournaments.homologation.report import homologation_check
from tournaments.homologation.workbook import homologation_workbook
from tournaments.interchange import import_data
from tournaments.interchange.synthetic import synthetic_tournament
from tournaments.models import AuditEntry, Entry, Game, OpeningTable, Round, Suspension, Tournament, TournamentRole
from tournaments.models.tournament import LockedFact
from tournaments.rounds.results import game_record_result, round_record_results
from tournaments.rounds.services import round_pair
from tournaments.setup.demo import load_demo
from tournaments.setup.openings import opening_table_import
from tournaments.setup.services import tournament_update
from tournaments.standings import tournament_standings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


def rating_csv(rows):
    lines = ["ID CBJD;Nome;Rating;Sexo"] + [f"{cbjd};{name};{rating};M" for cbjd, name, rating in rows]
    return ("\n".join(lines) + "\n").encode()


def homologable(players=30, rounds=7, **changes):
    data = synthetic_tournament(players, rounds, seed=7, slug="regulamento")
    data["tournament"].update(changes)
    for p in data["players"]:
        p["rating"] += 150
    return data


def failing(report):
    return {c.key for c in report.conditions if not c.met}


# ------------------------------------------------------------------------------ 1. round 1 by the current rating
# Art. 4: "A primeira rodada tem que ser, obrigatoriamente, emparceirada utilizando-se o rating nacional
# atualizado." Art. 6: "Emparceiramento da primeira rodada utilizando o rating oficial da CBJD."


def test_round_one_takes_the_current_national_rating_then_freezes_it(make_tournament, make_player, director):
    t = make_tournament(planned_rounds=3)
    players = [make_player(name=f"Jogador {i}", rating=2000 - 20 * i, cbjd_id=f"R{i:03d}") for i in range(7)]
    entries = [entry_register(tournament=t, player=p, user=director) for p in players]
    raised = entries[-1]
    assert raised.rating == 1880  # registered with the old list: the lowest, it would get the bye
    rating_list_import(
        data=rating_csv([("R006", "Jogador 6", 2400)]),
        filename="cbjd-2026-11.csv",
        user=director,
        list_date=date(2026, 11, 1),
    )
    rnd = round_pair(tournament=t, user=director, publish=True)
    raised.refresh_from_db()
    assert (raised.rating, raised.pairing_number) == (2400, 1)
    assert not rnd.seats.filter(side="bye", entry=raised).exists()
    assert AuditEntry.objects.filter(action="entry.rating_refresh", object_id=str(raised.pk)).exists()
    t.refresh_from_db()
    assert (t.rating_list_name, t.rating_list_date) == ("cbjd-2026-11.csv", date(2026, 11, 1))
    report = homologation_check(t)
    condition = report.condition("round1_by_rating")
    assert condition.met and "cbjd-2026-11.csv" in condition.detail and "01/11/2026" in condition.detail
    assert report.rating_list == ("cbjd-2026-11.csv", date(2026, 11, 1))

    # Frozen from round 1 on: a newer list changes the registry, not the entries, the spots or the report.
    average = tournament_standings(t, public=False).category("ABS").qualification.exact_average
    rating_list_import(data=rating_csv([("R006", "Jogador 6", 1500)]), filename="cbjd-2026-12.csv", user=director)
    raised.refresh_from_db()
    assert raised.rating == 2400 and raised.player.rating == 1500
    assert tournament_standings(t, public=False).category("ABS").qualification.exact_average == average
    assert homologation_check(t).rating_list == ("cbjd-2026-11.csv", date(2026, 11, 1))
    with pytest.raises(ServiceError):
        entry_keep_rating(entry=raised, user=director, reason="tarde demais")


def test_the_director_may_keep_the_rating_of_registration_with_a_reason(make_tournament, make_player, director):
    t = make_tournament(planned_rounds=3)
    entries = [
        entry_register(tournament=t, player=make_player(rating=1900 - i, cbjd_id=f"K{i:03d}"), user=director)
        for i in range(4)
    ]
    kept = entries[3]
    rating_list_import(data=rating_csv([("K003", "Jogador", 2300)]), filename="nova.csv", user=director)
    with pytest.raises(ServiceError):
        entry_keep_rating(entry=kept, user=director, reason="   ")
    entry_keep_rating(entry=kept, user=director, reason="lista publicada depois do congresso técnico")
    round_pair(tournament=t, user=director, publish=True)
    kept.refresh_from_db()
    assert kept.rating == 1897 and kept.pairing_number == 4
    detail = homologation_check(t).condition("round1_by_rating").detail
    assert "lista publicada depois do congresso técnico" in detail
    assert AuditEntry.objects.filter(action="entry.rating_keep", object_id=str(kept.pk)).exists()


# ------------------------------------------------------------------------------ 2. participants
# Art. 6: "Mínimo de 30 participantes." A participant played at least one game; an entry withdrawn before playing,
# or never paired, is not one, nor in the spots averages or the "mais de 120 participantes" rule.


def test_entries_that_never_played_are_not_participants(edition_with):
    edition_with(min_participants=31)  # the federation's edition sets the minimum (issue 35.1), not the event
    data = homologable(players=31)
    quitter = data["players"][0]  # the highest rating: withdrawn before round 1, never played
    quitter["withdrawn_from"], quitter["withdrawal"] = 1, "approved"
    for r in data["rounds"]:
        for b in list(r["boards"]):
            if quitter["id"] in (b["first"], b["second"]):
                other = b["second"] if b["first"] == quitter["id"] else b["first"]
                r["boards"].remove(b)
                r["bye"] = other if r["bye"] is None else r["bye"]
                if r["bye"] != other:
                    r["absent"] = sorted([*r["absent"], other])
    t = import_data(data)
    make_homologable(t)
    report = homologation_check(t)
    assert "participants" in failing(report)
    detail = report.condition("participants").detail
    assert detail.startswith("30 participantes (mínimo 31)") and quitter["name"] in detail
    abs_ = report.standings.category("ABS").qualification
    assert (abs_.entries, abs_.counted) == (30, 30)
    others = [p["rating"] for p in data["players"][1:]]
    assert abs_.exact_average == Fraction(sum(others), 30)  # the quitter's rating is not in the average
    assert len(report.standings.participation) == 30
    with pytest.raises(LockedFact):  # the minimum is the edition's; not even the shell lowers it (issue 35.3)
        Tournament.objects.filter(pk=t.pk).update(min_participants=30)
    assert "participants" in failing(homologation_check(Tournament.objects.get(pk=t.pk)))


def test_before_the_end_entries_still_to_play_count_and_the_setting_present_counts_forfeit_wins():
    data = homologable()
    data["rounds"] = data["rounds"][:3]
    t = import_data(data)
    report = homologation_check(t)
    assert "30 participantes" in report.condition("participants").detail
    assert len(report.standings.participation.played) == 30


# ------------------------------------------------------------------------------ 3. abandonment
# Art. 10: "Não abandonar a competição antes do término desta, o que implicará em suspensão automática por 3
# meses de todas as competições em todo o território nacional." Art. 3: "apenas não poderá participar o
# damista ... que esteja sendo punido automaticamente por ter infringido o artigo 10".


def test_abandonment_suspends_at_once_and_only_a_director_with_a_reason_lifts_it(field, make_tournament, director):
    t, entries = field(6, end_date=date(2026, 11, 9))
    suspension = entry_withdraw(entry=entries[2], from_round=1, kind="abandonment", user=director)
    assert suspension.active and (suspension.start_date, suspension.end_date) == (date(2026, 11, 9), date(2027, 2, 9))
    assert AuditEntry.objects.filter(action="suspension.create").count() == 1
    later = make_tournament(start_date=date(2027, 1, 10), end_date=date(2027, 1, 10))
    with pytest.raises(ServiceError) as refused:
        entry_register(tournament=later, player=entries[2].player, user=director)
    assert "09/02/2027" in refused.value.messages[0]
    with pytest.raises(ServiceError):
        suspension_lift(suspension=suspension, user=director, reason="")
    suspension_lift(suspension=suspension, user=director, reason="abandono por motivo de saúde comprovado")
    lifted = AuditEntry.objects.get(action="suspension.lift")
    assert lifted.new["reason"] == "abandono por motivo de saúde comprovado" and lifted.old["active"] is True
    assert entry_register(tournament=later, player=entries[2].player, user=director).pk
    with pytest.raises(ServiceError):
        suspension_lift(suspension=suspension, user=director, reason="de novo")


def test_undoing_an_abandonment_lifts_its_suspension(field, director):
    t, entries = field(4)
    entry_withdraw(entry=entries[0], from_round=2, kind="abandonment", user=director)
    entry_reinstate(entry=entries[0], user=director)
    assert not Suspension.objects.filter(player=entries[0].player, lifted_at__isnull=True).exists()
    assert Suspension.objects.get(player=entries[0].player).lift_reason == "A desistência foi desfeita."


def test_an_abandonment_imported_from_a_file_suspends_too():
    data = homologable(players=10, rounds=3)
    quitter = data["players"][9]
    quitter["withdrawn_from"], quitter["withdrawal"] = 4, "abandonment"
    data["tournament"]["rounds"] = 5
    t = import_data(data)
    suspension = Suspension.objects.get(player__cbjd_id=quitter["cbjd_id"])
    assert suspension.tournament == t and suspension.active and suspension.source == "abandonment"
    assert suspension.start_date == t.end_date


def test_the_suspensions_page_lifts_with_a_reason(client, field, director):
    t, entries = field(4)
    suspension = entry_withdraw(entry=entries[1], from_round=1, kind="abandonment", user=director)
    client.force_login(director)
    url = reverse("staff:suspensions", args=[t.slug])
    assert "em vigor" in client.get(url).content.decode()
    client.post(url, {"suspension": suspension.pk, "action": "lift", "reason": ""})
    assert Suspension.objects.get(pk=suspension.pk).active
    client.post(url, {"suspension": suspension.pk, "action": "lift", "reason": "recurso deferido"})
    assert not Suspension.objects.get(pk=suspension.pk).active


# ------------------------------------------------------------------------------ 4. spots
# Art. 6: "Oferecerá por categoria: uma vaga se o rating médio dos 30 maiores ratings for igual ou superior a
# 1900 ..."; art. 10 (abandonment); art. 13: "Todos os casos omissos serão resolvidos pela Comissão
# Organizadora".


def test_an_abandoning_player_takes_no_spot_and_the_report_says_so(client, director):
    t = import_data(homologable())
    make_homologable(t)
    before = homologation_check(t).standings.category("ABS").qualification
    assert before.spots >= 1 and before.qualified
    leader = before.qualified[0]
    Entry.objects.filter(tournament=t, pairing_number=leader).update(
        status="withdrawn", withdrawn_from_round=7, withdrawal_kind="abandonment"
    )
    after = homologation_check(t).standings.category("ABS").qualification
    assert leader not in after.qualified and len(after.qualified) == before.spots
    assert after.qualified[: before.spots - 1] == before.qualified[1:]
    assert [n.code for n in after.notes][:1] == ["abandoned"]
    TournamentRole.objects.create(tournament=t, user=director, role="director")
    client.force_login(director)
    html = client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    assert "abandonou o torneio (art. 10) e não fica com vaga" in html


# ------------------------------------------------------------------------------ 6. homologation conditions
# Art. 5: "Apenas serão aceitos emparceiramentos feitos pelos softs Swiss Perfect e “48”." Art. 6 and 11:
# "Resultados, rodada por rodada, enviados via email até 2 dias após o término do evento".


def test_the_pairing_software_condition_names_what_it_checks(edition_with):
    t = import_data(homologable())
    send_on_time(t)
    report = homologation_check(t)
    assert failing(report) == {"pairing_engine"}
    # the program a file names for its rounds, as the import records it (issue 35.4: never typed)
    Round.objects.filter(tournament=t).update(engine="Swiss Perfect 98")
    report = homologation_check(t)
    assert not failing(report)
    detail = report.condition("pairing_engine").detail
    assert "Swiss Perfect 98 (registrado na importação do evento)" in detail
    assert report.condition("pairing_engine").article == "art. 5, 6"
    Round.objects.filter(tournament=t, number__gte=4).update(engine="Swiss-Manager")
    report = homologation_check(t)
    assert not failing(report)
    assert "é preciso pedir à federação que aceite Swiss-Manager" in report.condition("pairing_engine").detail
    # the reading is the edition's: the venue cannot switch it, not even by a queryset update (issue 35.1, 35.3)
    with pytest.raises(LockedFact):
        Tournament.objects.filter(pk=t.pk).update(pairing_program_rule="strict")
    # an event played under an edition reading art. 5 strictly
    edition_with(pairing_program_rule="strict")
    t = import_data(_with_slug(homologable(), "estrita"))
    make_homologable(t)
    Round.objects.filter(tournament=t, number__gte=4).update(engine="Swiss-Manager")
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    assert (
        failing(report) == {"pairing_engine"}
        and "Não aceitos: Swiss-Manager." in report.condition("pairing_engine").detail
    )


def test_the_import_page_records_where_the_event_came_from_and_no_program_is_typed(client, director):
    """Issue 35.4: which program paired a round is recorded by the product, not typed. The import page has no
    program field any more (a program typed there is ignored); the event is marked imported with the file's
    provenance: its name, SHA-256, format and the program the file names."""
    import hashlib

    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournaments.interchange import export_data, export_json

    t = import_data(homologable())
    text = export_json(t).replace('"regulamento"', '"regulamento-copia"')
    client.force_login(director)
    page = client.get(reverse("staff:tournament_import")).content.decode()
    assert 'name="program"' not in page
    r = client.post(
        reverse("staff:tournament_import"),
        {"file": SimpleUploadedFile("copia.json", text.encode()), "program": "Swiss Perfect 98"},
    )
    assert r.status_code == 302
    copy = Tournament.objects.get(slug="regulamento-copia")
    assert set(copy.rounds.values_list("engine", flat=True)) == {"imported"}
    assert {k: copy.provenance[k] for k in ("file", "sha256", "format", "program")} == {
        "file": "copia.json",
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "format": "json",
        "program": "",
    }
    assert export_data(copy)["tournament"]["provenance"]["file"] == "copia.json"


@pytest.mark.parametrize(
    "sent_after,met,words",
    [
        (1, True, "Enviado em 09/11/2026, dentro do prazo (10/11/2026)."),
        (2, True, "Enviado em 10/11/2026, dentro do prazo (10/11/2026)."),
        (5, False, "Enviado em 13/11/2026: atraso de 3 dias (prazo 10/11/2026)."),
    ],
)
def test_the_deadline_is_a_condition_met_or_late_by_n_days(sent_after, met, words):
    t = import_data(homologable())
    make_homologable(t)
    send_on_time(t, days_after=sent_after)
    report = homologation_check(t)
    condition = report.condition("deadline")
    assert condition.met is met and condition.detail.startswith(words)
    # the federation judges the sending (art. 6, 11): a late one is shown, the spots computed here stay
    assert report.rights is True and not condition.decides_rights
    assert [c["key"] for c in report.as_json()["conditions"]] == list(RIGHTS_KEYS)
    wb = homologation_workbook(t, report)
    row = next(r for r in wb["Condições"].iter_rows(min_row=2, values_only=True) if r[0].startswith("Resultados env"))
    assert row[1] == "art. 6, 11" and row[2] == ("Sim" if met else "Não") and row[3].startswith(words)
    assert "até 2 dias após o término do evento" in row[4]


def test_rights_do_not_depend_on_the_day_the_check_runs():
    # docs/interchange.md: ``rights`` is true when the seven conditions are met; checked years later, a tournament
    # never recorded as sent still earns them, and the standings award the spots.
    from tournaments.homologation.conditions import deadline_status
    from tournaments.homologation.report import rights_earned

    t = import_data(homologable())
    make_homologable(t)
    Tournament.objects.filter(pk=t.pk).update(homologation_exported_at=None)
    t.refresh_from_db()
    assert deadline_status(t)[:2][0] is False  # the deadline (10/11/2026) has passed, nothing sent
    report = homologation_check(t)
    assert report.condition("deadline").met is False
    assert report.rights is True and rights_earned(t) is True
    assert all(c["met"] for c in report.as_json()["conditions"])
    assert any(q.qualified for q in report.categories)


def test_the_deadline_before_sending_counts_the_days_in_the_tournaments_time_zone():
    from tournaments.homologation.conditions import deadline_status

    t = import_data(homologable())
    assert deadline_status(t, today=date(2026, 11, 10))[:2] == (True, 0)
    assert "falta 1 dia" in deadline_status(t, today=date(2026, 11, 9))[2]
    assert deadline_status(t, today=date(2026, 11, 12))[:2] == (False, 2)
    # exported at 00:30 on the 11th in Brasília: still the 10th in Manaus (UTC-4), the 11th in Noronha (UTC-2)
    moment = datetime.combine(date(2026, 11, 11), time(0, 30), tzinfo=ZoneInfo("America/Sao_Paulo"))
    t.homologation_exported_at = moment
    t.time_zone = "America/Manaus"
    assert deadline_status(t)[:2] == (True, 0)
    t.time_zone = "America/Noronha"
    assert deadline_status(t)[:2] == (False, 1)


def test_a_tiebreak_setting_that_departs_from_the_regulation_fails_the_condition(edition_with):
    edition_with(corrected_progressive_cut=0)  # readings are the edition's (issue 35.1)
    t = import_data(homologable())
    make_homologable(t)
    report = homologation_check(t)
    assert failing(report) == {"tiebreaks"}
    assert "sem nenhuma rodada cortada" in report.condition("tiebreaks").detail
    edition_with(corrected_progressive_cut=2)
    ok = import_data(_with_slug(homologable(), "corte-2"))
    make_homologable(ok)
    assert not failing(homologation_check(ok))


def _with_slug(data, slug):
    data["tournament"]["slug"] = slug
    return data


TABLE_100 = (
    "table,category,code,fen,side_to_move,kind,moves,raw,excluded_for_brazilian\n"
    'LIVRE-100,1,1-A,"B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:'
    'B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",B,moves,1. 32-28,32-28,no\n'
)


def test_100_squares_needs_no_tablita_unless_the_director_loads_a_table(director, edition_with):
    edition_with(tablita_100="free")  # an edition reading "free openings" (issue 35.1)
    data = _with_slug(homologable(), "cem-casas")
    # the reading "free openings when no 100-square table is loaded" (issue 26 made "the Tablita is required, as
    # the text says" the default: test_regulation_round_two checks it)
    data["tournament"].update(variant="international-100", opening_table=None, tablita_100="free")
    for r in data["rounds"]:
        r["opening"] = None
    t = import_data(data)
    make_homologable(t)
    report = homologation_check(t)
    assert not failing(report)
    assert "não há tabela oficial de aberturas para 100 casas" in report.condition("rounds_and_time").detail

    bad = TABLE_100.replace("1. 32-28,32-28", "1. 32-27,32-27")
    with pytest.raises(ServiceError) as refused:
        opening_table_import(data=bad.encode(), filename="t.csv", variant="international-100", user=director)
    assert "linha 2" in refused.value.messages[0] and not OpeningTable.objects.filter(code="LIVRE-100").exists()
    (table,) = opening_table_import(
        data=TABLE_100.encode(), filename="t.csv", variant="international-100", user=director
    )
    assert table.variant == "international-100" and table.openings.count() == 1
    with pytest.raises(ServiceError):  # a 64-square table cannot serve a 100-square tournament
        tournament_update(tournament=t, user=director, opening_table=OpeningTable.objects.get(code="IDF-64"))
    tournament_update(tournament=t, user=director, opening_table=table, reason="Tabela carregada")
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    # judged as played (no table then), and the change is listed with its reason
    assert not failing(report) and [c.field for c in report.settings_changes] == ["opening_table"]


# ------------------------------------------------------------------------------ 7. king-move draw
# Rule 16 (seed 000): "Após 20 (vinte) lances sucessivos de Damas, sem captura ou deslocamento de pedra, a partida
# é declarada empatada." Seed 001, 3.2-3.3: a "lance" is one player's move, the players moving alternately.
# Two kings shuffle from W:WK29:BK1: 20 moves each, no capture, no man's move.
KING_SHUFFLE = (
    '[FEN "W:WK29:BK1"]\n'
    "1. 29-25 1-5 2. 25-21 5-1 3. 21-17 1-5 4. 17-13 5-1 5. 13-9 1-5 6. 9-6 5-1 7. 6-2 1-5 8. 2-6 5-1 "
    "9. 6-2 1-5 10. 2-6 5-1 11. 6-2 1-5 12. 2-6 5-1 13. 6-2 1-5 14. 2-6 5-1 15. 6-2 1-5 16. 2-6 5-1 "
    "17. 6-2 1-5 18. 2-6 5-1 19. 6-2 1-5 20. 2-6 5-1"
)


@pytest.fixture
def one_game(make_tournament, make_player, director):
    t = make_tournament(format="single-game", planned_rounds=1)
    for i in range(2):
        entry_register(tournament=t, player=make_player(rating=2000 - i), user=director)
    rnd = round_pair(tournament=t, user=director, publish=True)
    return rnd.boards.get(), Game.objects.get(board__round=rnd)


def test_a_win_recorded_after_the_king_move_draw_is_not_saved_silently(one_game, director):
    board, game = one_game
    game_record_result(board=board, results={1: "1-0"}, expected_version=board.version, user=director)
    with pytest.raises(RuleConflict) as conflict:
        game_attach_pdn(game=game, pdn=KING_SHUFFLE, user=director)
    assert "regra 16: 20 lances sucessivos de dama" in conflict.value.messages[0]
    assert Game.objects.get(pk=game.pk).pdn == ""
    game_attach_pdn(game=game, pdn=KING_SHUFFLE, user=director, confirm=True)  # the arbiter decides
    assert Game.objects.get(pk=game.pk).pdn.startswith("[FEN")
    kept = AuditEntry.objects.get(action="game.conflict_kept")
    assert kept.new["result"] == "1-0" and "regra 16" in kept.new["conflicts"][0]


def test_a_result_typed_against_the_recorded_moves_is_refused_until_confirmed(one_game, director):
    board, game = one_game
    game_attach_pdn(game=game, pdn=KING_SHUFFLE + " 1-1", user=director)
    board.refresh_from_db()
    with pytest.raises(RuleConflict) as conflict:
        round_record_results(round=board.round, rows=[(board.pk, board.version, {1: "0-1"})], user=director)
    text = " ".join(conflict.value.messages)
    assert "regra 16" in text and "o resultado da súmula (1-1) difere do resultado lançado (0-1)" in text
    assert Game.objects.get(pk=game.pk).result is None
    round_record_results(round=board.round, rows=[(board.pk, board.version, {1: "1/2"})], user=director)
    assert Game.objects.get(pk=game.pk).result == "1/2"  # agreeing result: saved at once


def test_the_results_page_shows_the_conflict_and_a_confirmation(client, one_game, director):
    board, game = one_game
    game_attach_pdn(game=game, pdn=KING_SHUFFLE, user=director)
    board.refresh_from_db()
    client.force_login(director)
    url = reverse("staff:results", args=[board.round.tournament.slug, 1])
    data = {f"b{board.pk}_v": board.version, f"b{board.pk}_g1": "2-0"}
    r = client.post(url, data)
    assert r.status_code == 409 and 'name="confirm_conflicts"' in r.content.decode()
    assert Game.objects.get(pk=game.pk).result is None
    r = client.post(url, {**data, "confirm_conflicts": "1"})
    assert r.status_code == 302 and Game.objects.get(pk=game.pk).result == "1-0"
    assert AuditEntry.objects.filter(action="game.conflict_kept").count() == 1


# ------------------------------------------------------------------------------ 8. readings and articles
# docs/domain.md: "every such reading must be a setting of the tournament ... and the UI must show which setting is in
# force".


def test_every_reading_is_printed_on_the_standings_and_in_the_workbook(client):
    t = import_data(homologable())
    make_homologable(t)
    html = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    for words in (
        "Art. 6, exceção c) (os três maiores ratings): milésimos primeiro",
        "Art. 6, participantes (mínimo 30): jogou ao menos uma partida no tabuleiro",
        "Art. 6 e 13, empate na última vaga: decidido pela comissão organizadora (art. 13)",
        "Art. 5, programa de emparceiramento",
        "Art. 10, abandono: suspensão automática de 3 meses",
    ):
        assert words in html, words
    wb = homologation_workbook(t)
    event = list(wb["Evento"].iter_rows(min_row=2, values_only=True))
    readings = [value for key, value in event if key == "Leitura do regulamento"]
    assert any(r.startswith("Art. 6, participantes") for r in readings)
    assert dict(event)["Exceção c) do art. 6"].startswith("Milésimos primeiro")
    conditions = list(wb["Condições"].iter_rows(min_row=1, max_row=9, values_only=True))
    assert conditions[0][:3] == ("Condição", "Artigo", "Cumprida")
    assert [r[1] for r in conditions[1:]] == [
        "art. 6",
        "art. 2, 6",
        "art. 3, 6",
        "art. 4, 6",
        "art. 5, 6",
        "art. 6",
        "art. 12",
        "art. 6, 11",
    ]


def test_the_demo_homologation_page_shows_the_deadline_condition_and_the_ratings_list(client, director):
    t, _created = load_demo(today=date(2026, 11, 7))  # its list: a week before
    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})
    client.force_login(director)
    html = client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    assert 'id="condition-deadline"' in html and "Resultados enviados em até 2 dias" in html
    assert "lista de rating nacional “rating-cbjd-demo-2026-10.csv” de 31/10/2026" in html
    for c in homologation_check(t).conditions:
        assert c.article in html
    wb = load_workbook(io.BytesIO(client.get(reverse("staff:download", args=[t.slug, "xlsx"])).content))
    event = dict(wb["Evento"].iter_rows(min_row=2, values_only=True))
    assert (
        event["Lista de rating usada (art. 4)"]
        == "lista de rating nacional “rating-cbjd-demo-2026-10.csv” de 31/10/2026"
    )
    assert event["Situação do prazo"].startswith("Ainda não enviado")
