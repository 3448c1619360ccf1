"""The players' reports of a round as the arbiter's results page shows them (plain rows, codes worded)."""

from __future__ import annotations

from typing import Any

from tournaments.models import Entry, Round
from tournaments.reporting.selectors import APPROVED, CONFIRMED, CONFLICT, ONE, round_report_states
from tournaments.rounds.results import describe


def _optional(games: dict[int, str]) -> dict[int, str | None]:
    return dict(games.items())


def reports_panel(rnd: Round) -> dict[str, Any] | None:
    """Counts and one row per reported board, in board order; None when nobody reported in this round."""
    states = round_report_states(rnd)
    if not states:
        return None
    micro = rnd.tournament.is_micro_match
    numbers = dict(rnd.boards.filter(pk__in=states).values_list("pk", "number"))
    names = dict(
        Entry.objects.filter(pk__in={e for s in states.values() for e, _g in s.reports}).values_list(
            "pk", "player__name"
        )
    )
    rows = []
    for board_id, state in sorted(states.items(), key=lambda item: numbers.get(item[0], 0)):
        rows.append(
            {
                "board_id": board_id,
                "number": numbers.get(board_id),
                "state": state.state,
                "who": names.get(state.reports[0][0], ""),
                "lines": [
                    f"{names.get(entry, '')}: {describe(_optional(games), micro)}" for entry, games in state.reports
                ],
            }
        )
    count = {kind: sum(1 for s in states.values() if s.state == kind) for kind in (ONE, CONFIRMED, CONFLICT, APPROVED)}
    return {"rows": rows, "one": count[ONE], "confirmed": count[CONFIRMED], "conflict": count[CONFLICT]}
