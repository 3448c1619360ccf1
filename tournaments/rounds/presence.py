"""Who is present, asked before a round is paired (issue 28.12): the list of the entrants who may play the next
round, the absentees marked with one click each, recorded as announced absences of that round (docs/domain.md
section 3: not paired, the absence's value), then the round paired.

The absences of the round become exactly the ones marked, all or nothing: a mark added is an announced absence,
one taken off cancels the absence announced before (both audited as on the entry's page)."""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit
from tournaments.core import cache
from tournaments.core.errors import ServiceError
from tournaments.domain.snapshot import counted_rounds, round_records
from tournaments.models import Absence, Entry, Tournament
from tournaments.models.choices import AuditAction
from tournaments.rounds.selectors import pairing_read


@dataclass(frozen=True)
class PresenceRow:
    """One entrant who may play the round: the entry (with its player), the points before it, whether an absence
    is announced for it."""

    entry: Entry
    points: Decimal
    absent: bool


def next_round_to_pair(tournament: Tournament) -> int:
    return (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


def points_before(tournament: Tournament, number: int) -> tuple[list[Entry], dict[int, Decimal]]:
    """(the entries by pairing number, each one's points before round ``number``: its complete rounds before it,
    drafts included; a round still missing results counts none of its points yet)."""
    entries, snapshot = pairing_read(tournament)
    history = round_records(snapshot, tuple(r for r in counted_rounds(snapshot) if r.number < number))
    return entries, {pk: sum((Decimal(r.points or 0) for r in records), Decimal(0)) for pk, records in history.items()}


def presence_rows(tournament: Tournament, number: int) -> tuple[list[PresenceRow], list[Entry]]:
    """(the entrants who may play round ``number``, by pairing number then name; those who may not: withdrawn or
    entered for a later round)."""
    entries, before = points_before(tournament, number)
    absent = set(
        Absence.objects.filter(entry__tournament=tournament, round_number=number).values_list("entry_id", flat=True)
    )
    rows, out = [], []
    for entry in sorted(entries, key=lambda e: (e.pairing_number is None, e.pairing_number or 0, e.player.name)):
        if entry.is_out_for_round(number):
            out.append(entry)
            continue
        rows.append(PresenceRow(entry, before.get(entry.pk, Decimal(0)), entry.pk in absent))
    return rows, out


@transaction.atomic
def presence_confirm(*, tournament: Tournament, number: int, absent: Iterable[int], user: Actor) -> tuple[int, int]:
    """Make the announced absences of round ``number`` exactly the entries ``absent`` (ids). Refused, nothing
    written, when the round is not the next to pair or an id is not an entrant who may play it. Returns (absences
    added, absences cancelled)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if next_round_to_pair(tournament) != number:
        raise ServiceError(
            _("Round %(n)s is no longer the next round to pair (someone paired it meanwhile): reload the page.")
            % {"n": number}
        )
    if number > tournament.planned_rounds:
        raise ServiceError(_("All %(n)s planned rounds have been paired.") % {"n": tournament.planned_rounds})
    wanted = set(absent)
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    unknown = wanted - set(entries)
    if unknown:
        raise ServiceError(_("A player of another tournament cannot be marked absent here."))
    unavailable = sorted(entries[pk].player.name for pk in wanted if entries[pk].is_out_for_round(number))
    if unavailable:
        raise ServiceError(
            _("%(names)s cannot play round %(n)s (withdrawn or entered for a later round): nothing was recorded.")
            % {"names": ", ".join(unavailable), "n": number}
        )
    current = {a.entry_id: a for a in Absence.objects.filter(entry__tournament=tournament, round_number=number)}
    added = [Absence(entry=entries[pk], round_number=number) for pk in sorted(wanted - set(current))]
    removed = [current[pk] for pk in sorted(set(current) - wanted)]
    Absence.objects.bulk_create(added)
    for absence in added:
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.ABSENCE_CREATE,
            obj=absence,
            summary=f"{absence.entry.player.name}: {number}",
            new={"round": number, "reason": ""},
        )
    for absence in removed:
        audit(
            tournament=tournament,
            user=user,
            action=AuditAction.ABSENCE_DELETE,
            obj=absence,
            summary=f"{entries[absence.entry_id].player.name}: {number}",
        )
        absence.delete()
    if added or removed:
        cache.bump(tournament.pk)
    return len(added), len(removed)
