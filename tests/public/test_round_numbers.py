"""Issue 25, item 14: a round number the tournament does not have (0, past the last round, absurdly large)
answers 404 on every public round page, never a page titled "Rodada 0" showing the current round."""

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.rounds.services import round_pair, round_publish

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("number", [0, 2, 99, 999_999_999])
def test_a_round_the_tournament_does_not_have_is_404(field, director, number):
    t, _entries = field(4)
    round_publish(round=round_pair(tournament=t, user=director), user=director)
    client = Client()
    assert client.get(reverse("public:round", args=[t.slug, 1])).status_code == 200
    assert client.get(reverse("public:pairings", args=[t.slug])).status_code == 200  # the current round, cached
    assert client.get(reverse("public:pairings_alpha", args=[t.slug])).status_code == 200
    for name, args in [
        ("public:round", [number]),
        ("public:round_alpha", [number]),
        ("public:opening", [number]),
        ("public:board", [number, 1]),
        ("public:print_pairings", [number]),
        ("public:print_slips", [number]),
    ]:
        response = client.get(reverse(name, args=[t.slug, *args]))
        assert response.status_code == 404, (name, number, response.status_code)
        assert "Rodada 0" not in response.content.decode()
