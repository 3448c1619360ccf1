"""TRF files shaped as Swiss-Manager and other programs write them in the middle of an event (issue 27), written for
the tests: a round paired whose results are not in, round dates one 132 line per round, 299 bonus and penalty lines,
TRF-2026 162 symbols, zeros not padded in a no-opponent cell, no round count."""


def line(pid, name, pts, blocks, *, sex="m", title="", rating=2000, fed="BRA", ident="", birth=""):
    """A 001 line, its trailing blanks cut as Swiss-Manager cuts them (a blank result ends the line)."""
    head = f"001 {pid:>4} {sex or ' '}{title:>3} {name:<33} {rating or '':>4} {fed:<3} {ident:>11} {birth:<10} {pts:>4}"
    return (head.ljust(89) + "".join(f"  {b}" for b in blocks)).rstrip()


def dates_132(dates, *, per_line=True):
    """Round dates: one 132 line per round, each date in its own round's column (Swiss-Manager), or one line."""
    if not per_line:
        return ["132" + " " * 88 + "  ".join(dates)]
    return ["132" + " " * (88 + 10 * r) + d for r, d in enumerate(dates)]


def in_progress(*, rounds_line="142 5", results3=None):
    """8 players, rounds 1-2 played, round 3 paired without results (player 5 the bye, 6 a half-point bye in its
    column), absences announced for round 4 (3 half point, 8 zero); ``results3`` fills some of round 3's results."""
    r3 = {1: "   4 w  ", 2: "   7 b  ", 3: "   8 b  ", 4: "   1 b  ", 7: "   2 w  ", 8: "   3 w  "}
    for pid, res in (results3 or {}).items():
        r3[pid] = r3[pid][:7] + res
    lines = [
        "012 Aberto de Campina Grande",
        "022 Campina Grande",
        "032 BRA",
        "042 2026/03/14",
        "052 2026/03/15",
        "092 Individual: Swiss-System",
        "102 Árbitra Inês Bezerra",
        *dates_132(["26/03/14", "26/03/14", "26/03/15"]),
        *([rounds_line] if rounds_line else []),
        "152 W",
        "### Swiss-Manager: rodada 3 emparceirada",
        line(1, "Albuquerque, Davi", "1.5", ["   5 w 1", "   2 b =", r3[1]], rating=2210),
        line(2, "Bezerra, Caio", "1.5", ["   6 b 1", "   1 w =", r3[2]], rating=2150),
        line(3, "Cavalcanti, Ana", "0.5", ["   7 w =", "   4 b 0", r3[3], "0000 - H"], sex="w", rating=2100),
        line(4, "Dantas, Rui", "2.0", ["   8 b 1", "   3 w 1", r3[4]], rating=2050),
        line(5, "Esteves, Lia", "0.0", ["   1 b 0", "   7 b 0", "0000 - U"], sex="w", rating=1990),
        line(6, "Freire, Otto", "0.0", ["   2 w 0", "   8 w 0", "   0 - H"], rating=1950),
        line(7, "Gouveia, Rita", "1.5", ["   3 b =", "   5 w 1", r3[7]], sex="w", rating=1900),
        line(8, "Holanda, Enzo", "1.0", ["   4 w 0", "   6 b 1", r3[8], "0000 - Z"], rating=1850),
    ]
    return "\r\n".join(lines) + "\r\n"


def without_round_three(text):
    """The same file with round 3's paired boards and bye taken out (its absences kept): what the engine pairs."""
    out = []
    for raw in text.split("\r\n"):
        if raw.startswith("001") and len(raw) > 111 and raw[118:119] != "H":
            raw = raw[:111].rstrip()
        out.append(raw)
    return "\r\n".join(out)
