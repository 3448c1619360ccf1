"""Issue 35 (items 1 and 3): the holes the arbiter's audit found, each through the path the audit used (pages,
admin, file, shell, undo). Each test fails on the code before the regulation became the federation's edition."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.urls import reverse

from tests.tournaments.interchange.helpers import make_homologable
from tests.tournaments.test_regulation_round_two import event, failing
from tournaments.core.errors import ServiceError
from tournaments.domain.edition import current_text
from tournaments.domain.interchange import edition_differences, snapshot_from_interchange
from tournaments.entries.services import entry_register, entry_update
from tournaments.homologation.report import homologation_check
from tournaments.interchange import import_data
from tournaments.models import Category, RegulationEdition, Round, Tournament
from tournaments.models.tournament import LockedFact
from tournaments.rounds.services import round_pair
from tournaments.setup.services import tournament_update


def small_stage(make_tournament, make_player, director, players=10, **kw):
    t = make_tournament(**kw)
    for i in range(players):
        entry_register(tournament=t, player=make_player(name=f"Jogador {i}", sex="M"), user=director)
    return t


def test_a_10_player_stage_set_to_minimum_2_on_the_settings_page_keeps_the_editions_30(
    client, director, make_tournament, make_player
):
    t = small_stage(make_tournament, make_player, director)
    client.force_login(director)
    page = client.get(reverse("staff:settings", args=[t.slug]))
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data.update(min_participants=2, participant_rule="present", double_spot_rule="pass", opening_table="")
    client.post(reverse("staff:settings", args=[t.slug]), data)
    t.refresh_from_db()
    assert (t.min_participants, t.participant_rule, t.double_spot_rule) == (30, "played", "both")
    condition = homologation_check(t).condition("participants")
    assert not condition.met and "mínimo 30" in condition.detail and condition.quote == "Mínimo de 30 participantes."


def test_the_admin_and_the_shell_cannot_set_a_stages_minimum(director, make_tournament, make_player):
    t = small_stage(make_tournament, make_player, director)
    t.min_participants = 2  # the admin's form saves the model: the edition's value wins
    t.save()
    assert Tournament.objects.get(pk=t.pk).min_participants == 30
    round_pair(tournament=t, user=director, publish=True)
    with pytest.raises(LockedFact):  # a queryset update after round 1 (the shell, a script)
        Tournament.objects.filter(pk=t.pk).update(minutes_per_game=30)
    t = Tournament.objects.get(pk=t.pk)
    t.minutes_per_game = 30
    with pytest.raises(LockedFact):  # the admin's save, without a reason
        t.save()
    assert Tournament.objects.get(pk=t.pk).minutes_per_game == 21


def test_undoing_round_1_then_changing_the_minutes_is_listed_and_judged_as_played(
    client, director, make_tournament, make_player
):
    t = small_stage(make_tournament, make_player, director, minutes_per_game=15)
    rnd = round_pair(tournament=t, user=director, publish=True)
    client.force_login(director)
    url = reverse("staff:round", args=[t.slug, 1])
    client.post(url, {"action": "undo", "confirm": "1"})  # no reason: refused
    assert Round.objects.filter(pk=rnd.pk).exists()
    client.post(url, {"action": "undo", "confirm": "1", "reason": "Emparceiramento errado"})
    assert not Round.objects.filter(pk=rnd.pk).exists()
    t = Tournament.objects.get(pk=t.pk)
    with pytest.raises(ServiceError):  # still locked while round 1 is undone
        tournament_update(tournament=t, user=director, minutes_per_game=21)
    tournament_update(tournament=t, user=director, minutes_per_game=21, reason="Mais tempo")
    round_pair(tournament=Tournament.objects.get(pk=t.pk), user=director, publish=True)
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    assert [c.field for c in report.settings_changes] == ["round_1", "minutes_per_game"]
    assert report.settings_change_lines[0].startswith("rodada 1 desfeita em ")
    assert "motivo: Emparceiramento errado" in report.settings_change_lines[0]
    assert report.settings.minutes_per_game == 15  # judged as played


def test_the_event_dates_are_locked_and_judged_as_played(director, make_tournament, make_player):
    t = small_stage(make_tournament, make_player, director)
    round_pair(tournament=t, user=director, publish=True)
    with pytest.raises(ServiceError):
        tournament_update(tournament=t, user=director, start_date=date(2026, 12, 8), end_date=date(2026, 12, 9))
    tournament_update(
        tournament=t, user=director, start_date=date(2026, 12, 8), end_date=date(2026, 12, 9), reason="Adiado"
    )
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    assert {c.field for c in report.settings_changes} == {"start_date", "end_date"}
    assert (report.settings.start_date, report.settings.end_date) == (date(2026, 11, 8), date(2026, 11, 9))


def test_no_category_created_after_round_1_and_no_man_in_the_womens(director, make_tournament, make_player):
    t = small_stage(make_tournament, make_player, director)
    fem = Category.objects.create(tournament=t, code="FEM", name="Feminino", sex="F", position=5)
    entry = t.entries.first()
    with pytest.raises(ServiceError, match="outro sexo"):
        entry_update(entry=entry, user=director, categories=[fem])
    round_pair(tournament=t, user=director, publish=True)
    with pytest.raises(LockedFact):
        Category.objects.create(tournament=t, code="S18", name="Sub-18", position=6)
    with pytest.raises(ServiceError):
        entry_update(entry=entry, user=director, categories=[])


def test_a_stage_file_with_its_own_minimum_and_readings_is_judged_by_the_edition(db):
    data = event(12, min_participants=2, participant_rule="present", double_spot_rule="pass")
    snapshot = snapshot_from_interchange(data)
    assert (snapshot.settings.min_participants, snapshot.settings.double_spot_rule) == (30, "both")
    assert ("min_participants", 2, 30) in edition_differences(data["tournament"], snapshot.settings)
    t = import_data(data)
    make_homologable(t)
    assert "participants" in failing(homologation_check(t))
    club = import_data(event(12, slug="clube", min_participants=2, circuit_stage=False))
    make_homologable(club)
    report = homologation_check(club)
    assert report.settings.min_participants == 2 and not report.rights
    assert failing(report) == {"stage"}  # says plainly it is not a stage and earns no rights


def test_a_home_made_2048_program_does_not_pass_the_strict_reading(edition_with):
    edition_with(pairing_program_rule="strict")
    t = import_data(event(30, slug="caseiro"))
    make_homologable(t)
    Round.objects.filter(tournament=t).update(engine="Emparceirador caseiro 2048")
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    assert failing(report) == {"pairing_engine"}
    assert "Não aceitos: Emparceirador caseiro 2048." in report.condition("pairing_engine").detail


def test_this_products_engine_passes_only_when_the_edition_accepts_it(edition_with):
    edition_with(product_engine_accepted=False)
    t = import_data(event(30, slug="motor"))
    make_homologable(t)
    report = homologation_check(t)
    assert failing(report) == {"pairing_engine"}
    assert "não aceito pela edição teste-1" in report.condition("pairing_engine").detail


def test_the_2010_text_judges_a_2012_stage_with_its_minimum_of_20(db):
    t = import_data(event(22, slug="antiga", start_date="2012-05-05", end_date="2012-05-06"))
    assert t.edition_code == "cbjd-circuito-2010"
    report = homologation_check(t)
    assert "participants" not in failing(report)
    assert report.condition("participants").quote.startswith("Mínimo de 20 participantes")


def test_a_published_edition_never_changes(db):
    edition = current_text()
    row = RegulationEdition.objects.create(
        code="federacao-2027", title="x", in_force_from=date(2027, 1, 1), payload=edition.as_json()
    )
    row.title = "y"
    with pytest.raises(ValidationError, match="não pode ser alterada"):
        row.save()
    with pytest.raises(ValidationError):
        RegulationEdition.objects.filter(pk=row.pk).update(title="y")
    with pytest.raises(ValidationError):
        row.delete()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:  # the database too
        cursor.execute("UPDATE tournaments_regulationedition SET title = 'z'")
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM tournaments_regulationedition")
    assert RegulationEdition.objects.get().title == "x"


def test_the_admin_shows_a_stages_edition_and_its_locked_facts_read_only(
    admin_client, director, make_tournament, make_player
):
    t = small_stage(make_tournament, make_player, director)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    html = admin_client.get(url).content.decode()
    assert 'name="min_participants"' not in html and 'name="minutes_per_game"' in html
    round_pair(tournament=t, user=director, publish=True)
    html = admin_client.get(url).content.decode()
    assert 'name="minutes_per_game"' not in html and 'name="start_date"' not in html
