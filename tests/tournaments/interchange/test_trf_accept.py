"""Rare TRF files the engine accepts are imported too, read as the engine reads them: withdrawals written in the
round to pair's column, several announced byes beside the pairing-allocated one, years of birth alone, more than
30 rounds. Each file: exact data in the database, the app's next pairing equal to ``python -m pairing`` on the
same file, the export paired the same way and imported back into the same tournament. What the app's model cannot
hold is refused with one line naming the player and the round, and writes nothing."""

from datetime import date
from decimal import Decimal

import pytest

from pairing import trf
from pairing.api import pair_trf
from tests.tournaments.interchange.helpers import row_counts
from tests.tournaments.interchange.test_trf_real_files import app_pairs, engine_pairs, line, same_tournament
from tournaments.core.errors import ServiceError
from tournaments.interchange import InterchangeError, export_trf, import_trf_with_warnings
from tournaments.models import Absence
from tournaments.models.choices import SeatSide

pytestmark = pytest.mark.django_db


def trf_file(players, *extra, rounds=5, start="2026/02/01", ending="\n"):
    head = ["012 Aberto de Teste", "022 Recife", f"042 {start}", f"XXR {rounds}", "XXC white1", *extra]
    return ending.join(head + players) + ending


def absences(t):
    return sorted(
        Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number", "value")
    )


def bye_of(t, number):
    seat = t.rounds.get(number=number).seats.filter(side=SeatSide.BYE).first()
    return seat.entry.pairing_number if seat else None


def imported_and_paired_as_the_engine(text, director):
    """Import ``text``; the export pairs as the file and reads back as the same tournament; the app pairs the next
    round as the engine pairs the file. Returns the tournament (its next round paired)."""
    expected = engine_pairs(text)
    t, _warnings = import_trf_with_warnings(text, user=director)
    exported = export_trf(t)
    assert engine_pairs(exported) == expected
    again, _w = import_trf_with_warnings(exported)
    assert same_tournament(t, again)
    assert app_pairs(t, director) == expected
    return t


# --------------------------------------------------------------------------------------------- withdrawals
def withdrawals():
    """Round 3 to pair. 5 withdrew after round 1 (``0000 - -`` from round 2 on, then ``-`` in round 3); 6 lost by
    forfeit in round 2 and is written ``       -`` (nothing but the result) in round 3; 7 has a bare ``0000`` there;
    8 ``0000 - -`` in round 3 after the pairing-allocated bye of round 2; 9 and 10 played and say nothing of round 3."""
    return trf_file(
        [
            line(1, "Abreu, Ana", "2.0", ["   5 w 1", "   3 b 1"], rating=2200),
            line(2, "Barros, Bia", "1.0", ["   6 b 0", "   4 w 1"], rating=2150),
            line(3, "Cunha, Caio", "1.0", ["   7 w 1", "   1 w 0"], rating=2100),
            line(4, "Dias, Davi", "1.0", ["   8 b 1", "   2 b 0"], rating=2050),
            line(5, "Elias, Edu", "0.0", ["   1 b 0", "0000 - -", "0000 - -"], rating=2000),
            line(6, "Faria, Fia", "1.0", ["   2 w 1", "   9 b -", "       -"], rating=1950),
            line(7, "Gomes, Gil", "0.0", ["   3 b 0", "  10 w 0", "0000    "], rating=1900),
            line(8, "Hora, Hugo", "1.0", ["   4 w 0", "0000 - U", "0000 - -"], rating=1850),
            line(9, "Ilha, Íris", "1.0", ["  10 b 0", "   6 w +"], rating=1800),
            line(10, "Jardim, Jó", "2.0", ["   9 w 1", "   7 b 1"], rating=1750),
        ]
    )


def test_withdrawals_in_the_round_to_pair_are_not_paired(director):
    text = withdrawals()
    t = imported_and_paired_as_the_engine(text, director)
    assert absences(t) == [(5, 3, "zero"), (6, 3, "zero"), (7, 3, "zero"), (8, 3, "zero")]
    paired = {x for b in app_pairs_of_round(t, 3) for x in b}
    assert paired == {1, 2, 3, 4, 9, 10}


