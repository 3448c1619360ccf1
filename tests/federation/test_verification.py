"""The federation's verification (issue 29) as a pure function of (interchange file, registry at a date): no
database, no HTTP. The stage file was run through this product's services (tests/federation/make_stage.py), so
the untouched file has no finding; each tampering gives exactly its finding."""

import copy
import json
from datetime import date
from pathlib import Path

import pytest

from tournaments.federation.verification import Registry, RegistryPlayer, SuspensionPeriod, verify

STAGE = Path(__file__).resolve().parents[1] / "data" / "federation" / "etapa-caruaru.json"
LIST_DATE = date(2026, 10, 1)


@pytest.fixture
def stage():
    return json.loads(STAGE.read_text(encoding="utf-8"))


def registry_of(data, **changes):
    """The federation's registry agreeing with the file (the list of 1 October), with ``changes``:
    cbjd_id -> rating."""
    players = {
        p["cbjd_id"]: RegistryPlayer(
            p["cbjd_id"],
            p["name"],
            changes.get(p["cbjd_id"], p["rating"]),
            p["sex"],
            date.fromisoformat(p["birth_date"]),
        )
        for p in data["players"]
    }
    return Registry(LIST_DATE, "rating-cbjd-2026-10.csv", players)


def codes(result):
    return [f.code for f in result.findings]


def test_untouched_stage_has_no_finding_and_earns_its_spots(stage):
    result = verify(stage, registry_of(stage))
    assert result.as_json()["findings"] == [] and result.rights
    assert result.participants == 34 and result.rounds_completed == 7
    spots = {q["code"]: (q["spots"], q["average"], len(q["qualified"])) for q in result.qualification}
    # averages of the list's ratings (unrated at 1600): three categories, the spots of art. 6
    assert spots == {"ABS": (3, "2172.00", 3), "FEM": (3, "2152.00", 3), "S18": (2, "2023.75", 2)}


def test_round1_paired_by_hand_is_not_by_rating(stage):
    """1-30, 2-29 ... (a hand-made round 1 that still claims this engine)."""
    r1 = stage["rounds"][0]
    n = len(r1["boards"]) * 2
    for i, board in enumerate(r1["boards"]):
        board["first"], board["second"] = i + 1, n - i
    result = verify(stage, registry_of(stage))
    assert codes(result)[0] == "round1_not_by_rating"
    first = result.findings[0]
    # the venue's condition (art. 4, 6) and its words: round 1 paired again from the list's ratings
    assert first.article == "art. 4, 6" and first.blocking
    assert first.message.startswith(
        "Rodada 1 emparceirada por rating: A 1ª rodada emparceirada de novo a partir dos ratings do arquivo não é a "
        "1ª rodada do arquivo: pelo rating seriam 1-18, 3-20, 5-22, 7-24, 11-28, 13-30, 15-32, 17-34, 19-2, 21-4 …; "
        "o arquivo tem 1-34, 2-33, 3-32"
    )
    assert first.message.endswith(
        "Ratings congelados quando a rodada 1 foi emparceirada: lista de rating nacional “rating-cbjd-2026-10.csv” "
        "de 01/10/2026."
    )
    assert not result.rights
    assert all(q["qualified"] == [] for q in result.qualification)  # no rights, no qualifiers


def test_ratings_raised_in_the_file_do_not_fool_round1(stage):
    """The file's ratings edited so that its own round 1 looks right: the national list says otherwise."""
    reg = registry_of(stage, PE4100=1500)
    result = verify(stage, reg)
    assert codes(result) == ["rating_differs", "round1_not_by_rating"] + codes(result)[2:]
    assert result.findings[0].message == (
        "Rating diferente da lista nacional de 01/10/2026: Ana Albuquerque Esteves (arquivo 2350, lista 1500)."
    )
    assert result.findings[0].article == "art. 4" and not result.findings[0].blocking
    # the file's own round 1 (1-18, 2-19 ...) is the list's order no more: player 1 is 34th on the list
    assert result.findings[1].message.startswith(
        "Rodada 1 emparceirada por rating: Os números de emparceiramento não seguem a ordem de rating (por exemplo, "
        "Davi Barbosa Esteves, nº 2)."
    )
    assert result.findings[1].blocking and not result.rights


def test_rating_list_mismatch_that_keeps_the_order_is_listed_not_blocking(stage):
    reg = registry_of(stage, PE4133=1955)  # a list rating a little different, the order unchanged
    result = verify(stage, reg)
    assert [(f.code, f.article, f.blocking) for f in result.findings] == [("rating_differs", "art. 4", False)]
    assert "(arquivo 1954, lista 1955)" in result.findings[0].message
    assert result.rights


