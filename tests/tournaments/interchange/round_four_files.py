"""TRF files written for the tests of issue 38, each in the column layout of the program that writes that dialect
(none copied from anywhere): JaVaFo's ``XXZ`` line, the round to pair's column as bbpPairings / Swiss-Manager /
Vega write an absence requested in advance, a national federation's rating-system export (byes written
``0000 - `` with a blank result, birth dates ``1975.  .``, many warnings), and a round in progress whose two
players are both White."""

from tests.tournaments.interchange.round_three_files import in_progress, line


def javafo(*, xxz="XXZ 4 9"):
    """JaVaFo's input as its manual lays it out: TRF-16, ``XXR``/``XXC``, round 3 to pair, and the ``XXZ`` line of
    the players who will not play it. Player 9 has been absent in every round (``0000 - Z``) and is named again."""
    lines = [
        "012 Torneio de teste do JaVaFo",
        "XXR 5",
        "XXC white1",
        line(1, "Player A", "2.0", ["   5 w 1", "   3 b 1"], rating=2400, fed=""),
        line(2, "Player B", "1.0", ["   6 b 1", "   4 w 0"], rating=2350, fed=""),
        line(3, "Player C", "1.0", ["   7 w 1", "   1 w 0"], rating=2300, fed=""),
        line(4, "Player D", "2.0", ["   8 b 1", "   2 b 1"], rating=2250, fed=""),
        line(5, "Player E", "1.0", ["   1 b 0", "   8 w 1"], rating=2200, fed=""),
        line(6, "Player F", "1.0", ["   2 w 0", "   7 b 1"], rating=2150, fed=""),
        line(7, "Player G", "0.0", ["   3 b 0", "   6 w 0"], rating=2100, fed=""),
        line(8, "Player H", "0.0", ["   4 w 0", "   5 b 0"], rating=2050, fed=""),
        line(9, "Player I", "0.0", ["0000 - Z", "0000 - Z"], rating=2000, fed=""),
    ]
    if xxz:
        lines.append(xxz)
    return "\n".join(lines) + "\n"


def round_to_pair_column(cell):
    """The same event with player 4's absence from round 3 written in round 3's column, as the pairing programs
    write an absence requested in advance: ``0000 - Z`` / ``0000 - H`` (bbpPairings, JaVaFo), ``0000 -`` with the
    blank result cut off (Swiss-Manager), ``   0   H`` with the colour left blank (Vega)."""
    text = javafo(xxz="XXZ 9")
    old = line(4, "Player D", "2.0", ["   8 b 1", "   2 b 1"], rating=2250, fed="")
    new = line(4, "Player D", "2.0", ["   8 b 1", "   2 b 1", cell], rating=2250, fed="")
    assert old in text
    return text.replace(old, new)


def rating_system(*, points4="1.0", points6="1.5", points7="2.0", extra_births=0):
    """A national federation's rating-system export: TRF-16 with ``XXR``, byes written ``0000 - `` with a blank
    result (the declared totals count them), birth dates ``1975.  .`` (a year alone, month and day left blank).
    Round 1: 1-2, 3-4, 5-6 and player 7 alone (the bye, 1 point); round 2: 3-1, 2-5, 7-6 and player 4 alone (the
    bye). Player 6 declares half a point more than the results. ``extra_births``: that many more players (2 a board in round 1, then absent) whose birth
    dates cannot be read, to fill the warnings."""
    lines = [
        "012 Campeonato Estadual Absoluto",
        "022 Maceió",
        "032 BRA",
        "042 2025/08/16",
        "052 2025/08/17",
        "XXR 4",
        "XXC white1",
        line(1, "Silva, Ana", "2.0", ["   2 w 1", "   3 b 1"], sex="w", rating=1950, ident="2201", birth="1975.  ."),
        line(2, "Souza, Bruno", "0.0", ["   1 b 0", "   5 w 0"], rating=1900, ident="2202", birth="1980.  ."),
        line(3, "Santos, Caio", "1.0", ["   4 w 1", "   1 w 0"], rating=1850, ident="2203", birth="1991.  ."),
        line(4, "Lima, Davi", points4, ["   3 b 0", "0000 -  "], rating=1800, ident="2204", birth="2010.  ."),
        line(5, "Rocha, Eva", "1.0", ["   6 w 0", "   2 b 1"], sex="w", rating=1750, ident="2205", birth="1968.  ."),
        line(6, "Melo, Fábio", points6, ["   5 b 1", "   7 b 0"], rating=1700, ident="2206", birth="1959.  ."),
        line(7, "Costa, Gil", points7, ["0000 -  ", "   6 w 1"], rating=1650, ident="2207", birth="2012.  ."),
    ]
    for i in range(extra_births):
        pid, opp = 8 + i, 8 + (i ^ 1)
        block = f"{opp:>4} {'w' if i % 2 == 0 else 'b'} {'1' if i % 2 == 0 else '0'}"
        pts = "1.0" if i % 2 == 0 else "0.0"
        lines.append(line(pid, f"Extra, Jogador {pid}", pts, [block, "0000 - Z"], rating=1500, birth="31.02.1990"))
    return "\r\n".join(lines) + "\r\n"


def both_white():
    """Swiss-Manager in the middle of an event (``round_three_files.in_progress``): rounds 1-2 complete, round 3
    paired with one result in (3 beat 8), and on its first board both lines say White (``   4 w`` and ``   1 w``)."""
    text = in_progress(results3={3: "1", 8: "0"})
    old = "   3 w 1     1 b"
    assert text.count(old) == 1  # player 4's line: round 2 against 3, round 3 against 1 with Black
    return text.replace(old, "   3 w 1     1 w")
