"""Issue 35.4 / 36.4 at the federation, pure (no database): the rounds' fingerprints carried by the file and those
the venue sent as it published, the program of each round (recorded by the product: a relabelled round is a
finding), an event really imported from another program (checked without pairing it again, "não verificada"),
and the calendar (35.2)."""

import json
from datetime import date
from pathlib import Path

import pytest

from tests.federation.test_verification import registry_of
from tournaments.domain.fingerprints import PAIRING, RESULTS, Stored, seal
from tournaments.domain.interchange import snapshot_from_interchange
from tournaments.federation.provenance import StageFacts
from tournaments.federation.verification import ENGINE_NAME, verify

STAGE = Path(__file__).resolve().parents[1] / "data" / "federation" / "etapa-caruaru.json"


@pytest.fixture
def stage():
    return json.loads(STAGE.read_text(encoding="utf-8"))


def chain_of(data):
    """The fingerprints the venue stores as it publishes each round and completes its results."""
    snapshot = snapshot_from_interchange(data)
    stored: dict[int, Stored] = {}
    for rnd in snapshot.rounds:
        pairing = seal(snapshot, stored, rnd.number, PAIRING)
        stored[rnd.number] = Stored(pairing)
        stored[rnd.number] = Stored(pairing, seal(snapshot, stored, rnd.number, RESULTS))
    return stored


def with_chain(data, stored):
    for r in data["rounds"]:
        s = stored[r["number"]]
        r["fingerprints"] = {"pairing": s.pairing, "results": s.results}
    return data


def flip_round2(data):
    """Round 2, board 2: every game's result the other way round."""
    board = data["rounds"][1]["boards"][1]
    flipped = {"1-0": "0-1", "0-1": "1-0"}
    before = list(board["games"])
    board["games"] = [flipped.get(g, g) for g in board["games"]]
    assert board["games"] != before
    return board


def blocking(result):
    return [f.code for f in result.findings if f.blocking]


def test_a_round_relabelled_another_program_in_a_stage_run_here_is_a_finding(stage):
    """The audit's variant: round 2's result flipped and the later rounds relabelled "Swiss Perfect 98" (so the
    engine does not pair them again). Before: one informative note, rights yes. Now: the product records every
    round's program, so the new label is a blocking finding naming the rounds."""
    flip_round2(stage)
    for r in stage["rounds"][2:]:
        r["engine"] = "Swiss Perfect 98"
    result = verify(stage, registry_of(stage))
    assert result.rights is False
    [finding] = [f for f in result.findings if f.code == "program_relabelled"]
    assert finding.blocking and finding.article == "art. 5, 6"
    assert "3 (Swiss Perfect 98), 4 (Swiss Perfect 98)" in finding.message


def test_the_untouched_chain_gives_no_finding_and_a_changed_round_is_a_break(stage):
    stored = chain_of(stage)
    with_chain(stage, stored)
    untouched = verify(stage, registry_of(stage))
    assert untouched.findings == () and untouched.rights is True
    flip_round2(stage)
    result = verify(stage, registry_of(stage))
    changed = [f for f in result.findings if f.code == "round_changed"]
    assert len(changed) == 1 and changed[0].blocking
    assert changed[0].message.startswith(
        f"Rodada 2: resultados alterado depois de publicado (impressão publicada {stored[2].results}"
    )
    assert changed[0].message.endswith("sem motivo registrado.")


def test_a_result_corrected_with_its_reason_is_shown_not_hidden(stage):
    with_chain(stage, chain_of(stage))
    flip_round2(stage)
    stage["rounds"][1]["fingerprints"]["reasons"] = {"results": ["19/10/2026 10:02 arbitro: rodada 2, mesa 1 — súmula"]}
    result = verify(stage, registry_of(stage))
    [changed] = [f for f in result.findings if f.code == "round_changed"]
    assert (
        not changed.blocking
        and "motivo registrado: 19/10/2026 10:02 arbitro: rodada 2, mesa 1 — súmula" in changed.message
    )


def test_a_chain_recomputed_after_a_forgery_differs_from_what_the_federation_received(stage):
    published = chain_of(stage)
    received = {(n, k): [getattr(s, k)] for n, s in published.items() for k in (PAIRING, RESULTS)}
    flip_round2(stage)
    with_chain(stage, chain_of(stage))  # the forger fingerprints the forged file again
    facts = StageFacts("CBJD-2026-007", status="accepted", received=received)
    result = verify(stage, registry_of(stage), stage=facts, calendar=True)
    [differs] = [f for f in result.findings if f.code == "fingerprint_differs"]
    assert differs.blocking and f"rodada 2 (resultados): recebida {published[2].results}" in differs.message
    # stripped of its fingerprints, the file lacks those the federation received
    for r in stage["rounds"]:
        r.pop("fingerprints")
    result = verify(stage, registry_of(stage), stage=facts, calendar=True)
    assert "fingerprint_missing" in blocking(result)


