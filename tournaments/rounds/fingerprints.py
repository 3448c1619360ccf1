"""At the venue: a round's fingerprints stored when it is published and when its results are complete (issue 35.4;
the rule is :mod:`tournaments.domain.fingerprints`), the breaks of the rounds changed since, with their audit
reasons, and the federation told of each fingerprint as soon as the venue is online (:mod:`.federation.outbox`).

:func:`seal_pairing` and :func:`seal_results` are called inside the writes that publish a round and save its
results (they own no transaction); they never overwrite a stored fingerprint.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from tournaments.domain.fingerprints import (
    PAIRING,
    RESULTS,
    ChainBreak,
    Stored,
    breaks,
    chain_breaks,
    seal,
    stored_chain,
)
from tournaments.domain.snapshot import Snapshot
from tournaments.models import AuditEntry, Game, Round, Tournament
from tournaments.models.choices import AuditAction
from tournaments.rounds.pairing_bridge import ENGINE_NAME
from tournaments.standings.snapshot import read_snapshot

# sent once a fingerprint of a round of an event bound to a stage is stored (the federation's queue sends it)
fingerprint_sealed = Signal()

# the audit actions that change a published round's pairing or results
CHANGES = {
    PAIRING: (AuditAction.ROUND_EDIT, AuditAction.ROUND_PROGRAM),
    RESULTS: (AuditAction.RESULT_CORRECT, AuditAction.RESULT_ENTER),
}


def stored_of(tournament: Tournament) -> dict[int, Stored]:
    rows = Round.objects.filter(tournament=tournament).values_list(
        "number", "pairing_fingerprint", "results_fingerprint"
    )
    return {n: Stored(p, r) for n, p, r in rows}


def _seal(rnd: Round, kind: str) -> str:
    tournament = rnd.tournament
    stored = stored_of(tournament)
    value = seal(read_snapshot(tournament, public=False), stored, rnd.number, kind)
    now = timezone.now()
    if kind == PAIRING:
        Round.objects.filter(pk=rnd.pk, pairing_fingerprint="").update(
            pairing_fingerprint=value, pairing_fingerprint_at=now
        )
        rnd.pairing_fingerprint, rnd.pairing_fingerprint_at = value, now
    else:
        Round.objects.filter(pk=rnd.pk, results_fingerprint="").update(
            results_fingerprint=value, results_fingerprint_at=now
        )
        rnd.results_fingerprint, rnd.results_fingerprint_at = value, now
    if tournament.stage_id:
        transaction.on_commit(lambda: fingerprint_sealed.send(sender=Round, tournament=tournament))
    return value


def seal_pairing(rnd: Round) -> str:
    """Store the fingerprint of a round's pairing as it is published (once: a stored one is kept)."""
    if rnd.pairing_fingerprint:
        return rnd.pairing_fingerprint
    return _seal(rnd, PAIRING)


def seal_results(rnd: Round) -> str:
    """Store the fingerprint of a published round's results once every result is in (kept once stored)."""
    if rnd.results_fingerprint or not rnd.pairing_fingerprint:
        return rnd.results_fingerprint
    if not Game.objects.filter(board__round=rnd).exists():
        return ""
    if Game.objects.filter(board__round=rnd, result__isnull=True).exists():
        return ""
    return _seal(rnd, RESULTS)


def _audit_lines(tournament: Tournament, kind: str, number: int, moment: object) -> list[str]:
    """The audit log's lines of the changes of round ``number``'s pairing or results since ``moment``."""
    entries = AuditEntry.objects.filter(tournament=tournament, action__in=CHANGES[kind]).order_by("created_at")
    if moment is not None:
        entries = entries.filter(created_at__gt=moment)
    out = []
    for e in entries:
        new = e.new if isinstance(e.new, dict) else {}
        changed = new.get("round")
        if changed is None and e.object_type == "round":
            changed = Round.objects.filter(pk=e.object_id).values_list("number", flat=True).first()
        if changed != number:
            continue
        who = e.username or "?"
        out.append(f"{timezone.localtime(e.created_at):%d/%m/%Y %H:%M} {who}: {e.summary} — {e.reason or 'sem motivo'}")
    return out


def with_reasons(tournament: Tournament, snapshot: Snapshot) -> Snapshot:
    """``snapshot`` (the tournament's, every round) with the reasons of each break (a round changed after its
    fingerprint was stored): those an imported file gave (already in the snapshot), then the audit log's lines
    since the fingerprint was stored (who, when, why). No query when no round is broken."""
    found = breaks(snapshot, stored_chain(snapshot))
    if not found:
        return snapshot
    since: dict[tuple[int, str], object] = {}
    for n, p_at, r_at in Round.objects.filter(tournament=tournament).values_list(
        "number", "pairing_fingerprint_at", "results_fingerprint_at"
    ):
        since[(n, PAIRING)], since[(n, RESULTS)] = p_at, r_at
    added: dict[tuple[int, str], list[str]] = {}
    for brk in found:
        added[(brk.round, brk.kind)] = _audit_lines(tournament, brk.kind, brk.round, since.get((brk.round, brk.kind)))
    rounds = []
    for rnd in snapshot.rounds:
        pairing, results = rnd.fingerprint_reasons
        more_p, more_r = added.get((rnd.number, PAIRING), []), added.get((rnd.number, RESULTS), [])
        if more_p or more_r:
            rnd = replace(rnd, fingerprint_reasons=((*pairing, *more_p), (*results, *more_r)))
        rounds.append(rnd)
    return replace(snapshot, rounds=tuple(rounds))


def round_breaks(tournament: Tournament, *, snapshot: Snapshot | None = None) -> list[ChainBreak]:
    """The rounds changed after their fingerprint was stored, each with its reasons (:func:`with_reasons`), judged
    by the rule the homologation report and the federation use (``snapshot``: already read, every round)."""
    snapshot = read_snapshot(tournament, public=False) if snapshot is None else snapshot
    return chain_breaks(with_reasons(tournament, snapshot), (ENGINE_NAME,))
