"""The venue's rating estimate (issue 40.2) through `manage.py rating_changes` on a real migrated database: the
figures worked out by hand for a round of micro-matches with a forfeit."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.core.errors import ServiceError
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


def rating_changes(*args):
    out = io.StringIO()
    call_command("rating_changes", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def played(field, director):
    """P01-P04 (2000..1970), round 1 played: P01 beats P03 1.5-0.5; P02-P04 a forfeit and a draw."""
    # 2000 (P01), 1990, 1980, 1970: round 1 pairs P01-P03 and P02-P04 (top half against bottom half)
    t, entries = field(4)
    rnd = round_pair(tournament=t, user=director, publish=True)
    boards = {}
    for board in rnd.boards.all():
        sides = {seat.side: seat.entry.player.name for seat in board.seats.all()}
        boards[sides["first"], sides["second"]] = board
    assert {tuple(sorted(k)) for k in boards} == {("P01", "P03"), ("P02", "P04")}
    # codes are White's view; the first seat is White in game 1 and Black in game 2
    for (first, _second), board in boards.items():
        if "P01" in (first, _second):
            # P01 wins game 1 and draws game 2
            results = {1: "1-0" if first == "P01" else "0-1", 2: "1/2"}
        else:
            # P04 does not come to game 1 (a forfeit: no game); game 2 is a draw
            results = {1: "+/-" if first == "P02" else "-/+", 2: "1/2"}
        game_record_result(board=board, results=results, expected_version=1, user=director)
    return t


def test_the_changes_of_a_round_worked_out_by_hand(played):
    t = played
    rows = {r["name"]: r for r in json.loads(rating_changes(t.slug, "--format", "json"))}
    assert list(rows["P01"]) == ["id", "name", "rating", "games", "score", "expected", "change", "performance"]
    # P01 (2000, K 40: no rated games known) against 1980: E = 1 / (1 + 10^(-20/400)) = 0.52875 a game
    e = 1 / (1 + 10 ** (-20 / 400))
    assert rows["P01"]["games"] == 2 and rows["P01"]["score"] == 1.5
    assert rows["P01"]["expected"] == round(2 * e, 2) == 1.06
    assert rows["P01"]["change"] == round(40 * (1.5 - 2 * e), 1) == 17.7
    assert rows["P03"]["change"] == -17.7
    # the forfeited game is no game: P02 and P04 have one game, a draw; 1990 v 1970: E = 0.52875 too
    assert rows["P02"]["games"] == 1 and rows["P02"]["score"] == 0.5
    assert rows["P02"]["change"] == round(40 * (0.5 - e), 1) == -1.2  # -1.150
    assert rows["P04"]["change"] == 1.2
    # performance: P01 scored 75 % against 1980 (dp 193): 2173
    assert rows["P01"]["performance"] == 2173
    text = rating_changes(t.slug)
    assert "+17.7" in text and "a lista da federação é a que vale" in text


def test_an_unknown_tournament_is_a_one_line_error():
    with pytest.raises(CommandError, match="não encontrado"):
        rating_changes("nao-existe")


def test_the_pages_and_the_workbook_show_the_same_estimate(played, director, client):
    from tournaments.homologation.workbook import homologation_workbook

    t = played
    client.force_login(director)
    staff = client.get(f"/gestao/t/{t.slug}/classificacao/").content.decode()
    assert "Rtg +/-" in staff and "+17,7" in staff and "\u221217,7" in staff
    p01 = t.entries.get(player__name="P01")
    page = client.get(f"/t/{t.slug}/jogadores/{p01.pk}/").content.decode()
    assert 'id="player-rating"' in page and "Rtg +/- +17,7" in page and "K 40" in page
    # the explanation: one line per game that counted, the opponent's rating, the expected score, the change
    table = page[page.index('id="rating-games"') :]
    assert table.count("<tr><td") == 2 and "P03" in table and "1980" in table and "0,53" in table
    assert "+18,85" in table and "\u22121,15" in table  # 40 x (1 - 0.52875) and 40 x (0.5 - 0.52875)
    wb = homologation_workbook(t)
    sheet = wb["Desempenho"]
    rows = [[c.value for c in r] for r in sheet.iter_rows()]
    head = next(r for r in rows if "Rtg +/- (estimativa)" in r)
    col = head.index("Rtg +/- (estimativa)")
    p01_row = next(r for r in rows if "P01" in r)
    assert p01_row[col] == 17.7


def test_k_comes_from_the_rated_games_the_registry_counts(played):
    from tournaments.models import Player

    Player.objects.filter(name="P01").update(rated_games=30)  # the list counts 30: K 20, not 40
    rows = {r["name"]: r for r in json.loads(rating_changes(played.slug, "--format", "json"))}
    e = 1 / (1 + 10 ** (-20 / 400))
    assert rows["P01"]["change"] == round(20 * (1.5 - 2 * e), 1) == 8.8
    assert rows["P03"]["change"] == -17.7  # still K 40: 0 rated games


def test_the_lists_rated_games_column_reaches_the_registry(federation):
    from datetime import date

    from tournaments.entries.services import rating_list_import
    from tournaments.models import Player, RatingListRow

    csv = "ID CBJD;Nome;Rating;Sexo;Partidas\n7001;Ana Sá;1850;F;42\n7002;Rui Lobo;;M;\n"
    rating_list_import(data=csv.encode(), filename="lista.csv", user=federation, list_date=date(2026, 10, 1))
    assert dict(Player.objects.values_list("cbjd_id", "rated_games")) == {"7001": 42, "7002": 0}
    assert RatingListRow.objects.get(cbjd_id="7001").rated_games == 42
    # a list without the column leaves the counts as they were
    rating_list_import(
        data=b"ID CBJD;Nome;Rating\n7001;Ana S\xc3\xa1;1860\n",
        filename="b.csv",
        user=federation,
        list_date=date(2026, 11, 1),
    )
    assert Player.objects.get(cbjd_id="7001").rated_games == 42
    bad = "ID CBJD;Nome;Rating;Sexo;Partidas\n7003;Ivo;1700;M;doze\n"
    with pytest.raises(ServiceError, match="partidas"):
        rating_list_import(data=bad.encode(), filename="c.csv", user=federation, list_date=date(2026, 12, 1))


def test_the_method_is_the_editions(played):
    """Issue 40.1: K and the cap are the regulation edition's, read from the snapshot's edition."""
    from dataclasses import replace

    from tournaments.domain.edition import RatingMethod
    from tournaments.standings.ratings import snapshot_estimates
    from tournaments.standings.snapshot import read_snapshot

    snapshot = read_snapshot(played, public=False)
    p01 = next(e for e in snapshot.entries if e.player.name == "P01")
    assert snapshot_estimates(snapshot)[p01.pk].k == 40
    edition = replace(snapshot.settings.edition, rating=RatingMethod(k_new=16))
    other = replace(snapshot, settings=replace(snapshot.settings, edition=edition))
    e = 1 / (1 + 10 ** (-20 / 400))
    assert snapshot_estimates(other)[p01.pk].change == pytest.approx(16 * (1.5 - 2 * e))
