"""The standings table's rows are written by the presenter (``_add_rows_html``), not by template tags: the same
HTML as the template markup they replace, escaping included, on the overall and a category's table, in both
languages."""

import pytest
from django.template import engines
from django.utils import translation

from testkit.builders import build_tournament
from tournaments.homologation.report import published_standings
from tournaments.standings.presenters import _add_rows_html, standings_table

pytestmark = pytest.mark.django_db

# The rows as public/_standings_table.html wrote them before (the reference).
TEMPLATE_ROWS = (
    '{% load i18n %}{% translate "unrated" as unrated_label %}{% translate "unr." as unrated_abbr %}'
    '{% translate "spot" as spot_label %}'
    '{% for r in table.rows %}{% if r.group %}<tr class="tie-group"><td colspan="{{ table.span }}">'
    "{{ r.group.text }}</td></tr>\n"
    '{% endif %}<tr{% if r.qualified %} class="qualified"{% endif %}><td>{{ r.rank }}</td><td><a href="{{ r.url }}">'
    '{{ r.name }}</a>{% if r.unrated %} <span class="tag" title="{{ unrated_label }}">{{ unrated_abbr }}</span>'
    '{% endif %}{% if r.withdrawn %} <span class="tag warn">{{ r.withdrawn }}</span>{% endif %}{% if r.qualified %}'
    ' <span class="tag ok">{{ spot_label }}</span>{% endif %} <small>{{ r.info }}</small></td>{% if table.category %}'
    '<td class="muted">{{ r.overall }}</td>{% endif %}<td class="points">{{ r.points }}</td>{{ r.cells }}</tr>\n'
    "{% endfor %}"
)


@pytest.mark.parametrize("language", ["pt-br", "en"])
@pytest.mark.parametrize("category", [None, "FEM"])
def test_rows_html_is_the_template_markup(director, language, category):
    t = build_tournament(slug="linhas", players=41, rounds=5, user=director)
    with translation.override(language):
        table = standings_table(t, published_standings(t, category=category), category)
        rows = table["rows"]
        assert len(rows) > 6 and any(r["group"] for r in rows)
        # every branch of the markup, and hostile text where the page shows user text
        rows[0]["name"] = 'Zé <script>alert("x")</script> & Cia'
        rows[1]["withdrawn"] = "saiu <b>na</b> 3ª & não voltou"
        rows[2]["unrated"] = True
        rows[3]["qualified"] = True
        rows[4]["info"] = "12 · PE & <i>"
        rows[5]["group"] = {"text": 'empate <"grupo"> & ordem'}
        rows[6]["unrated"] = rows[6]["qualified"] = True
        rows[6]["withdrawn"] = "x"
        _add_rows_html(rows, table["span"], category is not None)
        expected = engines["django"].from_string(TEMPLATE_ROWS).render({"table": table})
    assert "".join(r["html"] for r in rows) == expected
    assert "&lt;script&gt;" in expected and 'class="qualified"' in expected and "tie-group" in expected


def test_the_page_shows_the_rows(client, director):
    t = build_tournament(slug="linhas", players=21, rounds=4, user=director)
    html = client.get(f"/t/{t.slug}/classificacao/").content.decode()
    table = standings_table(t, published_standings(t))
    assert "".join(r["html"] for r in table["rows"]) in html


def test_overall_standings_read_only_some_entry_fields_in_a_fixed_number_of_queries(client, director, make_player):
    """The overall pages read the entries as plain rows with only the fields the standings use
    (the snapshot, standings.read_snapshot): entries that sat every round out (late, then withdrawn) are read like the others,
    and the pages still take no query per entry."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from tournaments.models import Entry

    t = build_tournament(slug="linhas", players=30, rounds=4, user=director)
    urls = (reverse("public:standings", args=[t.slug]), reverse("public:print_standings", args=[t.slug]))
    for url in urls:  # the first request of a page reads what later ones keep (the slug map)
        client.get(url)
    counts = []
    for late in (1, 4):
        for n in range(len(counts) // len(urls), late):
            Entry.objects.create(
                tournament=t,
                player=make_player(name=f"Tardio Lins {n}", state="PE"),
                pairing_number=31 + n,
                rating=None if n % 2 else 1700,
                late_entry_round=3,
                status="withdrawn",
                withdrawn_from_round=4,
                withdrawal_kind="abandonment",
            )
        for url in urls:
            cache.clear()
            with CaptureQueriesContext(connection) as ctx:
                html = client.get(url).content.decode()
            counts.append(len(ctx.captured_queries))
            assert f"Tardio Lins {late - 1}" in html and f"{30 + late} · PE" in html
    assert counts[:2] == counts[2:] and max(counts) <= 15


def test_the_overall_pages_take_the_same_queries_whatever_the_players_and_rounds(client, director):
    """No query per entry, per round, per board or per game on the overall standings pages (public and printed):
    a tournament of 8 players and 2 rounds and one of 31 players (a bye each round) and 6 rounds, with a draft
    round, take the same number."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    counts = {}
    for slug, players, rounds in (("pequeno", 8, 2), ("maior", 31, 6)):
        t = build_tournament(slug=slug, players=players, rounds=rounds, draft_round=True, user=director)
        for name in ("public:standings", "public:print_standings"):
            url = reverse(name, args=[t.slug])
            client.get(url)  # the first request of a page reads what later ones keep (the slug map)
            cache.clear()
            with CaptureQueriesContext(connection) as ctx:
                html = client.get(url).content.decode()
            assert html.count("<tr") > players
            counts[slug, name] = len(ctx.captured_queries)
    assert counts["pequeno", "public:standings"] == counts["maior", "public:standings"] <= 10, counts
    assert counts["pequeno", "public:print_standings"] == counts["maior", "public:print_standings"], counts
