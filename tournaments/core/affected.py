"""Which tournaments' public pages a write changes (issue 39.7), as Zulip's ``zerver/actions/`` work out who an
action concerns: a write computes the tournaments it affects with the function of its kind below and hands them to
:func:`pages_changed`, once, in its transaction.

A write inside one tournament (a result, a pairing, an entry) affects that tournament alone, and calls
``cache.bump(tournament.pk)``, which is ``pages_changed([tournament.pk])``. A write about a player reaches further:
the player's name and club show on the pages of every tournament they entered, and a suspension decides the
rights and the spots on the category pages of every tournament of the player (a national suspension refuses the
player everywhere its dates cover, and the pages do not know which dates matter: every tournament of the player
is refreshed, which is a handful).
"""

from collections.abc import Iterable

from tournaments.core import cache
from tournaments.models import Entry, Suspension


def pages_changed(tournament_ids: Iterable[int | None]) -> None:
    """Every page of these tournaments is stale once the caller's transaction commits (each bumped once)."""
    for tournament_id in sorted({t for t in tournament_ids if t is not None}):
        cache.bump(tournament_id)


def of_players(player_ids: Iterable[int]) -> set[int]:
    """The tournaments the players entered (their names, clubs and rights show on those pages)."""
    ids = list(set(player_ids))
    if not ids:
        return set()
    return set(Entry.objects.filter(player_id__in=ids).values_list("tournament_id", flat=True).distinct())


def of_suspension(suspension: Suspension) -> set[int]:
    """A suspension created, confirmed or lifted: every tournament of its player, and the one it came from."""
    found = of_players([suspension.player_id])
    if suspension.tournament_id is not None:
        found.add(suspension.tournament_id)
    return found
