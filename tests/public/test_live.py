"""Live public pages (issue 30): each public page carries the tournament's version, a small endpoint answers
whether it changed (304 with no body when not), and a saved result changes it. The browser side is in
tests/browser/test_browser_live.py."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from testkit.builders import build_tournament
from tournaments.core import cache
from tournaments.models import Board, Round
from tournaments.rounds.results import game_record_result

VERSION = re.compile(r'<main id="main" class="container" data-live="([^"]+)" data-live-version="(\d+)">')


@pytest.fixture
def live(db, director):
    """Round 3 of 3 published with its results still to come."""
    return build_tournament(slug="ao-vivo", players=10, rounds=3, user=director, complete_last=False)


def page_version(client, url):
    r = client.get(url)
    assert r.status_code == 200
    match = VERSION.search(r.content.decode())
    assert match, "the page is not live"
    return match.group(1), int(match.group(2))


@pytest.mark.parametrize(
    "path", ["", "emparceiramento/", "rodadas/", "rodadas/3/", "classificacao/", "jogadores/", "telao/classificacao/"]
)
def test_public_pages_carry_their_version_and_the_live_script(client, live, path):
    url = f"/t/{live.slug}/{path}"
    endpoint, version = page_version(client, url)
    assert endpoint == f"/t/{live.slug}/versao/"
    assert version == cache.version(live.pk)
    assert "/static/js/live.js" in client.get(url).content.decode()


def test_the_endpoint_answers_the_version_and_304_when_unchanged(client, live):
    url = f"/t/{live.slug}/versao/"
    r = client.get(url)
    assert r.status_code == 200 and r.content.decode() == str(cache.version(live.pk))
    assert r["ETag"] == f'"{cache.version(live.pk)}"'
    assert r["Cache-Control"] == "no-cache"
    assert "Set-Cookie" not in r and not r.cookies
    assert r["Content-Security-Policy"].startswith("default-src 'none'")
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert len(queries) == 0  # the slug's id is remembered: a check costs no query


def test_a_saved_result_changes_the_version_and_the_page(client, live, director, django_capture_on_commit_callbacks):
    url = f"/t/{live.slug}/rodadas/3/"
    _endpoint, before = page_version(client, url)
    etag = client.get(f"/t/{live.slug}/versao/")["ETag"]
    board = Board.objects.get(round__tournament=live, round__number=3, number=1)
    with django_capture_on_commit_callbacks(execute=True):  # the version changes when the save commits
        game_record_result(board=board, results={1: "1-0", 2: "1/2"}, expected_version=board.version, user=director)
    r = client.get(f"/t/{live.slug}/versao/", HTTP_IF_NONE_MATCH=etag)
    assert r.status_code == 200 and int(r.content) > before
    _endpoint, after = page_version(client, url)
    assert after == int(r.content)  # the page fetched again shows the version the phone was told


def test_an_unknown_tournament_is_404_and_writes_are_refused(client, live):
    assert client.get("/t/nao-existe/versao/").status_code == 404
    assert client.post(f"/t/{live.slug}/versao/").status_code == 405


def test_staff_and_printed_pages_are_not_live(client, live, director):
    r = client.get(f"/t/{live.slug}/imprimir/classificacao/")
    assert "data-live" not in r.content.decode()
    client.force_login(director)
    assert "data-live" not in client.get(f"/gestao/t/{live.slug}/").content.decode()
    assert Round.objects.filter(tournament=live).count() == 3
