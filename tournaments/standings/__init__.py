"""The standings: read once, computed as a pure function of the snapshot.

* :mod:`.snapshot`: the one database read (:func:`read_snapshot`), a
  :class:`~tournaments.domain.snapshot.Snapshot` (the same type an interchange file gives,
  :func:`tournaments.domain.interchange.snapshot_from_interchange`);
* :mod:`.compute`: :func:`standings_of` (snapshot -> :class:`TournamentStandings`: overall, categories, spots);
* :mod:`.presenters`: the standings as the pages show them; :mod:`.readings`: the regulation's readings in force;
* :mod:`.text`: the ``standings`` command's text, CSV and JSON.

The standings never import the homologation: whether the spots are awarded is passed in (``rights``).
"""

from tournaments.standings.compute import (
    CategoryStandings,
    TieGroup,
    TournamentStandings,
    gc_paused,
    number,
    overall,
    participation_of,
    standings_of,
    standings_settings,
    tournament_standings,
    with_categories,
)
from tournaments.standings.snapshot import read_snapshot, settings_of

__all__ = [
    "CategoryStandings",
    "TieGroup",
    "TournamentStandings",
    "gc_paused",
    "number",
    "overall",
    "participation_of",
    "read_snapshot",
    "settings_of",
    "standings_of",
    "standings_settings",
    "tournament_standings",
    "with_categories",
]
