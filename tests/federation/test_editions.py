"""The regulation as the federation's edition (issue 35.1): published on the federation's page from a JSON file,
never changed afterwards, served with the registry, received by a venue with ``sync_registry``, and judging the
stages whose start date it covers."""

import json
from dataclasses import replace
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.core.errors import ServiceError
from tournaments.domain.edition import current_text
from tournaments.federation import client
from tournaments.federation.registry_sync import registry_download
from tournaments.federation.selectors import national_list
from tournaments.models import RegulationEdition
from tournaments.models.editions import edition_for_day


def edition_file(code="cbjd-2027", **changes):
    edition = replace(current_text(), code=code, in_force_from=date(2027, 1, 1), published_on=date(2026, 12, 1))
    return replace(edition, **changes).as_json()


def upload(data):
    return SimpleUploadedFile("edicao.json", json.dumps(data).encode(), content_type="application/json")


@pytest.mark.django_db
def test_an_officer_publishes_an_edition_and_it_judges_the_stages_from_its_date(client, federation, as_federation):
    client.force_login(federation)
    page = client.post(reverse("federation:editions"), {"file": upload(edition_file(min_participants=24))}, follow=True)
    assert "Edição cbjd-2027 publicada" in page.content.decode()
    assert edition_for_day(date(2027, 3, 1)).min_participants == 24
    assert edition_for_day(date(2026, 12, 31)).code == "cbjd-circuito-nacional"
    listing = client.get(reverse("federation:editions")).content.decode()
    assert "cbjd-2027" in listing and "distribuída com o produto" in listing
    # the same code again (even "corrected") is refused: a published edition never changes
    again = client.post(reverse("federation:editions"), {"file": upload(edition_file(min_participants=2))}, follow=True)
    assert "uma edição publicada não muda" in again.content.decode()
    assert RegulationEdition.objects.get().payload["fixed"]["min_participants"] == 24
    hostile = client.post(reverse("federation:editions"), {"file": upload({"code": "x"})}, follow=True)
    assert "Edição: falta" in hostile.content.decode() and RegulationEdition.objects.count() == 1


@pytest.mark.django_db
def test_a_director_cannot_publish_an_edition(client, director, as_federation):
    client.force_login(director)
    assert client.post(reverse("federation:editions"), {"file": upload(edition_file())}).status_code == 403
    assert not RegulationEdition.objects.exists()


@pytest.mark.django_db
def test_the_registry_serves_the_editions_and_the_venue_stores_them(venue, monkeypatch):
    answer = {"list": {"name": "l", "date": "2026-11-01"}, "players": [], "suspensions": []}
    answer["editions"] = [edition_file(min_participants=24)]
    monkeypatch.setattr(client, "national_list", lambda: answer)
    registry_download(user=None)
    assert edition_for_day(date(2027, 2, 1)).min_participants == 24
    registry_download(user=None)  # again: already here, nothing added
    assert RegulationEdition.objects.count() == 1
    # an edition of the same code that differs is refused, and nothing of that answer is written
    answer["editions"] = [edition_file(min_participants=2)]
    with pytest.raises(ServiceError, match="não muda"):
        registry_download(user=None)
    assert RegulationEdition.objects.get().payload["fixed"]["min_participants"] == 24
    answer["editions"] = [{"code": "mal"}]
    with pytest.raises(ServiceError, match="edição 1"):
        registry_download(user=None)
    # an edition published for a newer version of the product (a reading this one does not know): the venue is
    # told to update, by the edition's code, and nothing of the answer is written
    newer = edition_file(code="cbjd-2030")
    newer["readings"]["a_reading_of_2030"] = {"value": "x", "article": "art. 99"}
    answer["editions"] = [newer]
    answer["suspensions"] = [{"cbjd_id": "1", "start": "2027-01-01", "end": "2027-02-01", "source": "tribunal"}]
    with pytest.raises(ServiceError, match="edição “cbjd-2030” do regulamento, que esta versão do damas-swiss não"):
        registry_download(user=None)
    assert RegulationEdition.objects.count() == 1


@pytest.mark.django_db
def test_the_federation_serves_what_it_published():
    RegulationEdition.objects.create(
        code="cbjd-2027", title="t", in_force_from=date(2027, 1, 1), payload=edition_file()
    )
    assert [e["code"] for e in national_list()["editions"]] == ["cbjd-2027"]
