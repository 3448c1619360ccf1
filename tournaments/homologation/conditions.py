"""The homologation conditions (docs/domain.md section 7; regulation art. 2 to 6, 11 and 12): each one met or not, with
the reason, the article it comes from and the regulation's own words. Reads only.

Public entry points: :func:`check_conditions` (the conditions, in order), :func:`rights_earned` (just the
yes/no, for the standings pages), :func:`deadline_for` and :func:`rating_list_used`. The report that adds the
standings and the qualification spots is :mod:`tournaments.homologation.report`; recording the export is a
service (:func:`tournaments.homologation.services.homologation_mark_exported`).

Readings taken (each a tournament setting where the regulation leaves a choice, shown with the condition):

* participants: who played at least one game (setting ``participant_rule``); while the tournament runs, the
  entries that may still play are counted as participants to come;
* pairing software: art. 5 names only Swiss Perfect and "48". By default (``pairing_program_rule`` "named") the
  condition is met when every round was paired by a named program, this product's FIDE Dutch engine or the
  program recorded when the event was imported, and it says that the federation must be asked to accept it;
  "strict" accepts only those two programs;
* tablita on 100 squares: the seeds hold no official 100-square table, so without a table the rounds are free
  openings and the condition says so; with a table the director loaded, every round needs its opening;
* deadline: "até 2 dias após o término do evento": by the end of the second day after the last day, in the
  tournament's time zone; the workbook's recorded export stands for the sending.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import ZoneInfo

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.homologation.participants import participation_of
from tournaments.models import Round, Suspension
from tournaments.models.choices import PairingProgramRule, RoundFormat, Variant
from tournaments.rounds.pairing_bridge import ENGINE_NAME
from tournaments.selectors import entries_in_order, rounds_with_boards, tournament_history
from tournaments.setup.tiebreak_list import custom_tiebreaks

CONDITION_KEYS = (
    "participants",
    "rounds_and_time",
    "no_suspended",
    "round1_by_rating",
    "pairing_engine",
    "tiebreaks",
    "birth_dates",
    "deadline",
)
# The conditions that decide the qualification rights: the seven of the interchange contract (docs/interchange.md,
# ``homologation_check``). The sending deadline (art. 6 and 11) is checked and shown on the page and in the
# workbook, but it depends on the day the check runs and on an e-mail the product cannot see, so the federation
# judges it: it does not take away the spots computed here, and the command's JSON lists the seven only.
RIGHTS_KEYS = CONDITION_KEYS[:-1]
# Where each condition comes from, and the regulation's words (seed 000, in Portuguese as the federation reads it).
ARTICLES = {
    "participants": ("art. 6", "Mínimo de 30 participantes."),
    "rounds_and_time": (
        "art. 2, 6",
        "Mínimo de 7 rodadas de pelo menos 21 x 21 minutos ou 5 rodadas 30x30 minutos usando a Tablita em micro-match.",
    ),
    "no_suspended": (
        "art. 3, 6",
        "Não tenha na lista de participantes um jogador que esteja cumprindo pena disciplinar imposta pela CBJD.",
    ),
    "round1_by_rating": (
        "art. 4, 6",
        "A primeira rodada tem que ser, obrigatoriamente, emparceirada utilizando-se o rating nacional atualizado.",
    ),
    "pairing_engine": ("art. 5, 6", "Apenas serão aceitos emparceiramentos feitos pelos softs Swiss Perfect e “48”."),
    "tiebreaks": (
        "art. 6",
        "Critérios de desempate de acordo com os estipulados pela CBJD (1- escore acumulado; 2- escore acumulado "
        "corrigido e 3 – milésimos).",
    ),
    "birth_dates": (
        "art. 12",
        "Enviar na relação de participantes todas as datas de nascimentos de todos os participantes menores de "
        "21 anos.",
    ),
    "deadline": (
        "art. 6, 11",
        "Resultados, rodada por rodada, enviados via email até 2 dias após o término do evento.",
    ),
}
DEADLINE_DAYS = 2
# (rounds, minutes per player per game): at least 7 rounds of 21 minutes, or 5 rounds of 30 minutes.
ROUNDS_AND_TIME = ((7, 21), (5, 30))
ENGINE_EDITION = gettext_lazy("FIDE C.04.3, edition applied from 1 February 2026")
# The programs art. 5 names (a round's recorded program matches when its name contains one of these).
ACCEPTED_PROGRAMS = ("swiss perfect", "swissperfect", "48")
IMPORTED = "imported"  # what an import records when the file does not name the program


def engine_name():
    """The product's pairing engine as recorded on the rounds it pairs."""
    return ENGINE_NAME


