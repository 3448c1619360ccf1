"""Rules of play (domain spec section 8) on hand-made positions, both variants."""

import pytest

from draughts import BRAZILIAN, INTERNATIONAL, NotationError, Position, get_variant, parse_fen, parse_move, write_fen


def keys(pos):
    return {(m.start, m.end, frozenset(m.captures)) for m in pos.legal_moves()}


def paths(pos):
    return sorted("x".join(map(str, m.path)) if m.captures else f"{m.start}-{m.end}" for m in pos.legal_moves())


# -- geometry -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n,name", [(1, "b8"), (4, "h8"), (5, "a7"), (17, "b4"), (21, "a3"), (22, "c3"), (29, "a1"), (32, "g1")]
)
def test_square_names_64(n, name):
    assert BRAZILIAN.square_name(n) == name
    assert BRAZILIAN.square_from_name(name) == n


@pytest.mark.parametrize("n,name", [(1, "b10"), (5, "j10"), (6, "a9"), (46, "a1"), (50, "i1")])
def test_square_names_100(n, name):
    assert INTERNATIONAL.square_name(n) == name
    assert INTERNATIONAL.square_from_name(name) == n


def test_light_square_is_not_a_square():
    with pytest.raises(ValueError):
        BRAZILIAN.square_from_name("a8")


def test_variant_aliases():
    assert get_variant("64") is BRAZILIAN
    assert get_variant(100) is INTERNATIONAL
    assert get_variant("international") is INTERNATIONAL
    # the app's Tournament.variant values
    assert get_variant("brazilian-64") is BRAZILIAN and get_variant("international-100") is INTERNATIONAL
    with pytest.raises(ValueError):
        get_variant("russian")


def test_initial_positions():
    p = Position.initial("brazilian")
    assert write_fen(p) == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert paths(p) == sorted(["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"])
    q = Position.initial("international")
    assert q.white_men() == list(range(31, 51)) and q.black_men() == list(range(1, 21))
    assert len(q.legal_moves()) == 9


# -- men --------------------------------------------------------------------------------------------------


def test_men_move_only_forward():
    pos = parse_fen("W:W18:B3")
    assert paths(pos) == ["18-14", "18-15"]
    pos = parse_fen("B:W30:B18")
    assert paths(pos) == ["18-22", "18-23"]


def test_men_capture_backward():
    # white man d4 (18), black man on e3 (23) behind it, f2 (27) free
    pos = parse_fen("W:W18:B23")
    assert paths(pos) == ["18x27"]


def test_capture_is_mandatory():
    pos = parse_fen("W:W18,30:B14")
    assert paths(pos) == ["18x9"]


def test_majority_rule():
    # 22 can take 17 (or 26 backwards), but 30 takes 26 and 19: the two-piece capture is the only legal move
    pos = parse_fen("W:W22,30:B17,19,26")
    assert paths(pos) == ["30x23x16"]
    assert pos.max_capture() == 2


def test_kings_and_men_count_the_same():
    # 22 could take the black king on 17 (one piece); 30 takes two men (26, 19): the two men must be taken
    pos = parse_fen("W:W22,30:BK17,26,19")
    assert paths(pos) == ["30x23x16"]
    # a king is not worth more than a man: taking the king (22x15) or the man (24x15) is a free choice
    pos = parse_fen("W:W22,24:BK18,19")
    assert keys(pos) == {(22, 15, frozenset({18})), (24, 15, frozenset({19}))}


def test_same_start_and_end_different_captures_are_two_moves():
    pos = parse_fen("W:W22,24:B18,19")
    assert paths(pos) == ["22x15", "24x15"]
    # a king that can take either of two pieces to the same square
    pos = parse_fen("W:WK29:B25,18,11")
    assert all(len(m.captures) == pos.max_capture() for m in pos.legal_moves())


def test_man_passing_promotion_row_stays_man():
    # f6 (11) takes e7 (7) to d8 (2) and goes on over c7 (6) to b6 (9): it only passed the last row
    pos = parse_fen("W:W11:B6,7,20")
    assert paths(pos) == ["11x2x9"]
    after = pos.play(pos.legal_moves()[0])
    assert after.piece_at(9) == "w"
    assert write_fen(after) == "B:W9:B20"


def test_man_ending_on_promotion_row_is_crowned():
    pos = parse_fen("W:W10:B6,20")
    mv = pos.legal_moves()[0]
    assert mv.path == (10, 1)
    assert pos.play(mv).piece_at(1) == "W"
    pos = parse_fen("B:W27,20:B23")
    mv = pos.legal_moves()[0]
    assert mv.path == (23, 32)
    assert pos.play(mv).piece_at(32) == "B"


def test_simple_move_to_last_row_crowns():
    pos = parse_fen("W:W6:B20")
    after = pos.play(parse_move(pos, "6-1"))
    assert after.piece_at(1) == "W"


def test_two_adjacent_pieces_cannot_be_taken():
    pos = parse_fen("W:W22:B18,15")
    assert paths(pos) == ["22-17"]


# -- kings --------------------------------------------------------------------------------------------------


