"""PDN as Dambo and toernooibase export it (a literal ``\\r`` after each tag), ``[Result "-"]`` for a game unfinished
or unknown, and a file of another game refused at once naming it (issue 27). Written for these tests in the shape
those programs write, on Brazilian draughts games."""

from draughts import pdn
from draughts.pdn import check_pdn_game, export_pdn, normalize_result, parse_pdn

OPENING = "1. 21-17 11-16 2. 24-20 16-19 3. 23x16 12x19"


def dambo(games):
    """Each tag line ends with the text ``\\r`` (a backslash and an r), then a real CRLF, as Dambo writes it."""
    out = []
    for white, black, rnd, result, moves in games:
        tags = {"Event": "Campeonato Africano 2024", "Date": "2024.08.14", "Round": rnd, "White": white}
        tags |= {"Black": black, "Result": result, "GameType": "26"}
        out += [f'[{k} "{v}"]\\r' for k, v in tags.items()]
        out += ["\\r", f"{moves} {result}\\r", "\\r"]
    return "\r\n".join(out) + "\r\n"


def test_literal_backslash_r_after_tags_is_read_as_a_line_end():
    text = dambo(
        [
            ("Ndiaye, Awa", "Mensah, Kofi", "1", "2-0", OPENING),
            ("Mensah, Kofi", "Ndiaye, Awa", "1", "1-1", OPENING),
            ("Tshibanda, Jean", "Ouedraogo, Ali", "2", "-", "1. 21-17 11-16"),
        ]
    )
    games = parse_pdn(text)
    assert len(games) == 3
    assert [(g.tags["White"], g.tags["Round"], g.result, [m.text for m in g.moves][:2]) for g in games] == [
        ("Ndiaye, Awa", "1", "2-0", ["21-17", "11-16"]),
        ("Mensah, Kofi", "1", "1-1", ["21-17", "11-16"]),
        ("Tshibanda, Jean", "2", "-", ["21-17", "11-16"]),
    ]
    checks = [check_pdn_game(g, "brazilian") for g in games]
    assert [(c.ok, c.error, c.result) for c in checks] == [(True, None, "2-0"), (True, None, "1-1"), (True, None, "-")]
    assert [len(g.moves) for g in games] == [6, 6, 2]


def test_result_dash_is_a_result_not_a_move_and_is_exported():
    (game,) = parse_pdn('[Result "-"]\n1. 21-17 11-16 -\n')
    assert [m.text for m in game.moves] == ["21-17", "11-16"] and game.unknown_tokens == []
    assert normalize_result("-") == "unknown"
    out = export_pdn([{"event": "X", "round": "1", "white": "A", "black": "B", "result": "-", "moves": "21-17"}])
    assert '[Result "*"]' in out and out.rstrip().endswith("*")


def test_another_game_is_refused_at_once_naming_it():
    (checkers,) = parse_pdn('[GameType "21,B,8,8,N1,0"]\n[Result "1-0"]\n1. 9-14 22-17 2. 11-15 1-0\n')
    check = check_pdn_game(checkers, "brazilian")
    assert (check.ok, check.error) == (
        False,
        "partida de damas inglesas (checkers) (GameType 21,B,8,8,N1,0), não de damas brasileiras (64 casas): este "
        "programa lê damas brasileiras (64 casas) e internacionais (100 casas)",
    )
    (italian,) = parse_pdn('[GameType "22"]\n1. 21-17 *\n')
    assert check_pdn_game(italian, "brazilian").error.startswith("partida de damas italianas (GameType 22)")
    assert pdn.OTHER_GAMES[25] == "damas russas"
