"""Staff standings, homologation page, files, and importing a tournament through the page."""

import io
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.interchange import export_json
from tournaments.models import Tournament, TournamentRole
from tournaments.setup.demo import load_demo

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(client, director):
    t, _ = load_demo(today=date(2026, 11, 7))  # the dates the assertions below name
    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})
    client.force_login(director)
    return t


def test_staff_standings_and_homologation_pages(client, demo):
    html = client.get(reverse("staff:standings", args=[demo.slug])).content.decode()
    leader = demo.entries.select_related("player").get(pairing_number=1).player.name
    assert leader in html and "Escore acumulado" in html
    html = client.get(reverse("staff:homologation", args=[demo.slug])).content.decode()
    assert "10/11/2026" in html  # deadline: last day (08/11) + 2
    assert "ABS" in html and "FEM" in html and "S18" in html


def test_workbook_download_director_only(client, demo, django_user_model):
    r = client.get(reverse("staff:download", args=[demo.slug, "xlsx"]))
    assert r.status_code == 200
    wb = load_workbook(io.BytesIO(r.content))
    assert "Classificação" in wb.sheetnames
    r = client.post(reverse("staff:homologation", args=[demo.slug]), {"action": "mark_exported"})
    assert r.status_code == 302
    arbiter = django_user_model.objects.create_user("arb", password="x")
    TournamentRole.objects.create(tournament=demo, user=arbiter, role="arbiter")
    client.force_login(arbiter)
    assert client.get(reverse("staff:download", args=[demo.slug, "xlsx"])).status_code == 403
    assert client.post(reverse("staff:homologation", args=[demo.slug]), {"action": "mark_exported"}).status_code == 403
    assert client.get(reverse("staff:download", args=[demo.slug, "json"])).status_code == 200
    assert client.get(reverse("staff:download", args=[demo.slug, "nada"])).status_code == 404


def test_trf_of_a_micro_match_tournament_refused_with_a_message(client, demo):
    r = client.get(reverse("staff:download", args=[demo.slug, "trf"]), follow=True)
    assert "TRF" in r.content.decode()


def test_import_through_the_page(client, demo, director):
    text = export_json(demo).replace(demo.slug, "copia-recife")
    r = client.post(reverse("staff:tournament_import"), {"file": SimpleUploadedFile("copia.json", text.encode())})
    assert r.status_code == 302
    copy = Tournament.objects.get(slug="copia-recife")
    assert TournamentRole.objects.get(tournament=copy, user=director).role == "director"
    assert copy.entries.count() == demo.entries.count()


def test_bad_import_lists_problems_and_writes_nothing(client, demo):
    before = Tournament.objects.count()
    r = client.post(
        reverse("staff:tournament_import"), {"file": SimpleUploadedFile("x.json", b'{"format": "damas-swiss/1"')}
    )
    assert r.status_code == 200
    assert Tournament.objects.count() == before
    assert "msg-error" in r.content.decode()


def test_new_tournament_form_preselects_the_official_table(client, director):
    client.force_login(director)
    html = client.get(reverse("staff:tournament_create")).content.decode()
    from tournaments.models import OpeningTable

    idf = OpeningTable.objects.get(code="IDF-64")
    assert f'<option value="{idf.pk}" selected>' in html


def test_downloading_the_workbook_writes_nothing_marking_it_sent_is_a_post(client, demo):
    """Issue 15 item 8: no GET that writes. Downloading the workbook (GET) leaves the tournament and the audit log
    as they were; recording it as sent to the federation is a POST from the homologation page, audited."""
    from tournaments.models import AuditEntry

    audit_before = AuditEntry.objects.count()
    for _ in range(2):
        assert client.get(reverse("staff:download", args=[demo.slug, "xlsx"])).status_code == 200
        assert client.get(reverse("staff:homologation", args=[demo.slug])).status_code == 200
    demo.refresh_from_db()
    assert demo.homologation_exported_at is None
    assert AuditEntry.objects.count() == audit_before
    # the demo has 4 of its 7 rounds: the sending is recorded only once the results are complete (issue 26)
    r = client.post(reverse("staff:homologation", args=[demo.slug]), {"action": "mark_exported"}, follow=True)
    demo.refresh_from_db()
    assert demo.homologation_exported_at is None and "resultados estão completos" in r.content.decode()
    from tournaments.setup.services import tournament_update

    # (now its 4 rounds are all of them: a locked fact, changed with a reason, issue 35.3)
    tournament_update(tournament=demo, user=None, planned_rounds=4, reason="Etapa encurtada")
    r = client.post(reverse("staff:homologation", args=[demo.slug]), {"action": "mark_exported"}, follow=True)
    demo.refresh_from_db()
    assert demo.homologation_exported_at is not None
    assert AuditEntry.objects.filter(tournament=demo, action="homologation.export").count() == 1
    assert "msg-success" in r.content.decode()
    # Recorded: the button is no longer offered as the next step, only folded away for a later re-sending (37.9)
    html = r.content.decode()
    assert "Registrar agora o envio da planilha à federação" not in html
    assert '<details id="record-again"><summary>Enviou a planilha de novo, depois de uma correção?</summary>' in html
    r = client.post(reverse("staff:homologation", args=[demo.slug]), {"action": "other"}, follow=True)
    assert AuditEntry.objects.filter(tournament=demo, action="homologation.export").count() == 1
