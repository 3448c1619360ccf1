"""The homologation conditions (docs/domain.md section 7; regulation art. 2 to 6, 11 and 12): each one met or not, with
the reason, the article it comes from and the regulation's own words. No query: pure functions of the
tournament's :class:`~tournaments.domain.snapshot.Snapshot` (from the database or from an interchange file), who
is a participant and the suspensions in force (:class:`Suspended`, the registry's).

Public entry points: :func:`check_conditions` (the conditions, in order), :func:`rights_from` (the yes/no of
the conditions), :func:`deadline_for`, :func:`deadline_status` and :func:`rating_list_used` (these take the snapshot's
settings, or anything with the same fields). The report that reads the tournament and adds the standings and the
qualification spots is :mod:`tournaments.homologation.report`; recording the export is a service
(:func:`tournaments.services.homologation.homologation_mark_exported`).

Readings taken (each a tournament setting where the regulation leaves a choice, shown with the condition):

* participants: who played at least one game (setting ``participant_rule``); while the tournament runs, the
  entries that may still play are counted as participants to come;
* pairing software: art. 5 names only Swiss Perfect and "48". By default (``pairing_program_rule`` "named") the
  condition is met when every round was paired by a named program, this product's FIDE Dutch engine or the
  program recorded when the event was imported, and it says that the federation must be asked to accept it;
  "strict" accepts only those two programs. Either way a round whose pairing no longer gives the fingerprint stored
  when it was published (relabelled or changed since, issue 35.4:
  :func:`tournaments.domain.fingerprints.chain_breaks`, the federation's rule too) fails it;
* tablita on 100 squares: the seeds hold no official 100-square table, so without a table the rounds are free
  openings and the condition says so; with a table the director loaded, every round needs its opening;
* deadline: "até 2 dias após o término do evento": by the end of the second day after the last day, in the
  tournament's time zone; the workbook's recorded export stands for the sending.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.domain.edition import (
    CONDITION_KEYS,  # the one list of the conditions, in their order
    UNPLAYED_ARTICLE,
)
from tournaments.domain.fingerprints import PAIRING, RESULTS, ChainBreak, chain_breaks
from tournaments.domain.participants import Participation
from tournaments.domain.settings_lock import as_played
from tournaments.domain.snapshot import IMPORTED, SnapEntry, SnapRound, SnapSettings, Snapshot, counted_rounds
from tournaments.models.choices import (
    AbsenceValue,
    ByeValue,
    PairingProgramRule,
    ParticipantRule,
    ProgressiveMove,
    RoundFormat,
    Tablita100,
    TiebreakEdition,
    TiebreakProfile,
    TimeUnit,
    Top3Order,
    Variant,
)
from tournaments.rounds.pairing_bridge import ENGINE_NAME
from tournaments.templatetags.damas import fmt_number

if TYPE_CHECKING:
    from tournaments.domain.edition import Edition
    from tournaments.homologation.repairing import RoundCheck

# The conditions that decide the qualification rights: the seven of the interchange contract (docs/interchange.md,
# ``homologation_check``). The sending deadline (art. 6 and 11) is checked and shown on the page and in the
# workbook, but it depends on the day the check runs and on an e-mail the product cannot see, so the federation
# judges it: it does not take away the spots computed here, and the command's JSON lists the seven only.
RIGHTS_KEYS = CONDITION_KEYS[:-1]
# A club event's first condition, never met: it is not a stage and earns no rights (issue 35.1).
CLUB_KEY = "stage"
# A stage whose edition fixes the bye's or the announced absence's value (issue 35.1; the text leaves them to art.
# 13): its rounds without a game scored as the edition says. Judged only then (the shipped editions leave both to
# the organiser), after the tiebreaks; it decides the rights.
UNPLAYED_KEY = "unplayed_values"
# A stage whose results of a round no longer give the fingerprint published when the round was complete, with no
# reason recorded for the change (issue 35.4): the results sent "rodada por rodada" are not those published. Judged
# only when a results break exists (the rule is the federation's too: ChainBreak.blocking); it decides the rights.
RESULTS_KEY = "published_results"
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
    "stage": ("art. 1", "Etapa do Circuito Nacional."),
    RESULTS_KEY: (
        "art. 6, 11",
        "Resultados, rodada por rodada, enviados via email até 2 dias após o término do evento para análise e "
        "homologação da CBJD.",
    ),
    UNPLAYED_KEY: (
        UNPLAYED_ARTICLE,
        "Todos os casos omissos serão resolvidos pela Comissão Organizadora de cada Circuito Nacional.",
    ),
}
DEADLINE_DAYS = 2  # the current text's; a stage's come from its edition
ENGINE_EDITION = gettext_lazy("FIDE C.04.3, edition applied from 1 February 2026")


# (round 1 against the rating order or None, the rounds naming this engine paired again): RoundCheck values of
# tournaments.homologation.repairing, which reads the database and runs the engine (so not imported here).
PairingChecks = tuple[Any, Sequence[Any]]


def as_played_snapshot(snapshot: Snapshot) -> Snapshot:
    """The snapshot with its settings as the event was played: every setting changed after round 1 at its value
    before its first change (issue 26; :mod:`tournaments.domain.settings_lock`)."""
    settings = as_played(snapshot.settings, snapshot.settings_changes)
    return snapshot if settings is snapshot.settings else dataclasses.replace(snapshot, settings=settings)


def engine_name() -> str:
    """The product's pairing engine as recorded on the rounds it pairs."""
    return ENGINE_NAME


