"""Issue 34.7: during a database outage a public page whose earlier version is in the cache is served, with a
notice that it may be out of date (not a 500); the version check goes on answering. When the database is back the
fresh page replaces it."""

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.urls import reverse

from testkit.builders import build_tournament
from tournaments.core import cache as versions
from tournaments.public import page_cache

NOTICE = "O servidor está com uma falha momentânea: esta é a última versão guardada desta página"


@pytest.fixture(autouse=True)
def _fresh_slugs():
    page_cache._SLUGS.clear()
    yield
    page_cache._SLUGS.clear()


@pytest.fixture
def outage(monkeypatch):
    """Every query fails as with PostgreSQL stopped (the connection refused)."""

    def refused(self, *args, **kwargs):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')

    def start():
        monkeypatch.setattr(CursorWrapper, "execute", refused)
        monkeypatch.setattr(CursorWrapper, "executemany", refused)

    return start


@pytest.mark.django_db
def test_a_stale_page_is_served_with_a_notice_while_the_database_is_down(client, director, outage, monkeypatch):
    t = build_tournament(slug="sem-banco", players=8, rounds=2, user=director)
    url = reverse("public:standings", args=[t.slug])
    before = client.get(url)
    assert before.status_code == 200 and NOTICE not in before.content.decode()
    versions._incr(t.pk)  # a result saved just before the outage: the kept page is now an earlier version
    page_cache._SLUGS[t.slug] = (*page_cache._SLUGS[t.slug][:2], 0.0)  # and the slug's memory expired
    outage()
    stale = client.get(url)
    text = stale.content.decode()
    assert stale.status_code == 200, text[:500]
    assert f'<p class="msg msg-warning" id="stale-notice" role="status">{NOTICE}' in text
    assert text.index('<main id="main"') < text.index('id="stale-notice"') < text.index("</main>")
    assert 'name="csrfmiddlewaretoken"' in text  # the holes are filled as on any hit
    notice = text[text.index('<p class="msg msg-warning" id="stale-notice"') :].split("</p>")[0] + "</p>"
    kept = before.content.decode()
    csrf = 'name="csrfmiddlewaretoken" value="'
    # apart from the notice and the per-request token, the page is the kept one
    assert text.replace(notice, "").split(csrf)[0] == kept.split(csrf)[0]
    # the version check still answers (no query: the slug is remembered)
    assert client.get(reverse("public:live_version", args=[t.slug])).status_code == 200
    # a page never kept has nothing to show: the error page, as before
    never = Client(raise_request_exception=False).get(reverse("public:crosstable", args=[t.slug]))
    assert never.status_code == 500
    monkeypatch.undo()  # the database is back
    fresh = client.get(url)
    assert fresh.status_code == 200 and NOTICE not in fresh.content.decode()


def test_the_notice_goes_into_the_page_s_text_never_into_a_hole():
    mark_payload = b'<main id="main" data-x="1">'  # a hole whose payload looks like the tag is left alone
    segments = (b"<html><body>", mark_payload, b'<main id="main" class="container">conteudo</main>')
    out = page_cache.stale_notice(segments)
    assert out[1] == mark_payload
    assert out[2].startswith(b'<main id="main" class="container"><p class="msg msg-warning" id="stale-notice"')