@dataclass(frozen=True)
class Condition:
    key: str
    met: bool
    detail: str
    label: str = ""

    @property
    def article(self):
        return ARTICLES[self.key][0]

    @property
    def quote(self):
        return ARTICLES[self.key][1]

    @property
    def decides_rights(self):
        return self.key in RIGHTS_KEYS

    def as_json(self):
        return {"key": self.key, "met": self.met, "detail": self.detail}


def rights_from(conditions):
    """Whether the qualification rights are earned: every condition of ``RIGHTS_KEYS`` met."""
    return all(c.met for c in conditions if c.decides_rights)


def deadline_for(tournament):
    """Results must reach the federation within two days of the last day (art. 6 and 11)."""
    return tournament.end_date + timedelta(days=DEADLINE_DAYS)


def local_date(tournament, moment):
    return timezone.localtime(moment, ZoneInfo(tournament.time_zone)).date()


def rating_list_used(tournament):
    """(name, date) of the national rating list the entries' ratings came from, recorded when round 1 was paired
    (``("", None)`` when none was recorded: an imported event, or no list in the registry then)."""
    return tournament.rating_list_name, tournament.rating_list_date


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
            "paired_at",
        )
    )


def complete_rounds(round_rows):
    """The rows of the complete rounds 1..R without a gap."""
    played = []
    for expected, row in enumerate(round_rows, start=1):
        if row["number"] != expected or row["pending"]:
            break
        played.append(row)
    return played


def _names(entries, limit=10):
    names = [e.player.name for e in entries]
    text = ", ".join(names[:limit])
    if len(names) > limit:
        text += _(" and %(n)s more") % {"n": len(names) - limit}
    return text


def _rounds_text(numbers):
    return ", ".join(str(n) for n in numbers)


def check_conditions(
    tournament, entries, round_rows=None, history=None, rounds_counted=None, today=None, with_deadline=True
):
    """The conditions, in the order of ``CONDITION_KEYS``. ``entries``: the tournament's entries with players
    loaded; ``history`` (entry id -> round records of the ``rounds_counted`` complete rounds) is read when not
    given; ``today``: the date the deadline is judged on (default: today in the tournament's time zone);
    ``with_deadline=False`` leaves the deadline out (it does not decide the rights)."""
    if round_rows is None:
        round_rows = round_rows_of(tournament)
    played = complete_rounds(round_rows)
    if history is None:
        rounds_counted = len(played)
        rounds = rounds_with_boards(tournament, upto=rounds_counted) if rounds_counted else []
        _entries, _rounds, history = tournament_history(tournament, rounds=rounds, entries=entries)
    elif rounds_counted is None:
        rounds_counted = len(played)
    conditions = [
        _participants(tournament, entries, history, rounds_counted),
        _rounds_and_time(tournament, played),
        _no_suspended(tournament),
        _round1_by_rating(tournament, entries, round_rows),
        _pairing_engine(tournament, round_rows),
        _tiebreaks(tournament),
        _birth_dates(entries),
    ]
    if with_deadline:
        conditions.append(_deadline(tournament, today))
    return conditions


