"""Issue 35.4: the one rule the venue's homologation report and the federation's verification judge a fingerprint
chain by (:func:`tournaments.domain.fingerprints.chain_breaks`), on plain data: four players, three rounds paired
by the product's engine, each pairing and each round's results sealed as published; then the file's edits the
audit tried (a label changed, boards swapped and relabelled, a result flipped with or without a reason)."""

from dataclasses import replace

from tournaments.domain.fingerprints import PAIRING, RESULTS, ChainBreak, Stored, chain_breaks, seal, stored_chain
from tournaments.domain.snapshot import IMPORTED, SnapBoard, SnapEntry, SnapPlayer, SnapRound, SnapSettings, Snapshot

ENGINE = "damas-swiss Dutch (FIDE C.04.3, 2026)"
PAIRS = {1: ((1, 2), (3, 4)), 2: ((1, 3), (2, 4)), 3: ((1, 4), (2, 3))}


def unsealed():
    entries = tuple(
        SnapEntry(pk=i, number=i, pairing_number=i, rating=2000 - i, player=SnapPlayer(f"P{i}", cbjd_id=f"10{i}"))
        for i in range(1, 5)
    )
    rounds = tuple(
        SnapRound(
            number=n,
            boards=tuple(
                SnapBoard(b, first, second, ((1, "1-0"), (2, "1/2"))) for b, (first, second) in enumerate(pairs, 1)
            ),
            engine=ENGINE,
        )
        for n, pairs in PAIRS.items()
    )
    return Snapshot(settings=SnapSettings(), entries=entries, rounds=rounds)


def sealed():
    """The snapshot with the chain the venue stores as it publishes each round and completes its results."""
    snapshot = unsealed()
    stored: dict[int, Stored] = {}
    for n in PAIRS:
        stored[n] = Stored(seal(snapshot, stored, n, PAIRING))
        stored[n] = Stored(stored[n].pairing, seal(snapshot, stored, n, RESULTS))
    rounds = tuple(
        replace(r, fingerprints=(stored[r.number].pairing, stored[r.number].results)) for r in snapshot.rounds
    )
    return replace(snapshot, rounds=rounds)


def edited(snapshot, number, **changes):
    return replace(snapshot, rounds=tuple(replace(r, **changes) if r.number == number else r for r in snapshot.rounds))


def test_an_untouched_chain_has_no_break_and_a_snapshot_without_one_has_nothing_to_judge():
    snapshot = sealed()
    assert len(stored_chain(snapshot)) == 3
    assert chain_breaks(snapshot, (ENGINE,)) == []
    relabelled_without_chain = edited(unsealed(), 2, engine="Swiss Perfect 98")
    assert chain_breaks(relabelled_without_chain, (ENGINE,)) == []


def test_a_round_relabelled_is_a_pairing_break_naming_the_program_the_chain_records():
    snapshot = sealed()
    changed = edited(snapshot, 2, engine="Swiss Perfect 98")
    [brk] = chain_breaks(changed, (ENGINE,))
    stored = snapshot.rounds[1].fingerprints[0]
    assert (brk.round, brk.kind, brk.stored, brk.label, brk.recorded) == (
        2,
        PAIRING,
        stored,
        "Swiss Perfect 98",
        ENGINE,
    )
    assert brk.relabelled and brk.blocking and brk.now != stored
    # the product's engine is found among the candidates given, "imported" and the rounds' own programs
    assert chain_breaks(changed)[0].recorded == ENGINE
    # a round relabelled as imported (the file's label removed) is found too
    [unnamed] = chain_breaks(edited(snapshot, 3, engine=""), (ENGINE,))
    assert (unnamed.round, unnamed.label, unnamed.recorded, unnamed.relabelled) == (3, IMPORTED, ENGINE, True)


def test_a_round_swapped_and_relabelled_is_a_changed_pairing_and_only_that_round_breaks():
    snapshot = sealed()
    second = snapshot.rounds[1]
    (b1, b2) = second.boards
    swapped = (b1._replace(second=b2.second), b2._replace(second=b1.second))
    [brk] = chain_breaks(edited(snapshot, 2, boards=swapped, engine="Swiss Perfect 98"), (ENGINE,))
    assert (brk.round, brk.kind, brk.label, brk.recorded) == (2, PAIRING, "Swiss Perfect 98", "")
    assert not brk.relabelled and brk.blocking
    # round 3's fingerprints chain on round 2's stored ones, not on its data: the only break is round 2's


def test_results_flipped_are_a_break_blocking_only_without_a_recorded_reason():
    snapshot = sealed()
    first = snapshot.rounds[0]
    flipped = (first.boards[0]._replace(games=((1, "0-1"), (2, "1/2"))), first.boards[1])
    changed = edited(snapshot, 1, boards=flipped)
    [brk] = chain_breaks(changed, (ENGINE,))
    assert brk == ChainBreak(1, RESULTS, first.fingerprints[1], brk.now, ())
    assert brk.blocking and not brk.relabelled
    reason = "19/10/2026 10:02 arbitro: rodada 1, mesa 1 — súmula conferida"
    with_reason = edited(changed, 1, fingerprint_reasons=((), (reason,)))
    [explained] = chain_breaks(with_reason, (ENGINE,))
    assert explained.reasons == (reason,) and not explained.blocking
    # a pairing break is blocking whatever the reason given
    relabelled = edited(snapshot, 1, engine="Swiss Perfect 98", fingerprint_reasons=(("motivo",), ()))
    [pairing] = chain_breaks(relabelled, (ENGINE,))
    assert pairing.reasons == ("motivo",) and pairing.blocking
