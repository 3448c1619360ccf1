"""Issue 35.5 (say it early: what a stage can already be seen to fail, at creation and on its dashboard before
round 1) and 35.6 (the public pages show spots only as the homologation report does: provisional while the event
runs, none when the report says "não")."""

from django.urls import reverse

from tests.tournaments.interchange.helpers import make_homologable, send_on_time
from tests.tournaments.test_form_errors import VALID
from tournaments.homologation.report import homologation_check
from tournaments.interchange import import_data
from tournaments.interchange.synthetic import synthetic_tournament
from tournaments.models import OpeningTable, Tournament, TournamentRole
from tournaments.rounds.pairing_bridge import ENGINE_NAME


def test_six_rounds_of_21_minutes_are_said_at_creation_and_on_the_dashboard(client, director):
    client.force_login(director)
    data = dict(VALID, planned_rounds="6", opening_table=OpeningTable.objects.get(code="IDF-64").pk)
    page = client.post(reverse("staff:tournament_create"), data, follow=True).content.decode()
    assert "Com 6 rodadas de 21 minutos esta etapa nunca dará direito a vagas" in page
    t = Tournament.objects.get(slug="aberto-olinda")
    dashboard = client.get(reverse("staff:tournament", args=[t.slug])).content.decode()
    assert 'id="foreseeable"' in dashboard and "nunca dará direito a vagas" in dashboard
    assert "0 inscritos: a edição exige ao menos 30 participantes" in dashboard


def test_a_club_event_says_it_has_no_rights_from_its_creation(client, director):
    client.force_login(director)
    data = dict(VALID, circuit_stage="False", opening_table=OpeningTable.objects.get(code="IDF-64").pk)
    page = client.post(reverse("staff:tournament_create"), data, follow=True).content.decode()
    assert "Evento de clube: não é etapa do Circuito Nacional e não dá direito a vagas." in page
    assert not Tournament.objects.get(slug="aberto-olinda").circuit_stage


def strong_event(slug, rounds=7):
    data = synthetic_tournament(30, 7, seed=7, slug=slug)
    data["rounds"] = data["rounds"][:rounds]
    for p in data["players"]:
        p["rating"] += 150
    return data


def category_page(client, t):
    return client.get(reverse("public:standings_category", args=[t.slug, "ABS"])).content.decode()


def test_the_public_category_page_shows_no_spot_when_the_report_says_no(client, director):
    data = strong_event("nega")
    for r in data["rounds"]:
        r["engine"] = ENGINE_NAME  # claims this engine, which pairs otherwise: the report says "não"
    t = import_data(data)
    send_on_time(t)
    report = homologation_check(t)
    assert not report.rights and "pairing_engine" in {c.key for c in report.conditions if not c.met}
    page = category_page(client, t)
    assert '<span class="tag ok">' not in page


def test_the_public_category_page_says_provisional_while_the_event_runs(client, director):
    t = import_data(strong_event("andamento", rounds=4))
    make_homologable(t)
    Tournament.objects.filter(pk=t.pk).update(homologation_exported_at=None)
    page = category_page(client, t)
    assert '<span class="tag ok">vaga provisória</span>' in page
    assert "vagas provisórias: o evento ainda está em andamento" in page
    finished = import_data(strong_event("encerrado"))
    make_homologable(finished)
    TournamentRole.objects.get_or_create(tournament=finished, user=director, role="director")
    page = category_page(client, finished)
    assert '<span class="tag ok">vaga</span>' in page and "provisória" not in page
