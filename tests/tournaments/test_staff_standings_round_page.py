"""Issue 28, points 10 and 13, on the server's side: the staff standings say "(rascunhos incluídos)" only while a
round they count is a draft, and export what they show; the staff round table says "s/r" for an unrated player and
its export leaves the cell empty (a rating column of numbers)."""

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.models import Entry, Game, TournamentRole
from tournaments.models.tournament import facts_changed
from tournaments.rounds.services import round_pair
from tournaments.setup.demo import load_demo

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(client, director):
    t, _ = load_demo()
    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})
    client.force_login(director)
    return t


def test_drafts_are_said_only_while_a_counted_round_is_one(client, demo, director):
    url = reverse("staff:standings", args=[demo.slug])
    html = client.get(url).content.decode()
    assert '<small class="muted" id="standings-state">após a rodada 4</small>' in html
    assert "rascunhos incluídos" not in html
    rnd = round_pair(tournament=demo, user=director, publish=False)
    html = client.get(url).content.decode()  # paired, no result yet: round 5 is not counted
    assert '<small class="muted" id="standings-state">após a rodada 4</small>' in html
    Game.objects.filter(board__round=rnd).update(result="1/2")
    html = client.get(url).content.decode()
    assert '<small class="muted" id="standings-state">após a rodada 5 (rascunhos incluídos)</small>' in html
    assert "a rodada 5 é rascunho: só vai para o papel depois de publicada" in html


def test_the_standings_export_is_the_table_shown(client, demo):
    r = client.get(reverse("staff:standings", args=[demo.slug]), {"_export": "xlsx"})
    assert r["Content-Disposition"] == f'attachment; filename="{demo.slug}-classificacao.xlsx"'
    ws = load_workbook(io.BytesIO(r.content)).active
    assert ws.title == "Classificação"
    head = [c.value for c in ws[1]]
    assert head == [
        "#",
        "Nº",
        "Nome",
        "Pontos",
        "Escore acumulado",
        "Escore acumulado corrigido",
        "Milésimos",
        "Rtg +/-",  # the rating estimate the page shows too (issue 40.2)
    ]
    first = [c.value for c in ws[2]]
    assert first[:4] == [1, 1, "Marcos Lima Silva", 13] and first[4:7] == [35, 31, 41]
    out = io.StringIO()
    call_command("rating_changes", demo.slug, "--format", "json", stdout=out)
    assert first[7] == next(r["change"] for r in json.loads(out.getvalue()) if r["id"] == 1)
    assert ws.max_row == 1 + demo.entries.count()
    r = client.get(reverse("staff:standings", args=[demo.slug]), {"_export": "csv", "categoria": "FEM"})
    assert r["Content-Disposition"] == f'attachment; filename="{demo.slug}-classificacao-fem.csv"'
    lines = r.content.decode("utf-8-sig").strip().splitlines()
    assert len(lines) == 1 + demo.entries.filter(categories__code="FEM").count()


def test_an_unrated_player_is_s_r_on_the_round_page_and_empty_in_its_export(client, demo):
    with facts_changed("jogador sem rating na lista"):  # issue 35.3: after round 1, only with a reason
        Entry.objects.filter(tournament=demo, pairing_number=39).update(rating=None)
    url = reverse("staff:round", args=[demo.slug, 4])
    html = client.get(url).content.decode()
    assert '<td class="rating wide-only">s/r</td>' in html
    assert html.count('<td class="name">') == 2 * demo.rounds.get(number=4).boards.count()
    ws = load_workbook(io.BytesIO(client.get(url, {"_export": "xlsx"}).content)).active
    row = next(r for r in ws.iter_rows(min_row=2, values_only=True) if "Arthur Ribeiro Moura" in r)
    head = [c.value for c in ws[1]]
    assert row[head.index("rating (brancas, partida 1)")] is None  # he plays White on board 19
    assert "s/r" not in row
