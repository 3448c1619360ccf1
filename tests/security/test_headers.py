"""Response headers (issue 15, item 9): a Content-Security-Policy on every response (all assets are local), and
``Cache-Control: private, no-store`` on staff pages and on whatever a logged-in user sees.

The policy allows no inline script or style: every page is checked here for ``<script>`` without ``src``,
``<style>``, ``style=""`` and ``on...=""`` attributes; the browser tests fail on any violation Chromium reports.
"""

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.urls import reverse

from testkit.builders import build_tournament
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

POLICY = "default-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=", re.IGNORECASE)


@pytest.fixture
def event(director):
    from tournaments.registry.services import federation_group

    director.user_permissions.add(*Permission.objects.filter(codename__in=["add_openingtable"]))
    director.groups.add(federation_group())  # the rating-list page is the federation's (issue 15.5)
    return build_tournament(slug="aberto-cabecalhos", players=12, rounds=2, user=director, draft_round=True)


def public_urls(t):
    entry = Entry.objects.filter(tournament=t).first()
    return [
        "/",
        reverse("public:tournament", args=[t.slug]),
        reverse("public:pairings", args=[t.slug]),
        reverse("public:pairings_alpha", args=[t.slug]),
        reverse("public:rounds", args=[t.slug]),
        reverse("public:round", args=[t.slug, 1]),
        reverse("public:board", args=[t.slug, 1, 1]),
        reverse("public:opening", args=[t.slug, 1]),
        reverse("public:standings", args=[t.slug]),
        reverse("public:standings_category", args=[t.slug, "FEM"]),
        reverse("public:crosstable", args=[t.slug]),
        reverse("public:players", args=[t.slug]),
        reverse("public:player", args=[t.slug, entry.pk]),
        reverse("public:screen_standings", args=[t.slug]),
        reverse("public:screen_pairings", args=[t.slug]),
        reverse("public:print_index", args=[t.slug]),
        reverse("public:print_pairings", args=[t.slug, 1]),
        reverse("public:print_pairings_alpha", args=[t.slug, 1]),
        reverse("public:print_slips", args=[t.slug, 1]),
        reverse("public:print_standings", args=[t.slug]),
        reverse("public:print_crosstable", args=[t.slug]),
        reverse("public:print_qr", args=[t.slug]),
    ]


def staff_urls(t):
    entry = Entry.objects.filter(tournament=t).first()
    return [
        reverse("staff:home"),
        reverse("staff:tournament", args=[t.slug]),
        reverse("staff:entries", args=[t.slug]),
        reverse("staff:entry", args=[t.slug, entry.pk]),
        reverse("staff:round", args=[t.slug, 1]),
        reverse("staff:round", args=[t.slug, 3]),
        reverse("staff:homologation", args=[t.slug]),
        reverse("staff:ratings", args=[t.slug]),
        reverse("staff:tournament_import"),
        reverse("staff:rating_import"),
        reverse("staff:opening_tables"),
        reverse("staff:standings", args=[event_slug := t.slug]),
        reverse("staff:audit", args=[event_slug]),
        reverse("staff:settings", args=[event_slug]),
        reverse("staff:results", args=[event_slug, 2]),
        reverse("staff:suspensions", args=[event_slug]),
        reverse("staff:forbidden_pairs", args=[event_slug]),
        reverse("staff:roles", args=[event_slug]),
        reverse("login"),
    ]


def test_every_public_page_has_the_policy_and_no_inline_code(client, event):
    assert settings.CONTENT_SECURITY_POLICY == POLICY
    for url in public_urls(event):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Security-Policy"] == POLICY, url
        assert "no-store" not in response.get("Cache-Control", ""), url  # public pages may be kept
        assert not INLINE.findall(response.content.decode()), (url, INLINE.findall(response.content.decode()))


def test_staff_pages_are_private_and_never_stored(client, event, director):
    assert client.get(reverse("login"))["Cache-Control"] == "private, no-store"
    client.force_login(director)
    for url in [*staff_urls(event), *public_urls(event)]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Security-Policy"] == POLICY, url
        assert response["Cache-Control"] == "private, no-store", url
        assert not INLINE.findall(response.content.decode()), (url, INLINE.findall(response.content.decode()))


def test_staff_downloads_are_never_stored(client, event, director):
    client.force_login(director)
    for url in [
        reverse("staff:entries", args=[event.slug]) + "?_export=csv",
        reverse("staff:download", args=[event.slug, "json"]),
        reverse("staff:download", args=[event.slug, "xlsx"]),
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Cache-Control"] == "private, no-store", url


def test_a_redirect_to_the_login_is_not_stored_either(client, event):
    response = client.get(reverse("staff:entries", args=[event.slug]))
    assert response.status_code == 302
    assert response["Cache-Control"] == "private, no-store"
