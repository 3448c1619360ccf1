"""PDN as real draughts programs write it (issue 12, "PDN dialects") and bounded records (issue 15, item 10).

The records below are shaped like the files of old desktop programs: Latin-1 bytes, CRLF line ends, comments with
accents, variations, NAGs, ``1. ... 11-16`` (a space before the dots), space-padded squares (``47x 9``), results
that are not the PDN ones (``4-6``), several games in one file, the GameType tag's notation field.
"""

import pytest

from draughts import (
    MAX_GAME_CHARS,
    PdnError,
    decode_pdn,
    export_game,
    gametype_tag,
    parse_gametype,
    parse_pdn,
    validate_game,
    validate_games,
)

# A Latin-1, CRLF record from an old desktop program: move numbers repeated before Black's move with a space before
# the dots, a comment with accents, a variation, a NAG, the draw written after a comment.
OLD_DOS = (
    '[Event "Campeonato Pernambucano de Damas"]\r\n'
    '[Site "Recife - PE"]\r\n'
    '[Date "1999.07.18"]\r\n'
    '[Round "3"]\r\n'
    '[White "Conceição, João"]\r\n'
    '[Black "Araújo, José"]\r\n'
    '[Result "1-1"]\r\n'
    '[GameType "26"]\r\n'
    "\r\n"
    "1. 21-17 {abertura: cruzamento} 1. ... 11-16 2. 24-20 2. ... 16-19 3. 23x16 12x19\r\n"
    "4. 27-24 (4. 17-13 10-14) 10-15 5. 25-21 8-11 6. 29-25 19-23 $2 7. 26x10 6x15\r\n"
    "8. 31-27 2-6 9. 17-14 9x18 10. 27-23 18x27 {posição equilibrada, empate acordado} 1-1\r\n"
).encode("latin-1")

# The same kind of game in the notation of the PDN standard's GameType 26 entry (alphanumeric, a1 bottom left).
ALPHA = """[Event "Aberto de Olinda"]
[White "Silva, Ana"]
[Black "Souza, Bia"]
[Result "0-2"]
[GameType "26,W,8,8,A0,0"]

1. a3-b4 f6-e5 2. c3-d4 e5xa5 3. d2-c3 g7-f6 4. c3-d4 f6-g5 5. d4-e5 d6xd2 6. c1xe3
g5-h4 7. e3-d4 h6-g5 8. f2-e3 h4xf2 0-2
"""
ALPHA_NUMERIC = "21-17 11-15 22-18 15x13 26-22 8-11 22-18 11-16 18-15 10x26 30x23 16-20 23-18 12-16 27-23 20x27"

# International problems: space-padded squares as two-column programs write them.
PADDED = """[Event "Problemas"]
[FEN "W:WK47:B1,K4,13,14,18,42,43"]
[GameType "20"]

1. 47x 9  1- 6 *

[Event "Problemas"]
[FEN "B:W7,10,11,13:BK4,20"]
[GameType "20"]

1. ...  4x 1 *
"""


def test_old_program_record_latin1_crlf():
    text = decode_pdn(OLD_DOS)
    assert "Conceição, João" in text and "\r" not in text
    check = validate_game(text, "brazilian")
    assert check.ok, check.error
    assert [m.notation for m in check.moves] == [
        "21-17",
        "11-16",
        "24-20",
        "16-19",
        "23x16",
        "12x19",
        "27-24",
        "10-15",
        "25-21",
        "8-11",
        "29-25",
        "19-23",
        "26x10",
        "6x15",
        "31-27",
        "2-6",
        "17-14",
        "9x18",
        "27-23",
        "18x27",
    ]
    assert [(m.number, m.side) for m in check.moves[:4]] == [(1, "W"), (1, "B"), (2, "W"), (2, "B")]
    assert check.warnings == []
    assert check.tags["Black"] == "Araújo, José" and check.result == "1-1"


def test_decode_pdn_encodings():
    assert decode_pdn('[White "João"]'.encode("utf-8-sig")) == '[White "João"]'
    assert decode_pdn('[White "João"]'.encode()) == '[White "João"]'
    assert decode_pdn('[White "João"]\r'.encode("cp1252")) == '[White "João"]\n'


def test_space_before_the_dots_and_black_first():
    check = validate_game(
        '[FEN "B:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"]\n'
        "1. ... 11-16 2. 24-20 2. ... 16-19 3. 23x16 *",
        "brazilian",
    )
    assert check.ok, check.error
    assert [(m.number, m.side, m.notation) for m in check.moves] == [
        (1, "B", "11-16"),
        (2, "W", "24-20"),
        (2, "B", "16-19"),
        (3, "W", "23x16"),
    ]
    assert parse_pdn("1. ... 19-23")[0].moves[0].black_marker


