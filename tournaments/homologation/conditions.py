"""The homologation conditions (domain.md section 7): each one met or not, with the reason. Reads only.

Public entry points: :func:`check_conditions` (the conditions, in order), :func:`rights_earned` (just the
yes/no, for the standings pages) and :func:`deadline_for`. The report that adds the standings and the
qualification spots is :mod:`tournaments.homologation.report`; recording the export is a service
(:func:`tournaments.services.homologation.homologation_mark_exported`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Round, Suspension
from ..models.choices import RoundFormat, TiebreakProfile
from ..pairing_bridge import ENGINE_NAME
from ..selectors import entries_in_order

CONDITION_KEYS = (
    "participants",
    "rounds_and_time",
    "no_suspended",
    "round1_by_rating",
    "pairing_engine",
    "tiebreaks",
    "birth_dates",
)
DEADLINE_DAYS = 2
# (rounds, minutes per player per game): at least 7 rounds of 21 minutes, or 5 rounds of 30 minutes.
ROUNDS_AND_TIME = ((7, 21), (5, 30))
ENGINE_EDITION = gettext_lazy("FIDE C.04.3, edition applied from 1 February 2026")


def engine_name():
    """The product's pairing engine as recorded on the rounds it pairs."""
    return ENGINE_NAME


@dataclass(frozen=True)
class Condition:
    key: str
    met: bool
    detail: str
    label: str = ""

    def as_json(self):
        return {"key": self.key, "met": self.met, "detail": self.detail}


def deadline_for(tournament):
    """Results must reach the federation within two days of the last day."""
    return tournament.end_date + timedelta(days=DEADLINE_DAYS)


def round_rows_of(tournament):
    """Per round (number order): flags and counts for the checks, in one query."""
    return list(
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .annotate(
            pending=Count("boards__games", filter=Q(boards__games__result__isnull=True), distinct=True),
            boards_count=Count("boards", distinct=True),
            boards_without_opening=Count("boards", filter=Q(boards__opening__isnull=True), distinct=True),
        )
        .values(
            "number",
            "status",
            "engine",
            "manually_edited",
            "opening_id",
            "pending",
            "boards_count",
            "boards_without_opening",
        )
    )


def _names(entries, limit=10):
    names = [e.player.name for e in entries]
    text = ", ".join(names[:limit])
    if len(names) > limit:
        text += _(" and %(n)s more") % {"n": len(names) - limit}
    return text


