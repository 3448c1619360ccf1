"""Pairing, publishing, undoing and hand-editing rounds."""

import logging
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.accounts.permissions import role_of
from tournaments.audit.services import Actor, audit, login_of
from tournaments.core import cache
from tournaments.core.agreement import by_sex
from tournaments.core.errors import ServiceError
from tournaments.core.safetext import has_control_characters, single_line_message
from tournaments.domain.model import RoundKind, RoundRecord
from tournaments.domain.snapshot import Snapshot, round_records, rounds_before
from tournaments.entries.services import refresh_ratings
from tournaments.models import Absence, Board, Entry, Game, Round, Seat, SettingsChange, Tournament
from tournaments.models.choices import AuditAction, RoundStatus, SeatSide
from tournaments.models.tournament import ROUND_1_UNDONE
from tournaments.rounds.fingerprints import seal_pairing
from tournaments.rounds.numbering import place_late_entries
from tournaments.rounds.pairing_bridge import (
    ENGINE_NAME,
    BridgeResult,
    NoValidPairing,
    Progress,
    build_state,
    pair_next_round,
    round1_order,
)
from tournaments.rounds.results import describe
from tournaments.rounds.selectors import board_pair, missing_results, pairing_read

logger = logging.getLogger(__name__)


def _check_previous_round(tournament: Tournament, number: int) -> None:
    if number == 1:
        return
    previous = Round.objects.get(tournament=tournament, number=number - 1)
    if previous.status != RoundStatus.PUBLISHED:
        raise ServiceError(
            _("Round %(n)s is still a draft: publish it before pairing the next one.") % {"n": previous.number}
        )
    boards = missing_results(previous)
    if boards:
        raise ServiceError(
            ngettext(
                "Round %(n)s still has results missing on board %(boards)s.",
                "Round %(n)s still has results missing on boards %(boards)s.",
                len(boards),
            )
            % {"n": previous.number, "boards": ", ".join(map(str, boards))}
        )


def assign_pairing_numbers(tournament: Tournament) -> list[Entry]:
    """Round 1 is paired by rating: pairing numbers follow the rating order (docs/pairing.md)."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
    ordered = round1_order(tournament, entries)
    Entry.objects.filter(tournament=tournament).update(pairing_number=None)
    for number, entry in enumerate(ordered, start=1):
        entry.pairing_number = number
    Entry.objects.bulk_update(ordered, ["pairing_number"])
    return ordered


def _create_round(
    tournament: Tournament,
    number: int,
    boards: Sequence[tuple[Entry, Entry]],
    bye: Entry | None,
    explanation: dict[str, Any],
    user: Actor,
    engine: str = ENGINE_NAME,
) -> Round:
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        status=RoundStatus.DRAFT,
        engine=engine,
        explanation=explanation,
        paired_at=timezone.now(),
        paired_by=login_of(user),
    )
    _create_boards(rnd, boards, bye, tournament.games_per_round)
    return rnd


def _create_boards(rnd: Round, boards: Sequence[tuple[Entry, Entry]], bye: Entry | None, games_per_round: int) -> None:
    board_objs = Board.objects.bulk_create([Board(round=rnd, number=i) for i in range(1, len(boards) + 1)])
    seats: list[Seat] = []
    games: list[Game] = []
    for board, (first, second) in zip(board_objs, boards):
        seats.append(Seat(round=rnd, entry=first, board=board, side=SeatSide.FIRST))
        seats.append(Seat(round=rnd, entry=second, board=board, side=SeatSide.SECOND))
        games.extend(Game(board=board, number=g) for g in range(1, games_per_round + 1))
    if bye is not None:
        seats.append(Seat(round=rnd, entry=bye, side=SeatSide.BYE))
    Seat.objects.bulk_create(seats)
    Game.objects.bulk_create(games)


def round_pair(
    *, tournament: Tournament, user: Actor, publish: bool = False, progress: Progress | None = None
) -> Round:
    """Pair the next round with the Dutch engine. Refused while the previous round lacks a result.

    Round 1 (ratings refreshed, pairing numbers given) is done in one transaction. Later rounds run the
    engine outside any transaction (it may take seconds on a large open, and nothing is locked meanwhile),
    then write the round in one short transaction, after checking that nothing the engine was given has
    changed (a result, an absence, an entry): otherwise nothing is written and the director pairs again.
    ``progress(paired, total)`` is called while the engine runs."""
    number = _next_round_number(tournament)
    if number == 1:
        return _round_pair_first(tournament=tournament, user=user, publish=publish, progress=progress)
    _check_next_round(tournament, number)
    _place_late_entries(tournament, number, user)
    entries, snapshot = pairing_read(tournament)
    started = time.perf_counter()
    result = _run_engine(tournament, number, entries, snapshot, progress)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if _next_round_number(tournament) != number:
            raise ServiceError(_("Round %(n)s was paired by someone else at the same time.") % {"n": number})
        _check_next_round(tournament, number)
        entries, snapshot = pairing_read(tournament)
        if build_state(tournament, number, entries, snapshot) != result.state:
            logger.info("%s: round %s changed while being paired: nothing written", tournament.slug, number)
            raise ServiceError(
                _(
                    "The tournament changed while round %(n)s was being paired (a result, an absence or an "
                    "entry): nothing was saved. Pair the round again."
                )
                % {"n": number}
            )
        return _write_round(tournament, number, result, user, publish, started)


def _place_late_entries(tournament: Tournament, number: int, user: Actor) -> None:
    """The late entrants take their pairing numbers by rating before the engine reads them (``numbering``), in a
    transaction of its own: the engine runs outside any."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if _next_round_number(locked) == number and place_late_entries(tournament=locked, number=number, user=user):
            cache.bump(tournament.pk)