def app_pairs_of_round(t, number):
    boards = {}
    for s in t.rounds.get(number=number).seats.select_related("entry", "board"):
        if s.board_id is not None:
            boards.setdefault(s.board.number, {})[s.side] = s.entry.pairing_number
    return [(b[SeatSide.FIRST], b[SeatSide.SECOND]) for _n, b in sorted(boards.items())]


# ----------------------------------------------------------------------------------------------- birth years
def test_a_year_of_birth_alone_is_kept_and_places_the_player_in_age_categories(director):
    """``2009``, ``2008/00/00``, ``1966/00/00`` and ``1967``: kept as years (exported back as written by the
    product, ``YYYY/00/00``), and the age categories (age on 31 December of the event's year, docs/domain.md section 6)
    take them as full dates of that year would be taken."""
    from tournaments.categories.services import category_preset

    text = trf_file(
        [
            line(1, "Ana Jovem", "1.0", ["   2 w 1"], birth="2009", sex="w"),
            line(2, "Bia Maior", "0.0", ["   1 b 0"], birth="2008/00/00", sex="w"),
            line(3, "Caio Veterano", "1.0", ["   4 w 1"], birth="1966/00/00"),
            line(4, "Davi Quase", "0.0", ["   3 b 0"], birth="1967"),
            line(5, "Edu Data", "1.0", ["   6 w 1"], birth="2009/12/31"),
            line(6, "Fia Nada", "0.0", ["   5 b 0"], birth=""),
        ],
        start="2026/03/14",
    )
    t = imported_and_paired_as_the_engine(text, director)
    born = {e.pairing_number: (e.player.birth_date, e.player.birth_year) for e in t.entries.select_related("player")}
    assert born == {
        1: (None, 2009),
        2: (None, 2008),
        3: (None, 1966),
        4: (None, 1967),
        5: (date(2009, 12, 31), None),
        6: (None, None),
    }
    members = {}
    for code in ("S18", "VET", "FEM"):
        category, _n = category_preset(tournament=t, user=director, code=code)
        members[code] = sorted(category.entries.values_list("pairing_number", flat=True))
    assert members == {"S18": [1, 5], "VET": [3], "FEM": [1, 2]}
    exported = {ln[4:8].strip(): ln[69:79].strip() for ln in export_trf(t).splitlines() if ln.startswith("001")}
    assert exported == {
        "1": "2009/00/00",
        "2": "2008/00/00",
        "3": "1966/00/00",
        "4": "1967/00/00",
        "5": "2009/12/31",
        "6": "",
    }


def test_a_player_entered_by_hand_with_only_a_year_of_birth_gets_the_age_categories(director):
    from tournaments.categories.services import category_preset
    from tournaments.entries.services import eligible_categories
    from tournaments.models import Player

    t = import_trf_with_warnings(trf_file([line(1, "A", "0.0", []), line(2, "B", "0.0", [])]))[0]
    category_preset(tournament=t, user=director, code="S14")
    category_preset(tournament=t, user=director, code="VET")
    young, old = Player(name="Novo", sex="M", birth_year=2013), Player(name="Velho", sex="M", birth_year=1950)
    assert [c.code for c in eligible_categories(t, young)] == ["ABS", "S14"]
    assert [c.code for c in eligible_categories(t, old)] == ["ABS", "VET"]
    assert eligible_categories(t, Player(name="Sem ano", sex="M")) == [t.categories.get(code="ABS")]


