"""The engine's reading of TRFs written in the middle of an event and of TRF-2026's newer lines (issue 27): a round
paired whose results are not in, a no-opponent cell written ``   0 - H``, round dates one 132 line per round, every
162 symbol, 299 lines (points given or taken outside the games), team files refused plainly."""

from decimal import Decimal

import pytest

from pairing import model as M
from pairing import trf, trffile
from pairing.__main__ import main
from tests.tournaments.interchange.round_three_files import dates_132, in_progress, line, without_round_three


def run(tmp_path, text, *args):
    path = tmp_path / "in.trf"
    path.write_bytes(text.encode("latin-1"))
    return main(["--dutch", str(path), *args])


def test_a_round_paired_without_results_is_the_round_to_pair(tmp_path, capsys):
    text = in_progress()
    doc = trffile.parse(text)
    assert doc.paired_round == 3
    assert doc.player(1).blocks[2] == trffile.Block(4, "w", " ", trffile.PAIRED)
    # the engine reads rounds 1-2 as played and pairs round 3, the 0000-less half-point bye kept as an absence
    reading = trf.reading(doc)
    assert (reading.played, reading.absences) == (2, {6: M.HALF_BYE})
    assert run(tmp_path, text, "-p") == 0
    paired = capsys.readouterr().out
    assert paired == "4\n1 4\n7 2\n8 3\n5 0\n"  # the file's own pairing, which the engine reproduces
    assert run(tmp_path, without_round_three(text), "-p") == 0
    assert capsys.readouterr().out == paired
    # a round partly entered is still the round to pair
    assert run(tmp_path, in_progress(results3={1: "1", 4: "0"}), "-p") == 0
    assert capsys.readouterr().out == paired


def test_a_game_after_the_round_without_results_is_refused_naming_the_line(tmp_path, capsys):
    text = in_progress().replace("  0000 - Z", "     5 b 1")
    assert run(tmp_path, text, "-p") == 3
    assert capsys.readouterr().err.endswith(
        "linha 21: a rodada 3 não tem todos os resultados, mas o jogador 8 já tem adversário na rodada 4\n"
    )


def test_no_opponent_cells_with_unpadded_zeros():
    doc = trffile.parse(
        "142 3\n"
        + line(1, "Ana", "1.5", ["   0 - H", "   2 w 1"])
        + "\n"
        + line(2, "Bia", "0.0", ["   0   Z", "   1 b 0"])
        + "\n"
    )
    assert doc.player(1).blocks[0] == trffile.Block(None, "", "H", M.HALF_BYE)
    assert doc.player(2).blocks[0] == trffile.Block(None, "", "Z", M.ZERO_BYE)
    assert trffile.parse(trffile.write(doc)).player(1).blocks == doc.player(1).blocks


@pytest.mark.parametrize("per_line", [True, False])
def test_round_dates_one_132_line_per_round(per_line):
    dates = ["26/03/14", "26/03/14", "26/03/15"]
    doc = trffile.parse("\n".join([*dates_132(dates, per_line=per_line), "142 3"]) + "\n")
    assert doc.round_dates == dates
    # a date written right after the code, one line per round
    assert trffile.parse("132 2026/03/14\n132 2026/03/15\n").round_dates == ["2026/03/14", "2026/03/15"]
    assert trffile.parse(trffile.write(doc)).round_dates == dates


def test_every_162_symbol_of_trf_2026():
    doc = trffile.parse("162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.0    X 1.5\n142 3\n")
    assert doc.scoring == {
        "win": Decimal("3.0"),
        "draw": Decimal("1.0"),
        "loss": Decimal("0.0"),
        "zero_bye": Decimal("0.0"),
        "forfeit_loss": Decimal("0.0"),
        "bye": Decimal("1.0"),
        "unknown": Decimal("1.5"),
    }
    state = trf.document_state(doc).state
    assert state.scoring == M.Scoring(win=Decimal(3), draw=Decimal(1), loss=0, bye=Decimal(1), zero_bye=0)
    written = trffile.write(doc)
    assert "162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.0    X 1.5\n" in written
    assert trffile.parse(written).scoring == doc.scoring
    with pytest.raises(M.InvalidInput, match="linha 1: símbolo 'Q' não suportado na linha 162"):
        trffile.parse("162  Q 1.0\n")


def test_299_lines_count_in_the_pairing_score_and_are_written_back():
    """A penalty of one point to 1 in round 2, a bonus of half a point to 2 and 3 (every round), and 4's forfeit win
    of round 1 worth 0.5 instead of a win."""
    text = (
        "142 3\n152 W\n"
        + line(1, "Ana", "1.0", ["   3 w 1", "   2 b 1"])
        + "\n"
        + line(2, "Bia", "0.5", ["   4 b -", "   1 w 0"])
        + "\n"
        + line(3, "Caio", "0.5", ["   1 b 0", "   4 w 0"])
        + "\n"
        + line(4, "Davi", "1.5", ["   2 w +", "   3 b 1"])
        + "\n"
        + "299          -1.0  002    1\n"
        + "299           0.5  000    2    3\n"
        + "299 +         0.5  001    4\n"
    )
    doc = trffile.parse(text)
    assert doc.adjustments == [
        trffile.Adjustment("", Decimal("-1.0"), 2, [1], 7),
        trffile.Adjustment("", Decimal("0.5"), None, [2, 3], 8),
        trffile.Adjustment("+", Decimal("0.5"), 1, [4], 9),
    ]
    data = trf.document_state(doc)
    assert trf.declared_mismatches(data) == []  # the points columns count the 299 lines
    history = {p.id: p.history for p in data.state.players}
    assert history[1][1].points == Decimal("0.0") and history[4][0].points == Decimal("0.5")
    assert history[2][0].points == Decimal("0.5") and history[2][1].points is None
    again = trffile.parse(trffile.write(doc))
    assert [(a.kind, a.points, a.round, a.players) for a in again.adjustments] == [
        (a.kind, a.points, a.round, a.players) for a in doc.adjustments
    ]
    with pytest.raises(M.InvalidInput, match="linha 1: tipo 'Q' inválido na linha 299"):
        trffile.parse("299 Q         0.5  001    4\n")
    with pytest.raises(M.InvalidInput, match="linha 9: linha 299 de jogador inexistente 9"):
        trf.parse(text.replace("  001    4\n", "  001    9\n"))


def test_team_files_are_refused_plainly(tmp_path, capsys):
    text = "012 Olimpíada\n192 FIDE_TEAM_DUTCH_2025\n142 9\n" + line(1, "Ana", "0.0", []) + "\n"
    assert run(tmp_path, text, "-p") == 3
    assert capsys.readouterr().err.endswith(
        "linha 2: torneio por equipes (FIDE_TEAM_DUTCH_2025) não é suportado: o programa emparceira só torneios "
        "individuais\n"
    )