@dataclass(frozen=True)
class Condition:
    key: str
    met: bool
    detail: str
    label: str = ""
    # the article and the text's words as the edition judging the event gives them (issue 35.1)
    article_ref: str = ""
    quote_text: str = ""

    @property
    def article(self) -> str:
        return self.article_ref or ARTICLES[self.key][0]

    @property
    def quote(self) -> str:
        return self.quote_text or ARTICLES[self.key][1]

    @property
    def decides_rights(self) -> bool:
        return self.key in RIGHTS_KEYS or self.key in (CLUB_KEY, UNPLAYED_KEY, RESULTS_KEY)

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "met": self.met, "detail": self.detail}


def rights_from(conditions: Iterable[Condition]) -> bool:
    """Whether the qualification rights are earned: every condition of ``RIGHTS_KEYS`` met."""
    return all(c.met for c in conditions if c.decides_rights)


class Suspended(NamedTuple):
    """A suspension of a participant in force during the tournament (from the federation's registry)."""

    name: str
    start_date: date
    end_date: date


def deadline_for(settings: SnapSettings) -> date:
    """Results must reach the federation within two days of the last day (art. 6 and 11; the edition's days)."""
    edition = getattr(settings, "edition", None)
    assert settings.end_date is not None, "a tournament's settings give its last day"
    return settings.end_date + timedelta(days=edition.sending_days if edition is not None else DEADLINE_DAYS)


def local_date(settings: SnapSettings, moment: datetime) -> date:
    return timezone.localtime(moment, ZoneInfo(settings.time_zone)).date()


def rating_list_used(settings: SnapSettings) -> tuple[str, date | None]:
    """(name, date) of the national rating list the entries' ratings came from, recorded when round 1 was paired
    (``("", None)`` when none was recorded: an imported event, or no list in the registry then)."""
    return settings.rating_list_name, settings.rating_list_date


def _names(entries: Iterable[SnapEntry], limit: int = 10) -> str:
    names = [e.player.name for e in entries]
    text = ", ".join(names[:limit])
    if len(names) > limit:
        text += _(" and %(n)s more") % {"n": len(names) - limit}
    return text


