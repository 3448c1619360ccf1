"""The readings of the regulation in force for a tournament: every place where the regulation leaves a choice
and the tournament's setting decides it, with the article. Shown next to the standings (public and staff),
on the homologation page and in the homologation workbook (docs/domain.md: "the UI must show which setting is in
force")."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.domain import standings as domain
from tournaments.domain.edition import ORGANISER
from tournaments.models.choices import AbsenceValue, ByeValue
from tournaments.models.editions import edition_by_code
from tournaments.setup.tiebreak_list import custom_tiebreaks


def edition_line(t):
    """Which edition of the regulation judges the event, or that it is a club event (issue 35.1)."""
    if not t.circuit_stage:
        return "Evento de clube: não é etapa do Circuito Nacional e não dá direito a vagas; as leituras abaixo são do evento."
    edition = edition_by_code(t.edition_code)
    return (
        f"Etapa do Circuito Nacional, julgada pela edição do regulamento “{edition.title}” ({edition.code}, em vigor "
        f"desde {edition.in_force_from:%d/%m/%Y}): o mínimo de participantes e as leituras abaixo são os dela."
    )


def regulation_readings(t):
    """Plain sentences in the active language, one per reading (the first: the edition that judges the event)."""
    cut = t.corrected_progressive_cut
    out = [
        edition_line(t),
        ngettext(
            "Corrected progressive score: the progressive score without the first round",
            "Corrected progressive score: the progressive score without the first %(n)s rounds",
            cut,
        )
        % {"n": cut}
        + "; "
        + (
            _("points won without play count.")
            if t.corrected_progressive_unplayed
            else _("points won without play (BYE, W.O.) do not count.")
        ),
        _("Buchholz: unplayed rounds as in article 16 of the FIDE Tie-Break Regulations (%(edition)s).")
        % {"edition": t.get_tiebreak_edition_display()},
    ]
    if custom_tiebreaks(t) is None:  # the CBJD profile, also for a stored list it cannot use (issue 25.4)
        out += [
            _(
                "CBJD order: progressive score, corrected progressive score, Buchholz, decided per tie "
                "group; when every criterion is equal the players share the place."
            ),
            _("Art. 6, exceptions a) and c): %(move)s.") % {"move": t.get_progressive_move_display().lower()},
            _("Art. 6, exception a) (“quando for utilizado o acelerador de emparceiramento”): %(order)s.")
            % {"order": t.get_acceleration_order_display().lower()},
            _("Art. 6, exception b) (“quando o desempate for entre dois jogadores”): %(scope)s.")
            % {"scope": t.get_direct_encounter_scope_display().lower()},
            _("Art. 6, exception c) (the three highest ratings): %(order)s.")
            % {"order": t.get_top3_order_display().lower()},
            _(
                "Art. 6, exception c): it applies when the three highest ratings beat every opponent they had (a "
                "bye is no opponent) and drew among themselves; which ties it reorders: %(scope)s."
            )
            % {"scope": t.get_top3_scope_display().lower()},
        ]
    out += [reading.sentence for _name, reading in unplayed_readings(t)]
    out += [
        _("Art. 4, round 1 by the current national rating: %(source)s.") % {"source": rating_source(t)},
        _("Art. 6, participants (minimum %(n)s): %(rule)s.")
        % {"n": t.min_participants, "rule": t.get_participant_rule_display().lower()},
        _("Art. 6 and 13, a tie for the last qualification spot: %(rule)s.")
        % {"rule": t.get_spot_tie_rule_display().lower()},
        _("Art. 5, pairing software: %(rule)s.") % {"rule": t.get_pairing_program_rule_display().lower()},
        _("Art. 2 and 6, “21 x 21 minutos … (para ambas as partidas)”: %(unit)s.")
        % {"unit": t.get_time_unit_display().lower()},
        _("Art. 2 and 6, “usando a Tablita em micro-match” on 100 squares: %(rule)s.")
        % {"rule": t.get_tablita_100_display().lower()},
        _("Art. 6, unrated players in “a média dos 30 maiores ratings”: %(rule)s.")
        % {"rule": t.get_unrated_in_average_display().lower()},
        (
            _("Art. 6, “Oferecerá por categoria”: a category with fewer than %(n)s entries earns no spot.")
            % {"n": t.spots_min_entries}
            if t.spots_min_entries
            else _(
                "Art. 6, “Oferecerá por categoria”: every category earns the spots its average gives, whatever its "
                "size (the regulation names no minimum)."
            )
        ),
        _("Art. 6, a player qualified in two categories: %(rule)s.")
        % {"rule": t.get_double_spot_rule_display().lower()},
        _(
            "Art. 6, the average of the 30 highest ratings is compared unrounded (2000.5 gives 1 spot, not 2); "
            "“mais de 120 participantes” counts the participants as above (%(rule)s)."
        )
        % {"rule": t.get_participant_rule_display().lower()},
        _(
            "Art. 10, abandonment: automatic suspension of 3 months from the tournament's last day (exactly: the "
            "player may enter again on the day it ends), lifted only by the director with a reason; an abandoning "
            "player takes no qualification spot. A withdrawal approved by the arbiter is not an abandonment and "
            "escapes art. 10; a withdrawal imported without its kind is listed for the director to classify."
        ),
        _("Rule 16, king-move draw: %(rule)s.")
        % {
            "rule": _("20 successive king moves by each player (25 on 100 squares)")
            if t.king_moves_per_player
            else _("20 successive king moves by both players together (25 on 100 squares)")
        },
    ]
    return out


@dataclass(frozen=True)
class UnplayedReading:
    """How an unplayed round's value stands for an event (issue 35.1): fixed by its edition or not, whether the
    event (an imported one) keeps another, and the sentence that says it with its article."""

    fixed: bool
    differs: bool
    sentence: str


def unplayed_source(edition, circuit_stage, key):
    """Who decides the value of an unplayed round (``bye_value``, ``absence_value``), in the active language: the
    edition that fixes it, or the stage's organiser under art. 13, or a club event itself."""
    if not circuit_stage:
        return _("set by the event (a club event)")
    reading = edition.unplayed_reading(key)
    if reading.value == ORGANISER:
        return _("decided by the stage's organiser before round 1 (%(article)s)") % {"article": reading.article}
    return _("fixed by the edition “%(edition)s” (%(article)s)") % {"edition": edition.code, "article": reading.article}