def test_alphanumeric_gametype_26_read_and_written():
    check = validate_game(ALPHA, "brazilian")
    assert check.ok, check.error
    assert " ".join(m.notation for m in check.moves) == ALPHA_NUMERIC
    assert check.moves[3].text == "e5xa5"  # messages show the move as written
    # written back in the same notation, with the standard's full GameType value
    out = export_game(
        {"event": "E", "round": 1, "white": "A", "black": "B", "result": "0-2", "moves": ALPHA_NUMERIC.split()},
        "brazilian",
    )
    assert '[GameType "26,W,8,8,A0,0"]' in out
    assert out.split("\n\n")[1].split() == ALPHA.split("\n\n")[1].split()
    assert validate_game(out, "brazilian").final_fen == check.final_fen
    # numeric is still read under GameType 26, and written with its own full GameType value
    assert validate_game('[GameType "26"]\n' + ALPHA_NUMERIC, "brazilian").final_fen == check.final_fen
    numeric = export_game({"moves": ALPHA_NUMERIC.split()}, "brazilian", style="numeric")
    assert '[GameType "26,W,8,8,N2,0"]' in numeric and "1. 21-17 11-15 2. 22-18 15x13" in numeric
    assert gametype_tag("international") == "20,W,10,10,N2,0"


def test_gametype_notation_field_other_corners():
    # N0: numbered from White's bottom left (1 = a1): c3-d4 is 10-14
    check = validate_game('[GameType "26,W,8,8,N0,0"]\n1. 10-14 *', "brazilian")
    assert check.ok and check.moves[0].notation == "22-18" and check.moves[0].text == "10-14"
    # A3: a1 at the top right (the board seen from Black's side): c3-d4 is f6-e5
    check = validate_game('[GameType "26,W,8,8,A3,0"]\n1. f6-e5 *', "brazilian")
    assert check.ok and check.moves[0].notation == "22-18"
    # an error names the move as written
    check = validate_game('[GameType "26,W,8,8,N0,0"]\n1. 10-15 *', "brazilian")
    assert check.error == "Lance 1 das brancas (10-15) é ilegal: a pedra só anda uma casa na diagonal, para a frente"
    assert parse_gametype("26,W,8,8,A0,0").notation == "A"
    assert parse_gametype("26").corner is None and parse_gametype("vinte") is None


def test_space_padded_squares():
    games = parse_pdn(PADDED)
    assert [[t.text for t in g.moves] for g in games] == [["47x9", "1-6"], ["4x1"]]
    checks = validate_games(PADDED, "international")
    assert [c.ok for c in checks] == [True, True], [c.error for c in checks]
    assert checks[0].moves[0].move.captures == (42, 14)
    assert checks[1].moves[0].move.captures == (13, 7) and checks[1].moves[0].side == "B"


@pytest.mark.parametrize(
    "variant,text,written",
    [
        ("brazilian", "1. 21-17 11-16 2. 24-20 16-19 4-6", "4-6"),
        ("brazilian", "1. 21-17 11-16 1-9", "1-9"),
        ("international", "1. 32-28 19-23 2. 28x19 14x23 1-9", "1-9"),
        ("international", "1. 32-28 19-23 4-6", "4-6"),
    ],
)
def test_non_standard_final_results_are_results(variant, text, written):
    check = validate_game(text, variant)
    assert check.ok, check.error
    assert check.result == written and written not in [m.text for m in check.moves]
    assert check.warnings[0] == f"resultado fora do padrão PDN ({written}) lido como resultado, não como lance"
    # a last move that is a real move shape stays a move, and is refused when illegal
    for last in ("32-28", "31-30"):
        refused = validate_game(f"1. 21-17 11-16 2. {last}", "brazilian")
        assert refused.error_move == last and refused.result is None


# A Brazilian game (random legal moves, seed 2287) whose 26th Black move, 28x31, fits two captures; the record
# is the game as a program wrote it, by the capture's two ends.
AMBIGUOUS = """1. 23-19 10-15 2. 19x10 6x15 3. 21-17 1-6 4. 17-13 9-14 5. 24-20 5-9
6. 27-24 14-18 7. 32-27 15-19 8. 24x15 9-14 9. 20-16 12x10 10. 22x15
11x18 11. 25-21 6-9 12. 13x22 8-11 13. 26-23 3-8 14. 30-25 14-18 15.
23x14 11-16 16. 22-18 2-6 17. 31-26 8-12 18. 21-17 6-9 19. 14x5 16-19
20. 28-24 19x28 21. 17-14 28-32 22. 27-23 12-16 23. 14-9 32-28 24. 5-1
16-19 25. 23x16 7-10 26. 1x24 28x31"""


