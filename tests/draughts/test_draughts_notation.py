"""Move notation: numeric and algebraic reading and writing, disambiguation; FEN and notation round trips."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draughts import NotationError, Position, format_move, parse_fen, parse_move, replay, write_fen


def test_numeric_moves():
    pos = Position.initial("brazilian")
    mv = parse_move(pos, "22-18")
    assert mv.path == (22, 18) and not mv.captures
    assert format_move(pos, mv) == "22-18"
    assert format_move(pos, mv, "algebraic") == "c3-d4"
    assert format_move(pos, mv, "algebraic-short") == "cd4"


def test_algebraic_forms_64():
    pos = Position.initial("brazilian")
    for text in ("cd4", "c3-d4", "c3d4", "C3-D4", "cd4!", "c3:d4"):
        assert parse_move(pos, text).path == (22, 18), text
    # short form where two men of the same column can reach the square: cb4 vs ab4 are different columns
    assert parse_move(pos, "ab4").path == (21, 17)
    assert parse_move(pos, "cb4").path == (22, 17)


def test_algebraic_capture_short_and_long():
    pos = replay("1. ab4 ba5 2. ed4 dc5")
    mv = parse_move(pos, "bd6")
    assert mv.path == (17, 10) and mv.captures == (14,)
    assert parse_move(pos, "b4:d6") == mv
    assert parse_move(pos, "b4xd6") == mv
    assert format_move(pos, mv, "algebraic-short") == "bd6"
    assert format_move(pos, mv, "algebraic") == "b4:d6"
    assert format_move(pos, mv) == "17x10"


def test_tablita_style_text_with_numbers():
    pos = replay("1. ab4 ba5 2. ba3 ab6 3. ab2 dc5")
    assert write_fen(pos) == "W:W17,21,22,23,24,25,26,27,28,30,31,32:B1,2,3,4,6,7,8,9,11,12,13,14"


@pytest.mark.parametrize(
    "fen,text,reason",
    [
        ("W:W22:B1", "23-18", "não há peça das brancas na casa 23"),
        ("W:W22:B1", "1-5", "a peça na casa 1 não é das brancas"),
        ("W:W22,18:B1", "22-18", "a casa 18 está ocupada"),
        ("W:W22:B1", "22-26", "a pedra só anda uma casa na diagonal, para a frente"),
        ("W:W22:B1", "22-15", "a pedra só anda uma casa na diagonal, para a frente"),
        ("W:W22,30:B17,19,26", "22x13", "a captura máxima é obrigatória (2 peças)"),
        ("W:W22,30:B17,19,26", "30-25", "a captura é obrigatória (2 peças)"),
        ("W:W22:B1", "22x13", "não há captura possível"),
        ("W:WK29:B1", "29-30", "a dama só anda em diagonal, por casas livres"),
        ("W:W22:B1", "22-99", "casa inexistente: 99"),
        ("W:W22:B1", "hello", "notação não reconhecida: 'hello'"),
        ("W:W22:B1", "ab4", "não há peça das brancas na coluna a"),
    ],
)
def test_illegal_move_reasons(fen, text, reason):
    with pytest.raises(NotationError) as exc:
        parse_move(parse_fen(fen), text)
    assert exc.value.reason == reason


@pytest.mark.parametrize(
    "variant,fen,start,end",
    [
        ("brazilian", "W:WK27:B6,10,15,16,18,21,30", 27, 20),
        ("international", "W:WK9:B14,23,24,30,50", 9, 18),
        ("international", "W:WK7:B11,12,27,33,44", 7, 7),  # the king comes back to its own square
    ],
)
def test_ambiguous_king_capture_needs_intermediate_squares(variant, fen, start, end):
    pos = parse_fen(fen, variant)
    moves = pos.legal_moves()
    group = [m for m in moves if m.start == start and m.end == end]
    assert len(group) == 2 and group[0].captures != group[1].captures
    texts = [format_move(pos, m, legal=moves) for m in group]
    assert len(set(texts)) == 2
    for m, t in zip(group, texts):
        assert t.count("x") >= 2
        assert parse_move(pos, t) == m
        assert parse_move(pos, format_move(pos, m, "numeric-full", moves)) == m
    with pytest.raises(NotationError, match="ambíguo"):
        parse_move(pos, f"{start}x{end}")


def test_disambiguation_uses_square_behind_captured_piece_or_turning_square():
    pos = parse_fen("W:WK27:B6,10,15,16,18,21,30")
    m = next(m for m in pos.legal_moves() if m.captures == (18, 10, 16))
    assert m.path == (27, 14, 7, 20)
    assert format_move(pos, m) == "27x14x7x20"
    # any square of the trajectory in order is accepted as intermediate
    assert parse_move(pos, "27x7x20") == m


def _random_positions(variant, seed, games=20, plies=120):
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        out.extend(Position.initial(variant).random_playout(rng, plies))
    return out


@pytest.mark.parametrize("variant", ["brazilian", "international"])
def test_every_legal_move_round_trips_through_notation(variant):
    styles = ["numeric", "numeric-full"] + (["algebraic", "algebraic-short"] if variant == "brazilian" else [])
    for pos in _random_positions(variant, 3)[::3]:
        moves = pos.legal_moves()
        for m in moves:
            for style in styles:
                assert parse_move(pos, format_move(pos, m, style, moves)) == m, (pos.fen(), m, style)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["brazilian", "international"]), st.integers(0, 2**32 - 1), st.booleans())
def test_fen_round_trip(variant, seed, black_to_move):
    rng = random.Random(seed)
    n = 32 if variant == "brazilian" else 50
    squares = rng.sample(range(1, n + 1), rng.randint(0, 16))
    pieces = {s: rng.choice("wWbB") for s in squares}
    pos = Position.from_pieces(
        variant,
        [s for s, p in pieces.items() if p == "w"],
        [s for s, p in pieces.items() if p == "W"],
        [s for s, p in pieces.items() if p == "b"],
        [s for s, p in pieces.items() if p == "B"],
        1 if black_to_move else 0,
    )
    fen = write_fen(pos)
    again = parse_fen(fen, variant)
    assert again == pos
    assert again.pieces() == pieces
    assert write_fen(again) == fen


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["brazilian", "international"]), st.integers(0, 2**32 - 1))
def test_random_games_obey_invariants(variant, seed):
    rng = random.Random(seed)
    pos = Position.initial(variant)
    for _ in range(150):
        moves = pos.legal_moves()
        if not moves:
            break
        maxcap = max(len(m.captures) for m in moves)
        assert all(len(m.captures) == maxcap for m in moves)
        assert len({m.key() for m in moves}) == len(moves)
        m = rng.choice(moves)
        after = pos.play(m)
        total_before = len(pos.pieces())
        assert len(after.pieces()) == total_before - len(m.captures)
        assert len(set(m.captures)) == len(m.captures)
        assert not (after.white & after.black)
        v = pos.variant
        # men that reach the far row are crowned, so no man ever stands on it
        assert all(s > v.h for s in after.white_men())
        assert all(s <= v.num_squares - v.h for s in after.black_men())
        pos = after


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["brazilian", "international"]), st.integers(0, 2**32 - 1))
def test_notation_round_trip_with_kings(variant, seed):
    """Random placements rich in kings (where captures with the same start and end happen)."""
    rng = random.Random(seed)
    n = 32 if variant == "brazilian" else 50
    h = 4 if variant == "brazilian" else 5
    squares = rng.sample(range(1, n + 1), rng.randint(3, 12))
    wk = squares[:2]
    bm = [s for s in squares[2:] if s <= n - h]
    pos = Position.from_pieces(variant, [], wk, bm, [], 0)
    moves = pos.legal_moves()
    for m in moves:
        for style in ("numeric", "numeric-full"):
            assert parse_move(pos, format_move(pos, m, style, moves)) == m
