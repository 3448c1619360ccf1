"""Issue 35.4 at the venue: each published pairing and each round's complete results get a fingerprint chained
to the one before, stored once; a round changed after it was published shows as a break with its audit reason;
the public round page and the printed pairing sheet show it; the interchange file carries the chain; the
federation is told of each fingerprint through the queue."""

import json

import pytest

from tournaments.domain.fingerprints import LENGTH
from tournaments.interchange import export_data, import_data
from tournaments.models import Board, Round
from tournaments.rounds.fingerprints import round_breaks
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair, round_publish


def play(rnd, director, flip=False):
    """Every board of the round: the first player wins both games (the second when ``flip``)."""
    for board in Board.objects.filter(round=rnd).order_by("number"):
        win = "0-1" if flip else "1-0"
        game_record_result(
            board=board, results={1: win, 2: "0-1" if win == "1-0" else "1-0"}, expected_version=None, user=director
        )


@pytest.fixture
def played(field, director):
    t, _entries = field(8)
    r1 = round_pair(tournament=t, user=director)
    assert Round.objects.get(pk=r1.pk).pairing_fingerprint == ""  # a draft has none
    round_publish(round=r1, user=director)
    play(r1, director)
    r2 = round_pair(tournament=t, user=director, publish=True)
    return t, Round.objects.get(pk=r1.pk), Round.objects.get(pk=r2.pk)


@pytest.mark.django_db
def test_published_pairing_and_complete_results_are_fingerprinted_once_and_chained(played, director):
    t, r1, r2 = played
    assert len(r1.pairing_fingerprint) == LENGTH and len(r1.results_fingerprint) == LENGTH
    assert r2.pairing_fingerprint and r2.results_fingerprint == ""  # no result yet
    assert len({r1.pairing_fingerprint, r1.results_fingerprint, r2.pairing_fingerprint}) == 3
    assert round_breaks(t) == []
    # the same round's data chained on another fingerprint gives another one: the chain links the rounds
    from tournaments.domain.fingerprints import Stored, seal
    from tournaments.standings.snapshot import read_snapshot

    snapshot = read_snapshot(t, public=False)
    stored = {1: Stored(r1.pairing_fingerprint, "000000000000")}
    assert seal(snapshot, stored, 2, "pairing") != r2.pairing_fingerprint


@pytest.mark.django_db
def test_a_result_corrected_after_it_was_complete_is_a_break_with_its_reason(played, director):
    t, r1, _r2 = played
    board = Board.objects.filter(round=r1).order_by("number").first()
    game_record_result(
        board=board, results={1: "0-1", 2: "1-0"}, expected_version=None, user=director, reason="súmula conferida"
    )
    r1.refresh_from_db()
    [brk] = round_breaks(t)
    assert (brk.round, brk.kind, brk.stored) == (1, "results", r1.results_fingerprint)
    assert len(brk.reasons) == 1 and brk.reasons[0].endswith("rodada 1, mesa 1 — súmula conferida")
    data = export_data(t)
    assert data["rounds"][0]["fingerprints"] == {
        "pairing": r1.pairing_fingerprint,
        "results": r1.results_fingerprint,
        "reasons": {"results": list(brk.reasons)},
    }
    # the federation's check of the file finds the same break, with the venue's reason (not blocking)
    from tournaments.federation.provenance import fingerprint_findings

    [finding] = fingerprint_findings(data, None)
    assert finding.code == "round_changed" and not finding.blocking and "súmula conferida" in finding.message
    # the venue's report: the condition "Resultados como publicados" is met (a correction with its reason) and says so
    from tournaments.homologation.report import homologation_check

    condition = homologation_check(t).condition("published_results")
    assert condition.met and condition.decides_rights
    assert (
        condition.detail
        == "Rodada 1: resultados corrigidos depois de completos, com o motivo registrado (listado abaixo)."
    )


@pytest.mark.django_db
def test_the_file_carries_the_chain_and_an_import_keeps_it(played):
    t, r1, r2 = played
    data = export_data(t)
    assert [r.get("fingerprints") for r in data["rounds"]] == [
        {"pairing": r1.pairing_fingerprint, "results": r1.results_fingerprint},
        {"pairing": r2.pairing_fingerprint},
    ]
    data["tournament"]["slug"] = "copia-impressoes"
    copy = import_data(json.loads(json.dumps(data)))
    assert list(copy.rounds.order_by("number").values_list("pairing_fingerprint", "results_fingerprint")) == [
        (r1.pairing_fingerprint, r1.results_fingerprint),
        (r2.pairing_fingerprint, ""),
    ]
    assert round_breaks(copy) == []
    # an old file without them still imports; a malformed one is refused with where
    for r in data["rounds"]:
        r.pop("fingerprints")
    data["tournament"]["slug"] = "copia-antiga"
    assert import_data(data).rounds.exclude(pairing_fingerprint="").count() == 0
    data["tournament"]["slug"] = "copia-ruim"
    data["rounds"][0]["fingerprints"] = {"pairing": "<script>"}
    from tournaments.interchange import InterchangeError

    with pytest.raises(InterchangeError, match="impressões inválidas"):
        import_data(data)