def _participants(tournament, entries, history, rounds_counted):
    part = participation_of(tournament, entries, history, rounds_counted)
    n, minimum = len(part), tournament.min_participants
    detail = _("%(n)s participants (minimum %(min)s): %(played)s played at least one game") % {
        "n": n,
        "min": minimum,
        "played": len(part.played),
    }
    if part.to_play:
        detail += _("; %(n)s entered and still to play (the count is final when the tournament ends)") % {
            "n": len(part.to_play)
        }
    if part.excluded:
        by_id = {e.pk: e for e in entries}
        excluded = sorted((by_id[pk] for pk in part.excluded), key=lambda e: e.player.name)
        detail += _("; not participants (withdrawn before playing, or never played): %(list)s") % {
            "list": _names(excluded)
        }
    detail += ". " + _("Who counts: %(rule)s.") % {"rule": tournament.get_participant_rule_display().lower()}
    return Condition("participants", n >= minimum, detail, _("Minimum number of participants"))


def _rounds_and_time(tournament, played):
    rounds, minutes = len(played), tournament.minutes_per_game
    time_ok = any(rounds >= r and minutes >= m for r, m in ROUNDS_AND_TIME)
    micro = tournament.format == RoundFormat.MICRO_MATCH
    free_100 = tournament.variant == Variant.INTERNATIONAL_100 and tournament.opening_table_id is None
    no_opening = [r["number"] for r in played if r["opening_id"] is None and r["boards_without_opening"]]
    problems = []
    if not time_ok:
        problems.append(_("needs at least 7 rounds of 21 minutes or 5 rounds of 30 minutes"))
    if not micro:
        problems.append(_("rounds are single games, not micro-matches"))
    if no_opening and not free_100:
        problems.append(_("no tablita opening recorded in round(s) %(r)s") % {"r": _rounds_text(no_opening)})
    detail = _(
        "%(rounds)s complete round(s) of %(planned)s planned, %(minutes)s minutes per player per game, %(format)s."
    ) % {
        "rounds": rounds,
        "planned": tournament.planned_rounds,
        "minutes": minutes,
        "format": tournament.get_format_display(),
    }
    if free_100:
        detail += " " + _(
            "100 squares: there is no official 100-square opening table, so no tablita is required (free "
            "openings); a table the director loads and chooses makes the openings required."
        )
    if problems:
        detail += " " + _("Not met: %(why)s.") % {"why": "; ".join(problems)}
    return Condition("rounds_and_time", not problems, detail, _("Rounds and playing time"))