def test_capture_by_its_two_ends_settled_by_the_next_moves():
    # 9-5 is only possible when the king took 24, 18 and 26 (not 24, 9 and 26)
    check = validate_game(AMBIGUOUS + " 27. 9-5 31x13", "brazilian")
    assert check.ok, check.error
    played = check.moves[51]
    assert played.text == "28x31" and played.notation == "28x15x22x31" and played.move.captures == (24, 18, 26)
    assert check.warnings == [
        "lance 26 das pretas (28x31): captura ambígua, decidida pelos lances seguintes (28x15x22x31)"
    ]
    # still ambiguous: nothing follows, or what follows fits both captures
    alone = validate_game(AMBIGUOUS, "brazilian")
    assert alone.error == (
        "Lance 26 das pretas (28x31) é ilegal: lance ambíguo: indique as casas intermediárias da captura"
    )
    both = validate_game(AMBIGUOUS + " 27. 25-21", "brazilian")
    assert both.error == (
        "Lance 26 das pretas (28x31) é ilegal: lance ambíguo: indique as casas intermediárias da captura "
        "(os lances seguintes não decidem)"
    )
    # the branch that goes furthest is followed, so the error names the move that is really illegal
    later = validate_game(AMBIGUOUS + " 27. 9-5 31-30", "brazilian")
    assert later.error_number == 27 and later.error_side == "B" and later.error_move == "31-30"


def test_several_games_in_one_file_each_its_own_record():
    text = decode_pdn(OLD_DOS) + "\n" + ALPHA + "\n" + PADDED
    games = parse_pdn(text)
    assert len(games) == 4
    # each game keeps its own text, to be stored as its own record
    assert games[1].source == ALPHA.strip() and parse_pdn(games[1].source)[0].tags == games[1].tags
    assert games[2].source.startswith('[Event "Problemas"]') and games[2].source.endswith("1. 47x 9  1- 6 *")
    checks = validate_games(decode_pdn(OLD_DOS) + "\n" + ALPHA, "brazilian")
    assert [(c.ok, c.tags["White"], c.result, len(c.moves)) for c in checks] == [
        (True, "Conceição, João", "1-1", 20),
        (True, "Silva, Ana", "0-2", 16),
    ]
    # a record attached to one game holds one game
    one = validate_game(decode_pdn(OLD_DOS) + "\n" + ALPHA, "brazilian")
    assert one.error == "Registro inválido: o texto contém 2 partidas; um registro é uma partida só"


# -- bounded, closed records (issue 15, item 10) ------------------------------------------------------------------


def test_unclosed_comment_is_an_error_not_a_silent_loss():
    check = validate_game("1. 21-17 11-16\n2. 24-20 {ótimo lance\n16-19 3. 23x16 12x19", "brazilian")
    assert not check.ok and check.moves == []
    assert check.error == (
        "Registro inválido: comentário aberto com '{' na linha 2 não foi fechado "
        "(falta '}'; o resto do texto ficaria dentro dele)"
    )
    games = parse_pdn('[Event "a"]\n1. 21-17 *\n[Event "b"]\n1. 22-18 { sem fim\n[Event "c"]\n1. 23-19 *')
    assert [g.tags.get("Event") for g in games] == ["a", "b"] and games[1].errors


def test_unclosed_variation_and_bad_tag_are_errors():
    check = validate_game("1. 21-17 (1. 22-18 11-15\n2. 24-20 11-16", "brazilian")
    assert check.error == "Registro inválido: variante aberta com '(' na linha 1 não foi fechada"
    check = validate_game('[Event "Aberto\n1. 21-17 11-16', "brazilian")
    assert check.error == 'Registro inválido: tag mal formada na linha 1 (esperado [Nome "valor"])'


def test_record_size_is_bounded():
    long = "1. 21-17 11-16 " + "{" + "x" * MAX_GAME_CHARS + "}"
    check = validate_game(long, "brazilian")
    assert check.error == f"Registro inválido: o texto PDN tem {len(long)} caracteres; o máximo é {MAX_GAME_CHARS}"
    with pytest.raises(PdnError):
        parse_pdn('[E "x"]\n1. 21-17 *\n' * 4, max_games=3)


@pytest.mark.parametrize(
    "hostile",
    [
        '[A "' * 25_000,
        "{" * 100_000,
        "(" * 100_000,
        "[" * 100_000,
        "1. " + "47x 9 " * 16_000,
        '[Event "' + "\\" * 99_000 + '"]',
    ],
)
def test_hostile_records_are_refused_whole(hostile):
    # every pattern is bounded (a tag value stops at its line and at 2,000 characters, an unclosed comment ends
    # the reading): these answer in well under a second (measured, not asserted: speed belongs to bench/)
    check = validate_game(hostile[:MAX_GAME_CHARS], "brazilian")
    assert not check.ok and check.error and check.moves == []
