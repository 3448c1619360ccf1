"""What the public pages say: the player card, tie groups with their order and reason, drafts kept out of the
standings, the printouts and the QR code."""

import re
from datetime import date
from pathlib import Path

import pytest
from django.urls import reverse

from testkit.builders import build_tournament
from tournaments.models import Board, Entry, Game, Opening, Player, Round, Seat
from tournaments.setup.services import tournament_create

pytestmark = pytest.mark.django_db
STATIC = Path(__file__).resolve().parents[2] / "static"


def two_player_event(director, results):
    """Two players, one round on board 1 with the given results (seen from each game's White)."""
    t = tournament_create(
        user=director,
        name="Duelo",
        slug="duelo",
        start_date=date(2026, 3, 1),
        end_date=date(2026, 3, 1),
        planned_rounds=1,
    )
    a = Entry.objects.create(
        tournament=t,
        pairing_number=1,
        rating=2000,
        player=Player.objects.create(name="Alice Prado", sex="F", rating=2000),
    )
    b = Entry.objects.create(
        tournament=t,
        pairing_number=2,
        rating=1900,
        player=Player.objects.create(name="Bruno Reis", sex="M", rating=1900),
    )
    opening = Opening.objects.filter(table=t.opening_table, active=True).order_by("position").first()
    rnd = Round.objects.create(tournament=t, number=1, status="published", opening=opening)
    board = Board.objects.create(round=rnd, number=1)
    Seat.objects.create(round=rnd, entry=a, board=board, side="first")
    Seat.objects.create(round=rnd, entry=b, board=board, side="second")
    for n, code in enumerate(results, start=1):
        Game.objects.create(board=board, number=n, result=code)
    return t, a, b, opening


def test_the_player_card_shows_opponent_colours_opening_each_game_and_running_score(client, director):
    t, a, b, opening = two_player_event(director, ["1-0", "1-0"])  # game 2: Bruno has White and wins
    html = client.get(reverse("public:player", args=[t.slug, a.pk])).content.decode()
    assert "Bruno Reis" in html and opening.code in html
    games = re.findall(r'<span class="game (\w+)"><span class="piece (white|black)"', html)
    assert games == [("win", "white"), ("loss", "black")]
    assert re.search(r'<td class="num">2</td>\s*<td class="num points">2</td>', html)


def test_a_tie_between_two_players_who_met_names_direct_encounter(client, director):
    t, a, b, _ = two_player_event(director, ["1-0", "1-0"])  # 2-2: level encounter
    html = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    group = re.search(r'<tr class="tie-group">(.*?)</tr>', html, re.S).group(1)
    assert "2 jogadores empatados com 2 pontos" in group
    assert "Confronto direto → Escore acumulado" in group
    assert "confronto direto é o primeiro critério" in group
    assert html.count(">1-2<") == 2, "a level encounter and equal tiebreaks: the place is shared"


def test_drafts_never_reach_the_standings_even_with_results(client, director):
    t = build_tournament(slug="com-rascunho", players=10, rounds=2, draft_round=True, draft_results=True, user=director)
    html = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    assert "Após 2 rodadas completas." in html
    crosstable = client.get(reverse("public:crosstable", args=[t.slug])).content.decode()
    assert '<th scope="col" class="num">3</th>' not in crosstable
    entry = Round.objects.get(tournament=t, number=3).seats.first().entry
    card = client.get(reverse("public:player", args=[t.slug, entry.pk])).content.decode()
    assert card.count('<tr class="') == 2


def test_result_slips_four_per_page_with_both_games_and_the_opening(client, director):
    t = build_tournament(slug="sumulas", players=18, rounds=1, user=director)
    html = client.get(reverse("public:print_slips", args=[t.slug, 1])).content.decode()
    assert html.count('class="slip-page"') == 3  # 9 boards
    assert html.count('<section class="slip">') == 9
    code = Round.objects.get(tournament=t, number=1).opening.code
    assert html.count(f"<strong>{code}</strong>") == 9
    first_slip = html.split('<section class="slip">')[1]
    assert first_slip.count('<td class="num">1</td>') == 1 and first_slip.count('<td class="num">2</td>') == 1
    assert 'class="print-toolbar no-print"' in html and 'class="site-header' not in html