def test_flying_king_moves():
    pos = parse_fen("W:WK29:B4")
    # a1..h8 diagonal, blocked at h8 by the black man
    assert paths(pos) == sorted(f"29-{n}" for n in (25, 22, 18, 15, 11, 8))


def test_king_moves_backward_and_forward():
    pos = parse_fen("W:WK18:B4")
    ends = {m.end for m in pos.legal_moves()}
    assert ends == {14, 9, 5, 15, 11, 8, 22, 25, 29, 23, 27, 32}


def test_flying_king_capture_stops_on_any_free_square_after():
    pos = parse_fen("W:WK29:B18")
    assert paths(pos) == ["29x11", "29x15", "29x4", "29x8"]


def test_flying_king_capture_must_continue():
    # a1 takes d4, then from f6 turns to take e7 landing on d8: only landing f6 lets it continue
    pos = parse_fen("W:WK29:B18,7")
    assert paths(pos) == ["29x11x2"]


def test_captured_pieces_stay_until_the_end():
    # King on e5 takes g3 landing on h2; coming back it would meet g3 again (still on the board), so it cannot
    # go on to take c7, which it could if captured pieces were lifted at once.
    pos = parse_fen("W:WK15:B6,20,24,26")
    assert {len(m.captures) for m in pos.legal_moves()} == {1}


def test_a_piece_is_jumped_only_once():
    pos = parse_fen("W:WK1:B6,7,9,14,24")
    assert pos.max_capture() == 2


def test_king_capture_100():
    # a1 (46) up the long diagonal over 28; it must land on 14, the only square from which it can go on over 20
    pos = parse_fen("W:WK46:B28,20", "international")
    assert paths(pos) == ["46x14x25"]
    pos = parse_fen("W:WK46:B28", "international")
    assert paths(pos) == sorted(f"46x{n}" for n in (23, 19, 14, 10, 5))


def test_international_majority_and_backward_capture():
    # White man 28 can take 23 forward (1) or, with 33, take 29 and 18 (2)... build: 33 takes 29? no.
    pos = parse_fen("W:W32,28:B23,22,13", "international")
    assert pos.max_capture() >= 1
    for m in pos.legal_moves():
        assert len(m.captures) == pos.max_capture()


def test_no_moves_means_game_over():
    pos = parse_fen("W:W29:B25,22")
    # a1 blocked by b2; b2 cannot be taken (c3 occupied)
    assert pos.legal_moves() == []
    assert pos.is_game_over()


# -- king-move draw rule -----------------------------------------------------------------------------------


def _play(pos, moves):
    for mv in moves:
        pos = pos.play(parse_move(pos, mv))
    return pos


def test_king_move_rule_64():
    pos = parse_fen("W:WK30:BK1")
    cycle = ["30-26", "1-5", "26-30", "5-1"]
    p39 = _play(pos, (cycle * 10)[:39])
    assert p39.king_moves == 39
    assert not p39.is_draw_by_king_moves()  # default reading: 20 moves of each player = 40 plies
    assert p39.is_draw_by_king_moves(per_player=False)  # literal reading: 20 plies
    p40 = _play(pos, cycle * 10)
    assert p40.is_draw_by_king_moves()


def test_king_move_rule_100_and_reset():
    pos = parse_fen("W:WK47,45:BK6", "international")
    p = _play(pos, ["47-41", "6-1"])
    assert p.king_moves == 2
    p = _play(p, ["45-40"])
    assert p.king_moves == 0  # a man's move resets the count
    assert INTERNATIONAL.king_move_limit == 25 and BRAZILIAN.king_move_limit == 20
    p = _play(pos, ["47-41", "6-1", "41-47", "1-6"] * 12 + ["47-41"])
    assert p.king_moves == 49 and not p.is_draw_by_king_moves()
    assert p.play(parse_move(p, "6-1")).is_draw_by_king_moves()


def test_capture_resets_king_move_count():
    pos = parse_fen("W:WK30:BK1,18")
    p = _play(pos, ["30-26"])
    assert p.king_moves == 1
    p = _play(parse_fen("W:WK29:BK1,18"), ["29x15"])
    assert p.king_moves == 0


# -- FEN ----------------------------------------------------------------------------------------------------


def test_fen_roundtrip_and_variants_of_syntax():
    fen = "B:W18,K30,31:BK3,12,20"
    pos = parse_fen(fen)
    assert write_fen(pos) == "B:W18,K30,31:B3K,12,20".replace("3K", "K3")
    assert pos.white_kings() == [30] and pos.black_kings() == [3]
    assert write_fen(parse_fen("W:W31-50:B1-20", "international")) == write_fen(Position.initial("international"))
    assert parse_fen("W:Wa1,c3:Bb8.") == parse_fen("W:W29,22:B1")
    assert parse_fen('"W:W29:B1:H0:F1"') == parse_fen("W:W29:B1")


@pytest.mark.parametrize("bad", ["", "X:W1:B2", "W:W33:B1", "W:W1,1:B2", "W:W1:B1", "W:Wz9:B1", "W:W0-3:B9"])
def test_bad_fen(bad):
    with pytest.raises((NotationError, ValueError)):
        parse_fen(bad)
