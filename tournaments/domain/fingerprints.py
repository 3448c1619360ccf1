"""Rounds fingerprinted as they are published (issue 35.4), pure.

A round has two fingerprints: its pairing's, stored when the pairing is published, and its results', stored when
every result is in. Each is the first 12 hexadecimal digits of the SHA-256 of the fingerprint before it (the
previous round's results, or its pairing, or nothing for round 1's pairing) followed by a canonical JSON of what it
covers:

* the pairing: the round's number, the program that paired it (as the product recorded it: this product's
  engine, or what an imported file named), whether it was edited by hand, every board (its number, its first and
  second player) and the byes;
* the results: the round's number and every board's game results, in board and game order.

Players are named by their CBJD ID, else their name (a late entrant's placement moves pairing numbers), so the
venue's database and the interchange file give the same fingerprints (both are read into a :class:`~tournaments.domain.snapshot.Snapshot`).
A stored fingerprint is never recomputed in place: :func:`breaks` recomputes each round from its data as it is now
on the stored fingerprint before it, so a round changed after it was first published shows as a break, and only
that round.

:func:`chain_breaks` is the one rule both sides judge a snapshot's chain by (the venue's homologation report and the
federation's verification, so they cannot disagree): the chain the snapshot's rounds carry (``SnapRound.fingerprints``:
the venue's as stored, or what an imported or submitted file carries), each break with the reasons recorded for it
(``SnapRound.fingerprint_reasons``) and, for a pairing, whether only its label changed: the program the chain
records for it (the product records each round's program, so a round paired here and relabelled "Swiss Perfect 98"
in a file gives its stored fingerprint again under the product's engine's name).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tournaments.domain.snapshot import IMPORTED, SnapRound, Snapshot

LENGTH = 12
PAIRING, RESULTS = "pairing", "results"


@dataclass(frozen=True)
class Stored:
    """A round's fingerprints as stored when published ("" when not yet)."""

    pairing: str = ""
    results: str = ""


@dataclass(frozen=True)
class Break:
    """A round whose pairing or results no longer give the fingerprint stored when published."""

    round: int
    kind: str  # PAIRING or RESULTS
    stored: str
    now: str


def _digest(previous: str, canon: Any) -> str:
    text = previous + json.dumps(canon, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:LENGTH]


def program_of(rnd: SnapRound) -> str:
    return rnd.engine or IMPORTED


def _numbers(snapshot: Snapshot) -> dict[int, str]:
    """Each entry's identity in a fingerprint: its CBJD ID, else its name (not its pairing number, which a late
    entrant placed by rating moves, C.04.2)."""
    return {e.pk: e.player.cbjd_id or f"nome:{e.player.name}" for e in snapshot.entries}


def pairing_canon(rnd: SnapRound, numbers: Mapping[int, str]) -> list[Any]:
    boards = sorted(
        [b.number, numbers.get(b.first, "") if b.first else "", numbers.get(b.second, "") if b.second else ""]
        for b in rnd.boards
    )
    byes = sorted(numbers.get(pk, "") for pk in rnd.byes)
    return [PAIRING, rnd.number, program_of(rnd), bool(rnd.manually_edited), boards, byes]


def results_canon(rnd: SnapRound) -> list[Any]:
    boards = sorted([b.number, [code for _n, code in sorted(b.games)]] for b in rnd.boards)
    return [RESULTS, rnd.number, boards]


def pairing_fingerprint(previous: str, rnd: SnapRound, numbers: Mapping[int, str]) -> str:
    return _digest(previous, pairing_canon(rnd, numbers))


def results_fingerprint(pairing: str, rnd: SnapRound) -> str:
    return _digest(pairing, results_canon(rnd))


def previous_link(stored: Mapping[int, Stored], number: int) -> str:
    """The fingerprint a round's pairing chains on: the last one stored for an earlier round."""
    for n in range(number - 1, 0, -1):
        s = stored.get(n)
        if s is not None and (s.results or s.pairing):
            return s.results or s.pairing
    return ""


def seal(snapshot: Snapshot, stored: Mapping[int, Stored], number: int, kind: str) -> str:
    """The fingerprint to store now for round ``number``'s pairing or results, chained on what is stored."""
    rnd = next(r for r in snapshot.rounds if r.number == number)
    if kind == PAIRING:
        return pairing_fingerprint(previous_link(stored, number), rnd, _numbers(snapshot))
    return results_fingerprint(stored[number].pairing, rnd)