def unplayed_readings(t):
    """The bye's and the announced absence's values of the event, each with who decides it (field name,
    :class:`UnplayedReading`)."""
    edition = edition_by_code(t.edition_code)
    fixed = edition.fixed_unplayed() if t.circuit_stage else {}
    rows = []
    for name, shown, own, choices, sentence in (
        (
            "bye_value",
            t.bye_worth_display(),
            t.bye_value if t.bye_points is None else None,  # an imported point system's own points: neither
            ByeValue,
            _("Pairing-allocated bye worth: %(value)s — %(source)s."),
        ),
        (
            "absence_value",
            t.get_absence_value_display(),
            t.absence_value,
            AbsenceValue,
            _("Announced absence worth: %(value)s — %(source)s."),
        ),
    ):
        by_edition = fixed.get(name)
        differs = by_edition is not None and own != by_edition
        text = sentence % {"value": str(shown).lower(), "source": unplayed_source(edition, t.circuit_stage, name)}
        if differs:
            text += " " + _(
                "This imported event keeps the value its file scored the rounds with; the edition fixes %(value)s "
                "(see the homologation report)."
            ) % {"value": str(choices(by_edition).label).lower()}
        rows.append((name, UnplayedReading(by_edition is not None, differs, text)))
    return rows


def rating_source(t):
    """Which list the ratings came from (art. 4), and for which variant (issue 26, point 18: the registry holds one
    national rating per player, used for 64 and 100 squares alike)."""
    if t.rating_list_date is not None:
        text = _("national rating list “%(name)s” of %(date)s, frozen when round 1 was paired") % {
            "name": t.rating_list_name,
            "date": t.rating_list_date.strftime("%d/%m/%Y"),
        }
    elif t.rounds.filter(number=1).exists():
        text = _("no rating list recorded (ratings as typed in the registry or as in the imported file)")
    else:
        text = _("the registry's current rating, taken when round 1 is paired")
    return (
        text
        + "; "
        + _(
            "the registry holds one national rating per player, not one per variant: it is the rating used for this "
            "%(variant)s event"
        )
        % {"variant": t.get_variant_display()}
    )