def _next_round_number(tournament: Tournament) -> int:
    return (Round.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"] or 0) + 1


def _check_next_round(tournament: Tournament, number: int) -> None:
    if number > tournament.planned_rounds:
        raise ServiceError(_("All %(n)s planned rounds have been paired.") % {"n": tournament.planned_rounds})
    _check_previous_round(tournament, number)


def _run_engine(
    tournament: Tournament, number: int, entries: list[Entry], snapshot: Snapshot, progress: Progress | None
) -> BridgeResult:
    try:
        return pair_next_round(tournament, number, entries, snapshot, progress)
    except NoValidPairing as exc:
        logger.warning("%s: no valid pairing for round %s: %s", tournament.slug, number, exc)
        raise ServiceError(_("No valid pairing exists for round %(n)s: %(why)s") % {"n": number, "why": exc}) from exc


@transaction.atomic
def _round_pair_first(*, tournament: Tournament, user: Actor, publish: bool, progress: Progress | None) -> Round:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = _next_round_number(tournament)
    _check_next_round(tournament, number)
    if number == 1:
        if tournament.entries.count() < 2:
            raise ServiceError(_("At least two players are needed to pair a round."))
        refresh_ratings(tournament=tournament, user=user)  # art. 4: the current national rating, then frozen
        assign_pairing_numbers(tournament)
    entries, snapshot = pairing_read(tournament)
    started = time.perf_counter()
    result = _run_engine(tournament, number, entries, snapshot, progress)
    return _write_round(tournament, number, result, user, publish, started)


def _write_round(
    tournament: Tournament, number: int, result: BridgeResult, user: Actor, publish: bool, started: float
) -> Round:
    try:
        with transaction.atomic():
            rnd = _create_round(tournament, number, result.boards, result.bye, result.explanation, user)
    except IntegrityError:
        raise ServiceError(_("Round %(n)s was paired by someone else at the same time.") % {"n": number}) from None
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ROUND_PAIR,
        obj=rnd,
        summary=_("round %(n)s") % {"n": number},
        new={
            "boards": [[a.pairing_number, b.pairing_number] for a, b in result.boards],
            "bye": result.bye.pairing_number if result.bye else None,
            "by_role": role_of(user, tournament),  # the role it was done in (issue 28.12)
        },
    )
    if publish:
        _publish(rnd, user)
    cache.bump(tournament.pk)
    logger.info(
        "%s: round %s paired by %s in %.2f s: %s boards, bye %s",
        tournament.slug,
        number,
        login_of(user) or "a command",
        time.perf_counter() - started,
        len(result.boards),
        result.bye.pairing_number if result.bye else "none",
    )
    return rnd


def _publish(rnd: Round, user: Actor) -> None:
    rnd.status = RoundStatus.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    seal_pairing(rnd)  # issue 35.4: the pairing's fingerprint, as published
    audit(
        tournament=rnd.tournament,
        user=user,
        action=AuditAction.ROUND_PUBLISH,
        obj=rnd,
        summary=_("round %(n)s") % {"n": rnd.number},
        new={"by_role": role_of(user, rnd.tournament)},
    )


