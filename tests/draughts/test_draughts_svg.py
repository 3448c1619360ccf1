"""SVG board diagrams: well-formed, self-contained, White at the bottom."""

import xml.etree.ElementTree as ET

import pytest

from draughts import Position, load_openings, opening_svg, parse_fen, svg_board

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg):
    return ET.fromstring(svg)


@pytest.mark.parametrize("variant,squares,pieces", [("brazilian", 32, 24), ("international", 50, 40)])
def test_initial_board(variant, squares, pieces):
    fen = Position.initial(variant).fen()
    root = parse(svg_board(fen, variant))
    rects = root.findall("s:rect", NS)
    assert len(rects) == 1 + squares  # background (light squares) + dark squares
    assert len(root.findall("s:circle", NS)) == 2 * pieces  # body + inner ring per piece
    assert root.findall("s:text", NS) == []
    svg = svg_board(fen, variant)
    assert "href" not in svg and "<style" not in svg and "url(" not in svg  # self-contained
    assert len(svg) < 12000


def test_white_at_bottom_and_square_numbers():
    svg = svg_board("W:W29:B1", numbers=True, square=40)
    root = parse(svg)
    texts = {t.text: (float(t.get("x")), float(t.get("y"))) for t in root.findall("s:text", NS)}
    assert len(texts) == 32
    assert texts["1"][1] < 40 and 40 <= texts["1"][0] < 80  # square 1 = b8, top row, second column
    assert texts["29"][1] > 280 and texts["29"][0] < 40  # square 29 = a1, bottom-left
    circles = root.findall("s:circle", NS)
    fills = {(float(c.get("cx")), float(c.get("cy"))): c.get("fill") for c in circles if c.get("fill") != "none"}
    assert fills[(20.0, 300.0)] == "#fbfbf5"  # white man on a1
    assert fills[(60.0, 20.0)] == "#262626"  # black man on b8
    flipped = parse(svg_board("W:W29:B1", flip=True))
    fills = {
        (float(c.get("cx")), float(c.get("cy"))): c.get("fill")
        for c in flipped.findall("s:circle", NS)
        if c.get("fill") != "none"
    }
    assert fills[(300.0, 20.0)] == "#fbfbf5"


def test_kings_last_move_and_coordinates():
    svg = svg_board("B:WK18:B3", last_move="22-18", coordinates=True)
    root = parse(svg)
    assert len(root.findall("s:polygon", NS)) == 1  # one crown
    highlighted = [r for r in root.findall("s:rect", NS) if r.get("fill") == "#e3c04a"]
    assert len(highlighted) == 2
    labels = [t.text for t in root.findall("s:text", NS)]
    assert set("abcdefgh") <= set(labels) and {"1", "8"} <= set(labels)
    assert len(parse(svg_board("W:W18:B3", last_move="c3-d4")).findall("s:rect[@fill='#e3c04a']", NS)) == 2
    mv = parse_fen("W:WK27:B6,10,15,16,18,21,30").legal_moves()[0]
    assert len(parse(svg_board("W:W20:B3", last_move=mv)).findall("s:rect[@fill='#e3c04a']", NS)) == len(mv.path)
    with pytest.raises(ValueError):
        svg_board("W:W18:B3", last_move="40-45")


def test_title_is_escaped_and_opening_svg():
    root = parse(svg_board("W:W18:B3", title='<a "b">'))
    assert root.find("s:title", NS).text == '<a "b">'
    o = load_openings()[0]
    root = parse(opening_svg(o, numbers=True))
    assert root.find("s:title", NS).text == f"{o.table} {o.code}"


def test_responsive_leaves_out_size():
    root = parse(svg_board("W:W18:B3", responsive=True))
    assert root.get("width") is None and root.get("viewBox") == "0 0 320 320"
    assert parse(svg_board("W:W18:B3")).get("width") == "320"