def _rounds_text(numbers: Iterable[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def check_conditions(
    snapshot: Snapshot,
    participation: Participation,
    *,
    suspended: Sequence[Suspended] = (),
    today: date | None = None,
    with_deadline: bool = True,
    pairing_checks: PairingChecks | None = None,
    chain: Sequence[ChainBreak] | None = None,
) -> list[Condition]:
    """The conditions, in the order of ``CONDITION_KEYS``: a pure function of the tournament's ``snapshot`` (every
    round, drafts included), who is a participant (``participation``, keyed by standings number:
    ``tournaments.standings.compute.participation_of``) and the participants' suspensions in force during the
    tournament (``suspended``, the registry's). ``today``: the date the deadline is judged on (default: today in
    the tournament's time zone); ``with_deadline=False`` leaves the deadline out (it does not decide the rights);
    ``pairing_checks``: the imported rounds paired again (:mod:`tournaments.homologation.repairing`: round 1
    against the rating order, every round naming this engine), or None when none was (no imported round, or a
    file checked without a database); ``chain``: the rounds' fingerprint chain judged
    (:func:`tournaments.domain.fingerprints.chain_breaks`: the federation judges a file's as sent), else judged
    here from the snapshot. The snapshot's settings are judged as the event was played: pass the snapshot through
    :func:`as_played_snapshot` first (the report does)."""
    settings = snapshot.settings
    first, claimed = pairing_checks or (None, [])
    if chain is None:
        chain = chain_breaks(snapshot, (engine_name(),))
    day = today or timezone.localdate(timezone=ZoneInfo(settings.time_zone))
    conditions = [
        _participants(snapshot, participation),
        _rounds_and_time(settings, counted_rounds(snapshot)),
        _no_suspended(suspended, snapshot.entries, day),
        _round1_by_rating(snapshot, first),
        _pairing_engine(settings, snapshot.rounds, claimed, chain),
        *_published_results(chain),
        _tiebreaks(settings),
        *_unplayed_values(snapshot),
        _birth_dates(snapshot.entries, settings.start_date),
    ]
    if with_deadline:
        conditions.append(_deadline(settings, today))
    if not settings.circuit_stage:
        conditions.insert(0, _club_event())
    return [_quoted(c, settings.edition) for c in conditions]


def _quoted(condition: Condition, edition: Edition) -> Condition:
    quote = edition.quote(condition.key)
    if quote is None:
        return condition
    return dataclasses.replace(condition, article_ref=quote.article, quote_text=quote.text)


def _club_event() -> Condition:
    return Condition(
        CLUB_KEY,
        False,
        _(
            "A club event, not a stage of the national circuit: it sets its own rules and earns no qualification "
            "rights."
        ),
        _("Stage of the national circuit"),
    )


def _participants(snapshot: Snapshot, part: Participation) -> Condition:
    settings = snapshot.settings
    n, minimum = len(part), settings.min_participants
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
        by_number = snapshot.by_number()
        excluded = sorted((by_number[n] for n in part.excluded), key=lambda e: e.player.name)
        detail += _("; not participants (withdrawn before playing, or never played): %(list)s") % {
            "list": _names(excluded)
        }
    rule = ParticipantRule(settings.participant_rule).label
    detail += ". " + _("Who counts: %(rule)s.") % {"rule": str(rule).lower()}
    return Condition("participants", n >= minimum, detail, _("Minimum number of participants"))


def rounds_and_time_met(settings: SnapSettings, played: Sequence[SnapRound]) -> bool:
    """Whether the rounds-and-time condition is met by ``played`` rounds (the report's provisional spots)."""
    return _rounds_and_time(settings, played).met


def rounds_and_time_text(edition: Edition) -> str:
    """The edition's options in words: "7 rounds of 21 minutes or 5 rounds of 30 minutes"."""
    return _(" or ").join(
        _("%(rounds)s rounds of %(minutes)s minutes") % {"rounds": rt.rounds, "minutes": rt.minutes}
        for rt in edition.rounds_and_time
    )


def _without_opening(rnd: SnapRound) -> bool:
    """A round with no opening recorded: none for the round, and a board without its own."""
    return rnd.opening is None and any(b.opening is None for b in rnd.boards)


def _rounds_and_time(settings: SnapSettings, played: Sequence[SnapRound]) -> Condition:
    micro = settings.format == RoundFormat.MICRO_MATCH
    # "21 x 21 minutos ... (para ambas as partidas)": per game (default), or per micro-match, both games together
    per_match = settings.time_unit == TimeUnit.MICRO_MATCH and micro
    rounds = len(played)
    minutes = settings.minutes_per_game * (2 if per_match else 1)
    time_ok = settings.edition.time_met(rounds, minutes)
    no_table_100 = settings.variant == Variant.INTERNATIONAL_100 and not settings.opening_table
    free_100 = no_table_100 and settings.tablita_100 == Tablita100.FREE
    no_opening = [r.number for r in played if _without_opening(r)]
    problems = []
    if not time_ok:
        problems.append(_("needs at least %(options)s") % {"options": rounds_and_time_text(settings.edition)})
    if not micro:
        problems.append(_("rounds are single games, not micro-matches"))
    if no_table_100 and not free_100:
        problems.append(_("100 squares without an opening table: the rounds were not played “usando a Tablita”"))
    elif no_opening and not free_100:
        problems.append(
            ngettext(
                "no tablita opening recorded in round %(r)s",
                "no tablita opening recorded in rounds %(r)s",
                len(no_opening),
            )
            % {"r": _rounds_text(no_opening)}
        )
    detail = ngettext(
        "%(rounds)s complete round of %(planned)s planned, %(minutes)s minutes per player per game, %(format)s.",
        "%(rounds)s complete rounds of %(planned)s planned, %(minutes)s minutes per player per game, %(format)s.",
        rounds,
    ) % {
        "rounds": rounds,
        "planned": settings.planned_rounds,
        "minutes": minutes,
        "format": RoundFormat(settings.format).label,
    }
    detail += " " + (
        _("Reading in force: 21 or 30 minutes per player for the whole micro-match (both games): %(n)s minutes.")
        % {"n": minutes}
        if per_match
        else _("Reading in force: 21 or 30 minutes per player for each game.")
    )
    if free_100:
        detail += " " + _(
            "100 squares: there is no official 100-square opening table; reading in force: free openings accepted "
            "(aberturas livres) when no table is loaded."
        )
    elif no_table_100:
        detail += " " + _(
            "100 squares: reading in force: the Tablita is required as the text says, and no opening table was "
            "loaded (a setting accepts free openings instead)."
        )
    if problems:
        detail += " " + _("Not met: %(why)s.") % {"why": "; ".join(problems)}
    return Condition("rounds_and_time", not problems, detail, _("Rounds and playing time"))


def _no_suspended(suspended: Sequence[Suspended], entries: Iterable[SnapEntry], day: date) -> Condition:
    """Art. 3 and 6 as the registry says on ``day`` (a suspension lifted later still counts for the events it
    overlapped); a withdrawal recorded without its kind may be an abandonment (art. 10): listed to classify."""
    when = day.strftime("%d/%m/%Y")
    if suspended:
        detail = _("Suspended during the tournament according to the registry on %(date)s: %(list)s.") % {
            "date": when,
            "list": ", ".join(f"{s.name} ({s.start_date:%d/%m/%Y}–{s.end_date:%d/%m/%Y})" for s in suspended),
        }
    else:
        detail = _("No suspended participant according to the registry on %(date)s.") % {"date": when}
    unclassified = sorted(
        (e for e in entries if e.withdrawn_from_round and not e.withdrawal_kind), key=lambda e: e.player.name
    )
    if unclassified:
        detail += " " + _(
            "Withdrawals recorded without their kind, for the director to classify (approved by the arbiter, or an "
            "abandonment, art. 10): %(list)s."
        ) % {"list": _names(unclassified)}
    return Condition("no_suspended", not suspended and not unclassified, detail, _("No participant under suspension"))


def rating_list_text(settings: SnapSettings) -> str:
    name, day = rating_list_used(settings)
    if day is not None:
        return _("national rating list “%(name)s” of %(date)s") % {"name": name, "date": day.strftime("%d/%m/%Y")}
    return _("no rating list recorded (ratings as typed in the registry or as in the imported file)")


def _pairs_text(pairs: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{a}-{b}" for a, b in pairs[:10]) + (" …" if len(pairs) > 10 else "")


def _round1_by_rating(snapshot: Snapshot, check: RoundCheck | None = None) -> Condition:
    settings, entries, rounds = snapshot.settings, snapshot.entries, snapshot.rounds
    first = rounds[0] if rounds and rounds[0].number == 1 else None
    if first is None:
        return Condition(
            "round1_by_rating",
            False,
            _("Round 1 has not been paired yet: every entry will take the registry's current rating then."),
            _("Round 1 paired by rating"),
        )
    source = _("Ratings frozen when round 1 was paired: %(list)s.") % {"list": rating_list_text(settings)}
    kept = sorted((e for e in entries if e.rating_kept_reason), key=lambda e: e.player.name)
    if kept:
        return Condition(
            "round1_by_rating",
            False,
            _(
                "Not the current national rating, which art. 4 makes compulsory (“obrigatoriamente”): the director "
                "kept the rating of registration of %(list)s."
            )
            % {"list": "; ".join(f"{e.player.name} ({e.rating_kept_reason})" for e in kept)}
            + " "
            + source,
            _("Round 1 paired by rating"),
        )
    if check is not None and not check.matches:
        detail = _(
            "Round 1 paired again from the ratings the file gives is not the file's round 1: by rating it pairs "
            "%(extra)s, the file has %(missing)s."
        ) % {"extra": _pairs_text(check.extra) or "—", "missing": _pairs_text(check.missing) or "—"}
        if check.bye:
            detail += " " + _("Bye by rating: no. %(ours)s; in the file: no. %(theirs)s.") % {
                "ours": check.bye[0] or "—",
                "theirs": check.bye[1] or "—",
            }
        if check.failed:
            detail += " " + check.failed
        return Condition("round1_by_rating", False, detail + " " + source, _("Round 1 paired by rating"))
    if first.manually_edited:
        return Condition(
            "round1_by_rating",
            False,
            _("The pairing of round 1 was changed by hand.") + " " + source,
            _("Round 1 paired by rating"),
        )
    provisional = settings.provisional_rating
    seeded = sorted(
        (e for e in entries if e.pairing_number is not None and not e.late_entry_round),
        key=lambda e: e.pairing_number or 0,  # never None here
    )

    def rating(e: SnapEntry) -> int:  # as played: a rating changed after round 1 is judged as it was (issue 35.3)
        played = snapshot.rating_as_played(e)
        return played if played is not None else provisional

    out_of_order = [b for a, b in zip(seeded, seeded[1:]) if rating(b) > rating(a)]
    if out_of_order:
        met = False
        detail = _("Pairing numbers do not follow the rating order (e.g. %(name)s, no. %(n)s).") % {
            "name": out_of_order[0].player.name,
            "n": out_of_order[0].pairing_number,
        }
    else:
        met, detail = True, _("Round 1 was paired by rating order and not changed by hand.")
        if check is not None:
            detail += " " + _("The imported round 1 was paired again from the file's ratings: the same pairs.")
    return Condition("round1_by_rating", met, detail + " " + source, _("Round 1 paired by rating"))


def _accepted(program: str, edition: Edition) -> bool:
    """A program art. 5 accepts by its whole name (issue 35: "Emparceirador caseiro 2048" is not "48")."""
    return edition.program_accepted(program)


def _engine_mismatches(claimed: Iterable[RoundCheck]) -> list[str]:
    """The imported rounds naming this engine that it pairs otherwise, in words (empty when none)."""
    out = []
    for c in claimed:
        if c.matches:
            continue
        text = _("round %(n)s: the engine pairs %(extra)s, the file has %(missing)s") % {
            "n": c.round,
            "extra": _pairs_text(c.extra) or "—",
            "missing": _pairs_text(c.missing) or "—",
        }
        if c.bye:
            text += " " + _("(bye: no. %(ours)s, in the file no. %(theirs)s)") % {
                "ours": c.bye[0] or "—",
                "theirs": c.bye[1] or "—",
            }
        if c.failed:
            text += f" ({c.failed})"
        out.append(text)
    return out


def _claimed_detail(claimed: Sequence[RoundCheck], mismatches: Sequence[str]) -> str:
    """The imported rounds naming this engine, paired again, and where it pairs otherwise (" ..." or "")."""
    if not claimed:
        return ""
    text = " " + _("Imported rounds naming this engine, paired again: %(rounds)s.") % {
        "rounds": _rounds_text([c.round for c in claimed])
    }
    if mismatches:
        text += " " + _("Not what the engine pairs: %(list)s.") % {"list": "; ".join(mismatches)}
    return text


def program_words(program: str) -> str:
    """A round's program as recorded, in words ("imported" without a name said so)."""
    return _("no program named") if program == IMPORTED else program


def _chain_detail(chain: Sequence[ChainBreak]) -> str:
    """The rounds whose pairing no longer gives the fingerprint stored when it was published (issue 35.4), in
    words (" ..." or ""): relabelled (the chain records another program for the same boards) or changed."""
    relabelled: dict[tuple[str, str], list[int]] = {}
    changed: dict[str, list[int]] = {}
    for brk in chain:
        if brk.kind != PAIRING:
            continue
        if brk.relabelled:
            relabelled.setdefault((brk.label, brk.recorded), []).append(brk.round)
        else:
            changed.setdefault(brk.label, []).append(brk.round)
    parts = [
        ngettext(
            "Round %(rounds)s labelled “%(label)s”, but the rounds' fingerprint chain records it as paired by "
            "%(recorded)s.",
            "Rounds %(rounds)s labelled “%(label)s”, but the rounds' fingerprint chain records them as paired by "
            "%(recorded)s.",
            len(numbers),
        )
        % {"rounds": _rounds_text(numbers), "label": program_words(label), "recorded": program_words(recorded)}
        for (label, recorded), numbers in relabelled.items()
    ]
    parts += [
        ngettext(
            "Round %(rounds)s (labelled “%(label)s”) changed after it was published: its pairing no longer gives "
            "the fingerprint stored then.",
            "Rounds %(rounds)s (labelled “%(label)s”) changed after they were published: their pairings no longer "
            "give the fingerprints stored then.",
            len(numbers),
        )
        % {"rounds": _rounds_text(numbers), "label": program_words(label)}
        for label, numbers in changed.items()
    ]
    return "".join(" " + p for p in parts)


def _published_results(chain: Sequence[ChainBreak]) -> list[Condition]:
    """The rounds whose results changed after they were complete (issue 35.4): met when every change has its
    reason recorded (a correction, shown), not met when one has none (results changed behind the pages, or in the
    file). No condition when no round's results changed."""
    changed = [brk for brk in chain if brk.kind == RESULTS]
    if not changed:
        return []
    silent = [brk.round for brk in changed if brk.blocking]
    corrected = [brk.round for brk in changed if not brk.blocking]
    parts = []
    if silent:
        parts.append(
            ngettext(
                "Round %(rounds)s: results changed after they were complete, with no reason recorded: they no "
                "longer give the fingerprint published then.",
                "Rounds %(rounds)s: results changed after they were complete, with no reason recorded: they no "
                "longer give the fingerprints published then.",
                len(silent),
            )
            % {"rounds": _rounds_text(silent)}
        )
    if corrected:
        parts.append(
            ngettext(
                "Round %(rounds)s: results corrected after they were complete, with the reason recorded (listed "
                "below).",
                "Rounds %(rounds)s: results corrected after they were complete, with the reasons recorded (listed "
                "below).",
                len(corrected),
            )
            % {"rounds": _rounds_text(corrected)}
        )
    return [Condition(RESULTS_KEY, not silent, " ".join(parts), _("Results as published"))]


def _pairing_engine(
    settings: SnapSettings,
    rounds: Sequence[SnapRound],
    claimed: Sequence[RoundCheck] = (),
    chain: Sequence[ChainBreak] = (),
) -> Condition:
    ours = engine_name()
    label = _("Pairing software")
    if not rounds:
        detail = _("No round has been paired yet (the product's engine: %(engine)s; Dutch system, %(edition)s).") % {
            "engine": ours,
            "edition": ENGINE_EDITION,
        }
        return Condition("pairing_engine", False, detail, label)
    by_program: dict[str, list[int]] = {}
    for rnd in rounds:
        by_program.setdefault(rnd.engine or IMPORTED, []).append(rnd.number)
    unknown = sorted(by_program.pop(IMPORTED, []))
    parts = []
    for program, numbers in sorted(by_program.items(), key=lambda kv: kv[1][0]):
        if program == ours:
            parts.append(
                ngettext(
                    "round %(rounds)s paired by this product's engine, %(engine)s (FIDE Dutch system, %(edition)s)",
                    "rounds %(rounds)s paired by this product's engine, %(engine)s (FIDE Dutch system, %(edition)s)",
                    len(numbers),
                )
                % {"rounds": _rounds_text(numbers), "engine": ours, "edition": ENGINE_EDITION}
            )
        else:
            parts.append(
                ngettext(
                    "round %(rounds)s paired by %(program)s (recorded when the event was imported)",
                    "rounds %(rounds)s paired by %(program)s (recorded when the event was imported)",
                    len(numbers),
                )
                % {"rounds": _rounds_text(numbers), "program": program}
            )
    if unknown:
        parts.append(
            ngettext(
                "round %(rounds)s imported without the name of the program that paired them",
                "rounds %(rounds)s imported without the name of the program that paired them",
                len(unknown),
            )
            % {"rounds": _rounds_text(unknown)}
        )
    what = "; ".join(parts)
    detail = _("Checked: which program paired each round. %(what)s.") % {"what": what[:1].upper() + what[1:]}
    edited = [r.number for r in rounds if r.manually_edited]
    if edited:
        detail += " " + ngettext(
            "Changed by hand after pairing: round %(rounds)s.",
            "Changed by hand after pairing: rounds %(rounds)s.",
            len(edited),
        ) % {"rounds": _rounds_text(edited)}
    mismatches = _engine_mismatches(claimed)
    detail += _claimed_detail(claimed, mismatches)
    # a pairing changed or relabelled after it was published: the program recorded for it is not the one named
    chained = _chain_detail(chain)
    detail += chained
    met, reading = _art5_verdict(settings, ours, by_program, unknown, mismatches)
    return Condition("pairing_engine", met and not chained, detail + reading, label)


def _art5_verdict(
    settings: SnapSettings,
    ours: str,
    by_program: dict[str, list[int]],
    unknown: Sequence[int],
    mismatches: Sequence[str],
) -> tuple[bool, str]:
    """(met, the reading in words) of art. 5 as the edition reads it: this product's engine stands as the
    edition says (the federation's word, not the event's reading); another program by its whole name."""
    detail = ""
    edition = settings.edition
    # this product's engine stands as the edition says (the federation's word, not the event's reading)
    product_refused = ours in by_program and not edition.product_engine_accepted
    detail += " " + (
        _("This product's engine: accepted by the edition %(edition)s.")
        if edition.product_engine_accepted
        else _("This product's engine: not accepted by the edition %(edition)s.")
    ) % {"edition": edition.code}
    if edition.product_engine_note:
        detail += " " + edition.product_engine_note
    others = [p for p in by_program if p != ours and not _accepted(p, edition)]
    names = " / ".join(edition.accepted_programs)
    if settings.pairing_program_rule == PairingProgramRule.STRICT:
        met = not unknown and not others and not mismatches and not product_refused
        detail += " " + _("Reading in force: only the programs art. 5 names (%(names)s).") % {"names": names}
        if others:
            detail += " " + _("Not accepted: %(programs)s.") % {"programs": ", ".join(sorted(others))}
    else:
        met = not unknown and not mismatches and not product_refused
        detail += " " + _("Reading in force: every round paired by a named program.")
        if others:
            detail += " " + _("Art. 5 names only %(names)s: the federation must be asked to accept %(programs)s.") % {
                "names": names,
                "programs": ", ".join(sorted(others)),
            }
    return met, detail


def _tiebreaks(settings: SnapSettings) -> Condition:
    label = _("Tiebreaks by the CBJD profile")
    if settings.tiebreak_profile != TiebreakProfile.CBJD:
        detail = _("Custom tiebreak list (%(keys)s), not the CBJD profile.") % {
            "keys": ", ".join(settings.tiebreak_keys or [])
        }
        return Condition("tiebreaks", False, detail, label)
    cut = settings.corrected_progressive_cut
    settings_text = [
        ngettext(
            "corrected progressive score without the first round",
            "corrected progressive score without the first %(n)s rounds",
            cut,
        )
        % {"n": cut},
        _("points won without play count in it")
        if settings.corrected_progressive_unplayed
        else _("points won without play do not count in it"),
        _("exceptions a) and c): %(move)s") % {"move": str(ProgressiveMove(settings.progressive_move).label).lower()},
        _("exception c): %(order)s") % {"order": str(Top3Order(settings.top3_order).label).lower()},
        _("Buchholz: %(edition)s") % {"edition": TiebreakEdition(settings.tiebreak_edition).label},
    ]
    detail = _(
        "CBJD profile: progressive score, corrected progressive score, Buchholz, with the regulation's exceptions "
        "(art. 6 a, b, c). Settings in force: %(settings)s."
    ) % {"settings": "; ".join(settings_text)}
    if cut == 0:
        detail += " " + _(
            "Not met: with no round cut the corrected progressive score is the progressive score itself, which "
            "departs from the regulation's list of three different criteria."
        )
        return Condition("tiebreaks", False, detail, label)
    return Condition("tiebreaks", True, detail, label)


def _unplayed_values(snapshot: Snapshot) -> list[Condition]:
    """A stage whose edition fixes the value of the bye or of an announced absence (issue 35.1): every such round
    scored as the edition fixes. An imported event keeps the values its file scored them with (its scores are the
    file's); here they are named against the edition's. No condition when the edition leaves both to the stage's
    organiser (art. 13), or for a club event."""
    settings = snapshot.settings
    fixed = settings.edition.fixed_unplayed() if settings.circuit_stage else {}
    if not fixed:
        return []
    games = settings.games_per_round
    per_game = {"win": settings.score_win, "draw": settings.score_draw, "zero": settings.score_loss}
    names = {e.pk: e.player.name for e in snapshot.entries}
    edition = settings.edition.code
    fixes, problems = [], []
    if "bye_value" in fixed:
        value = fixed["bye_value"]
        points = per_game[value] * games
        fixes.append(_("the pairing-allocated bye at %(value)s (%(points)s)") % _worth(ByeValue(value).label, points))
        byes = [(r.number, names.get(pk, "?")) for r in snapshot.rounds for pk in r.byes]
        if byes and settings.bye_round_points != points:
            problems.append(
                _("the pairing-allocated bye was worth %(points)s (%(rounds)s); edition “%(edition)s” fixes %(value)s")
                % {
                    "points": _points_text(settings.bye_round_points),
                    "rounds": _round_names(byes),
                    "edition": edition,
                    "value": str(ByeValue(value).label).lower(),
                }
            )
    if "absence_value" in fixed:
        value = fixed["absence_value"]
        points = per_game[value] * games
        fixes.append(_("the announced absence at %(value)s (%(points)s)") % _worth(AbsenceValue(value).label, points))
        paired = {r.number for r in snapshot.rounds}
        scored: dict[object, list[tuple[int, str]]] = {}
        for (pk, number), own in sorted(snapshot.absences.items(), key=lambda item: (item[0][1], item[0][0])):
            worth = settings.absence_round_points(own)
            if number in paired and worth != points:
                scored.setdefault(worth, []).append((number, names.get(pk, "?")))
        problems += [
            _("an announced absence was worth %(points)s (%(rounds)s); edition “%(edition)s” fixes %(value)s")
            % {
                "points": _points_text(worth),
                "rounds": _round_names(rows),
                "edition": edition,
                "value": str(AbsenceValue(value).label).lower(),
            }
            for worth, rows in scored.items()
        ]
    detail = _("Edition “%(edition)s” fixes %(fixes)s.") % {"edition": edition, "fixes": _(" and ").join(fixes)}
    if problems:
        detail += " " + _("Not met: %(problems)s (the event's scores keep these values).") % {
            "problems": "; ".join(problems)
        }
    else:
        detail += " " + _("Every round without a game was scored so.")
    return [Condition(UNPLAYED_KEY, not problems, detail, _("Values of rounds without a game"))]


def _worth(label: object, points: Any) -> dict[str, str]:
    return {"value": str(label).lower(), "points": _points_text(points)}


def _points_text(points: Any) -> str:
    return ngettext("%(n)s point", "%(n)s points", 1 if points == 1 else 2) % {"n": fmt_number(points)}


def _round_names(rows: Sequence[tuple[int, str]], limit: int = 10) -> str:
    text = "; ".join(_("round %(n)s: %(name)s") % {"n": n, "name": name} for n, name in rows[:limit])
    if len(rows) > limit:
        text += _(" and %(n)s more") % {"n": len(rows) - limit}
    return text


def clearly_adult(birth_year: int | None, start_date: date | None) -> bool:
    """21 or older at the start whatever the day of birth: born in a year at least 22 years before it."""
    return birth_year is not None and start_date is not None and start_date.year - birth_year - 1 >= 21


def _birth_dates(entries: Iterable[SnapEntry], start_date: date | None) -> Condition:
    # An entry without a birth date must be marked "21 or older", or have a year of birth that makes it clear.
    missing = sorted(
        (
            e
            for e in entries
            if e.player.birth_date is None
            and not e.declared_adult
            and not clearly_adult(e.player.birth_year, start_date)
        ),
        key=lambda e: e.player.name,
    )
    if missing:
        detail = _("Birth date missing (and not marked 21 or older): %(list)s.") % {"list": _names(missing)}
    else:
        detail = _(
            "Every participant under 21 has a birth date (a year of birth alone is enough for a player 21 or older "
            "whatever the day)."
        )
    return Condition("birth_dates", not missing, detail, _("Birth dates of participants under 21"))


def deadline_status(settings: SnapSettings, today: date | None = None) -> tuple[bool, int, str]:
    """(met, late_days, detail) of the deadline: met when the workbook was recorded as exported by the deadline,
    or when it has not been yet and the deadline has not passed."""
    deadline = deadline_for(settings)
    if today is None:
        today = timezone.localdate(timezone=ZoneInfo(settings.time_zone))
    exported = settings.homologation_exported_at
    when = deadline.strftime("%d/%m/%Y")
    if exported is not None:
        sent = local_date(settings, exported)
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


def _deadline(settings: SnapSettings, today: date | None) -> Condition:
    met, _late, detail = deadline_status(settings, today)
    detail += " " + _(
        "Reading: two whole days after the last day, in the tournament's time zone; the workbook recorded as sent "
        "to the federation stands for the e-mail."
    )
    return Condition("deadline", met, detail, _("Results sent within 2 days"))


def foreseeable_failures(settings: SnapSettings, entries: int) -> list[str]:
    """What a stage can already be seen to fail before round 1 (issue 35.5), from its settings and edition alone:
    said when the stage is created and on its dashboard until round 1, not only in the report at the end.
    ``entries``: how many are entered so far. A club event is told it earns no rights."""
    if not settings.circuit_stage:
        return ["Evento de clube: não é etapa do Circuito Nacional e não dá direito a vagas."]
    edition = settings.edition
    micro = settings.format == RoundFormat.MICRO_MATCH
    minutes = settings.minutes_per_game * (2 if micro and settings.time_unit == TimeUnit.MICRO_MATCH else 1)
    out = []
    if not edition.time_met(settings.planned_rounds, minutes):
        quote = edition.quote("rounds_and_time")
        out.append(
            f"Com {settings.planned_rounds} rodadas de {minutes} minutos esta etapa nunca dará direito a vagas: a "
            f"edição {edition.code} exige ao menos {rounds_and_time_text(edition)} "
            f"({quote.article if quote else 'art. 2, 6'})."
        )
    if edition.micro_match and not micro:
        out.append("Rodadas de partida única: a edição exige micro-matches; esta etapa nunca dará direito a vagas.")
    if (
        settings.variant == Variant.INTERNATIONAL_100
        and not settings.opening_table
        and settings.tablita_100 != Tablita100.FREE
    ):
        out.append(
            "100 casas sem tabela de aberturas: a edição exige a Tablita; carregue uma tabela antes da 1ª rodada."
        )
    if settings.tiebreak_profile != TiebreakProfile.CBJD:
        out.append(
            "Desempates por lista própria, não pelo perfil CBJD: esta etapa nunca dará direito a vagas (art. 6)."
        )
    if entries < settings.min_participants:
        out.append(
            f"{entries} inscritos: a edição exige ao menos {settings.min_participants} participantes para dar "
            "direito a vagas (art. 6)."
        )
    return out