@transaction.atomic
def round_publish(*, round: Round, user: Actor) -> Round:
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.status == RoundStatus.PUBLISHED:
        raise ServiceError(_("Round %(n)s is already published.") % {"n": rnd.number})
    _publish(rnd, user)
    cache.bump(rnd.tournament_id)
    logger.info("%s: round %s published by %s", rnd.tournament.slug, rnd.number, login_of(user))
    return rnd


@transaction.atomic
def round_undo(*, round: Round, user: Actor, reason: str = "") -> None:
    """Delete the last round's pairing, allowed only while it has no result. Undoing round 1 once it was
    published needs a ``reason`` and is itself a recorded change, listed in the homologation report with every
    change made while it stays undone (issue 35.3)."""
    tournament = Tournament.objects.select_for_update().get(pk=round.tournament_id)
    rnd = Round.objects.get(pk=round.pk)
    last = tournament.rounds.aggregate(n=Max("number"))["n"]
    if rnd.number != last:
        raise ServiceError(_("Only the last round (%(n)s) can be undone.") % {"n": last})
    if Game.objects.filter(board__round=rnd, result__isnull=False).exists():
        raise ServiceError(_("Round %(n)s already has results: it can no longer be undone.") % {"n": rnd.number})
    reason = " ".join(str(reason or "").split())
    if rnd.number == 1 and tournament.facts_locked_at is not None:
        if not reason:
            raise ServiceError(
                "A rodada 1 já foi publicada: desfazê-la exige um motivo, que fica registrado e aparece no "
                "relatório de homologação com toda alteração feita enquanto ela estiver desfeita."
            )
        if has_control_characters(reason):
            raise ServiceError(single_line_message())
        SettingsChange.objects.create(
            tournament=tournament,
            field=ROUND_1_UNDONE,
            before="published",
            after="undone",
            at=timezone.now(),
            by=user.get_username() if user is not None else "",
            reason=reason[:300],
        )
    snapshot = [
        [s.board.number if s.board else None, s.side, s.entry.pairing_number]
        for s in rnd.seats.select_related("board", "entry")
    ]
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ROUND_UNDO,
        obj=rnd,
        summary=_("round %(n)s") % {"n": rnd.number},
        old={"seats": snapshot},
        reason=reason,
    )
    rnd.delete()
    cache.bump(tournament.pk)
    logger.info("%s: round %s undone by %s", tournament.slug, rnd.number, login_of(user))


