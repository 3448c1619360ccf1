"""The bridge between the database and the pure ``pairing`` engine: plain data in, entries out.

The history the engine reads is the tournament's snapshot (``tournaments.standings.snapshot.read_snapshot``, every
round, drafts included): each entry's records of the rounds before the one paired are the snapshot's
(``domain.snapshot.round_records``, the same records the standings count), with the colours of their seats."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from pairing import model as engine
from pairing.api import pair_round, seed_key
from pairing.model import ForbiddenPair as EngineForbiddenPair
from pairing.model import NoValidPairing, PlayerState, RoundEntry, Scoring, TournamentState
from tournaments.domain.model import RoundKind, RoundRecord
from tournaments.domain.snapshot import Snapshot, colours_of, opponent_points, round_records, rounds_before
from tournaments.models import Absence, Entry, Tournament
from tournaments.models.choices import OwnAbsenceValue, RoundFormat

ENGINE_NAME = "damas-swiss Dutch (FIDE C.04.3, 2026)"

__all__ = [
    "ENGINE_NAME",
    "BridgeResult",
    "NoValidPairing",
    "Progress",
    "build_state",
    "pair_next_round",
    "round1_order",
    "seed_sort_key",
    "snapshot_state",
]

# progress(players paired so far, players to pair), called while the engine runs
Progress = Callable[[int, int], None]


def effective_rating(tournament: Tournament, entry: Entry) -> int:
    return entry.rating if entry.rating is not None else tournament.provisional_rating


def seed_sort_key(tournament: Tournament, entry: Entry) -> tuple[Any, ...]:
    """An entry's place in the initial ranking (``pairing.api.seed_key``: rating, FMJD rating, title, name), an
    unrated entry at the tournament's provisional rating; entries equal on all four in the order they were entered."""
    return (
        *seed_key(effective_rating(tournament, entry), entry.fmjd_rating, entry.player.title, entry.player.name),
        entry.pk,
    )


def round1_order(tournament: Tournament, entries: Iterable[Entry]) -> list[Entry]:
    """The engine's round-1 order: the entries sorted by :func:`seed_sort_key`."""
    return sorted(entries, key=lambda e: seed_sort_key(tournament, e))


_KIND = {
    RoundKind.PLAYED: engine.GAME,
    RoundKind.FORFEIT_WIN: engine.FORFEIT_WIN,
    RoundKind.FORFEIT_LOSS: engine.FORFEIT_LOSS,
    RoundKind.DOUBLE_FORFEIT: engine.FORFEIT_LOSS,
    RoundKind.BYE: engine.PAB,
    RoundKind.ABSENT: engine.ZERO_BYE,
    RoundKind.WITHDRAWN: engine.ZERO_BYE,
    RoundKind.NOT_ENTERED: engine.ZERO_BYE,
}


def _round_entry(record: RoundRecord, colour: str | None, snapshot: Snapshot) -> RoundEntry:
    """The engine's entry of one round from the snapshot's record (``colour``: the seat's, or None)."""
    kind = _KIND[record.kind]
    points = Decimal(record.points or 0)
    if record.kind is RoundKind.ABSENT and points > 0:
        settings = snapshot.settings
        full = settings.score_win * settings.games_per_round
        kind = engine.FULL_BYE if points >= full else engine.HALF_BYE
    result = None
    if kind == engine.GAME:
        theirs = opponent_points(record, snapshot.settings.scoring)
        result = "W" if points > theirs else "L" if points < theirs else "D"
    with_opponent = kind in (engine.GAME, engine.FORFEIT_WIN, engine.FORFEIT_LOSS)
    return RoundEntry(
        kind=kind,
        opponent=record.opponent if with_opponent else None,
        color=colour if with_opponent else None,
        result=result,
        points=points,
    )


_ABSENCE_KIND: dict[str, str] = {
    OwnAbsenceValue.ZERO: engine.ZERO_BYE,
    OwnAbsenceValue.DRAW: engine.HALF_BYE,
    OwnAbsenceValue.WIN: engine.FULL_BYE,
}


def _player_state(
    snapshot: Snapshot,
    rounds: Sequence[Any],
    records: Mapping[int, Sequence[RoundRecord]],
    colours: Mapping[tuple[int, int], str],
    pk: int,
    pairing_number: int,
    name: str,
    rating: int,
    fmjd_rating: int | None,
    title: str,
    late_entry_round: int | None,
    withdrawn_from_round: int | None,
    accelerations: Iterable[Any],
) -> PlayerState:
    """One entry as the engine reads it: its history is the snapshot's records of the rounds before."""
    return PlayerState(
        id=pairing_number,
        name=name,
        rating=rating,
        fmjd_rating=fmjd_rating or 0,
        title=title,
        history=[
            _round_entry(record, colours.get((pk, rnd.number)), snapshot)
            for rnd, record in zip(rounds, records[pk], strict=True)
        ],
        late_entry_round=late_entry_round,
        withdrawn_from_round=withdrawn_from_round,
        accelerations=[Decimal(str(a)) for a in accelerations or []],
    )


