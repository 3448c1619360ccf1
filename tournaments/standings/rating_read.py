"""The read of a tournament's rating estimates (issue 40.2): the snapshot, the edition's rating method, the
registry's rated games per player; then :func:`~tournaments.standings.ratings.rating_estimates`."""

from __future__ import annotations

from tournaments.domain.edition import RatingMethod, edition_in_force, shipped_editions
from tournaments.domain.ratings import Change
from tournaments.domain.snapshot import SnapEntry
from tournaments.models import Tournament
from tournaments.standings.ratings import rating_estimates
from tournaments.standings.snapshot import read_snapshot


def rating_method_for(tournament: Tournament) -> RatingMethod:
    """The rating method of the regulation's edition in force on the event's start date (the shipped default
    when no edition covers it)."""
    edition = edition_in_force(shipped_editions(), tournament.start_date)
    return edition.rating if edition is not None else RatingMethod()


def entry_rating_estimates(tournament: Tournament, public: bool = False) -> list[tuple[SnapEntry, Change]]:
    """Each entry with its estimate, in the snapshot's order (pairing number)."""
    snapshot = read_snapshot(tournament, public=public)
    estimates = rating_estimates(snapshot, rating_method_for(tournament))
    return [(entry, estimates[entry.pk]) for entry in snapshot.entries]