def check_conditions(tournament, entries, round_rows=None):
    """The seven conditions, in order. ``entries``: the tournament's entries with players loaded."""
    if round_rows is None:
        round_rows = round_rows_of(tournament)
    conditions = []

    # 1. Participants.
    n, minimum = len(entries), tournament.min_participants
    conditions.append(
        Condition(
            "participants",
            n >= minimum,
            _("%(n)s participants (minimum %(min)s).") % {"n": n, "min": minimum},
            _("Minimum number of participants"),
        )
    )

    # 2. Rounds and time, played as tablita micro-matches.
    played = []
    for expected, row in enumerate(round_rows, start=1):
        if row["number"] != expected or row["pending"]:
            break
        played.append(row)
    rounds, minutes = len(played), tournament.minutes_per_game
    time_ok = any(rounds >= r and minutes >= m for r, m in ROUNDS_AND_TIME)
    micro = tournament.format == RoundFormat.MICRO_MATCH
    no_opening = [str(r["number"]) for r in played if r["opening_id"] is None and r["boards_without_opening"]]
    problems = []
    if not time_ok:
        problems.append(_("needs at least 7 rounds of 21 minutes or 5 rounds of 30 minutes"))
    if not micro:
        problems.append(_("rounds are single games, not micro-matches"))
    if no_opening:
        problems.append(_("no tablita opening recorded in round(s) %(r)s") % {"r": ", ".join(no_opening)})
    detail = _(
        "%(rounds)s complete round(s) of %(planned)s planned, %(minutes)s minutes per player per game, %(format)s."
    ) % {
        "rounds": rounds,
        "planned": tournament.planned_rounds,
        "minutes": minutes,
        "format": tournament.get_format_display(),
    }
    if problems:
        detail += " " + _("Not met: %(why)s.") % {"why": "; ".join(problems)}
    conditions.append(Condition("rounds_and_time", not problems, detail, _("Rounds and playing time")))

    # 3. Nobody under suspension (suspensions arising from this very tournament, e.g. an abandonment, do not
    #    count: they start on its last day as a consequence of it).
    suspended = list(
        Suspension.objects.filter(
            player__entries__tournament=tournament,
            confirmed=True,
            start_date__lte=tournament.end_date,
            end_date__gte=tournament.start_date,
        )
        .exclude(tournament=tournament)
        .select_related("player")
        .order_by("player__name")
        .distinct()
    )
    if suspended:
        detail = _("Suspended during the tournament: %(list)s.") % {
            "list": ", ".join(f"{s.player.name} ({s.start_date:%d/%m/%Y}–{s.end_date:%d/%m/%Y})" for s in suspended)
        }
    else:
        detail = _("No participant was under suspension during the tournament.")
    conditions.append(Condition("no_suspended", not suspended, detail, _("No participant under suspension")))

    # 4. Round 1 paired by rating order, untouched.
    first = round_rows[0] if round_rows and round_rows[0]["number"] == 1 else None
    if first is None:
        met, detail = False, _("Round 1 has not been paired yet.")
    elif first["manually_edited"]:
        met, detail = False, _("The pairing of round 1 was changed by hand.")
    else:
        provisional = tournament.provisional_rating
        seeded = sorted(
            (e for e in entries if e.pairing_number is not None and not e.late_entry_round),
            key=lambda e: e.pairing_number,
        )
        out_of_order = [
            b
            for a, b in zip(seeded, seeded[1:])
            if (b.rating if b.rating is not None else provisional) > (a.rating if a.rating is not None else provisional)
        ]
        if out_of_order:
            met, detail = (
                False,
                _("Pairing numbers do not follow the rating order (e.g. %(name)s, no. %(n)s).")
                % {"name": out_of_order[0].player.name, "n": out_of_order[0].pairing_number},
            )
        else:
            met, detail = True, _("Round 1 was paired by rating order and not changed by hand.")
    conditions.append(Condition("round1_by_rating", met, detail, _("Round 1 paired by rating")))

    # 5. Every round paired by the product's Dutch engine.
    ours = engine_name()
    others = [r for r in round_rows if r["engine"] != ours]
    if not round_rows:
        met, detail = (
            False,
            _("No round has been paired yet (the product's engine: %(engine)s; Dutch system, %(edition)s).")
            % {"engine": ours, "edition": ENGINE_EDITION},
        )
    elif others:
        met = False
        detail = _(
            "Round(s) %(rounds)s not paired by the product's engine (%(engine)s; Dutch system, %(edition)s): %(how)s."
        ) % {
            "rounds": ", ".join(str(r["number"]) for r in others),
            "engine": ours,
            "edition": ENGINE_EDITION,
            "how": ", ".join(sorted({r["engine"] or _("unknown") for r in others})),
        }
    else:
        met = True
        detail = _("Every round paired by the product's engine: %(engine)s (Dutch system, %(edition)s).") % {
            "engine": ours,
            "edition": ENGINE_EDITION,
        }
    conditions.append(Condition("pairing_engine", met, detail, _("Pairings by the product's Dutch engine")))

    # 6. Tiebreaks by the CBJD profile.
    cbjd = tournament.tiebreak_profile == TiebreakProfile.CBJD
    detail = (
        _("CBJD profile: progressive score, corrected progressive score, Buchholz, with the regulation's exceptions.")
        if cbjd
        else _("Custom tiebreak list (%(keys)s), not the CBJD profile.")
        % {"keys": ", ".join(tournament.tiebreak_keys or [])}
    )
    conditions.append(Condition("tiebreaks", cbjd, detail, _("Tiebreaks by the CBJD profile")))

    # 7. Birth dates of everyone under 21 (an entry without one must be marked "21 or older").
    missing = sorted(
        (e for e in entries if e.player.birth_date is None and not e.declared_adult), key=lambda e: e.player.name
    )
    if missing:
        detail = _("Birth date missing (and not marked 21 or older): %(list)s.") % {"list": _names(missing)}
    else:
        detail = _("Every participant under 21 has a birth date.")
    conditions.append(Condition("birth_dates", not missing, detail, _("Birth dates of participants under 21")))
    return conditions


def rights_earned(tournament, entries=None):
    """Whether every homologation condition is met (the qualification spots are then awarded)."""
    if entries is None:
        entries = entries_in_order(tournament)
    return all(c.met for c in check_conditions(tournament, entries))


def round_rows_from(rounds):
    """The per-round flags of :func:`round_rows_of` computed from loaded rounds (boards and games included)."""
    rows = []
    for rnd in rounds:
        boards = rnd.boards.all()
        rows.append(
            {
                "number": rnd.number,
                "status": rnd.status,
                "engine": rnd.engine,
                "manually_edited": rnd.manually_edited,
                "opening_id": rnd.opening_id,
                "boards_count": len(boards),
                "pending": sum(1 for b in boards for g in b.games.all() if g.result is None),
                "boards_without_opening": sum(1 for b in boards if b.opening_id is None),
            }
        )
    return rows