def snapshot_state(
    snapshot: Snapshot,
    number: int,
    *,
    forbidden: Sequence[EngineForbiddenPair] = (),
    initial_colour: str = "white",
) -> TournamentState:
    """The engine's TournamentState for pairing round ``number`` from the snapshot alone (no database): the
    entries with a pairing number, in that order, their history the snapshot's records, the absences announced
    for the round the snapshot's. What a snapshot does not hold is given: the forbidden pairs (pairing numbers)
    and the colour of the first board's first player in round 1. The federation pairs a submitted stage again
    with it (:mod:`tournaments.homologation.repairing`)."""
    settings = snapshot.settings
    rounds = rounds_before(snapshot, number)
    records = round_records(snapshot, rounds)
    colours = colours_of(rounds)
    seeded = sorted((e for e in snapshot.entries if e.pairing_number is not None), key=lambda e: e.pairing_number or 0)
    players = [
        _player_state(
            snapshot,
            rounds,
            records,
            colours,
            e.pk,
            e.pairing_number or 0,
            e.player.name,
            rating if (rating := snapshot.rating_as_played(e)) is not None else settings.provisional_rating,
            e.fmjd_rating,
            e.player.title,
            e.late_entry_round,
            e.withdrawn_from_round,
            e.accelerations,
        )
        for e in seeded
    ]
    numbers = {e.pk: e.pairing_number for e in seeded}
    absences = {
        numbers[pk]: _ABSENCE_KIND[value or settings.absence_value]
        for (pk, rnd), value in snapshot.absences.items()
        if rnd == number and pk in numbers
    }
    return TournamentState(
        players=players,
        total_rounds=settings.planned_rounds,
        initial_color="w" if initial_colour == "white" else "b",
        scoring=Scoring(win=settings.score_win, draw=settings.score_draw, loss=settings.score_loss),
        micro_match=settings.games_per_round == 2,
        acceleration=settings.acceleration,
        forbidden=list(forbidden),
        absences=absences,  # type: ignore[arg-type]
        round_to_pair=number,
        name=settings.name,
    )


def build_state(tournament: Tournament, number: int, entries: Sequence[Entry], snapshot: Snapshot) -> TournamentState:
    """The engine's TournamentState for pairing round ``number`` (previous rounds complete): ``entries`` with
    their players, ``snapshot`` the tournament's (``read_snapshot(public=False)``)."""
    rounds = rounds_before(snapshot, number)
    records = round_records(snapshot, rounds)
    colours = colours_of(rounds)
    absent = {}
    for entry_id, value in Absence.objects.filter(entry__tournament=tournament, round_number=number).values_list(
        "entry_id", "value"
    ):
        absent[entry_id] = _ABSENCE_KIND[value or tournament.absence_value]
    players: list[PlayerState] = []
    number_of: dict[int, int] = {}  # entry pk -> pairing number
    for e in entries:
        if e.pairing_number is None:
            continue
        number_of[e.pk] = e.pairing_number
        players.append(
            _player_state(
                snapshot,
                rounds,
                records,
                colours,
                e.pk,
                e.pairing_number,
                e.player.name,
                effective_rating(tournament, e),
                e.fmjd_rating,
                e.player.title,
                e.late_entry_round,
                e.withdrawn_from_round,
                e.accelerations,
            )
        )
    forbidden = [
        EngineForbiddenPair(
            players=[fp.entry_a.pairing_number, fp.entry_b.pairing_number],
            first_round=fp.from_round,
            last_round=fp.to_round,
        )
        for fp in tournament.forbidden_pairs.select_related("entry_a", "entry_b")
        if fp.entry_a.pairing_number and fp.entry_b.pairing_number
    ]
    state = TournamentState(
        players=players,
        total_rounds=tournament.planned_rounds,
        initial_color="w" if tournament.initial_colour == "white" else "b",
        scoring=Scoring(win=tournament.score_win, draw=tournament.score_draw, loss=tournament.score_loss),
        micro_match=tournament.format == RoundFormat.MICRO_MATCH,
        acceleration=tournament.acceleration,
        forbidden=forbidden,
        absences={number_of[pk]: kind for pk, kind in absent.items() if pk in number_of},
        round_to_pair=number,
        name=tournament.name,
    )
    return state


class BridgeResult:
    def __init__(
        self,
        boards: list[tuple[Entry, Entry]],
        bye: Entry | None,
        explanation: dict[str, dict[str, Any]],
        state: TournamentState,
    ) -> None:
        self.boards, self.bye, self.explanation = boards, bye, explanation
        self.state = state  # what the engine paired: compared before the round is written


def pair_next_round(
    tournament: Tournament,
    number: int,
    entries: Sequence[Entry],
    snapshot: Snapshot,
    progress: Progress | None = None,
) -> BridgeResult:
    """Pair round ``number``: returns boards as (first Entry, second Entry) in board order, the bye Entry or None,
    and the engine's explanation as JSON-ready data keyed by pairing number. ``progress(paired, total)`` is
    called as the engine settles pairs."""
    state = build_state(tournament, number, entries, snapshot)
    if len(list(state.players)) < 2:
        raise NoValidPairing(_("fewer than two players available"))
    result = pair_round(state, progress=progress)
    by_number = {e.pairing_number: e for e in entries}
    boards = [(by_number[w], by_number[b]) for w, b in result.boards]
    bye = by_number[result.bye] if result.bye else None
    explanation = {str(k): _jsonable(asdict(v)) for k, v in (result.explanations or {}).items()}
    return BridgeResult(boards, bye, explanation, state)


def _jsonable(d: dict[str, Any]) -> dict[str, Any]:
    return {k: (str(v) if isinstance(v, Decimal) else v) for k, v in d.items()}
