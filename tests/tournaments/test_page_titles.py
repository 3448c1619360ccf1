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
