"""The one TRF grammar (pairing.trffile): every field kept as written, dates as programs write them, what pairs
nothing never refuses a file, and the writer gives back what the reader read."""

from datetime import date
from decimal import Decimal

import pytest

from pairing import model as M
from pairing import trf, trffile


@pytest.mark.parametrize(
    "text,expected",
    [
        ("2020/05/29", (date(2020, 5, 29), 2020, True)),
        ("2020-05-29", (date(2020, 5, 29), 2020, True)),
        ("2020.05.29", (date(2020, 5, 29), 2020, True)),
        ("29.07.2005", (date(2005, 7, 29), 2005, True)),
        ("29/07/2005", (date(2005, 7, 29), 2005, True)),
        ("28. 07. 2005", (date(2005, 7, 28), 2005, True)),
        ("10.09.13", (date(2013, 9, 10), 2013, True)),  # day first with dots
        ("20/05/29", (date(2020, 5, 29), 2020, True)),  # year first with slashes (TRF 132)
        ("10.09.73", (date(1973, 9, 10), 1973, True)),
        ("May 29, 2020", (date(2020, 5, 29), 2020, True)),
        ("29 maio 2020", (date(2020, 5, 29), 2020, True)),
        ("1985", (None, 1985, True)),
        ("1985/00/00", (None, 1985, True)),
        ("1975.  .", (None, 1975, True)),  # a year alone, month and day left blank (issue 38.4)
        ("1975/  /  ", (None, 1975, True)),
        ("1975-00-", (None, 1975, True)),
        ("  .  .1975", (None, 1975, True)),
        ("", (None, None, True)),
        (". .", (None, None, True)),
        ("    /  /  ", (None, None, True)),
        ("0000/00/00", (None, None, True)),
        ("31.02.1973", (None, None, False)),
        ("ontem", (None, None, False)),
    ],
)
def test_dates_as_programs_write_them(text, expected):
    assert trffile.parse_date(text) == expected


def player(pid, rest, pts="0.0", blocks=()):
    return (f"001 {pid:>4} {rest}".ljust(80) + f"{pts:>4}").ljust(89) + "".join(f"  {b}" for b in blocks)


def full(pid, sex, title, name, rating, fed, ident, birth, pts, blocks):
    head = f"001 {pid:>4} {sex}{title:>3} {name:<33} {rating:>4} {fed:<3} {ident:>11} {birth:<10} {pts:>4}"
    return head.ljust(89) + "".join(f"  {b}" for b in blocks)


def test_player_fields_kept_as_written():
    doc = trffile.parse(
        "XXR 3\n"
        + "001    1 wWGM Polgar, Judit                     2735 HUN      700070 1976/07/23  1.0    1     2 w 1\n"
        + "001    2  g  Anand, Viswanathan                 2750 IND    00000000 1969/12/11  0.0    2     1 b 0\n"
    )
    judit, anand = doc.players
    assert (judit.sex, judit.title, judit.name, judit.rating) == ("w", "WGM", "Polgar, Judit", 2735)
    assert (judit.federation, judit.ident, judit.birth_date, judit.points, judit.rank) == (
        "HUN",
        "700070",
        date(1976, 7, 23),
        Decimal("1.0"),
        1,
    )
    assert (anand.sex, anand.title, anand.ident) == ("", "g", "")  # 00000000: a placeholder, no ID
    assert judit.blocks[0] == trffile.Block(2, "w", "1", M.GAME)


def test_what_pairs_nothing_is_a_warning_never_a_refusal():
    doc = trffile.parse(
        "012 T\nXXR 3\n013 Equipe    1    2\nXXZ 1\nABC nada\n###  comentário\n"
        + player(1, "      A")
        + "\n"
        + player(2, "      B", blocks=["0000 -"])  # a blank result cut off at the end of the line
    )
    assert doc.warnings == [
        "linha 3: equipe (013) ignorada (o motor de referência não a usa)",
        "linha 5: código “ABC” desconhecido; linha ignorada",
    ]
    assert doc.absent_next == [(4, 1)]  # JaVaFo's XXZ: read, player 1 absent from the round to pair (issue 38.1)
    assert doc.players[1].blocks == [trffile.Block(None, "", " ", M.ZERO_BYE)]


def test_what_decides_pairings_refuses_naming_the_line():
    with pytest.raises(trffile.InvalidTrf, match="cor inicial 'X' inválida") as exc:
        trffile.parse("012 T\n152 X\n")
    assert exc.value.line == 2
    # a 299 line is read (issue 27); one that cannot be is refused naming it
    with pytest.raises(M.InvalidInput, match="linha 1: linha 299 incompleta"):
        trffile.parse("299 1 2\n")


def test_line_ends_bom_and_latin1():
    raw = "\ufeff012 Torneio São João\r013 x\r\n".encode()
    assert trffile.lines_of(trffile.decode(raw))[:2] == ["012 Torneio São João", "013 x"]
    assert trffile.decode("012 São".encode("latin-1")) == "012 São"


def test_writer_gives_back_what_the_reader_read():
    p1 = full(1, "m", "GM", "Silva, Ana", 2400, "BRA", "12345678", "1990/00/00", "2.0", ["   2 w 1", "0000 - H"])
    p2 = full(2, "w", "f", "Souza, Bia", 2300, "POR", "", ". .", "1.0", ["   1 b 0", "0000 - U"])
    text = (
        "012 Aberto\n022 Recife\n032 BRA\n042 2026/01/10\n052 2026/01/11\n092 Suíço\n102 Árbitro\n112 Vice 1\n"
        "112 Vice 2\n122 60'\n" + "132" + " " * 88 + "26/01/10  26/01/11\n142 5\n152 B\n162  W 2.0    D 1.0\n"
        "192 FIDE_DUTCH_2025_BAKU\nBBU  1.0\n"
        + p1
        + "\n"
        + p2
        + "\n240 Z   3    1\nXXP 1 2\n260   1   2    1    2\nXXA    1  1.0  0.5\n"
    )
    doc = trffile.parse(text)
    assert doc.players[0].birth_year == 1990 and doc.players[1].birth_year is None
    written = trffile.write(doc)
    again = trffile.parse(written)
    for p in (doc, again):
        for q in p.players:
            q.line = 0  # the writer puts the lines in its own order
    assert again == doc
    assert trf.parse(written).state.acceleration == M.ACCEL_BAKU
