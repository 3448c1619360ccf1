"""Issue 28.18: every staff page and the login page are titled "… · damas-swiss", the name once."""

import re

import pytest
from django.urls import reverse

from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


def title(html):
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()


def test_the_product_name_is_in_each_title_once(client, field, director):
    assert title(client.get(reverse("login")).content.decode()) == "Entrar · damas-swiss"
    t, _entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    client.force_login(director)
    for url in [
        reverse("staff:home"),
        reverse("staff:tournament", args=[t.slug]),
        reverse("staff:results", args=[t.slug, 1]),
        reverse("staff:round", args=[t.slug, 1]),
        reverse("staff:entries", args=[t.slug]),
        reverse("staff:registry"),
        reverse("staff:national_suspensions"),
    ]:
        text = title(client.get(url).content.decode())
        assert text.endswith(" · damas-swiss") and text.count("damas-swiss") == 1, (url, text)


def test_the_language_selector_says_portugues_brasil(client):
    """Issue 28.14: "Português (Brasil)", not Django's "Português Brasileiro"."""
    html = client.get(reverse("login")).content.decode()
    options = re.findall(r'<option value="([\w-]+)"( selected)?>([^<]+)</option>', html)
    assert options == [("pt-br", " selected", "Português (Brasil)"), ("en", "", "English")]


def test_every_staff_page_names_the_product_once(client, field, director):
    """Every page of the staff URL map that answers a GET with HTML (issue 28.18), not a chosen few."""
    from config import urls_staff

    t, entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    director.is_superuser = True  # the federation's pages too
    director.save()
    client.force_login(director)
    values = {"slug": t.slug, "number": 1, "pk": entries[0].pk, "player": entries[0].player_id, "board": 1, "game": 1}
    checked = []
    for pattern in urls_staff.urlpatterns:
        names = list(pattern.pattern.regex.groupindex)
        if any(n not in values for n in names):
            continue  # a job, a category or a file by its id: the pages above cover their layout
        url = reverse(f"staff:{pattern.name}", kwargs={n: values[n] for n in names})
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        text = title(response.content.decode())
        assert text.endswith(" · damas-swiss") and text.count("damas-swiss") == 1, (url, text)
        checked.append(pattern.name)
    assert len(checked) >= 20, checked