# ---------------------------------------------------------------------------------------- more than 30 rounds
def long_event(players=40, played=33, total=36):
    """A round-robin schedule (circle method) of ``players`` for ``played`` rounds, results fixed by the numbers
    (lower number wins, every fifth game drawn), colours kept balanced, the next round to pair."""
    order = list(range(1, players + 1))
    blocks = {p: [] for p in order}
    points = dict.fromkeys(order, 0.0)
    for r in range(played):
        for i in range(players // 2):
            a, b = order[i], order[players - 1 - i]

            # White to the one with fewer whites so far (then: the one who had Black last), as a director would
            def need(p):
                colours = [blk[5] for blk in blocks[p]]
                return (colours.count("w") - colours.count("b"), colours[-1:] == ["w"])

            white, black = (a, b) if need(a) <= need(b) else (b, a)
            if (a + b + r) % 5 == 0:
                rw = rb = "="
                points[a] += 0.5
                points[b] += 0.5
            else:
                winner = min(a, b)
                rw, rb = ("1", "0") if winner == white else ("0", "1")
                points[winner] += 1
            blocks[white].append(f"{black:>4} w {rw}")
            blocks[black].append(f"{white:>4} b {rb}")
        order = [order[0], order[-1], *order[1:-1]]
    return trf_file(
        [
            line(p, f"Jogador {p:02d}", f"{points[p]:.1f}", blocks[p], rating=2400 - 5 * p)
            for p in range(1, players + 1)
        ],
        rounds=total,
    )


def test_more_than_30_rounds(director):
    text = long_event()
    t = imported_and_paired_as_the_engine(text, director)
    assert t.planned_rounds == 36 and t.rounds.count() == 34 and t.rounds.get(number=33).boards.count() == 20


def test_more_rounds_than_the_product_holds_is_refused_and_writes_nothing():
    text = long_event(players=6, played=1, total=101)
    before = row_counts()
    with pytest.raises(InterchangeError, match=r"^\['TRF: 101 rodadas \(no máximo 100\)'\]$"):
        import_trf_with_warnings(text)
    assert row_counts() == before


# ------------------------------------------------------------------ rounds one player's line alone gives
def one_sided_rows(t):
    from tournaments.models import OneSidedRound

    return sorted(
        OneSidedRound.objects.filter(round__tournament=t).values_list(
            "round__number", "entry__pairing_number", "opponent__pairing_number", "colour", "result"
        )
    )


def points_of(t):
    from tournaments.standings import tournament_standings

    return {row.id: str(row.points) for row in tournament_standings(t, public=False, rights=False).rows}


def hand_edited():
    """10 players, round 4 to pair, a file edited by hand after the fact: in round 1 player 3 has a forfeit win
    against 8, whose line says Z (absent); in round 2 two pairing-allocated byes (9 and 10); in round 3 both 1 and
    3 say they won their game, 2 and 4 both claim the forfeit, 8 lost to 10 who says it was a draw; 8 withdraws
    (``0000 - -`` in round 4)."""
    return trf_file(
        [
            line(1, "Abreu, Ana", "2.0", ["   6 w 1", "   2 b 0", "   3 w 1"], rating=2300),
            line(2, "Barros, Bia", "2.5", ["   7 w =", "   1 w 1", "   4 w +"], rating=2250),
            line(3, "Cunha, Caio", "2.5", ["   8 w +", "   4 b =", "   1 b 1"], rating=2200),
            line(4, "Dias, Davi", "2.5", ["   9 w 1", "   3 w =", "   2 b +"], rating=2150),
            line(5, "Elias, Edu", "2.0", ["  10 w 1", "   6 b 0", "   7 w 1"], rating=2100),
            line(6, "Faria, Fia", "1.0", ["   1 b 0", "   5 w 1", "   9 b -"], rating=2050),
            line(7, "Gomes, Gil", "1.5", ["   2 b =", "   8 b 1", "   5 b 0"], rating=2000),
            line(8, "Hora, Hugo", "0.0", ["0000 - Z", "   7 w 0", "  10 w 0", "0000 - -"], rating=1950),
            line(9, "Ilha, Íris", "1.0", ["   4 b 0", "0000 - U", "   6 w -"], rating=1900),
            line(10, "Jardim, Jó", "1.5", ["   5 b 0", "0000 - U", "   8 b ="], rating=1850),
        ],
        "XXS W=1 D=0.5",
        rounds=7,
        ending="\r\n",
    )


def test_forfeits_the_opponent_does_not_show_two_byes_and_contradicting_results(director):
    text = hand_edited()
    t = imported_and_paired_as_the_engine(text, director)
    assert one_sided_rows(t) == [
        (1, 3, 8, "w", "+"),
        (2, 10, None, "", "U"),
        (3, 1, 3, "w", "1"),
        (3, 2, 4, "w", "+"),
        (3, 3, 1, "b", "1"),
        (3, 4, 2, "b", "+"),
        (3, 8, 10, "w", "0"),
        (3, 10, 8, "b", "="),
    ]
    assert bye_of(t, 2) == 9 and t.rounds.get(number=3).boards.count() == 2  # 5-7 and the double forfeit 9-6
    assert absences(t) == [(8, 1, "zero"), (8, 4, "zero")]
    # every player's points as the line declares them
    assert points_of(t) == {
        1: "2",
        2: "2.5",
        3: "2.5",
        4: "2.5",
        5: "2",
        6: "1",
        7: "1.5",
        8: "0",
        9: "1",
        10: "1.5",
    }
    # the export writes every line as it was
    written = {ln[4:8].strip(): ln[91:].rstrip() for ln in export_trf(t).splitlines() if ln.startswith("001")}
    original = {ln[4:8].strip(): ln[91:].rstrip() for ln in text.splitlines() if ln.startswith("001")}
    assert {k: v.replace("0000 - -", "0000 - Z") for k, v in original.items()} == written


def test_each_round_kept_for_one_player_is_said_in_a_warning(director):
    _t, warnings = import_trf_with_warnings(hand_edited(), user=director)
    said = [w for w in warnings if "só para esse jogador" in w]
    assert said[0] == (
        "linha 9, rodada 1: “8 w +” do jogador 3 importado como o arquivo o escreve, só para esse jogador (a linha "
        "do jogador 8 mostra ninguém nessa rodada)"
    )
    assert len(said) == 8


def chained_forfeits():
    """Round 3 to pair. Round 1: 1 claims a forfeit against 2, 2 one against 3, who lost by forfeit to 4. Round 2:
    1 and 5 both write White for their forfeit; 2 claims a forfeit without colours against 6, whose line says H."""
    return trf_file(
        [
            line(1, "Ana", "2.0", ["   2 w +", "   5 w +"], rating=1800),
            line(2, "Bia", "2.0", ["   3 b +", "   6 - +"], rating=1790),
            line(3, "Caio", "1.0", ["   4 w -", "   4 b 1"], rating=1780),
            line(4, "Davi", "1.0", ["   3 b +", "   3 w 0"], rating=1770),
            line(5, "Edu", "1.0", ["   6 w 1", "   1 w -"], rating=1760),
            line(6, "Fia", "0.5", ["   5 b 0", "0000 - H"], rating=1750),
        ]
    )


def test_chained_forfeits_and_forfeits_with_the_same_colour(director):
    t = imported_and_paired_as_the_engine(chained_forfeits(), director)
    assert one_sided_rows(t) == [
        (1, 1, 2, "w", "+"),
        (1, 2, 3, "b", "+"),
        (2, 1, 5, "w", "+"),
        (2, 2, 6, "", "+"),
        (2, 5, 1, "w", "-"),
    ]
    assert absences(t) == [(6, 2, "draw")]
    assert points_of(t) == {1: "2", 2: "2", 3: "1", 4: "1", 5: "1", 6: "0.5"}


def test_a_game_the_opponent_does_not_show_is_refused_as_the_engine_refuses_it():
    text = chained_forfeits().replace("   2 w +", "   2 w 1", 1)
    from pairing.model import InvalidInput

    with pytest.raises(InvalidInput, match="contradiz"):
        engine_pairs(text)
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_trf_with_warnings(text)
    assert exc.value.messages == [
        "TRF, linha 6, rodada 1: o jogador 1 jogou com 2, mas a linha de 2 mostra o jogador 3 nessa rodada"
    ]
    assert row_counts() == before


def test_the_interchange_file_carries_the_one_sided_rounds(director):
    from tournaments.interchange import export_data, import_data

    t, _w = import_trf_with_warnings(hand_edited(), user=director)
    data = export_data(t)
    assert data["rounds"][1]["one_sided"] == [{"player": 10, "opponent": None, "colour": "", "result": "U"}]
    data["tournament"]["slug"] = "copia"
    again = import_data(data)
    assert again.has_one_sided_rounds and one_sided_rows(again) == one_sided_rows(t)
    assert same_tournament(t, again) and points_of(again) == points_of(t)


@pytest.mark.parametrize(
    "item,message",
    [
        ({"player": 10, "opponent": 3, "colour": "", "result": "U"}, "o jogador 10 tem resultado 'U', adversário 3"),
        ({"player": 10, "opponent": 3, "colour": "", "result": "1"}, "o jogador 10 tem resultado '1', adversário 3"),
        ({"player": 10, "opponent": 10, "colour": "w", "result": "+"}, "adversário 10 do jogador 10 inválido"),
        ({"player": 10, "opponent": 99, "colour": "w", "result": "+"}, "adversário 99 do jogador 10 inválido"),
        ({"player": 10, "opponent": 3, "colour": "x", "result": "+"}, "resultado '+' ou cor 'x' inválidos"),
        ({"player": 9, "opponent": None, "colour": "", "result": "U"}, "o jogador 9 aparece mais de uma vez"),
    ],
)
def test_a_one_sided_round_that_cannot_be_is_refused(director, item, message):
    from tournaments.interchange import export_data, import_data

    t, _w = import_trf_with_warnings(hand_edited(), user=director)
    data = export_data(t)
    data["tournament"]["slug"] = "copia"
    data["rounds"][1]["one_sided"] = [item]
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_data(data)
    assert any(message in m and m.startswith("rodada 2") for m in exc.value.messages), exc.value.messages
    assert row_counts() == before


# ------------------------------------------------------------------------------- a bye worth something else
def three_points_for_a_win(bye="BBU  2.0", worth=2):
    """Win 3, draw 1 (``162``), the pairing-allocated bye worth 2 (``BBU``): 7 players, round 3 to pair."""
    return trf_file(
        [
            line(1, "Ana", "6.0", ["   5 w 1", "   3 b 1"], rating=2000),
            line(2, "Bia", "4.0", ["   6 b 1", "   4 w ="], rating=1990),
            line(3, "Caio", "3.0", ["   7 w 1", "   1 w 0"], rating=1980),
            line(4, "Davi", f"{worth + 1}.0", ["0000 - U", "   2 b ="], rating=1970),
            line(5, "Edu", f"{worth}.0", ["   1 b 0", "0000 - U"], rating=1960),
            line(6, "Fia", "3.0", ["   2 w 0", "   7 b 1"], rating=1950),
            line(7, "Gil", "0.0", ["   3 b 0", "   6 w 0"], rating=1940),
        ],
        "162  W 3.0    D 1.0    L 0.0",
        bye,
    )


def test_a_bye_worth_neither_a_win_nor_a_draw(director):
    t = imported_and_paired_as_the_engine(three_points_for_a_win(), director)
    assert (t.score_win, t.score_draw, t.score_loss, t.bye_points) == (3, 1, 0, 2)
    assert points_of(t) == {1: "6", 2: "4", 3: "3", 4: "3", 5: "2", 6: "3", 7: "0"}
    assert "BBU  2.0" in export_trf(t).splitlines()
    assert t.bye_worth_display() == "2 pontos por partida"


def test_a_bye_worth_nothing(director):
    t = imported_and_paired_as_the_engine(three_points_for_a_win("BBU  0.0", worth=0), director)
    assert t.bye_points == 0 and points_of(t)[4] == "1" and points_of(t)[5] == "0"


# ----------------------------------------------------------- forfeit losses and zero byes not worth a loss
def participation_point(*extra, forfeit="0.0"):
    """Win 3, draw 2, a loss 1 (a point for playing), a forfeit lost and a round not played at zero 0 (``162 ... Z``):
    forfeits, a double forfeit, ``Z`` and ``H`` absences, a withdrawal in the round to pair (round 3)."""
    f = float(forfeit)
    return trf_file(
        [
            line(1, "Ana", "5.0", ["   4 w 1", "   2 b ="], rating=2000),
            line(2, "Bia", "5.0", ["   5 w +", "   1 w ="], rating=1990),
            line(3, "Caio", "1.0", ["0000 - Z", "   4 b 0"], rating=1980),
            line(4, "Davi", "4.0", ["   1 b 0", "   3 w 1"], rating=1970),
            line(5, "Edu", f"{2 * f:.1f}", ["   2 b -", "   6 w -", "0000 - -"], rating=1960),
            line(6, "Fia", f"{2 + f:.1f}", ["0000 - H", "   5 b -"], rating=1950),
        ],
        "162  W 3.0    D 2.0    L 1.0    Z 0.0",
        *extra,
    )


@pytest.mark.parametrize("extra,forfeit", [((), "0.0"), (("BBF  0.5",), "0.5")], ids=["162-Z", "BBF-0.5"])
def test_forfeit_losses_and_zero_byes_worth_other_than_a_loss(director, extra, forfeit):
    t = imported_and_paired_as_the_engine(participation_point(*extra, forfeit=forfeit), director)
    assert (t.score_win, t.score_draw, t.score_loss) == (3, 2, 1)
    assert (str(t.score_forfeit_loss), str(t.score_zero_bye)) == (forfeit, "0.0")
    f = float(forfeit)
    expected = {1: 5, 2: 5, 3: 1, 4: 4, 5: 2 * f, 6: 2 + f}
    assert points_of(t) == {k: fmt(v) for k, v in expected.items()}
    assert absences(t) == [(3, 1, "zero"), (5, 3, "zero"), (6, 1, "draw")]
    exported = export_trf(t).splitlines()
    assert ("BBZ  0.0" in exported) and (f"BBF  {forfeit}" in exported)


def fmt(v):
    return str(int(v)) if v == int(v) else str(v)


def test_a_round_not_paired_counts_the_zero_bye_of_the_file(director):
    """A blank column in a played round (not paired, nothing said) is worth the file's zero-point bye, as the
    engine counts it: here 0.5 (``BBZ``), so 3 and 4 have half a point more than their games."""
    text = trf_file(
        [
            line(1, "Ana", "2.0", ["   2 w 1", "   3 b 1"]),
            line(2, "Bia", "0.0", ["   1 b 0", "   4 w 0"]),
            line(3, "Caio", "0.5", ["        ", "   1 w 0"]),
            line(4, "Davi", "1.5", ["        ", "   2 b 1"]),
        ],
        "BBZ  0.5",
    )
    t = imported_and_paired_as_the_engine(text, director)
    assert str(t.score_zero_bye) == "0.5" and t.score_forfeit_loss is None
    assert points_of(t) == {1: "2", 2: "0", 3: "0.5", 4: "1.5"}


# ------------------------------------------------------------------------------------------------ parity
# Every file here that ``python -m pairing`` accepts, the app imports, and pairs the next round the same way.
def _blocks_at(text_line):
    return [(col, text_line[col : col + 8]) for col in range(91, len(text_line) - 7, 10)]


def _players(text):
    return [ln for ln in text.splitlines() if ln.startswith("001")]


def _replace_block(text, pid, col, block):
    out = []
    for ln in text.splitlines():
        if ln.startswith("001") and int(ln[4:8]) == pid:
            ln = ln.ljust(col + 8)
            ln = ln[:col] + block + ln[col + 8 :]
        out.append(ln.rstrip())
    return "\n".join(out) + "\n"


def _declared_as_the_results(text):
    """The points column rewritten to what the results give (a transformed file must stay consistent)."""
    data = trf.parse(text)
    fixed = {pid: computed for pid, _declared, computed in trf.declared_mismatches(data)}
    out = []
    for ln in text.splitlines():
        if ln.startswith("001") and int(ln[4:8]) in fixed:
            v = fixed[int(ln[4:8])]
            ln = f"{ln[:80]}{f'{v // 10}.{v % 10}':>4}{ln[84:]}"
        out.append(ln)
    return "\n".join(out) + "\n"


def one_sided_forfeit(text):
    """The first forfeit pair: the loser's line says ``0000 - Z`` instead."""
    for ln in _players(text):
        for col, block in _blocks_at(ln):
            if block[7] == "+" and block[:4].strip() not in ("", "0000"):
                opp = int(block[:4])
                return _replace_block(text, opp, col, "0000 - Z")
    return None


def extra_byes(text):
    """The last game of the first round with a bye becomes two more byes (``U``)."""
    lines = {int(ln[4:8]): ln for ln in _players(text)}
    for col in range(91, max(len(ln) for ln in lines.values()) - 7, 10):
        if not any(ln[col : col + 8] == "0000 - U" for ln in lines.values()):
            continue
        for pid in sorted(lines, reverse=True):
            block = lines[pid][col : col + 8]
            if len(block) == 8 and block[7] in "10=" and block[:4].strip() not in ("", "0000"):
                text = _replace_block(text, pid, col, "0000 - U")
                return _declared_as_the_results(_replace_block(text, int(block[:4]), col, "0000 - U"))
    return None


def contradicting_results(text):
    """The first lost game of the last round played is written as a win for both."""
    lines = _players(text)
    last = max((col for ln in lines for col, _b in _blocks_at(ln)), default=None)
    if last is None:
        return None
    for ln in lines:
        block = ln[last : last + 8]
        if len(block) == 8 and block[7] == "0" and block[:4].strip() not in ("", "0000"):
            return _declared_as_the_results(_replace_block(text, int(ln[4:8]), last, block[:7] + "1"))
    return None


def withdrawn_in_the_round_to_pair(text):
    """The two lowest-ranked start numbers withdraw: ``0000 - -`` in the round to pair's column."""
    played = trf.reading(trf.parse(text).document).played
    col = 91 + 10 * played
    numbers = sorted(int(ln[4:8]) for ln in _players(text))
    for pid in numbers[-2:]:
        text = _replace_block(text, pid, col, "0000 - -")
    return text


def years_of_birth(text):
    out = []
    for i, ln in enumerate(text.splitlines()):
        if ln.startswith("001"):
            ln = ln.ljust(80)
            ln = ln[:69] + ["1975      ", "1975/00/00", "2010      "][i % 3] + ln[79:]
        out.append(ln.rstrip())
    return "\r".join(out) + "\r"


TRANSFORMS = {
    "w.o.-de-um-lado": one_sided_forfeit,
    "byes-extras": extra_byes,
    "resultados-contraditorios": contradicting_results,
    "desistencias": withdrawn_in_the_round_to_pair,
    "anos-de-nascimento": years_of_birth,
}


def _transformed_cases(per_transform=2):
    from testkit import vectors

    out = []
    for label, transform in TRANSFORMS.items():
        found = 0
        for name in vectors.names()[::7]:
            text = transform(vectors.trf_text(name))
            if text is not None:
                out.append((f"{label}:{name}", text))
                found += 1
                if found == per_transform:
                    break
    return out


FIXTURES = {
    "desistencias": withdrawals,
    "editado-a-mao": hand_edited,
    "w.o.-em-cadeia": chained_forfeits,
    "w.o.-em-cadeia-crlf": lambda: chained_forfeits().replace("\n", "\r\n"),
    "36-rodadas": lambda: long_event(players=34, played=31, total=36),
    "bye-vale-2": three_points_for_a_win,
    "ponto-por-jogar": participation_point,
    "revanche": lambda: trf_file(
        [
            line(1, "A", "1.0", ["   2 w 1", "   2 b 0"]),
            line(2, "B", "1.0", ["   1 b 0", "   1 w 1"]),
            line(3, "C", "1.0", ["   4 w 0", "   4 b 1"]),
            line(4, "D", "1.0", ["   3 b 1", "   3 w 0"]),
        ]
    ),
}


def parity_cases():
    return [(name, make()) for name, make in FIXTURES.items()] + _transformed_cases()


@pytest.mark.parametrize("name,text", parity_cases(), ids=lambda v: v if isinstance(v, str) and len(v) < 60 else "")
def test_what_the_engine_accepts_the_app_imports_and_pairs_the_same(name, text, director):
    from pairing.model import InvalidInput, NoValidPairing

    try:
        expected = engine_pairs(text)
    except InvalidInput:
        pytest.skip("o motor recusa o arquivo")  # only files the engine accepts are the app's to accept
    except NoValidPairing:
        expected = None
    t, _warnings = import_trf_with_warnings(text, user=director)
    if expected is None:
        with pytest.raises(ServiceError, match="Não existe emparceiramento válido para a rodada"):
            app_pairs(t, director)  # the app refuses to pair it too, in its own words
    else:
        assert app_pairs(t, director) == expected
    again, _w = import_trf_with_warnings(export_trf(t))
    assert same_tournament(t, again)


def test_the_parity_set_is_varied():
    """Every transform changed its cases the way it says, and the engine accepts every file of the set (so none of
    the parity tests above is skipped)."""
    from testkit import vectors

    cases = parity_cases()
    labels = {name.split(":")[0] for name, _text in cases}
    assert labels >= set(TRANSFORMS) | set(FIXTURES)
    for name, text in cases:
        pair_trf(trf.parse(text))
        if ":" not in name:
            continue
        label, vector = name.split(":")
        original = vectors.trf_text(vector)
        assert text != original, name
        blocks = [b for ln in _players(text) for _c, b in _blocks_at(ln)]
        was = [b for ln in _players(original) for _c, b in _blocks_at(ln)]
        if label == "byes-extras":
            assert blocks.count("0000 - U") == was.count("0000 - U") + 2, name
        elif label == "w.o.-de-um-lado":
            assert blocks.count("0000 - Z") == was.count("0000 - Z") + 1, name
        elif label == "desistencias":
            assert blocks.count("0000 - -") == was.count("0000 - -") + 2, name


def test_a_rematch_is_kept_for_each_player_as_written(director):
    """The engine reads a file where two players met twice; the app's boards never repeat a game, so the second
    meeting is kept for each player alone."""
    text = trf_file(
        [
            line(1, "Ana", "2.0", ["   2 w 1", "   2 b 1"]),
            line(2, "Bia", "0.0", ["   1 b 0", "   1 w 0"]),
            line(3, "Caio", "1.5", ["   4 w 1", "   4 b ="]),
            line(4, "Davi", "0.5", ["   3 b 0", "   3 w ="]),
        ]
    )
    t = imported_and_paired_as_the_engine(text, director)
    assert one_sided_rows(t) == [(2, 1, 2, "b", "1"), (2, 2, 1, "w", "0"), (2, 3, 4, "b", "="), (2, 4, 3, "w", "=")]
    assert points_of(t) == {1: "2", 2: "0", 3: "1.5", 4: "0.5"}


def test_the_director_choosing_the_bye_value_replaces_the_files_bye_points(director):
    from tournaments.setup.services import tournament_update

    players = [line(n, f"Jogador {n}", "0.0", []) for n in range(1, 6)]
    t, _w = import_trf_with_warnings(trf_file(players, "BBU  0.8"), user=director)
    assert t.bye_points == Decimal("0.8") and t.bye_worth_display() == "0,8 pontos por partida"
    t = tournament_update(tournament=t, user=director, bye_value="win")  # unchanged: the file's value stays
    assert t.bye_points == Decimal("0.8")
    t = tournament_update(tournament=t, user=director, bye_value="draw")
    t.refresh_from_db()
    assert (t.bye_value, t.bye_points) == ("draw", None)
