"""Public URLs with text a visitor typed (issue 15, item 7): an unknown category is a 404 before anything is
computed, and no cache key ever holds what was typed; the keys name the view and the database's own values.

The tests run on a local memory cache of their own, whose keys can be listed.
"""

from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.urls import reverse

from testkit.builders import build_tournament
from tournaments.models import Category
from tournaments.public import page_cache

pytestmark = pytest.mark.django_db

HOSTILE = ["XYZ", "fem ", "<script>alert(1)</script>", "a" * 300, "FEM%00", "..", "ABS' OR '1'='1", "Ｆｅｍ"]


@pytest.fixture(autouse=True)
def memory_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "keys"}}
    cache.clear()
    page_cache._SLUGS.clear()
    yield
    page_cache._SLUGS.clear()


def category_url(event, text):
    return f"/t/{event.slug}/classificacao/{quote(text, safe='')}/"


def keys():
    return [k.split(":", 2)[2] for k in cache._cache]  # LocMemCache: "prefix:version:key"


@pytest.fixture
def event(director):
    return build_tournament(slug="aberto-chaves", players=12, rounds=2, user=director)


@pytest.fixture
def no_standings(monkeypatch):
    """Fails the test if the standings are computed."""

    def refuse(*args, **kwargs):
        raise AssertionError("standings computed for an unknown category")

    monkeypatch.setattr("tournaments.public.views.standings_table", refuse)
    monkeypatch.setattr("tournaments.public.printing.standings_table", refuse)


@pytest.mark.parametrize("logged_in", [False, True])
def test_unknown_category_is_a_404_before_any_computation(client, event, director, no_standings, logged_in):
    if logged_in:
        client.force_login(director)
    for text in HOSTILE:
        assert client.get(category_url(event, text)).status_code == 404, text
        printed = client.get(reverse("public:print_standings", args=[event.slug]), {"categoria": text})
        assert printed.status_code == 404, text
    assert not [k for k in keys() if k.startswith("page:")], keys()


def test_keys_hold_the_stored_code_whatever_the_case_typed(client, event):
    pages = [client.get(category_url(event, code)) for code in ("FEM", "fem", "Fem")]
    assert [p.status_code for p in pages] == [200, 200, 200]
    pk = event.pk
    assert (
        sorted(k for k in keys() if k.startswith("page:"))
        == [
            f"page:{pk}:{page_cache.WHOLE_PAGE}:pt-br:tournaments.public.views.standings:category=FEM",  # the view named by its module
            f"page:{pk}:standings:pt-br:FEM",
        ]
    )


def test_no_key_holds_any_text_from_the_url(client, event):
    urls = [category_url(event, text) for text in ["FEM", "fem", "abs", *HOSTILE]]
    urls += [
        reverse("public:standings", args=[event.slug]),
        reverse("public:round", args=[event.slug, 1]),
        reverse("public:board", args=[event.slug, 1, 1]),
        reverse("public:board", args=[event.slug, 1, 999]),  # no such board: a 404, nothing kept
        reverse("public:round", args=[event.slug, 77]),
        f"/t/{event.slug}/rodadas/{'9' * 30}/",
        "/t/nao-existe/classificacao/FEM/",
    ]
    statuses = [client.get(url).status_code for url in urls]
    assert statuses == [200, 200, 200, *[404] * len(HOSTILE), 200, 200, 200, 404, 404, 404, 404]
    typed = ["fem", "abs", *HOSTILE, "999", "77", "9" * 30, "nao-existe", event.slug, "classificacao", "rodadas"]
    for key in keys():
        assert not [t for t in typed if t in key], key  # case-sensitive: "ABS" as stored is not "abs" typed
    assert len([k for k in keys() if k.startswith("page:")]) == 10  # 5 pages (FEM, ABS, all, round, board) x 2


def test_a_category_added_elsewhere_shows_at_once(client, event):
    assert client.get(reverse("public:standings_category", args=[event.slug, "FEM"])).status_code == 200
    # Another app server adds a category: this process's remembered list does not know it yet.
    Category.objects.bulk_create([Category(tournament=event, code="SUB21", name="Sub-21")])
    assert "sub21" not in page_cache._SLUGS[event.slug][1]
    assert client.get(reverse("public:standings_category", args=[event.slug, "sub21"])).status_code == 200


def test_a_printed_page_and_the_public_page_of_the_same_name_never_share_a_cached_page(client, db, director):
    """public.standings and printing.standings are both named ``standings``: each keeps its own cached page (the
    printed standings, with its holes unfilled, were once served as the public standings)."""
    from testkit.builders import build_tournament

    t = build_tournament(slug="chaves", players=8, rounds=2, user=director)
    printed = client.get(f"/t/{t.slug}/imprimir/classificacao/").content.decode()
    public = client.get(f"/t/{t.slug}/classificacao/").content.decode()
    assert 'class="print-header"' in printed
    assert 'class="print-header"' not in public and 'id="lang-select"' in public
    assert "hole-" not in public and "hole-" not in printed