@pytest.mark.django_db
def test_the_public_round_page_and_the_printed_sheet_show_the_fingerprint(client, played):
    t, r1, r2 = played
    page = client.get(f"/t/{t.slug}/rodadas/1/").content.decode()
    assert f'<code class="print-pairing">{r1.pairing_fingerprint}</code>' in page
    assert f'<code class="print-results">{r1.results_fingerprint}</code>' in page
    sheet = client.get(f"/t/{t.slug}/imprimir/rodadas/2/mesas/").content.decode()
    assert f'<code class="print-pairing">{r2.pairing_fingerprint}</code>' in sheet


@pytest.mark.django_db
def test_each_fingerprint_goes_to_the_federation_once_through_the_queue(played, settings, monkeypatch, director):
    from tournaments.federation import client, outbox

    t, r1, r2 = played
    settings.FEDERATION_URL, settings.FEDERATION_TOKEN = "http://127.0.0.1:9", "dsw_00000000_chave-de-teste"
    sent = []
    monkeypatch.setattr(client, "send_fingerprint", lambda identifier, data: sent.append((identifier, data)) or {})
    outbox.send_due()
    assert sent == []  # not bound to a stage yet: nothing to send it to
    type(t).objects.filter(pk=t.pk).update(stage_id="CBJD-2026-003")
    outbox.send_due()
    assert [(i, d["round"], d["kind"], d["fingerprint"]) for i, d in sent] == [
        ("CBJD-2026-003", 1, "pairing", r1.pairing_fingerprint),
        ("CBJD-2026-003", 1, "results", r1.results_fingerprint),
        ("CBJD-2026-003", 2, "pairing", r2.pairing_fingerprint),
    ]
    outbox.send_due()
    assert len(sent) == 3  # once
    # offline: kept for the next try
    play(Round.objects.get(pk=r2.pk), director)

    def unreachable(identifier, data):
        raise client.FederationUnreachable("sem conexão com a federação (ConnectError)")

    monkeypatch.setattr(client, "send_fingerprint", unreachable)
    assert outbox.send_due() is not None
    assert Round.objects.get(pk=r2.pk).results_fingerprint_sent_at is None


@pytest.mark.django_db
def test_an_import_keeps_the_reasons_its_file_gives_and_the_report_and_a_new_export_show_them(played, director):
    """A file whose round 1 result was corrected at its venue (the break and the audit line it carries) imported at
    another venue: the reason is kept with the chain, the homologation report lists the break with it (not
    blocking: the federation's rule), and the file exported again carries it, so the federation still reads it."""
    from tournaments.homologation.report import homologation_check

    t, r1, _r2 = played
    board = Board.objects.filter(round=r1).order_by("number").first()
    game_record_result(
        board=board, results={1: "0-1", 2: "1-0"}, expected_version=None, user=director, reason="súmula conferida"
    )
    data = json.loads(json.dumps(export_data(t), default=str))
    [line] = data["rounds"][0]["fingerprints"]["reasons"]["results"]
    data["tournament"]["slug"] = "copia-motivos"
    copy = import_data(data)
    assert copy.rounds.get(number=1).fingerprint_reasons == {"results": [line]}
    [brk] = round_breaks(copy)
    assert (brk.round, brk.kind, brk.reasons, brk.blocking) == (1, "results", (line,), False)
    report = homologation_check(copy)
    assert report.chain == (brk,)
    assert report.chain_lines == [
        f"Rodada 1: resultados alterados depois de completos (impressão publicada {brk.stored}, agora {brk.now}); "
        f"motivo registrado: {line}"
    ]
    assert export_data(copy)["rounds"][0]["fingerprints"]["reasons"] == {"results": [line]}
    # reasons that are not lists of texts are refused with where
    from tournaments.interchange import InterchangeError

    data["tournament"]["slug"] = "copia-motivos-ruins"
    data["rounds"][0]["fingerprints"]["reasons"] = {"results": "súmula"}
    with pytest.raises(InterchangeError, match="motivos das impressões inválidos"):
        import_data(data)