def test_suspended_player_on_the_event_date(stage):
    reg = registry_of(stage)
    reg = Registry(
        reg.list_date,
        reg.list_name,
        reg.players,
        [
            SuspensionPeriod("PE4107", date(2026, 9, 1), date(2026, 11, 30), "Abandono da Etapa Natal (art. 10)"),
            SuspensionPeriod("PE4108", date(2026, 1, 1), date(2026, 3, 31), "já cumprida"),
        ],
    )
    result = verify(stage, reg)
    result = verify(stage, reg, received_on=date(2026, 10, 19))
    assert result.as_json()["findings"] == [
        {
            "code": "suspended_player",
            "article": "art. 3, 6",
            "message": "Nenhum participante suspenso: Suspensos durante o torneio segundo o cadastro em 19/10/2026: "
            "Davi Holanda Esteves (01/09/2026–30/11/2026).",
        }
    ]
    assert result.rights is False


def test_result_changed_after_approval(stage):
    approved = copy.deepcopy(stage)
    board = stage["rounds"][6]["boards"][0]
    before = " ".join(board["games"])
    board["games"] = ["1-0", "0-1"] if board["games"] != ["1-0", "0-1"] else ["0-1", "1-0"]
    result = verify(stage, registry_of(stage), approved=approved)
    finding = [f for f in result.findings if f.code == "changed_after_approval"]
    assert len(finding) == 1 and finding[0].article == "art. 6, 11" and finding[0].blocking
    assert finding[0].message == (
        f"Resultados alterados depois da homologação: rodada 7, mesa 1 ({board['first']}×{board['second']} {before}"
        f" → {board['first']}×{board['second']} {' '.join(board['games'])})."
    )


def test_pairing_claimed_by_the_engine_is_repaired_board_by_board(stage):
    boards = stage["rounds"][4]["boards"]
    boards[2]["second"], boards[3]["second"] = boards[3]["second"], boards[2]["second"]
    result = verify(stage, registry_of(stage))
    assert codes(result) == ["pairing_differs"]
    assert result.findings[0].article == "art. 5, 6" and result.findings[0].blocking
    assert (
        "Diferente do que o motor emparceira: rodada 5: o motor emparceira 3-19, 12-14, o arquivo tem 3-14, 12-19."
        in (result.findings[0].message)
    )


def test_settings_changed_after_round1_are_listed_with_who_when_why(stage):
    stage["settings_changes"] = [
        {
            "field": "min_participants",
            "before": 30,
            "after": 20,
            "at": "2026-10-18T15:02:00-03:00",
            "by": "diretor\n=cmd",
            "reason": "engano",
        }
    ]
    stage["tournament"]["min_participants"] = 20
    result = verify(stage, registry_of(stage))
    # judged as played (30: nothing to say of the minimum), the change listed
    assert [(f.code, f.article, f.blocking) for f in result.findings] == [("settings_changed", "art. 6", False)]
    assert result.findings[0].message == (
        "Configuração “min_participants” alterada após a 1ª rodada: 30 → 20, por diretor =cmd em "
        "2026-10-18T15:02:00-03:00 (motivo: engano)."
    )


def test_deadline_is_the_federations_receipt_date(stage):
    assert "deadline" not in codes(verify(stage, registry_of(stage), received_on=date(2026, 10, 20)))
    late = verify(stage, registry_of(stage), received_on=date(2026, 10, 23))
    assert late.findings[-1].as_json() == {
        "code": "deadline",
        "article": "art. 6, 11",
        "message": "Recebido pela federação em 23/10/2026, 3 dias após o prazo (20/10/2026).",
    }


def test_players_unknown_to_the_registry_and_too_few_participants(stage):
    reg = registry_of(stage)
    players = dict(reg.players)
    del players["PE4101"]
    result = verify(stage, Registry(reg.list_date, reg.list_name, players))
    assert result.findings[0].code == "player_unknown"
    assert result.findings[0].message == (
        "Jogadores sem ID CBJD conhecido no cadastro nacional (tratados como sem rating): Davi Barbosa Esteves."
    )
    assert result.findings[0].article == "art. 4" and not result.findings[0].blocking
    # a stage of 6 rounds of 21 minutes: rounds and time
    stage["rounds"] = stage["rounds"][:6]
    assert "rounds_and_time" in codes(verify(stage, registry_of(stage)))


def test_a_setting_changed_after_round1_is_judged_as_played(stage):
    """The issue's case: time raised after the event turns "no rights" into "rights"; the federation judges the
    value before the change (15 minutes: rounds and time not met) and lists the change."""
    stage["settings_changes"] = [
        {
            "field": "minutes_per_game",
            "before": 15,
            "after": 21,
            "at": "2026-10-19T10:00:00-03:00",
            "by": "diretor",
            "reason": "correção",
        }
    ]
    result = verify(stage, registry_of(stage))
    assert [(f.code, f.blocking) for f in result.findings] == [("rounds_and_time", True), ("settings_changed", False)]
    assert result.findings[0].message == (
        "Rodadas e tempo de jogo: 7 rodadas completas de 7 previstas, 15 minutos por jogador por partida, "
        "Micro-match de 2 partidas. Leitura em vigor: 21 ou 30 minutos por jogador em cada partida. Não atendido: "
        "exige ao menos 7 rodadas de 21 minutos ou 5 rodadas de 30 minutos."
    )
    assert not result.rights


