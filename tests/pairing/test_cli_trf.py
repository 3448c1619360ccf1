"""TRF reading/writing errors and the command-line contract (exit codes)."""

import subprocess
import sys
from pathlib import Path

import pytest

from pairing import InvalidInput, trf
from pairing.__main__ import main

ROOT = Path(__file__).resolve().parents[2]

HEADER = "012 Teste\nXXR 5\nXXC white1\n"


def player(pid, pts, rounds=(), rating=2000):
    base = f"001 {pid:>4}      {'Jogador ' + str(pid):<33} {rating:>4}{'':28}{pts:>4}{'':5}"
    base = base.ljust(89)
    return base + "".join(f"  {r}" for r in rounds)


def four_players_after_round1():
    return (
        HEADER
        + "\n".join(
            [
                player(1, "1.0", ["   3 w 1"]),
                player(2, "0.0", ["   4 b 0"]),
                player(3, "0.0", ["   1 b 0"]),
                player(4, "1.0", ["   2 w 1"]),
            ]
        )
        + "\n"
    )


def write(tmp_path, text, name="t.trf"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_pairs_valid_file(tmp_path, capsys):
    p = write(tmp_path, four_players_after_round1())
    assert main(["--dutch", str(p), "-p"]) == 0
    out = capsys.readouterr().out.split("\n")
    assert out[0] == "2"
    pairs = {tuple(sorted(map(int, line.split()))) for line in out[1:3]}
    assert pairs == {(1, 4), (2, 3)}


def test_output_file(tmp_path):
    p = write(tmp_path, four_players_after_round1())
    out = tmp_path / "out.txt"
    assert main(["--dutch", str(p), "-p", str(out)]) == 0
    assert out.read_text().splitlines()[0] == "2"


def test_bye_is_last_with_zero(tmp_path, capsys):
    text = HEADER + "\n".join(player(i, "0.0") for i in range(1, 6)) + "\n"
    p = write(tmp_path, text)
    assert main(["--dutch", str(p), "-p"]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    assert lines[0] == "3"
    assert lines[-1] == "5 0"


@pytest.mark.parametrize(
    "bad,fragment",
    [
        ("   3 w x", "resultado 'x' inválido na rodada 1"),
        ("   3 q 1", "cor 'q' inválida"),
        ("   9 w 1", "9"),
    ],
)
def test_bad_result_names_line(tmp_path, capsys, bad, fragment):
    text = (
        HEADER
        + "\n".join(
            [
                player(1, "1.0", [bad]),
                player(2, "0.0", ["   4 b 0"]),
                player(3, "0.0", ["   1 b 0"]),
                player(4, "1.0", ["   2 w 1"]),
            ]
        )
        + "\n"
    )
    p = write(tmp_path, text)
    assert main(["--dutch", str(p), "-p"]) == 3
    err = capsys.readouterr().err
    assert "linha 4" in err
    assert fragment in err


def test_points_mismatch_is_invalid(tmp_path, capsys):
    text = four_players_after_round1().replace(player(1, "1.0", ["   3 w 1"]), player(1, "0.5", ["   3 w 1"]))
    p = write(tmp_path, text)
    assert main(["--dutch", str(p), "-p"]) == 3
    assert "linha 4" in capsys.readouterr().err


def test_inconsistent_opponent_is_invalid(tmp_path, capsys):
    text = (
        HEADER
        + "\n".join(
            [
                player(1, "1.0", ["   3 w 1"]),
                player(2, "0.0", ["   4 b 0"]),
                player(3, "0.0", ["   2 b 0"]),
                player(4, "1.0", ["   2 w 1"]),
            ]
        )
        + "\n"
    )
    p = write(tmp_path, text)
    assert main(["--dutch", str(p), "-p"]) == 3


def test_missing_total_rounds(tmp_path, capsys):
    p = write(tmp_path, four_players_after_round1().replace("XXR 5\n", ""))
    assert main(["--dutch", str(p), "-p"]) == 3
    assert "rodadas" in capsys.readouterr().err


def test_no_valid_pairing_exit_1(tmp_path, capsys):
    text = (
        "XXR 3\nXXC white1\n"
        + "\n".join(
            [
                player(1, "1.0", ["   2 w 1"]),
                player(2, "0.0", ["   1 b 0"]),
            ]
        )
        + "\n"
    )
    p = write(tmp_path, text)
    assert main(["--dutch", str(p), "-p"]) == 1


def test_file_error_exit_5(tmp_path, capsys):
    assert main(["--dutch", str(tmp_path / "nope.trf"), "-p"]) == 5
    p = write(tmp_path, four_players_after_round1())
    assert main(["--dutch", str(p), "-p", str(tmp_path / "no" / "dir" / "x")]) == 5


def test_usage_error(capsys):
    assert main(["--dutch"]) == 3


def test_module_entry_point(tmp_path):
    p = write(tmp_path, four_players_after_round1())
    proc = subprocess.run(
        [sys.executable, "-m", "pairing", "--dutch", str(p), "-p"], capture_output=True, text=True, cwd=str(ROOT)
    )
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "2"


def test_checker_lists_differing_rounds(tmp_path, capsys):
    # round 1 played as 1-2, 3-4 (the Dutch pairing is 1-3, 2-4 / 4-2)
    text = (
        HEADER
        + "\n".join(
            [
                player(1, "1.0", ["   2 w 1"]),
                player(2, "0.0", ["   1 b 0"]),
                player(3, "1.0", ["   4 w 1"]),
                player(4, "0.0", ["   3 b 0"]),
            ]
        )
        + "\n"
    )
    p = write(tmp_path, text)
    assert main(["--dutch", str(p), "-c"]) == 0
    out = capsys.readouterr().out
    assert "Rodada 1" in out


def test_checker_silent_when_identical(tmp_path, capsys):
    text = (
        HEADER
        + "\n".join(
            [
                player(1, "1.0", ["   3 w 1"]),
                player(2, "0.0", ["   4 b 0"]),
                player(3, "0.0", ["   1 b 0"]),
                player(4, "1.0", ["   2 w 1"]),
            ]
        )
        + "\n"
    )
    p = write(tmp_path, text)
    assert main(["--dutch", str(p), "-c"]) == 0
    assert capsys.readouterr().out == ""


def test_trf_2026_codes_and_roundtrip(tmp_path):
    text = (
        "142 5\n152 W\n162  W 2.0    D 1.0\n"
        + "\n".join(
            [
                player(1, "2.0", ["   3 w 1"]),
                player(2, "0.0", ["   4 b 0"]),
                player(3, "0.0", ["   1 b 0"]),
                player(4, "2.0", ["   2 w 1"]),
            ]
        )
        + "\n260   1   5    1    4\n"
    )
    data = trf.parse(text)
    assert data.state.total_rounds == 5
    assert data.state.initial_color == "w"
    assert data.state.forbidden[0].players == [1, 4]
    from pairing.api import pair_trf

    res = pair_trf(data)
    assert {tuple(sorted(b)) for b in res.boards} == {(1, 2), (3, 4)}
    again = trf.parse(trf.dumps(data.state))
    assert pair_trf(again).boards == res.boards
    again26 = trf.parse(trf.dumps(data.state, trf2026=True))
    assert pair_trf(again26).boards == res.boards


def test_xxp_and_bb_lines_and_240(tmp_path):
    text = (
        "XXR 5\nXXC white1\nBBW 2.0\nBBD 1.0\nXXP 1 3\n240 Z   1    2\n"
        + "\n".join(player(i, "0.0") for i in range(1, 6))
        + "\n"
    )
    data = trf.parse(text)
    from pairing.api import pair_trf

    res = pair_trf(data)
    flat = [x for b in res.boards for x in b] + [res.bye]
    assert 2 not in flat
    assert (1, 3) not in res.boards and (3, 1) not in res.boards


def test_invalid_input_carries_line():
    with pytest.raises(InvalidInput) as exc:
        trf.parse(HEADER + player(1, "x.y") + "\n")
    assert exc.value.line == 4
    assert str(exc.value).startswith("linha 4:")