def _no_suspended(tournament):
    # Suspensions arising from this very tournament (an abandonment) do not count: they start on its last day as
    # a consequence of it. Lifted suspensions do not count either.
    suspended = list(
        Suspension.objects.filter(
            player__entries__tournament=tournament,
            lifted_at__isnull=True,
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
    return Condition("no_suspended", not suspended, detail, _("No participant under suspension"))


def rating_list_text(tournament):
    name, day = rating_list_used(tournament)
    if day is not None:
        return _("national rating list “%(name)s” of %(date)s") % {"name": name, "date": day.strftime("%d/%m/%Y")}
    return _("no rating list recorded (ratings as typed in the registry or as in the imported file)")


def _round1_by_rating(tournament, entries, round_rows):
    first = round_rows[0] if round_rows and round_rows[0]["number"] == 1 else None
    if first is None:
        return Condition(
            "round1_by_rating",
            False,
            _("Round 1 has not been paired yet: every entry will take the registry's current rating then."),
            _("Round 1 paired by rating"),
        )
    source = _("Ratings frozen when round 1 was paired: %(list)s.") % {"list": rating_list_text(tournament)}
    kept = sorted((e for e in entries if e.rating_kept_reason), key=lambda e: e.player.name)
    if kept:
        source += " " + _("Rating of registration kept by the director: %(list)s.") % {
            "list": "; ".join(f"{e.player.name} ({e.rating_kept_reason})" for e in kept)
        }
    if first["manually_edited"]:
        return Condition(
            "round1_by_rating",
            False,
            _("The pairing of round 1 was changed by hand.") + " " + source,
            _("Round 1 paired by rating"),
        )
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
        met = False
        detail = _("Pairing numbers do not follow the rating order (e.g. %(name)s, no. %(n)s).") % {
            "name": out_of_order[0].player.name,
            "n": out_of_order[0].pairing_number,
        }
    else:
        met, detail = True, _("Round 1 was paired by rating order and not changed by hand.")
    return Condition("round1_by_rating", met, detail + " " + source, _("Round 1 paired by rating"))


def _accepted(program):
    name = (program or "").lower()
    return any(p in name for p in ACCEPTED_PROGRAMS)


def _pairing_engine(tournament, round_rows):
    ours = engine_name()
    label = _("Pairing software")
    if not round_rows:
        detail = _("No round has been paired yet (the product's engine: %(engine)s; Dutch system, %(edition)s).") % {
            "engine": ours,
            "edition": ENGINE_EDITION,
        }
        return Condition("pairing_engine", False, detail, label)
    by_program = {}
    for row in round_rows:
        by_program.setdefault(row["engine"] or IMPORTED, []).append(row["number"])
    unknown = sorted(by_program.pop(IMPORTED, []))
    parts = []
    for program, numbers in sorted(by_program.items(), key=lambda kv: kv[1][0]):
        if program == ours:
            parts.append(
                _("round(s) %(rounds)s paired by this product's engine, %(engine)s (FIDE Dutch system, %(edition)s)")
                % {"rounds": _rounds_text(numbers), "engine": ours, "edition": ENGINE_EDITION}
            )
        else:
            parts.append(
                _("round(s) %(rounds)s paired by %(program)s (recorded when the event was imported)")
                % {"rounds": _rounds_text(numbers), "program": program}
            )
    if unknown:
        parts.append(
            _("round(s) %(rounds)s imported without the name of the program that paired them")
            % {"rounds": _rounds_text(unknown)}
        )
    what = "; ".join(parts)
    detail = _("Checked: which program paired each round. %(what)s.") % {"what": what[:1].upper() + what[1:]}
    edited = [r["number"] for r in round_rows if r["manually_edited"]]
    if edited:
        detail += " " + _("Changed by hand after pairing: round(s) %(rounds)s.") % {"rounds": _rounds_text(edited)}
    if tournament.pairing_program_rule == PairingProgramRule.STRICT:
        refused = sorted(p for p in by_program if not _accepted(p))
        met = not unknown and not refused
        detail += " " + _("Reading in force: only Swiss Perfect or “48”, as art. 5 says.")
        if refused:
            detail += " " + _("Not accepted: %(programs)s.") % {"programs": ", ".join(refused)}
    else:
        met = not unknown
        others = [p for p in by_program if not _accepted(p)]
        detail += " " + _("Reading in force: every round paired by a named program.")
        if others:
            detail += " " + _(
                "Art. 5 names only Swiss Perfect and “48”: the federation must be asked to accept %(programs)s."
            ) % {"programs": ", ".join(sorted(others))}
    return Condition("pairing_engine", met, detail, label)


def _tiebreaks(tournament):
    label = _("Tiebreaks by the CBJD profile")
    custom = custom_tiebreaks(tournament)
    if custom is not None:
        detail = _("Custom tiebreak list (%(keys)s), not the CBJD profile.") % {"keys": ", ".join(custom)}
        return Condition("tiebreaks", False, detail, label)
    cut = tournament.corrected_progressive_cut
    settings = [
        ngettext(
            "corrected progressive score without the first round",
            "corrected progressive score without the first %(n)s rounds",
            cut,
        )
        % {"n": cut},
        _("points won without play count in it")
        if tournament.corrected_progressive_unplayed
        else _("points won without play do not count in it"),
        _("exceptions a) and c): %(move)s") % {"move": tournament.get_progressive_move_display().lower()},
        _("exception c): %(order)s") % {"order": tournament.get_top3_order_display().lower()},
        _("Buchholz: %(edition)s") % {"edition": tournament.get_tiebreak_edition_display()},
    ]
    detail = _(
        "CBJD profile: progressive score, corrected progressive score, Buchholz, with the regulation's exceptions "
        "(art. 6 a, b, c). Settings in force: %(settings)s."
    ) % {"settings": "; ".join(settings)}
    if cut == 0:
        detail += " " + _(
            "Not met: with no round cut the corrected progressive score is the progressive score itself, which "
            "departs from the regulation's list of three different criteria."
        )
        return Condition("tiebreaks", False, detail, label)
    return Condition("tiebreaks", True, detail, label)


def _birth_dates(entries):
    # An entry without a birth date must be marked "21 or older".
    missing = sorted(
        (e for e in entries if e.player.birth_date is None and not e.declared_adult), key=lambda e: e.player.name
    )
    if missing:
        detail = _("Birth date missing (and not marked 21 or older): %(list)s.") % {"list": _names(missing)}
    else:
        detail = _("Every participant under 21 has a birth date.")
    return Condition("birth_dates", not missing, detail, _("Birth dates of participants under 21"))


def deadline_status(tournament, today=None):
    """(met, late_days, detail) of the deadline: met when the workbook was recorded as exported by the deadline,
    or when it has not been yet and the deadline has not passed."""
    deadline = deadline_for(tournament)
    if today is None:
        today = timezone.localdate(timezone=ZoneInfo(tournament.time_zone))
    exported = tournament.homologation_exported_at
    when = deadline.strftime("%d/%m/%Y")
    if exported is not None:
        sent = local_date(tournament, exported)
        late = (sent - deadline).days
        if late > 0:
            detail = ngettext(
                "Sent on %(sent)s: late by %(n)s day (deadline %(deadline)s).",
                "Sent on %(sent)s: late by %(n)s days (deadline %(deadline)s).",
                late,
            ) % {"sent": sent.strftime("%d/%m/%Y"), "n": late, "deadline": when}
            return False, late, detail
        detail = _("Sent on %(sent)s, within the deadline (%(deadline)s).") % {
            "sent": sent.strftime("%d/%m/%Y"),
            "deadline": when,
        }
        return True, 0, detail
    late = (today - deadline).days
    if late > 0:
        detail = ngettext(
            "Not sent yet: late by %(n)s day (deadline %(deadline)s).",
            "Not sent yet: late by %(n)s days (deadline %(deadline)s).",
            late,
        ) % {"n": late, "deadline": when}
        return False, late, detail
    left = -late
    detail = ngettext(
        "Not sent yet; deadline %(deadline)s (%(n)s day left).",
        "Not sent yet; deadline %(deadline)s (%(n)s days left).",
        left,
    ) % {"n": left, "deadline": when}
    return True, 0, detail


def _deadline(tournament, today):
    met, _late, detail = deadline_status(tournament, today)
    detail += " " + _(
        "Reading: two whole days after the last day, in the tournament's time zone; the workbook recorded as sent "
        "to the federation stands for the e-mail."
    )
    return Condition("deadline", met, detail, _("Results sent within 2 days"))


def rights_earned(tournament, entries=None, history=None, rounds_counted=None):
    """Whether every condition of ``RIGHTS_KEYS`` is met (the qualification spots are then awarded)."""
    if entries is None:
        entries = entries_in_order(tournament)
    return rights_from(
        check_conditions(tournament, entries, history=history, rounds_counted=rounds_counted, with_deadline=False)
    )


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
                "paired_at": getattr(rnd, "paired_at", None),
            }
        )
    return rows
