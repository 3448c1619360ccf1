"""When a suspension of the registry judges an event (art. 3, 6 and 10), pure: the venue's report and the
federation's verification ask the same question of the same facts.

A suspension counts for an event when it was in force on one of the event's days as the registry stood then:

* lifting it later does not change the verdict of the events it overlapped (it counts unless it was lifted before
  the event's first day);
* a tribunal's suspension includes its end date; an art. 10 suspension lasts exactly 3 months ("suspensão
  automática por 3 meses"): it ends on its end date, so a player may enter an event that starts that day;
* a suspension the event itself gave (its own abandonments, art. 10: it starts on the event's last day) never
  judges that event (issue 36.2): the caller leaves out the suspensions whose origin is the event.
"""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo


def counts_for_event(
    start: date,
    end: date,
    *,
    abandonment: bool,
    lifted_at: datetime | None,
    event_start: date,
    event_end: date,
    time_zone: str = "America/Sao_Paulo",
) -> bool:
    """Whether a suspension from ``start`` to ``end`` (``abandonment``: an art. 10 one; ``lifted_at``: when it was
    lifted, or None) was in force on a day of the event from ``event_start`` to ``event_end``."""
    if start > event_end:
        return False
    if end < event_start or (end == event_start and abandonment):
        return False
    if lifted_at is None:
        return True
    try:
        zone = ZoneInfo(time_zone)
    except (KeyError, ValueError):
        zone = ZoneInfo("America/Sao_Paulo")
    return lifted_at >= datetime.combine(event_start, time.min, tzinfo=zone)
