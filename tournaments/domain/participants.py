"""Who is a participant (regulation art. 6: "Mínimo de 30 participantes"; the spots averages and the "mais de
120 participantes" of the same article count participants too).

Reading (a tournament setting, :class:`ParticipantRule`): a participant is a player who **played at least one
game** over the board (default), or, with ``present``, who also counts a game won by forfeit (they came to the
board). An entry withdrawn before playing, or never paired, is not a participant.

While the tournament is not over, an entry that has not played yet but still can (not withdrawn from the next
round, rounds left) counts as a participant *to come*: the counts are then a projection, and they become final
when the tournament ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tournaments.domain.labelled import LabelledEnum, gettext_noop


class ParticipantRule(LabelledEnum):
    PLAYED = "played", gettext_noop("Played at least one game over the board")
    PRESENT = "present", gettext_noop("Played at least one game or won one by forfeit")


# Round kinds (``RoundKind`` values, also the app's round-record kinds) that make a participant.
_PARTICIPATING = {
    ParticipantRule.PLAYED: frozenset({"played"}),
    ParticipantRule.PRESENT: frozenset({"played", "forfeit_win"}),
}


def participated(kinds: Iterable[str], rule: ParticipantRule | str = ParticipantRule.PLAYED) -> bool:
    """Whether rounds of these kinds make a participant under ``rule``."""
    wanted = _PARTICIPATING[ParticipantRule(rule)]
    return any(str(k) in wanted for k in kinds)


@dataclass(frozen=True)
class Participation:
    """Entry ids split into participants (``played``), participants to come (``to_play``: not played yet, may
    still play) and the others (``excluded``)."""

    played: frozenset[int]
    to_play: frozenset[int]
    excluded: frozenset[int]

    @property
    def counted(self) -> frozenset[int]:
        return self.played | self.to_play

    def __len__(self) -> int:
        return len(self.played) + len(self.to_play)


def participation(
    kinds: Mapping[int, Iterable[str]],
    withdrawn_from: Mapping[int, int | None],
    rounds_counted: int,
    planned_rounds: int,
    over: bool,
    rule: ParticipantRule | str = ParticipantRule.PLAYED,
) -> Participation:
    """Split the entries.

    ``kinds``: per entry id, the kinds of its counted rounds (rounds 1..``rounds_counted``, complete);
    ``withdrawn_from``: per entry id, the first round it is withdrawn from (``None`` = not withdrawn);
    ``over``: the tournament has ended (every planned round is complete).
    """
    played: set[int] = set()
    to_play: set[int] = set()
    excluded: set[int] = set()
    next_round = rounds_counted + 1
    for pid, entry_kinds in kinds.items():
        if participated(entry_kinds, rule):
            played.add(pid)
            continue
        withdrawn = withdrawn_from.get(pid)
        can_play = not over and next_round <= planned_rounds and (withdrawn is None or withdrawn > next_round)
        (to_play if can_play else excluded).add(pid)
    return Participation(frozenset(played), frozenset(to_play), frozenset(excluded))
