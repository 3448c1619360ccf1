"""Who counts as a participant of a tournament (regulation art. 6), from its round history.

The rule is pure (:mod:`tournaments.domain.participants`); this module feeds it the entries, their counted
rounds and whether the tournament is over (every planned round complete: until then an entry that has not
played yet but still may is counted as a participant to come).
"""

from tournaments.domain import participation


def participation_of(tournament, entries, history, rounds_counted):
    """The domain ``Participation`` keyed by entry id. ``history``: entry id -> ``selectors.RoundRecord`` list of
    the counted rounds 1..``rounds_counted``."""
    return participation_of_kinds(
        tournament, entries, {e.pk: [r.kind for r in history.get(e.pk, ())] for e in entries}, rounds_counted
    )


def participation_of_kinds(tournament, entries, kinds, rounds_counted):
    """As :func:`participation_of`, from the kinds of each entry's counted rounds (entry id -> kinds)."""
    return participation(
        kinds,
        {e.pk: e.withdrawn_from_round for e in entries},
        rounds_counted,
        tournament.planned_rounds,
        rounds_counted >= tournament.planned_rounds,
        tournament.participant_rule,
    )
