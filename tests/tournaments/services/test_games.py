"""Game records: PDN checked against the rules from the drawn opening; the first illegal move named."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tournaments.core.errors import ServiceError
from tournaments.games.services import check_record, game_attach_pdn, tournament_pdn
from tournaments.models import AuditEntry, Game
from tournaments.rounds.selectors import rounds_with_boards
from tournaments.rounds.services import round_pair
from tournaments.setup.openings import opening_set_code

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(field, director):
    t, entries = field(4)
    rnd = round_pair(tournament=t, user=director, publish=True)
    return t, rnd, Game.objects.get(board__round=rnd, board__number=1, number=1)


def test_legal_game_from_initial_position_saved(game, director):
    t, rnd, g = game
    game_attach_pdn(game=g, pdn="1. 22-18 11-15 2. 18x11 8x15", user=director)
    g.refresh_from_db()
    assert g.pdn.startswith("1. 22-18")
    assert AuditEntry.objects.filter(action="game.pdn").count() == 1


def test_illegal_move_named_and_nothing_saved(game, director):
    t, rnd, g = game
    with translation.override("pt-br"), pytest.raises(ServiceError) as exc:
        game_attach_pdn(game=g, pdn="1. 22-18 11-15 2. 21-17", user=director)  # 18x11 is compulsory
    msg = exc.value.messages[0]
    assert msg.startswith("Lance 2 das brancas (21-17)") and "captura" in msg
    g.refresh_from_db()
    assert g.pdn == ""


def test_moves_start_from_the_drawn_opening(game, director):
    t, rnd, g = game
    from tournaments.models import Opening

    black_to_move = (
        Opening.objects.filter(table__code="IDF-64", active=True, side_to_move="B").order_by("position").first()
    )
    opening_set_code(round=rnd, code=black_to_move.code, user=director)
    with translation.override("pt-br"), pytest.raises(ServiceError) as exc:
        game_attach_pdn(game=g, pdn="1. 22-18", user=director)  # legal from the initial position, not here
    assert "pretas" in exc.value.messages[0]
    g.refresh_from_db()
    assert g.pdn == ""


def test_pdn_export_and_staff_page(game, director, client):
    t, rnd, g = game
    game_attach_pdn(game=g, pdn="1. 22-18 11-15 2. 18x11 8x15", user=director)
    text = tournament_pdn(t, rounds_with_boards(t))
    # 64 squares: the alphanumeric notation of the PDN standard's GameType 26 entry (22-18 is c3-d4)
    assert '[Event "' + t.name + '"]' in text and '[GameType "26,W,8,8,A0,0"]' in text
    assert "1. c3-d4 f6-e5 2. d4xf6 g7xe5" in text
    client.force_login(director)
    r = client.get(reverse("staff:pdn_export", args=[t.slug]))
    assert r.status_code == 200 and b"1. c3-d4 f6-e5 2. d4xf6 g7xe5" in r.content
    r = client.post(reverse("staff:game", args=[t.slug, 1, 1, 2]), {"pdn": "1. 22-18 11-15 2. 21-17"})
    assert r.status_code == 400


@pytest.mark.parametrize(
    "pdn,message",
    [
        (
            '[Round "1"]\n1. 22-18 11-15 2-0\n[Round "2"]\n1. 21-17 11-16 0-2',
            "Registro inválido: o texto contém 2 partidas; um registro é uma partida só",
        ),
        (
            "1. 22-18 {boa abertura\n11-15 2. 18x11 8x15",
            "Registro inválido: comentário aberto com '{' na linha 1 não foi fechado "
            "(falta '}'; o resto do texto ficaria dentro dele)",
        ),
    ],
)
def test_one_closed_game_per_record(game, director, pdn, message):
    """Issue 15, item 10: a record is one game with its comments closed; anything else is refused whole."""
    t, rnd, g = game
    with pytest.raises(ServiceError) as exc:
        game_attach_pdn(game=g, pdn=pdn, user=director)
    assert exc.value.messages == [message]
    g.refresh_from_db()
    assert g.pdn == "" and not AuditEntry.objects.filter(action="game.pdn").exists()


def test_export_survives_a_stored_record_that_no_longer_reads(game, director, caplog):
    t, rnd, g = game
    game_attach_pdn(game=g, pdn="1. 22-18 11-15", user=director)
    Game.objects.filter(pk=g.pk).update(pdn="1. 22-18 11-15 2-0 1. 21-17 *")  # stored before records were bounded
    text = tournament_pdn(t, rounds_with_boards(t))
    assert '[Annotator "registro ilegível: o registro contém 2 partidas; um registro é uma partida só"]' in text
    assert "c3-d4" not in text
    [logged] = [r for r in caplog.records if r.name == "tournaments.games.services"]
    assert logged.levelname == "WARNING" and logged.getMessage().startswith(
        f"PDN export, game {rnd.number}.{g.board.number}.{g.number}: the stored record no longer reads ("
    )


# -- a PDN file of many games, each its own record --------------------------------------------------------------


def test_a_file_of_games_goes_back_to_its_games(game, director, client):
    from tournaments.games.services import games_import_pdn

    t, rnd, g = game
    other = Game.objects.get(board__round=rnd, board__number=2, number=1)
    game_attach_pdn(game=g, pdn="1. 22-18 11-15 2. 18x11 8x15", user=director)
    game_attach_pdn(game=other, pdn="1. 21-17 {início} 10-14 2. 17x10 7x14", user=director)
    exported = tournament_pdn(t, rounds_with_boards(t))
    Game.objects.filter(board__round__tournament=t).update(pdn="")
    saved = games_import_pdn(tournament=t, text=exported, user=director)
    assert sorted((s.board.number, s.number) for s in saved) == [(1, 1), (2, 1)]
    g.refresh_from_db()
    other.refresh_from_db()
    assert g.pdn.startswith('[Event "') and g.pdn.count("[Event") == 1  # one game per record
    assert [m.notation for m in check_record(t, g, g.pdn).moves] == ["22-18", "11-15", "18x11", "8x15"]
    assert [m.notation for m in check_record(t, other, other.pdn).moves] == ["21-17", "10-14", "17x10", "7x14"]
    # through the staff page: a Latin-1, CRLF file
    Game.objects.filter(board__round__tournament=t).update(pdn="")
    client.force_login(director)
    upload = SimpleUploadedFile("partidas.pdn", exported.replace("\n", "\r\n").encode("cp1252"))
    response = client.post(reverse("staff:pdn_import", args=[t.slug]), {"file": upload})
    assert response.status_code == 302
    assert Game.objects.filter(board__round__tournament=t).exclude(pdn="").count() == 2


def test_a_file_of_games_is_all_or_nothing(game, director):
    from tournaments.games.services import games_import_pdn

    t, rnd, g = game
    white, black = g.board.seats.get(side="first").entry.player.name, g.board.seats.get(side="second").entry.player.name
    text = (
        f'[Round "1.1.1"]\n[White "{white}"]\n[Black "{black}"]\n1. 22-18 11-15 *\n\n'
        '[Round "1.2.1"]\n1. 22-18 11-15 2. 21-17 *\n\n'  # 18x11 was compulsory
        '[Round "1.1.1"]\n1. 21-17 *\n\n'  # the same game twice
        '[Round "9.1.1"]\n1. 21-17 *\n\n'
        f'[Round "1.1.2"]\n[White "{white}"]\n1. 21-17 *\n\n'  # game 2: the second player has White
        '[Round "primeira"]\n1. 21-17 *\n'
    )
    before = AuditEntry.objects.count()
    with pytest.raises(ServiceError) as exc:
        games_import_pdn(tournament=t, text=text, user=director)
    assert exc.value.messages == [
        "Partida 2 do arquivo (rodada 1, mesa 2, jogo 1): Lance 2 das brancas (21-17) é ilegal: a captura é "
        "obrigatória (1 peça)",
        "Partida 3 do arquivo (rodada 1, mesa 1, jogo 1): o mesmo jogo já está na partida 1 do arquivo",
        "Partida 4 do arquivo (rodada 9, mesa 1, jogo 1): não existe neste torneio",
        f"Partida 5 do arquivo (rodada 1, mesa 1, jogo 2): White “{white}” não é {black}",
        "Partida 6 do arquivo: a tag Round “primeira” não indica rodada.mesa.jogo (por exemplo 3.2.1) nem a rodada",
    ]
    assert not Game.objects.filter(board__round__tournament=t).exclude(pdn="").exists()
    assert AuditEntry.objects.count() == before
    with pytest.raises(ServiceError) as exc:
        games_import_pdn(tournament=t, text='[Round "1.1.1"]\n1. 22-18 {sem fim', user=director)
    assert exc.value.messages == [
        "Partida 1 do arquivo (rodada 1, mesa 1, jogo 1): Registro inválido: comentário aberto com '{' na linha 2 "
        "não foi fechado (falta '}'; o resto do texto ficaria dentro dele)"
    ]


def test_a_file_with_plain_round_numbers_is_placed_by_the_players_names(game, director, client):
    """Dambo and other programs write ``[Round "1"]``: each record goes to the game of that round whose players its
    White and Black tags name (game 2 of a micro-match: the second player has White); the ones no game has are
    listed, the others saved (issue 27)."""
    from tournaments.games.services import games_import_pdn

    t, rnd, g = game
    first = g.board.seats.get(side="first").entry.player.name
    second = g.board.seats.get(side="second").entry.player.name
    other = Game.objects.get(board__round=rnd, board__number=2, number=1)
    o_first = other.board.seats.get(side="first").entry.player.name
    o_second = other.board.seats.get(side="second").entry.player.name
    text = (
        f'[Event "Aberto"]\\r\r\n[Round "1"]\\r\r\n[White "{first}"]\\r\r\n[Black "{second}"]\\r\r\n'
        '[Result "-"]\\r\r\n\\r\r\n1. 22-18 11-15 2. 18x11 8x15 -\\r\r\n\\r\r\n'
        f'[Round "1"]\n[White "{second}"]\n[Black "{first}"]\n1. 21-17 *\n\n'
        f'[Round "1"]\n[White "{o_first}"]\n[Black "{o_second}"]\n1. 22-18 *\n\n'
        '[Round "1"]\n[White "Fulano de Tal"]\n[Black "Beltrano"]\n1. 22-18 *\n\n'
        f'[Round "2"]\n[White "{first}"]\n[Black "{second}"]\n1. 22-18 *\n'
    )
    saved = games_import_pdn(tournament=t, text=text, user=director)
    assert [(s.board.round.number, s.board.number, s.number) for s in saved] == [(1, 1, 1), (1, 1, 2), (1, 2, 1)]
    assert saved.unplaced == [
        "Partida 4 do arquivo (rodada 1, Fulano de Tal × Beltrano): nenhum jogo dessa rodada tem esses jogadores",
        f"Partida 5 do arquivo (rodada 2, {first} × {second}): nenhum jogo dessa rodada tem esses jogadores",
    ]
    g.refresh_from_db()
    assert [m.notation for m in check_record(t, g, g.pdn).moves] == ["22-18", "11-15", "18x11", "8x15"]
    # a file none of whose games can be placed is refused, listing them
    with pytest.raises(ServiceError) as exc:
        games_import_pdn(
            tournament=t, text='[Round "1"]\n[White "Fulano"]\n[Black "Beltrano"]\n1. 22-18 *\n', user=director
        )
    assert exc.value.messages == [
        "Arquivo PDN: nenhuma partida pôde ser colocada num jogo do torneio",
        "Partida 1 do arquivo (rodada 1, Fulano × Beltrano): nenhum jogo dessa rodada tem esses jogadores",
    ]
    # the staff page says which games it could not place
    Game.objects.filter(board__round__tournament=t).update(pdn="")
    client.force_login(director)
    upload = SimpleUploadedFile("dambo.pdn", text.encode("cp1252"))
    response = client.post(reverse("staff:pdn_import", args=[t.slug]), {"file": upload}, follow=True)
    page = response.content.decode()
    assert "Fulano de Tal × Beltrano" in page and "nenhum jogo dessa rodada tem esses jogadores" in page
    assert Game.objects.filter(board__round__tournament=t).exclude(pdn="").count() == 3