def validate_manual_pairing(
    tournament: Tournament,
    number: int,
    pairs: Sequence[tuple[Entry, Entry]],
    bye: Entry | None,
    entries: list[Entry],
    snapshot: Snapshot,
    engine: BridgeResult | None = None,
) -> tuple[list[str], list[str]]:
    """Absolute criteria for a hand-made pairing: returns (errors, warnings), both lists of messages.

    ``pairs`` is a list of (first Entry, second Entry); ``bye`` an Entry or None; ``snapshot`` the tournament's,
    whose rounds before ``number`` are the history. ``engine``: the Dutch engine's
    own pairing of the round; quality warnings then flag only what the hand edit changed (a float the engine
    made too is not the edit's doing).
    """
    engine_pairs = {frozenset((a.pk, b.pk)) for a, b in engine.boards} if engine is not None else set()
    engine_bye = engine.bye.pk if engine is not None and engine.bye is not None else None
    errors: list[str] = []
    warnings: list[str] = []
    by_id = {e.pk: e for e in entries}
    rounds = rounds_before(snapshot, number)
    history = round_records(snapshot, rounds)
    numbers = [rnd.number for rnd in rounds]
    absent = set(
        Absence.objects.filter(entry__tournament=tournament, round_number=number).values_list("entry_id", flat=True)
    )
    present = {e.pk for e in entries if not e.is_out_for_round(number) and e.pk not in absent}
    seated = Counter([a.pk for a, b in pairs] + [b.pk for a, b in pairs] + ([bye.pk] if bye else []))
    for entry_id, count in seated.items():
        if entry_id not in by_id:
            errors.append(_("A player of another tournament cannot be paired here."))
        elif count > 1:
            player = by_id[entry_id].player
            errors.append(
                by_sex(
                    player.sex,
                    _("%(name)s is paired more than once."),
                    pgettext("female", "%(name)s is paired more than once."),
                )
                % {"name": player.name}
            )
        elif entry_id not in present:
            errors.append(
                _("%(name)s is not available for round %(n)s (withdrawn, absent or entered later).")
                % {"name": by_id[entry_id].player.name, "n": number}
            )
    for entry_id in sorted(present - set(seated), key=lambda i: by_id[i].pairing_number or 0):
        player = by_id[entry_id].player
        errors.append(
            by_sex(
                player.sex,
                _("%(name)s is present but not paired."),
                pgettext("female", "%(name)s is present but not paired."),
            )
            % {"name": player.name}
        )
    for a, b in pairs:
        if a.pk == b.pk:
            errors.append(
                by_sex(
                    a.player.sex,
                    _("%(name)s cannot play against themself."),
                    pgettext("female", "%(name)s cannot play against themself."),
                )
                % {"name": a.player.name}
            )
            continue
        met = [
            n
            for n, r in zip(numbers, history.get(a.pk, []), strict=False)
            if r.opponent == b.pairing_number and r.kind is RoundKind.PLAYED
        ]
        if met:
            errors.append(
                _("%(a)s and %(b)s already played each other in round %(r)s.")
                % {"a": a.player.name, "b": b.player.name, "r": met[0]}
            )
        for fp in tournament.forbidden_pairs.all():
            if {fp.entry_a_id, fp.entry_b_id} == {a.pk, b.pk} and fp.applies_to(number):
                errors.append(
                    _("%(a)s and %(b)s may not be paired (forbidden pair).") % {"a": a.player.name, "b": b.player.name}
                )
        sa, sb = _score(history.get(a.pk, [])), _score(history.get(b.pk, []))
        if sa != sb and frozenset((a.pk, b.pk)) not in engine_pairs:
            warnings.append(
                _("%(a)s (%(sa)s) and %(b)s (%(sb)s) have different scores (a float).")
                % {"a": a.player.name, "sa": sa, "b": b.player.name, "sb": sb}
            )
    if bye is not None:
        records = history.get(bye.pk, [])
        if any(r.kind is RoundKind.BYE for r in records):
            errors.append(_("%(name)s already had a bye.") % {"name": bye.player.name})
        if any(r.kind is RoundKind.FORFEIT_WIN for r in records):
            errors.append(
                _("%(name)s already scored a forfeit win and cannot get the bye.") % {"name": bye.player.name}
            )
        lowest = min((_score(history.get(i, [])) for i in present), default=0)
        if _score(records) > lowest and bye.pk != engine_bye:
            warnings.append(_("The bye does not go to a player of the lowest score group."))
    if len(present) % 2 == 1 and bye is None:
        errors.append(_("An odd number of players is present: one must get the bye."))
    if len(present) % 2 == 0 and bye is not None:
        errors.append(_("An even number of players is present: there is no bye."))
    return list(dict.fromkeys(errors)), warnings


def _engine_pairing(
    tournament: Tournament, number: int, entries: list[Entry], snapshot: Snapshot
) -> BridgeResult | None:
    try:
        return pair_next_round(tournament, number, entries, snapshot)
    except NoValidPairing:
        return None


def _differences_from_engine(
    engine: BridgeResult | None, numbers: Sequence[tuple[int | None, int | None]], bye: Entry | None
) -> list[str]:
    """Quality check of a hand-made pairing: where it departs from what the Dutch engine pairs."""
    if engine is None:
        return []
    mine = {frozenset(p) for p in numbers}
    theirs = [(a.pairing_number, b.pairing_number) for a, b in engine.boards]
    differ = [f"{a}-{b}" for a, b in theirs if frozenset((a, b)) not in mine]
    out = []
    if differ:
        out.append(
            _("The Dutch system pairs differently: its pairs not kept here are %(pairs)s.")
            % {"pairs": ", ".join(differ)}
        )
    engine_bye = engine.bye.pairing_number if engine.bye else None
    if engine_bye != (bye.pairing_number if bye else None):
        out.append(_("The Dutch system gives the bye to number %(n)s.") % {"n": engine_bye or "—"})
    colours = {frozenset(p): p for p in theirs}
    swapped = [f"{a}-{b}" for a, b in numbers if colours.get(frozenset((a, b))) == (b, a)]
    if swapped:
        out.append(_("Colours swapped against the colour rules on: %(pairs)s.") % {"pairs": ", ".join(swapped)})
    return out


def _score(records: Iterable[RoundRecord]) -> Decimal:
    return sum((Decimal(r.points or 0) for r in records), Decimal(0))