def test_a_minimum_below_the_federations_is_said(stage):
    stage["tournament"]["min_participants"] = 20
    result = verify(stage, registry_of(stage))
    assert [f.as_json() for f in result.findings] == [
        {
            "code": "setting_min_participants",
            "article": "art. 6",
            "message": "O arquivo declara mínimo de 20 participantes; a federação aplica 30 (Circuito Nacional — "
            "Regulamento (texto em vigor)).",
        }
    ]
    assert result.rights


def test_round1_is_judged_among_those_present_in_round1(stage):
    """Issue 36.7: a player entered in round 2 (another program's file says only that he was not paired in round
    1) is not in round 1's pairing: round 1 is paired again among those present, and matches."""
    from pairing.api import pair_round
    from tournaments.domain.interchange import snapshot_from_interchange
    from tournaments.rounds.pairing_bridge import snapshot_state

    late = next(p for p in stage["players"] if p["id"] == 10)  # in the middle of the rating order
    late["late_entry"] = 2
    first = dict(stage["rounds"][0], boards=[], bye=None)
    stage["rounds"] = [first]
    paired = pair_round(snapshot_state(snapshot_from_interchange(stage), 1), explain=False)
    first["boards"] = [
        {"board": n, "first": w, "second": b, "games": ["1-0", "1/2"], "opening": first["boards"] or "1"}
        for n, (w, b) in enumerate(paired.boards, start=1)
    ]
    first["bye"] = paired.bye
    assert 10 not in {p for b in first["boards"] for p in (b["first"], b["second"])} and paired.bye == 34
    del late["late_entry"]  # the file does not say why he was not paired
    result = verify(stage, registry_of(stage))
    assert codes(result) == ["rounds_and_time"]  # one round of seven: nothing else to say


def test_a_points_bonus_is_a_finding_naming_the_players(stage):
    """Issue 36.6: +4 points outside the games win a spot; the federation says who got them."""
    player = next(p for p in stage["players"] if p["id"] == 12)
    player["points_adjustment"] = 4
    player["points_adjustment_reason"] = "bônus do organizador"
    result = verify(stage, registry_of(stage))
    assert [f.as_json() for f in result.findings] == [
        {
            "code": "points_adjustment",
            "article": "art. 6",
            "message": "Pontos dados ou tirados fora das partidas, que mudam a classificação e as vagas: "
            f"{player['name']} (+4: bônus do organizador).",
        }
    ]
    assert not result.rights


def test_an_abandonment_recorded_as_an_approved_withdrawal_is_flagged(stage):
    """Issue 36.6: the player who abandoned in round 5 (art. 10) reclassified as an approved withdrawal escapes
    the suspension and may take a spot: an earlier version said abandonment; and a player who lost his last
    board by forfeit and never came back stopped without notice."""
    quitter = next(p for p in stage["players"] if p.get("withdrawal") == "abandonment")
    earlier = copy.deepcopy(stage)
    quitter["withdrawal"] = "approved"
    result = verify(stage, registry_of(stage), earlier=[earlier])
    assert [(f.code, f.article, f.blocking) for f in result.findings] == [("withdrawal_reclassified", "art. 10", True)]
    assert f"{quitter['name']} (enviado antes como abandono)" in result.findings[0].message
    # without the earlier version: the results say it when his last board was lost by forfeit
    last = quitter["withdrawn_from"] - 1
    board = next(b for b in stage["rounds"][last - 1]["boards"] if quitter["id"] in (b["first"], b["second"]))
    board["games"] = ["-/+", "+/-"] if board["first"] == quitter["id"] else ["+/-", "-/+"]
    result = verify(stage, registry_of(stage))
    # (the later rounds were paired from the real results: the engine pairs them otherwise now)
    assert codes(result) == ["pairing_differs", "withdrawal_reclassified"]
    assert f"{quitter['name']} (perdeu por W.O. a rodada {last} e não voltou: parou sem aviso)" in (
        result.findings[1].message
    )


def test_a_man_put_into_the_womens_category_is_a_finding(stage):
    """The file's categories are the venue's, but the registry says who meets a category's rule: a man placed in
    the women's category (or an adult in Sub-18) takes a spot there."""
    man = next(p for p in stage["players"] if p["sex"] == "M" and p["id"] == 2)
    man["categories"] = [*man["categories"], "FEM"]
    man["sex"] = "F"  # the file says so; the registry does not
    result = verify(stage, registry_with_sex(stage, man["cbjd_id"], "M"))
    assert [(f.code, f.article, f.blocking) for f in result.findings] == [("category_membership", "art. 6", True)]
    assert result.findings[0].message == (
        f"Jogadores em categoria a que não pertencem pelo cadastro (sexo ou idade): {man['name']} em FEM."
    )


def registry_with_sex(data, cbjd_id, sex):
    reg = registry_of(data)
    players = dict(reg.players)
    players[cbjd_id] = RegistryPlayer(
        cbjd_id, players[cbjd_id].name, players[cbjd_id].rating, sex, players[cbjd_id].birth_date
    )
    return Registry(reg.list_date, reg.list_name, players)
