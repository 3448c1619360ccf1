"""Each entry's rating estimate after the rounds played (issue 40.2): the games of the snapshot's counted rounds
rated by the method of the regulation's edition (:mod:`tournaments.domain.ratings`), from the ratings the entries
carry (frozen when round 1 is paired). The venue's figures are estimates: the federation's list is what counts.

Pure over the snapshot, as the standings are: the read is :func:`~tournaments.standings.snapshot.read_snapshot`.
The staff standings, the public player page, the workbook and ``manage.py rating_changes`` all call
:func:`snapshot_estimates`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tournaments.domain.edition import RatingMethod
from tournaments.domain.ratings import Change, Standing, changes, games_of_records
from tournaments.domain.snapshot import Snapshot, round_records


def rating_estimates(
    snapshot: Snapshot, method: RatingMethod, rated_games: Mapping[int, int] | None = None
) -> dict[int, Change]:
    """Per entry (pk) its change over the counted rounds. ``rated_games``: per entry, the rated games the registry
    counts for the player before this stage (for K); by default the snapshot's (``SnapPlayer.rated_games``)."""
    known = rated_games if rated_games is not None else {e.pk: e.player.rated_games for e in snapshot.entries}
    keys = {entry.number: entry.pk for entry in snapshot.entries}
    games = games_of_records(round_records(snapshot), keys)
    standings = {entry.pk: Standing(entry.rating, known.get(entry.pk, 0)) for entry in snapshot.entries}
    return changes(standings, games, method)


def snapshot_estimates(snapshot: Snapshot) -> dict[int, Change]:
    """Per entry (pk): its estimate by the rating method of the snapshot's edition (the regulation's edition in
    force on the event's start date, issue 35.1)."""
    return rating_estimates(snapshot, snapshot.settings.edition.rating)


def by_number(snapshot: Snapshot, estimates: Mapping[int, Change]) -> dict[int, Change]:
    """The estimates keyed by the entries' standings numbers (a standings row's ``id``)."""
    return {entry.number: estimates[entry.pk] for entry in snapshot.entries}
