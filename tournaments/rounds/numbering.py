"""A late entrant's pairing number (issue 28.8): FIDE C.04.2, the initial ranking list.

The pairing numbers are the places in the initial ranking list (rating, FMJD rating, title, name: the round-1
order of ``pairing_bridge.seed_sort_key``). A player entered after round 1 is put in that list at the place their
rating gives, and the numbers below it move down by one, before the next round is paired; FIDE allows the list to
be corrected until round 4 is paired, so from round 5 on a late entrant keeps the next free number.

What moves and what does not (docs/domain.md section 1, "Pairing numbers"):

* only late entrants who have not been seated in any round yet are placed; everyone else keeps their order, so
  every round already paired is paired again identically from the new numbers (a player who has not played yet
  is no one in the engine's ranking of those rounds), and an imported numbering is never re-sorted;
* the rounds' records hold entries, not numbers: results, standings, the exports (TRF, JSON) follow the entry;
* each round's engine explanation, stored by pairing number, is re-keyed with the numbers;
* the audit log records who was renumbered from what to what.
"""

import logging
import re
from typing import Any

from django.db.models import Exists, OuterRef

from tournaments.audit.services import Actor, audit
from tournaments.models import Entry, OneSidedRound, Round, Seat, Tournament
from tournaments.models.choices import AuditAction
from tournaments.rounds.pairing_bridge import seed_sort_key

logger = logging.getLogger(__name__)

LAST_ROUND_RENUMBERED = 4  # C.04.2: the initial ranking list may be corrected until round 4 is paired

# the engine's float reasons name the opponent by number (pairing.explain): "jogou com 12 (", "enfrentou 12 ("
_NUMBER_IN_REASON = re.compile(r"(jogou com|enfrentou) (\d+) \(")


def ranking_with_late_entries(tournament: Tournament) -> list[Entry]:
    """Every entry in its new pairing-number order: the entries already placed keep their order, each late entrant
    not seated yet goes just after the last of them that ranks above it (first when none does): the rating order
    when the numbers followed it."""
    seated = Seat.objects.filter(entry=OuterRef("pk"))
    one_sided = OneSidedRound.objects.filter(entry=OuterRef("pk"))
    entries = sorted(
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .annotate(seated=Exists(seated), one_sided=Exists(one_sided)),
        key=lambda e: (e.pairing_number is None, e.pairing_number or 0, e.pk),
    )
    floating = sorted(
        (e for e in entries if e.late_entry_round and not (e.seated or e.one_sided)),
        key=lambda e: seed_sort_key(tournament, e),
    )
    moving = {e.pk for e in floating}
    out: list[Entry] = [e for e in entries if e.pk not in moving]
    keys = [seed_sort_key(tournament, e) for e in out]
    for entry in floating:
        key = seed_sort_key(tournament, entry)
        place = next((i + 1 for i in range(len(out) - 1, -1, -1) if keys[i] < key), 0)
        out.insert(place, entry)
        keys.insert(place, key)
    return out


def place_late_entries(*, tournament: Tournament, number: int, user: Actor) -> dict[int, tuple[int | None, int]]:
    """Before pairing round ``number``: the late entrants take their place in the initial ranking (rounds 2 to
    ``LAST_ROUND_RENUMBERED``). Call inside the pairing's transaction, the tournament locked. Returns {entry id:
    (old number, new number)} of the entries whose number changed (empty when none)."""
    if not 2 <= number <= LAST_ROUND_RENUMBERED:
        return {}
    ordered = ranking_with_late_entries(tournament)
    moved = {e.pk: (e.pairing_number, n) for n, e in enumerate(ordered, start=1) if e.pairing_number != n}
    if not moved:
        return {}
    changed = [e for e in ordered if e.pk in moved]
    Entry.objects.filter(pk__in=moved).update(pairing_number=None)  # the unique numbers are exchanged in two steps
    for entry in changed:
        entry.pairing_number = moved[entry.pk][1]
    Entry.objects.bulk_update(changed, ["pairing_number"])
    numbers = {old: new for old, new in moved.values() if old is not None}
    for rnd in Round.objects.filter(tournament=tournament).exclude(explanation={}):
        rnd.explanation = renumbered_explanation(rnd.explanation, numbers)
        rnd.save(update_fields=["explanation"])
    late = [e for e in changed if e.late_entry_round]
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.ENTRY_RENUMBER,
        obj=tournament,
        summary=", ".join(e.player.name for e in late)[:300],
        new={
            "round": number,
            "late": [e.player.name for e in late],
            "numbers": [[e.player.name, moved[e.pk][0], moved[e.pk][1]] for e in changed],
        },
    )
    logger.info(
        "%s: pairing numbers re-assigned before round %s for %s late entries (%s numbers changed)",
        tournament.slug,
        number,
        len(late),
        len(moved),
    )
    return moved


def renumbered_explanation(explanation: dict[str, Any], numbers: dict[int, int]) -> dict[str, Any]:
    """A round's engine explanation (keyed by pairing number, naming the opponent by number) with the new numbers."""

    def new(n: Any) -> Any:
        return numbers.get(n, n) if isinstance(n, int) else n

    out: dict[str, Any] = {}
    for key, info in explanation.items():
        if not isinstance(info, dict) or not key.isdigit():
            out[key] = info
            continue
        info = dict(info)
        info["player"] = new(info.get("player"))
        info["opponent"] = new(info.get("opponent"))
        if isinstance(info.get("float_reason"), str):
            info["float_reason"] = _NUMBER_IN_REASON.sub(
                lambda m: f"{m[1]} {numbers.get(int(m[2]), int(m[2]))} (", info["float_reason"]
            )
        out[str(new(int(key)))] = info
    return out
