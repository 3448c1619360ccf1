"""At the venue: a round's fingerprints stored when it is published and when its results are complete (issue 35.4;
the rule is :mod:`tournaments.domain.fingerprints`), the breaks of the rounds changed since, with their audit
reasons, and the federation told of each fingerprint as soon as the venue is online (:mod:`.federation.outbox`).

:func:`seal_pairing` and :func:`seal_results` are called inside the writes that publish a round and save its
results (they own no transaction); they never overwrite a stored fingerprint.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from tournaments.domain.fingerprints import PAIRING, RESULTS, Break, Stored, breaks, seal
from tournaments.domain.snapshot import Snapshot
from tournaments.models import AuditEntry, Game, Round, Tournament
from tournaments.models.choices import AuditAction
from tournaments.standings.snapshot import read_snapshot

# sent once a fingerprint of a round of an event bound to a stage is stored (the federation's queue sends it)
fingerprint_sealed = Signal()

# the audit actions that change a published round's pairing or results
CHANGES = {
    PAIRING: (AuditAction.ROUND_EDIT, AuditAction.ROUND_PROGRAM),
    RESULTS: (AuditAction.RESULT_CORRECT, AuditAction.RESULT_ENTER),
}


@dataclass(frozen=True)
class RoundBreak:
    """A break with what the audit log says of it (who, when, why: "" when nothing recorded)."""

    round: int
    kind: str
    stored: str
    now: str
    reasons: tuple[str, ...]

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "stored": self.stored, "now": self.now, "reasons": list(self.reasons)}


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


def _reasons(tournament: Tournament, brk: Break, since: dict[tuple[int, str], object]) -> tuple[str, ...]:
    moment = since.get((brk.round, brk.kind))
    entries = AuditEntry.objects.filter(tournament=tournament, action__in=CHANGES[brk.kind]).order_by("created_at")
    if moment is not None:
        entries = entries.filter(created_at__gt=moment)
    out = []
    for e in entries:
        new = e.new if isinstance(e.new, dict) else {}
        number = new.get("round")
        if number is None and e.object_type == "round":
            number = Round.objects.filter(pk=e.object_id).values_list("number", flat=True).first()
        if number != brk.round:
            continue
        who = e.username or "?"
        out.append(f"{timezone.localtime(e.created_at):%d/%m/%Y %H:%M} {who}: {e.summary} — {e.reason or 'sem motivo'}")
    return tuple(out)


def round_breaks(
    tournament: Tournament, *, snapshot: Snapshot | None = None, stored: dict[int, Stored] | None = None
) -> list[RoundBreak]:
    """The rounds changed after their fingerprint was stored, each with the audit lines of the change
    (``snapshot``, ``stored``: already read, every round)."""
    stored = stored_of(tournament) if stored is None else stored
    found = breaks(read_snapshot(tournament, public=False) if snapshot is None else snapshot, stored)
    if not found:
        return []
    since: dict[tuple[int, str], object] = {}
    for n, p_at, r_at in Round.objects.filter(tournament=tournament).values_list(
        "number", "pairing_fingerprint_at", "results_fingerprint_at"
    ):
        since[(n, PAIRING)], since[(n, RESULTS)] = p_at, r_at
    return [RoundBreak(b.round, b.kind, b.stored, b.now, _reasons(tournament, b, since)) for b in found]
