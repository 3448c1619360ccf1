"""Tribunal suspensions entered on a staff page by CBJD ID, start, end and reason (issue 28 item 3): the page says
whom the ID names before saving; only the federation enters and lifts them; they refuse entries nationally."""

from datetime import date

import pytest
from django.urls import reverse

from tournaments.core.errors import ServiceError
from tournaments.entries.services import entry_register
from tournaments.models import AuditEntry, Suspension
from tournaments.models.choices import SuspensionSource
from tournaments.registry.suspensions import SuspensionRequest, suspension_create_by_id

pytestmark = pytest.mark.django_db
URL = "/gestao/cadastro/suspensoes/"


@pytest.fixture
def caio(make_player):
    return make_player(name="Caio Duarte", cbjd_id="30103", state="RN", club="Clube Potiguar")


def data(**kw):
    return {"cbjd_id": "30103", "start_date": "2026-11-01", "end_date": "2027-02-15", "reason": "STJD 12/2026"} | kw


def test_the_federation_checks_the_player_then_saves_the_suspension(client, federation, caio):
    assert reverse("staff:national_suspensions") == URL
    client.force_login(federation)
    page = client.post(URL, data(cbjd_id=" 30103 ")).content.decode()
    assert "Suspender <strong>Caio Duarte</strong> (ID CBJD 30103) de 01/11/2026 a 15/02/2027?" in page
    assert 'name="confirm" value="1"' in page and Suspension.objects.count() == 0
    r = client.post(URL, data(confirm="1"), follow=True)
    html = r.content.decode()
    assert "Caio Duarte (ID CBJD 30103): suspensão de 01/11/2026 a 15/02/2027 registrada." in html
    s = Suspension.objects.get()
    assert (s.player, s.start_date, s.end_date, s.reason, s.source, s.tournament) == (
        caio,
        date(2026, 11, 1),
        date(2027, 2, 15),
        "STJD 12/2026",
        SuspensionSource.TRIBUNAL,
        None,
    )
    assert s.created_by == federation
    entry = AuditEntry.objects.get(action="suspension.create")
    assert entry.username == "federacao" and entry.new["player"] == "30103"
    table = html[html.index('id="in-force"') :]
    assert "Caio Duarte" in table and "01/11/2026 – 15/02/2027" in table and "STJD 12/2026" in table
    # entered twice by mistake: refused, said
    r = client.post(URL, data(confirm="1"), follow=True)
    assert "Caio Duarte: já há uma suspensão registrada de 01/11/2026 a 15/02/2027." in r.content.decode()
    assert Suspension.objects.count() == 1


def test_it_refuses_the_players_entry_in_a_tournament_it_covers(client, federation, caio, make_tournament, director):
    client.force_login(federation)
    client.post(URL, data(confirm="1"))
    t = make_tournament(start_date=date(2026, 12, 5), end_date=date(2026, 12, 6))
    with pytest.raises(ServiceError) as refused:
        entry_register(tournament=t, player=caio, user=director)
    assert "15/02/2027" in " ".join(refused.value.messages)


@pytest.mark.parametrize(
    "fields,message",
    [
        ({"cbjd_id": "99999"}, "Nenhum jogador do cadastro tem o ID CBJD “99999”."),
        ({"end_date": "2026-10-01"}, "A suspensão termina antes de começar."),
        ({"reason": ""}, "Este campo é obrigatório."),
        ({"start_date": "amanhã"}, "Informe uma data válida."),
    ],
)
def test_a_bad_form_says_what_is_wrong_and_saves_nothing(client, federation, caio, fields, message):
    client.force_login(federation)
    r = client.post(URL, data(confirm="1", **fields))
    assert r.status_code == 400 and message in r.content.decode()
    assert Suspension.objects.count() == 0


def test_a_reason_with_a_line_break_is_refused_by_the_service(caio, federation):
    with pytest.raises(ServiceError):
        suspension_create_by_id(
            details=SuspensionRequest("30103", date(2026, 11, 1), date(2027, 1, 1), "linha 1\nlinha 2"),
            user=federation,
        )
    assert Suspension.objects.count() == 0


def test_directors_see_the_list_but_cannot_enter_or_lift(client, director, federation, caio):
    client.force_login(federation)
    client.post(URL, data(confirm="1"))
    client.force_login(director)
    page = client.get(URL).content.decode()
    assert "Caio Duarte" in page and 'id="new-suspension"' not in page and 'value="lift"' not in page
    assert client.post(URL, data(cbjd_id="30103", confirm="1")).status_code == 403
    s = Suspension.objects.get()
    assert client.post(URL, {"action": "lift", "suspension": s.pk, "reason": "x"}).status_code == 403
    assert Suspension.objects.get().lifted_at is None


def test_the_federation_lifts_one_with_a_reason(client, federation, caio):
    client.force_login(federation)
    client.post(URL, data(confirm="1"))
    s = Suspension.objects.get()
    r = client.post(URL, {"action": "lift", "suspension": s.pk, "reason": "recurso provido"}, follow=True)
    assert "Suspensão revogada." in r.content.decode()
    s.refresh_from_db()
    assert s.lifted_at is not None and s.lift_reason == "recurso provido"


def test_the_registry_links_to_the_page(client, director):
    client.force_login(director)
    assert f'href="{URL}"' in client.get("/gestao/cadastro/").content.decode()