def breaks(snapshot: Snapshot, stored: Mapping[int, Stored]) -> list[Break]:
    """Every stored fingerprint that the round's data as it is now no longer gives (on the stored fingerprint
    before it: only the round changed shows)."""
    numbers = _numbers(snapshot)
    out: list[Break] = []
    for rnd in sorted(snapshot.rounds, key=lambda r: r.number):
        s = stored.get(rnd.number)
        if s is None:
            continue
        if s.pairing:
            now = pairing_fingerprint(previous_link(stored, rnd.number), rnd, numbers)
            if now != s.pairing:
                out.append(Break(rnd.number, PAIRING, s.pairing, now))
        if s.results and s.pairing:
            now = results_fingerprint(s.pairing, rnd)
            if now != s.results:
                out.append(Break(rnd.number, RESULTS, s.results, now))
    return out


@dataclass(frozen=True)
class ChainBreak:
    """A break judged by :func:`chain_breaks`: the round, the kind, the fingerprint stored when it was published
    and the one its data give now, the reasons recorded for the change (the audit log's lines, or those the file
    carries), and for a pairing the program the round names now (``label``) and the one the chain records for it
    when only the label (or the hand-edit mark) changed (``recorded``; "" when the pairing itself changed)."""

    round: int
    kind: str  # PAIRING or RESULTS
    stored: str
    now: str
    reasons: tuple[str, ...] = ()
    label: str = ""
    recorded: str = ""

    @property
    def relabelled(self) -> bool:
        """A pairing whose boards are as published but whose program is not the one recorded."""
        return self.kind == PAIRING and bool(self.recorded) and self.recorded != self.label

    @property
    def blocking(self) -> bool:
        """A pairing changed after it was published always is (its program is the product's record, its boards
        what was posted); results only without a recorded reason (a correction with its reason is shown)."""
        return self.kind == PAIRING or not self.reasons


def stored_chain(snapshot: Snapshot) -> dict[int, Stored]:
    """The chain the snapshot's rounds carry (rounds without a fingerprint left out)."""
    return {r.number: Stored(*r.fingerprints) for r in snapshot.rounds if any(r.fingerprints)}


def _recorded_program(
    rnd: SnapRound, previous: str, stored: str, numbers: Mapping[int, str], programs: Iterable[str]
) -> str:
    """The program under which the round's pairing, as it is now, gives its stored fingerprint ("" none does)."""
    for program in dict.fromkeys(programs):
        if program == program_of(rnd):
            continue
        for edited in (rnd.manually_edited, not rnd.manually_edited):
            if pairing_fingerprint(previous, replace(rnd, engine=program, manually_edited=edited), numbers) == stored:
                return program
    return ""


def chain_breaks(snapshot: Snapshot, programs: Iterable[str] = ()) -> list[ChainBreak]:
    """Every round of the snapshot whose data no longer give the fingerprint its chain carries (see
    :func:`breaks`), with the reasons the round carries for it, and a pairing's program as the chain records it
    when only its label changed: tried among ``programs`` (the product's engine), "imported" and the programs
    the snapshot's rounds name. Pure: the venue and the federation call it alike."""
    stored = stored_chain(snapshot)
    if not stored:
        return []
    numbers = _numbers(snapshot)
    by_number = {r.number: r for r in snapshot.rounds}
    candidates = [*programs, IMPORTED, *(program_of(r) for r in snapshot.rounds)]
    out = []
    for brk in breaks(snapshot, stored):
        rnd = by_number[brk.round]
        reasons = rnd.fingerprint_reasons[0 if brk.kind == PAIRING else 1]
        if brk.kind == PAIRING:
            previous = previous_link(stored, brk.round)
            recorded = _recorded_program(rnd, previous, brk.stored, numbers, candidates)
            out.append(ChainBreak(brk.round, PAIRING, brk.stored, brk.now, reasons, program_of(rnd), recorded))
        else:
            out.append(ChainBreak(brk.round, RESULTS, brk.stored, brk.now, reasons))
    return out


def is_fingerprint(value: Any) -> bool:
    return isinstance(value, str) and len(value) == LENGTH and all(c in "0123456789abcdef" for c in value)