def test_a_round_published_twice_is_said(stage):
    published = chain_of(stage)
    with_chain(stage, published)
    received = {(n, k): [getattr(s, k)] for n, s in published.items() for k in (PAIRING, RESULTS)}
    received[(1, PAIRING)] = ["0123456789ab", published[1].pairing]
    result = verify(stage, registry_of(stage), stage=StageFacts("CBJD-2026-007", "accepted", received=received))
    [twice] = [f for f in result.findings if f.code == "published_twice"]
    assert not twice.blocking and f"rodada 1 (emparceiramento): 0123456789ab, {published[1].pairing}" in twice.message


def test_an_event_imported_from_another_program_is_checked_and_never_passes(stage):
    stage["tournament"]["provenance"] = {
        "file": "etapa.zip",
        "sha256": "ab" * 32,
        "format": "swissperfect",
        "program": "Swiss Perfect 98",
    }
    for r in stage["rounds"]:
        r["engine"] = "Swiss Perfect 98"
    result = verify(stage, registry_of(stage))
    assert blocking(result) == ["pairing_not_verified"]
    [note] = [f for f in result.findings if f.code == "pairing_not_verified"]
    assert note.message.startswith(
        "Evento importado de etapa.zip (programa Swiss Perfect 98): emparceiramento das rodadas não verificada"
    )
    # what can be checked without pairing again: a pairing repeated, a second bye
    r1, r5 = stage["rounds"][0], stage["rounds"][4]
    a, b = r1["boards"][0]["first"], r1["boards"][0]["second"]
    seated = {x for board in r5["boards"] for x in (board["first"], board["second"])}
    assert a in seated and b in seated
    result = verify(_repeat(stage, 4, a, b), registry_of(stage))
    assert {"pairing_repeated", "pairing_not_verified"} <= set(blocking(result))


def _repeat(data, index, a, b):
    """Round ``index + 1`` made to pair ``a`` with ``b`` again (their opponents paired together)."""
    boards = data["rounds"][index]["boards"]
    board_a = next(x for x in boards if a in (x["first"], x["second"]))
    board_b = next(x for x in boards if b in (x["first"], x["second"]))
    if board_a is board_b:
        return data
    other_a = board_a["second"] if board_a["first"] == a else board_a["first"]
    other_b = board_b["second"] if board_b["first"] == b else board_b["first"]
    board_a["first"], board_a["second"] = a, b
    board_b["first"], board_b["second"] = other_a, other_b
    return data


def test_the_calendar_a_file_naming_no_stage_and_a_stage_registered_late(stage):
    result = verify(stage, registry_of(stage), calendar=True)
    assert blocking(result) == ["stage_unregistered"]
    stage["tournament"]["stage_id"] = "CBJD-2026-007"
    facts = StageFacts("CBJD-2026-007", "accepted", late=True, requested_on=date(2026, 10, 18))
    result = verify(stage, registry_of(stage), stage=facts, calendar=True)
    assert result.rights is True
    assert [(f.code, f.message) for f in result.findings] == [
        ("stage_late", "Etapa CBJD-2026-007 registrada tarde: pedida em 18/10/2026, depois do início do evento.")
    ]


def test_the_engine_name_is_the_one_the_venue_records():
    from tournaments.rounds.pairing_bridge import ENGINE_NAME as RECORDED

    assert ENGINE_NAME == RECORDED


def test_a_relabelled_round_with_its_chain_fails_the_venues_condition_in_the_venues_words(stage):
    """The file carries its chain (issue 35.4): rounds 3 to 7 relabelled "Swiss Perfect 98" no longer give their
    pairing's fingerprint, but do under the product's engine's name. The verification judges the chain by the
    venue's rule (``chain_breaks``), so the venue's pairing software condition fails with the venue's words
    (the same report), beside the relabelling; a pairing's break is not said twice as a changed round."""
    with_chain(stage, chain_of(stage))
    for r in stage["rounds"][2:]:
        r["engine"] = "Swiss Perfect 98"
    result = verify(stage, registry_of(stage))
    assert set(blocking(result)) == {"program_relabelled", "pairing_differs"}
    [differs] = [f for f in result.findings if f.code == "pairing_differs"]
    assert (
        "Rodadas 3, 4, 5, 6, 7 rotuladas “Swiss Perfect 98”, mas a cadeia de impressões das rodadas as registra "
        f"emparceiradas por {ENGINE_NAME}." in differs.message
    )
    assert differs.message.endswith(result.report.condition("pairing_engine").detail)
    assert "round_changed" not in [f.code for f in result.findings]


def test_the_chain_is_judged_on_the_file_as_sent_not_on_the_players_the_registry_identifies(stage):
    """A player without a CBJD ID in the file (fingerprinted by name at the venue) whom the officer identifies as a
    registered player: the chain still matches (judged on the file as sent), no round breaks."""
    registry = registry_of(stage)
    player = stage["players"][4]
    cbjd_id, player["cbjd_id"] = player["cbjd_id"], None
    with_chain(stage, chain_of(stage))
    result = verify(stage, registry, resolutions={player["id"]: {"cbjd_id": cbjd_id}})
    assert result.report.chain == ()
    assert "pairing_differs" not in blocking(result) and "round_changed" not in blocking(result)
