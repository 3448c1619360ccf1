"""Issue 25, item 10: a NUL byte in a URL, a query or a form field, and a lone surrogate in a JSON body, are
refused with a 400 (PostgreSQL cannot store either: they were 500s). Run on PostgreSQL too (DATABASE_URL)."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(director):
    client = Client()
    client.force_login(director)
    return client


def test_a_nul_byte_in_a_path_or_a_query_is_400(make_tournament):
    t = make_tournament()
    client = Client()
    assert client.get(f"/t/{t.slug}/").status_code == 200
    for url in [f"/t/{t.slug}%00/", f"/t/{t.slug}/jogadores/?q=ana%00", "/%00", f"/t/{t.slug}/?x%00=1"]:
        response = client.get(url)
        assert response.status_code == 400, url
        assert "caractere nulo" in response.content.decode()


def test_a_nul_byte_in_a_form_field_is_a_form_error_or_ignored_never_500(staff, make_tournament):
    t = make_tournament(name="Aberto")
    assert staff.get(reverse("staff:entries", args=[t.slug]), {"q": "ana\x00"}).status_code == 400
    login = Client().post(reverse("login"), {"username": "diretor\x00", "password": "x"})
    assert login.status_code == 200 and login.context["form"].errors  # a form error, never a 500
    t.refresh_from_db()
    assert t.name == "Aberto"


@pytest.mark.parametrize("body", ['{"name": "\\ud800"}', '["a\\udc00b"]', '{"\\udbff": 1}'])
def test_a_lone_surrogate_in_json_is_400(staff, body):
    # any JSON body outside the federation's API (which reads and checks its own bodies, issue 34.10:
    # tests/federation/test_api_limits.py::test_a_lone_surrogate_is_refused_by_the_api_itself)
    response = staff.post(reverse("login"), body, content_type="application/json")
    assert response.status_code == 400
    assert "JSON" in response.content.decode()


def test_a_surrogate_pair_is_fine(staff):
    body = '{"name": "\\ud83d\\ude00"}'  # an emoji, written as its pair
    response = staff.post(reverse("login"), body, content_type="application/json")
    assert response.status_code != 400 or "JSON" not in response.content.decode()