def spot_note_text(note, name_of, label_of=None):
    """A qualification-spot note (``domain.SpotNote``) in the active language. ``name_of``: pairing number ->
    "name (no. N)"; ``label_of``: tiebreak key -> its name."""
    names = ", ".join(name_of(i) for i in note.ids)
    if note.code == "abandoned":
        return ngettext(
            "%(names)s abandoned the tournament (art. 10) and takes no spot: it passes to the next placed.",
            "%(names)s abandoned the tournament (art. 10) and take no spot: they pass to the next placed.",
            len(note.ids),
        ) % {"names": names}
    if note.code == "tiebreak":
        key = (label_of or str)(note.key) if note.key else _("the tiebreak order")
        first, second = note.values if note.values else ("", "")
        return _(
            "The last spot went to %(first)s ahead of %(second)s on equal points, by %(key)s (%(a)s against %(b)s)."
        ) % {"first": name_of(note.ids[0]), "second": name_of(note.ids[1]), "key": key, "a": first, "b": second}
    if note.code == "tie_committee":
        return ngettext(
            "%(names)s share the place of the last spot (every tiebreak equal): the spot is left to the organising "
            "committee (art. 13), never to the pairing number.",
            "%(names)s share the place of the last %(n)s spots (every tiebreak equal): the spots are left to the "
            "organising committee (art. 13), never to the pairing number.",
            note.spots,
        ) % {"names": names, "n": note.spots}
    if note.code == "double":
        return _(
            "%(names)s also qualified in an earlier category and takes this spot too (art. 6: “Oferecerá por "
            "categoria”; setting: a player qualified in two categories takes both)."
        ) % {"names": names}
    if note.code == "passed_on":
        return ngettext(
            "%(names)s already qualified in an earlier category: this spot passes to the next eligible player.",
            "%(names)s already qualified in an earlier category: these spots pass to the next eligible players.",
            len(note.ids),
        ) % {"names": names}
    if note.code == "tie_shared":
        return _("%(names)s share the place of the last spot (every tiebreak equal): each of them takes a spot.") % {
            "names": names
        }
    return note.code


def order_reason_text(codes):
    """Why a tie group's order differs from the normal one, in the active language: the domain returns codes
    (``domain.standings.ORDER_REASONS``); "" when the normal order applied."""
    texts = {
        domain.REASON_DIRECT: _(
            "Two tied players who met: direct encounter comes first (regulation, art. 6, b); "
            "if their encounter was level, the normal order follows."
        ),
        domain.REASON_DIRECT_PAIR: _(
            "Two players left level inside a larger tie, who met: their direct encounter decided between them "
            "(regulation, art. 6, b: “quando o desempate for entre dois jogadores”)."
        ),
        domain.REASON_ACCELERATION_BUCHHOLZ_END: _(
            "Pairing acceleration was used: Buchholz becomes the first criterion and the progressive score (the "
            "corrected one too, which the acceleration also distorts) the last (regulation, art. 6, a)."
        ),
        domain.REASON_ACCELERATION_BUCHHOLZ_SECOND: _(
            "Pairing acceleration was used: Buchholz becomes the first criterion and the progressive score the "
            "second (regulation, art. 6, a)."
        ),
        domain.REASON_ACCELERATION_END: _(
            "Pairing acceleration was used: the progressive score becomes the last criterion (regulation, art. 6, a)."
        ),
        domain.REASON_ACCELERATION_SECOND: _(
            "Pairing acceleration was used: the progressive score becomes the second criterion (regulation, art. 6, a)."
        ),
        domain.REASON_TOP3_END: _(
            "The 3 highest-rated players beat every other opponent and drew among "
            "themselves: the progressive score becomes the last criterion (regulation, "
            "art. 6, c)."
        ),
        domain.REASON_TOP3_SECOND: _(
            "The 3 highest-rated players beat every other opponent and drew among "
            "themselves: the progressive score becomes the second criterion "
            "(regulation, art. 6, c)."
        ),
        domain.REASON_TOP3_BUCHHOLZ_END: _(
            "The 3 highest-rated players beat every other opponent and drew among themselves: Buchholz "
            "becomes the first criterion and the progressive score (the corrected one too) the last "
            "(regulation, art. 6, c)."
        ),
        domain.REASON_TOP3_BUCHHOLZ_SECOND: _(
            "The 3 highest-rated players beat every other opponent and drew among themselves: Buchholz "
            "becomes the first criterion and the progressive score the second (regulation, art. 6, c)."
        ),
    }
    return " ".join(str(texts[code]) for code in codes)