def test_the_print_pages_have_the_print_header_and_repeat_table_headers(client, director):
    t = build_tournament(slug="impressao", players=12, rounds=2, user=director)
    for name, args in [
        ("public:print_pairings", [2]),
        ("public:print_pairings_alpha", [2]),
        ("public:print_standings", []),
        ("public:print_crosstable", []),
    ]:
        html = client.get(reverse(name, args=[t.slug, *args])).content.decode()
        assert '<header class="print-header">' in html, name
        assert "<thead>" in html, name
        assert "/static/css/paper.css" in html and 'href="/static/css/print.css" media="print"' in html
    css = (STATIC / "css" / "print.css").read_text()
    assert "@page { size: A4" in css and "thead { display: table-header-group; }" in css
    assert ".no-print" in css and "page-break-inside: avoid" in css


def test_the_qr_code_points_at_the_public_pairings(client, director):
    t = build_tournament(slug="qr-teste", players=4, rounds=1, user=director)
    html = client.get(reverse("public:print_qr", args=[t.slug])).content.decode()
    assert re.search(r'<svg[^>]*class="qr"', html), "an inline SVG QR code"
    assert "http://testserver/t/qr-teste/emparceiramento/" in html
    qr = html.split('<div class="qr-code">', 1)[1].split("</div>", 1)[0]
    assert qr.lstrip().startswith("<svg") and "<img" not in qr and "src=" not in qr


def test_the_venue_screen_refreshes_itself_in_large_type(client, director):
    t = build_tournament(slug="telao", players=6, rounds=1, user=director)
    for name in ("public:screen_standings", "public:screen_pairings"):
        html = client.get(reverse(name, args=[t.slug]) + "?segundos=30").content.decode()
        assert '<meta http-equiv="refresh" content="60">' in html
        assert 'class="screen"' in html and 'data-refresh="30"' in html
        assert 'class="site-header' not in html


def test_every_asset_is_served_by_the_app(client, director):
    t = build_tournament(slug="offline", players=6, rounds=1, user=director)
    for url in [
        reverse("public:home"),
        reverse("public:standings", args=[t.slug]),
        reverse("public:print_slips", args=[t.slug, 1]),
        reverse("public:opening", args=[t.slug, 1]),
    ]:
        html = client.get(url).content.decode()
        external = re.findall(r'(?:src|href)="(https?://[^"]+)"', html)
        assert not external, (url, external)
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
            assert (STATIC / asset.removeprefix("/static/")).exists(), asset


def test_a_recorded_game_gets_a_move_viewer(client, director):
    t, a, b, opening = two_player_event(director, ["1/2", "1/2"])
    game = Game.objects.get(board__round__tournament=t, number=1)
    from draughts import format_move, parse_fen

    position = parse_fen(opening.fen, "brazilian")
    moves = []
    for _ in range(4):
        move = position.legal_moves()[0]
        moves.append(format_move(position, move))
        position = position.play(move)
    game.pdn = " ".join(moves)
    game.save()
    html = client.get(reverse("public:board", args=[t.slug, 1, 1])).content.decode()
    assert html.count("data-frame") >= 2


def test_printed_pairings_and_standings_carry_a_small_qr_code(client, director):
    t = build_tournament(slug="qr-canto", players=6, rounds=1, user=director)
    for name, args in [
        ("public:print_pairings", [1]),
        ("public:print_pairings_alpha", [1]),
        ("public:print_standings", []),
    ]:
        html = client.get(reverse(name, args=[t.slug, *args])).content.decode()
        assert re.search(r'<div class="print-qr"[^>]*>\s*<svg', html), name


def test_the_standings_link_every_category(client, director):
    t = build_tournament(slug="categorias", players=12, rounds=1, user=director)
    for url in (reverse("public:standings", args=[t.slug]), reverse("public:standings_category", args=[t.slug, "FEM"])):
        html = client.get(url).content.decode()
        assert f'href="/t/{t.slug}/classificacao/ABS/"' in html and f'href="/t/{t.slug}/classificacao/FEM/"' in html
    fem = client.get(reverse("public:standings_category", args=[t.slug, "fem"])).content.decode()
    assert "Classificação · Feminino" in fem and "vaga" in fem
