"""Every address shown, printed or encoded for a phone is one a phone can reach (issue 37.3).

At a venue served with `make run LAN=1`, the director works on the laptop itself, at http://127.0.0.1:8000/. The
wall's QR code, the printed sheets' header and the arbiter's invite link pointed there: a phone that scanned them
reached itself. They now carry the laptop's address on the Wi-Fi, as the slips and the player cards already did.
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.rounds.services import round_pair
from tournaments.templatetags.damas import qr_svg

pytestmark = pytest.mark.django_db
WIFI = "http://192.168.15.23:8000"


@pytest.fixture
def venue(settings, monkeypatch):
    """`make run LAN=1` on a laptop whose address on the Wi-Fi is 192.168.15.23; pages opened on the laptop."""
    settings.LAN = True
    monkeypatch.setattr("tournaments.core.phone_urls.local_addresses", lambda: ["192.168.15.23"])
    return {"HTTP_HOST": "127.0.0.1:8000", "SERVER_PORT": "8000"}  # as the server's requests have them


def test_the_wall_qr_code_sends_phones_to_the_wifi_address(venue, field):
    t, _entries = field(4)
    html = Client().get(reverse("public:print_qr", args=[t.slug]), **venue).content.decode()
    url = WIFI + reverse("public:pairings", args=[t.slug])
    assert f'<p class="qr-url">{url}</p>' in html
    assert qr_svg(url, 10) in html  # the code encodes that address
    assert "127.0.0.1" not in html


def test_the_printed_pairings_header_names_the_wifi_address(venue, field, director):
    t, _entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    for name in ("print_pairings", "print_pairings_alpha", "print_slips"):
        path = reverse(f"public:{name}", args=[t.slug, 1])
        for _visit in range(2):  # the first fills the page cache, the second is served from it
            html = Client().get(path, **venue).content.decode()
            assert f"{WIFI}/t/{t.slug}/" in html, name
            assert "127.0.0.1" not in html, name
    html = Client().get(reverse("public:print_standings", args=[t.slug]), **venue).content.decode()
    assert qr_svg(f"{WIFI}/t/{t.slug}/", 2) in html and "127.0.0.1" not in html


def test_the_arbiters_invite_link_and_its_qr_code_use_the_wifi_address(venue, make_tournament, director):
    t = make_tournament()
    client = Client()
    client.force_login(director)
    response = client.post(
        reverse("staff:roles", args=[t.slug]),
        {"action": "create_account", "username": "arbitra", "full_name": "Ana Souza", "role": "arbiter"},
        **venue,
    )
    html = response.content.decode()
    url = re.search(r'value="([^"]+)" id="invite-url"', html).group(1)
    assert url.startswith(f"{WIFI}/convite/"), url
    assert 'id="invite-qr"' in html and qr_svg(url, 4) in html
    assert "QR code ao lado" in html and "Ele abre" not in html
