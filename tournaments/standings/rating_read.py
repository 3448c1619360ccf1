"""The read of a tournament's rating estimates (issue 40.2): the snapshot, then
:func:`~tournaments.standings.ratings.snapshot_estimates`."""

from __future__ import annotations

from tournaments.domain.ratings import Change
from tournaments.domain.snapshot import SnapEntry
from tournaments.models import Tournament
from tournaments.standings.ratings import snapshot_estimates
from tournaments.standings.snapshot import read_snapshot


def entry_rating_estimates(tournament: Tournament, public: bool = False) -> list[tuple[SnapEntry, Change]]:
    """Each entry with its estimate, in the snapshot's order (pairing number)."""
    snapshot = read_snapshot(tournament, public=public)
    estimates = snapshot_estimates(snapshot)
    return [(entry, estimates[entry.pk]) for entry in snapshot.entries]
