"""Imported pairings checked, not trusted (issue 26, point 2).

Art. 4: "A primeira rodada tem que ser, obrigatoriamente, emparceirada utilizando-se o rating nacional
atualizado." Art. 5 and 6: the pairings must come from an accepted program. A file may say anything about how it
was paired, so for every round that was not paired here (an imported round: no engine explanation recorded):

* round 1 is paired again by the engine from the ratings the file gives (its round-1 order: rating, FMJD
  rating, title, name) and compared with the file's round 1, pair by pair, players of equal rating being
  interchangeable: a round 1 that is not the rating order fails art. 4, whichever program the file names;
* every round that names this product's engine is paired again by the engine from the rounds before it and
  compared with the file's: a difference is a finding, not a pass.

Reads only; the engine runs once per round checked (imported rounds only: the rounds paired here were paired by
the engine itself, and a hand edit is recorded on the round).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from pairing.api import pair_round, seed_key
from pairing.model import ForbiddenPair, InvalidInput, NoValidPairing, TournamentState
from tournaments.domain.snapshot import Snapshot
from tournaments.models import Entry, Round, Tournament
from tournaments.rounds.pairing_bridge import ENGINE_NAME, build_state, snapshot_state


@dataclass(frozen=True)
class RoundCheck:
    """One imported round paired again. ``extra``: the engine's pairs (pairing numbers) the file does not have;
    ``missing``: the file's pairs the engine does not make; ``bye``: (the engine's bye, the file's bye) when they
    differ; ``failed``: the engine found no pairing (the reason)."""

    round: int
    extra: tuple[tuple[int, int], ...] = ()
    missing: tuple[tuple[int, int], ...] = ()
    bye: tuple[int | None, int | None] | None = None
    failed: str = ""

    @property
    def matches(self) -> bool:
        return not (self.extra or self.missing or self.bye or self.failed)


def _file_round(snapshot: Snapshot, number: int) -> tuple[set[tuple[int, int]], int | None]:
    """(pairs as pairing-number tuples, first listed first; the bye's pairing number or None) of round
    ``number`` as the snapshot holds it (its boards and its bye: a round kept for one player alone is neither)."""
    numbers = {e.pk: e.pairing_number for e in snapshot.entries if e.pairing_number is not None}
    pairs: set[tuple[int, int]] = set()
    bye = None
    for rnd in snapshot.rounds:
        if rnd.number != number:
            continue
        for board in rnd.boards:
            first = numbers.get(board.first) if board.first is not None else None
            second = numbers.get(board.second) if board.second is not None else None
            if first is not None and second is not None:
                pairs.add((first, second))
        for pk in rnd.byes:
            if pk in numbers:
                bye = numbers[pk]
    return pairs, bye


def imported_rounds(tournament: Tournament) -> set[int]:
    """The numbers of the rounds not paired here: no engine explanation recorded (a file's rounds; one query)."""
    return set(Round.objects.filter(tournament=tournament, explanation={}).values_list("number", flat=True))


def present_in_round_one(state: TournamentState, snapshot: Snapshot) -> TournamentState:
    """The state for round 1 with every player the snapshot's round 1 does not seat (on a board or the bye) and
    who announced no absence taken as entering later (issue 36.7): round 1 is judged among those present in it. A
    late entrant a file does not flag as such (another program's file: he is only unpaired in round 1) would
    otherwise be paired by the engine and every pair below him would differ."""
    numbers = {e.pk: e.pairing_number for e in snapshot.entries if e.pairing_number is not None}
    first = next((r for r in snapshot.rounds if r.number == 1), None)
    if first is None:
        return state
    present = {numbers[pk] for pk in first.seated() if pk in numbers} | set(state.absences)
    return dataclasses.replace(
        state,
        players=[
            p if p.id in present or p.late_entry_round else dataclasses.replace(p, late_entry_round=2)
            for p in state.players
        ],
    )


def round1_by_rating(state: TournamentState, snapshot: Snapshot) -> RoundCheck:
    """Round 1 paired by the engine from the ratings (re-numbered in the round-1 order), compared with the
    snapshot's: pairs compared by the two players' ratings, so that players of equal rating are interchangeable.
    ``state``: the engine's state for round 1 (:func:`~tournaments.rounds.pairing_bridge.build_state` or
    :func:`~tournaments.rounds.pairing_bridge.snapshot_state`). Only those present in round 1 are paired: a late
    entrant is in the state with his entry round and the engine leaves him out (issue 36.7)."""
    ordered = sorted(
        state.players,
        key=lambda p: (*seed_key(p.rating, p.fmjd_rating, p.title, p.name), p.id),
    )
    new_id = {p.id: i for i, p in enumerate(ordered, start=1)}
    old_id = {i: pid for pid, i in new_id.items()}
    state = dataclasses.replace(
        state,
        players=[dataclasses.replace(p, id=new_id[p.id]) for p in ordered],
        absences={new_id[k]: v for k, v in state.absences.items() if k in new_id},
        forbidden=[
            dataclasses.replace(f, players=[new_id[x] for x in f.players if x in new_id]) for f in state.forbidden
        ],
    )
    try:
        result = pair_round(state, explain=False)
    except (NoValidPairing, InvalidInput) as exc:
        return RoundCheck(1, failed=str(exc))
    rating_of = {old_id[p.id]: p.rating for p in state.players}
    engine_pairs = {(old_id[a], old_id[b]) for a, b in result.boards}
    file_pairs, file_bye = _file_round(snapshot, 1)

    def key(pair: tuple[int, int]) -> tuple[int, ...]:
        return tuple(sorted((rating_of.get(pair[0], 0), rating_of.get(pair[1], 0))))

    theirs, ours = Counter(map(key, engine_pairs)), Counter(map(key, file_pairs))
    extra = tuple(sorted(p for p in engine_pairs if theirs[key(p)] > ours[key(p)]))
    missing = tuple(sorted(p for p in file_pairs if ours[key(p)] > theirs[key(p)]))
    engine_bye = old_id[result.bye] if result.bye else None
    bye = None
    if (engine_bye is None) != (file_bye is None) or (
        engine_bye is not None and rating_of.get(engine_bye) != rating_of.get(file_bye or 0)
    ):
        bye = (engine_bye, file_bye)
    return RoundCheck(1, extra, missing, bye)


def engine_round(state: TournamentState, snapshot: Snapshot, number: int) -> RoundCheck:
    """Round ``number`` paired again by the engine from the rounds before it (``state``), compared with the
    snapshot's pairs (colours included: the engine's first-listed player has White in game 1)."""
    try:
        if len(state.players) < 2:
            raise NoValidPairing("fewer than two players available")
        result = pair_round(state, explain=False)
    except (NoValidPairing, InvalidInput) as exc:
        return RoundCheck(number, failed=str(exc))
    engine_pairs = {(a, b) for a, b in result.boards}
    file_pairs, file_bye = _file_round(snapshot, number)
    engine_bye = result.bye or None
    return RoundCheck(
        number,
        tuple(sorted(engine_pairs - file_pairs)),
        tuple(sorted(file_pairs - engine_pairs)),
        (engine_bye, file_bye) if engine_bye != file_bye else None,
    )


def pairings_checked(
    snapshot: Snapshot, imported: Iterable[int], state: Callable[[int], TournamentState]
) -> tuple[RoundCheck | None, list[RoundCheck]]:
    """(round 1 against the rating order, or None when round 1 was paired here or is not there; every imported
    round naming this engine paired again). ``snapshot``: every round (``engine``); ``imported``: the numbers of
    the rounds not paired here (at the federation: every round); ``state(n)``: the engine's state for round n."""
    imported = set(imported)
    rounds = snapshot.rounds
    numbers = {r.number for r in rounds}

    def state_for(number: int) -> TournamentState:
        return present_in_round_one(state(1), snapshot) if number == 1 else state(number)

    first = round1_by_rating(state_for(1), snapshot) if 1 in imported and 1 in numbers else None
    claimed = [
        engine_round(state_for(r.number), snapshot, r.number)
        for r in rounds
        if r.number in imported and r.engine == ENGINE_NAME and set(range(1, r.number)) <= numbers
    ]
    return first, claimed


def check_imported_pairings(
    tournament: Tournament, entries: Sequence[Entry], snapshot: Snapshot, imported: Iterable[int]
) -> tuple[RoundCheck | None, list[RoundCheck]]:
    """:func:`pairings_checked` of a tournament in the database (``entries``: in pairing order, with players)."""
    return pairings_checked(snapshot, imported, lambda n: build_state(tournament, n, entries, snapshot))


def check_snapshot_pairings(
    snapshot: Snapshot, *, forbidden: Sequence[ForbiddenPair] = (), initial_colour: str = "white"
) -> tuple[RoundCheck | None, list[RoundCheck]]:
    """:func:`pairings_checked` of a snapshot alone, every round taken as imported (the federation's: a submitted
    stage, no database)."""
    return pairings_checked(
        snapshot,
        {r.number for r in snapshot.rounds},
        lambda n: snapshot_state(snapshot, n, forbidden=forbidden, initial_colour=initial_colour),
    )