@transaction.atomic
def round_edit(
    *, round: Round, user: Actor, pairs: Iterable[tuple[Any, Any]], bye: Any = None
) -> tuple[Round, list[str]]:
    """Replace a draft round's pairing by hand. ``pairs``: list of (first entry id, second entry id).

    Absolute criteria are enforced; quality criteria broken are returned as warnings to show before publishing.
    """
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    tournament = rnd.tournament
    if rnd.status != RoundStatus.DRAFT:
        raise ServiceError(_("Only a draft round can be edited."))
    entries, snapshot = pairing_read(tournament)  # the history: the rounds before this one
    by_id = {e.pk: e for e in entries}
    try:
        pair_objs = [(by_id[int(a)], by_id[int(b)]) for a, b in pairs]
        bye_obj = by_id[int(bye)] if bye else None
    except (KeyError, ValueError, TypeError):
        raise ServiceError(_("A player of another tournament cannot be paired here.")) from None
    engine = _engine_pairing(tournament, rnd.number, entries, snapshot)
    errors, warnings = validate_manual_pairing(
        tournament, rnd.number, pair_objs, bye_obj, entries, snapshot, engine=engine
    )
    if not errors:
        # The engine's own check of the absolute criteria (it also knows the absolute colour rule of single games).
        import pairing

        state = build_state(tournament, rnd.number, entries, snapshot)
        # every entry of a paired round has its pairing number (0 would be reported as an unknown player)
        numbers = [(a.pairing_number or 0, b.pairing_number or 0) for a, b in pair_objs]
        errors = list(pairing.check_pairing(state, numbers, bye_obj.pairing_number if bye_obj else None))
        if not errors:
            warnings += _differences_from_engine(engine, numbers, bye_obj)
    # Results already typed on a draft are never lost silently: a board with a result stays exactly as it is
    # (same players, same sides; its number may change) or the edit is refused, naming the board.
    kept: dict[tuple[int, int], tuple[Board, list[Game]]] = {}
    new_pairs = {(a.pk, b.pk) for a, b in pair_objs}
    for board in rnd.boards.prefetch_related("games", "seats__entry__player"):
        first, second = board_pair(board)
        games = list(board.games.all())
        if first is None or second is None or not any(g.result or g.pdn.strip() for g in games):
            continue
        if (first.pk, second.pk) in new_pairs:
            kept[(first.pk, second.pk)] = (board, games)
        else:
            errors.append(
                _(
                    "Board %(b)s (%(a)s – %(c)s) already has results (%(r)s): it must stay as it is. Clear its "
                    "results on the results page first if the pairing really has to change."
                )
                % {
                    "b": board.number,
                    "a": first.player.name,
                    "c": second.player.name,
                    "r": describe({g.number: g.result for g in games}, tournament.is_micro_match),
                }
            )
    if errors:
        raise ServiceError(errors)
    old = [
        [s.board.number if s.board else None, s.side, s.entry.pairing_number]
        for s in rnd.seats.select_related("board", "entry")
    ]
    rnd.boards.all().delete()
    rnd.seats.all().delete()
    _create_boards(rnd, pair_objs, bye_obj, tournament.games_per_round)
    for board in rnd.boards.prefetch_related("games", "seats"):
        first, second = board_pair(board)
        if first is None or second is None or (first.pk, second.pk) not in kept:
            continue
        old_board, old_games = kept[(first.pk, second.pk)]
        board.opening_id, board.version = old_board.opening_id, old_board.version + 1
        board.save(update_fields=["opening", "version"])
        by_number = {g.number: g for g in old_games}
        for game in board.games.all():
            if game.number in by_number:
                game.result, game.pdn = by_number[game.number].result, by_number[game.number].pdn
                game.save(update_fields=["result", "pdn"])
    rnd.manually_edited = True
    rnd.save(update_fields=["manually_edited"])
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ROUND_EDIT,
        obj=rnd,
        summary=_("round %(n)s") % {"n": rnd.number},
        old={"seats": old},
        new={
            "boards": [[a.pairing_number, b.pairing_number] for a, b in pair_objs],
            "bye": bye_obj.pairing_number if bye_obj else None,
            "warnings": warnings,
        },
    )
    cache.bump(tournament.pk)
    logger.info(
        "%s: round %s edited by hand by %s (%s warnings)", tournament.slug, rnd.number, login_of(user), len(warnings)
    )
    return rnd, warnings
