"""The venue downloads the federation's national list and the suspensions in force (issue 29, art. 3, 4, 10):
recorded as a rating list import with the list's date, all or nothing."""

from datetime import date

import pytest

from tournaments.core.errors import ServiceError
from tournaments.federation import client
from tournaments.federation.registry_sync import registry_download
from tournaments.models import Player, RatingList, RegistrySync, Suspension

ANSWER = {
    "list": {"name": "rating-cbjd-2026-11.csv", "date": "2026-11-01"},
    "players": [
        {
            "cbjd_id": "PE4100",
            "name": "Ana Albuquerque Esteves",
            "rating": 2350,
            "sex": "F",
            "birth_date": "2010-01-01",
            "state": "PE",
            "club": "Clube; de Damas",
        },
        {
            "cbjd_id": "PB0007",
            "name": "Severino Araújo",
            "rating": None,
            "sex": "M",
            "birth_date": None,
            "state": "PB",
            "club": "",
        },
    ],
    "suspensions": [
        {
            "cbjd_id": "PB0007",
            "start": "2026-10-19",
            "end": "2027-01-19",
            "source": "abandonment",
            "reason": "Abandono da etapa Caruaru (art. 10)",
        },
        {"cbjd_id": "XX9999", "start": "2026-10-19", "end": "2027-01-19", "source": "tribunal", "reason": ""},
    ],
}


@pytest.mark.django_db
def test_list_and_suspensions_recorded_with_the_lists_date(venue, monkeypatch):
    monkeypatch.setattr(client, "national_list", lambda: ANSWER)
    sync = registry_download(user=None)
    assert (sync.list_name, sync.list_date, sync.players, sync.suspensions) == (
        "rating-cbjd-2026-11.csv",
        date(2026, 11, 1),
        2,
        2,
    )
    rating_list = RatingList.objects.get()
    assert rating_list.list_date == date(2026, 11, 1) and rating_list.created == 2
    ana = Player.objects.get(cbjd_id="PE4100")
    assert (ana.rating, ana.club, ana.birth_date) == (2350, "Clube; de Damas", date(2010, 1, 1))
    s = Suspension.objects.get()
    assert (s.player.cbjd_id, s.end_date, s.source) == ("PB0007", date(2027, 1, 19), "abandonment")
    # downloaded again: the suspension is not doubled
    registry_download(user=None)
    assert Suspension.objects.count() == 1 and RegistrySync.objects.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    "broken",
    [
        {**ANSWER, "players": "todos"},
        {**ANSWER, "players": [{**ANSWER["players"][0], "rating": "2350; DROP"}]},
        {**ANSWER, "players": [{**ANSWER["players"][0], "rating": 99999}]},
        {**ANSWER, "suspensions": [{"cbjd_id": "PB0007", "start": "ontem"}]},
        {**ANSWER, "list": {"date": "01/11/2026"}},
    ],
)
def test_an_unsound_answer_writes_nothing(venue, monkeypatch, broken):
    monkeypatch.setattr(client, "national_list", lambda: broken)
    with pytest.raises(ServiceError):
        registry_download(user=None)
    assert (Player.objects.count(), RatingList.objects.count(), Suspension.objects.count()) == (0, 0, 0)
    assert RegistrySync.objects.count() == 0
