"""A tournament, its settings, categories, staff and entries."""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.signals import m2m_changed
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.domain.edition import READINGS, UNPLAYED_READINGS
from tournaments.domain.settings_lock import CATEGORY_AFTER_IMPORT, CATEGORY_CHANGE, MEMBERSHIP_CHANGE, RATING_CHANGE
from tournaments.models import lookups  # noqa: F401  (registers __json_typeof, used by a constraint)
from tournaments.models.choices import (
    BRAZIL_TIME_ZONES,
    MAX_ROUNDS,
    RATING_MAX,
    RATING_MIN,
    UF_CHOICES,
    AbsenceValue,
    Acceleration,
    AccelerationOrder,
    ByeValue,
    DirectEncounterScope,
    DoubleSpotRule,
    EntryStatus,
    InitialColour,
    OpeningDrawMode,
    OwnAbsenceValue,
    PairingProgramRule,
    ParticipantRule,
    ProgressiveMove,
    RoundFormat,
    Sex,
    SpotTieRule,
    StaffRole,
    Tablita100,
    TiebreakEdition,
    TiebreakProfile,
    TimeUnit,
    Top3Order,
    Top3Scope,
    UnratedInAverage,
    Variant,
    WithdrawalKind,
)
from tournaments.models.friendly import FriendlyConstraints
from tournaments.setup.tiebreak_list import empty_custom_list_error, tiebreak_keys_validator

# Settings that change results: frozen once round 1 is paired (docs/domain.md section 2).
FROZEN_SETTINGS = (
    "variant",
    "format",
    "score_win",
    "score_draw",
    "score_loss",
    "bye_value",
    "absence_value",
    "tiebreak_profile",
    "tiebreak_keys",
    "tiebreak_edition",
    "progressive_move",
    "corrected_progressive_cut",
    "corrected_progressive_unplayed",
    "top3_order",
    "acceleration",
    "provisional_rating",
    "initial_colour",
    "top3_scope",
    "direct_encounter_scope",
    "acceleration_order",
)

# Settings that decide the homologation (issue 26): once round 1 is paired they change only with a reason, each
# change is recorded (``SettingsChange``, and the audit log), and the homologation check judges the value in force
# when round 1 was paired. (The tiebreak settings above are stricter: frozen.)
LOCKED_SETTINGS = (
    "minutes_per_game",
    "time_unit",
    "planned_rounds",
    "min_participants",
    "participant_rule",
    "pairing_program_rule",
    "opening_table",
    "tablita_100",
    "spot_tie_rule",
    "unrated_in_average",
    "spots_min_entries",
    "double_spot_rule",
    "start_date",
    "end_date",
)

# What the regulation's edition decides for a circuit stage (issue 35.1): its minimum of participants and every
# reading the text leaves open. A stage's values are the edition's, set on every save (page, admin, import, shell);
# a club event sets them itself.
EDITION_FIELDS = ("min_participants", *READINGS)

# The facts a homologation condition reads, locked in the model layer once round 1 is paired (issue 35.3): every
# path (pages, admin, imports, restores, the shell) goes through ``Tournament.save`` or its queryset's ``update``,
# which refuse a change made without a reason (``tournaments.setup.services.tournament_update`` gives one and
# records it). Categories and who is in them, and the entries' ratings, are guarded on their own models.
LOCKED_FACTS = tuple(dict.fromkeys((*LOCKED_SETTINGS, *FROZEN_SETTINGS, "circuit_stage", "edition_code")))


# The record of round 1 undone after it was published (issue 35.3): a ``SettingsChange`` row of this field
# ("published" -> "undone", with its reason), listed in the report with every change made while it was undone.
ROUND_1_UNDONE = "round_1"
# A stage's categories, who is in them and the entries' ratings after round 1 (issue 35.3), each change a
# ``SettingsChange`` row of one of these fields: a category's definition ({"code", "name", "sex", "min_age",
# "max_age"}; null before it was created, after it was deleted), an entry's categories ({"player", "categories":
# [codes]}), an entry's rating ({"player", "rating"}); "player" is {"cbjd_id", "name"}. And, on an imported event
# (whose categories stay open: a TRF has none), each category defined at the venue after the import.
FACT_CHANGES = (CATEGORY_CHANGE, MEMBERSHIP_CHANGE, RATING_CHANGE, CATEGORY_AFTER_IMPORT)
# The fields a recorded change may name (the interchange file's ``settings_changes``).
CHANGE_FIELDS = (
    *dict.fromkeys((*LOCKED_SETTINGS, *FROZEN_SETTINGS, "circuit_stage")),
    ROUND_1_UNDONE,
    *FACT_CHANGES,
)


DATES = ("start_date", "end_date")


class LockedFact(ValidationError):
    """A fact a homologation condition reads changed after round 1 without a reason."""


CATEGORIES_LOCKED = _(
    "Round 1 has been published: a stage's categories and who is in them change only with a reason, recorded and "
    "listed in the homologation report."
)
RATINGS_LOCKED = _(
    "Round 1 has been published: the entries' ratings are frozen (art. 4) and change only with a reason, recorded "
    "and listed in the homologation report (the spots still read the ratings as played)."
)


def locked_message(names):
    return _(
        "Round 1 has been paired: these facts decide the homologation and change only with a reason, recorded and "
        "listed in the homologation report: %(names)s."
    ) % {"names": ", ".join(names)}


class TournamentQuerySet(models.QuerySet):
    def update(self, **kwargs):
        facts = [k for k in kwargs if k in LOCKED_FACTS or k == "opening_table_id"]
        locked = self.filter(facts_locked_at__isnull=False)
        if set(facts) <= set(DATES):
            locked = locked.exclude(start_date_unknown=True)  # an imported file gave no date: the stand-in is no fact
        if facts and locked.exists():
            raise LockedFact(locked_message(facts))
        return super().update(**kwargs)


class Tournament(FriendlyConstraints):
    name = models.CharField(_("name"), max_length=200)
    # A stage of the national circuit (judged by the regulation's edition in force on its start date, whose
    # numbers and readings it cannot change), or a club event that sets anything and has no rights (issue 35.1).
    circuit_stage = models.BooleanField(
        _("stage of the national circuit"),
        default=True,
        help_text=_(
            "A stage follows the federation's edition of the regulation; a club event sets its own rules and earns "
            "no qualification rights."
        ),
    )
    edition_code = models.CharField(_("regulation edition"), max_length=60, blank=True, editable=False)
    # When round 1 was first paired: from then on the facts a condition reads are locked, also after round 1 is
    # undone (issue 35.3). Never cleared.
    facts_locked_at = models.DateTimeField(_("facts locked at"), null=True, blank=True, editable=False)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices, default=Variant.BRAZILIAN_64)
    format = models.CharField(_("format"), max_length=12, choices=RoundFormat.choices, default=RoundFormat.MICRO_MATCH)
    planned_rounds = models.PositiveSmallIntegerField(_("planned rounds"), default=7)
    minutes_per_game = models.PositiveSmallIntegerField(_("minutes per player per game"), default=21)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    city = models.CharField(_("city"), max_length=100, blank=True)
    state = models.CharField(_("state (UF)"), max_length=2, choices=UF_CHOICES, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    chief_arbiter = models.CharField(_("chief arbiter"), max_length=120, blank=True)
    # An imported file without a start date (a TRF without its 042 line): the date shown is a stand-in until the
    # director gives the real one (saving the settings clears this).
    start_date_unknown = models.BooleanField(_("start date still to be given"), default=False)
    time_control = models.CharField(_("time control (as written)"), max_length=120, blank=True)
    # What an imported TRF's header says that no other field holds (federation, type, deputy arbiters, round
    # dates, tiebreak and rank-method lines), written back by the TRF export.
    trf_header = models.JSONField(_("other TRF header lines"), default=dict, blank=True)
    # An imported file gave rounds that only one player's line says (models.OneSidedRound): read only then.
    has_one_sided_rounds = models.BooleanField(_("has rounds kept for one player alone"), default=False)
    time_zone = models.CharField(_("time zone"), max_length=40, choices=BRAZIL_TIME_ZONES, default="America/Sao_Paulo")

    # Scoring per game and the values of unplayed rounds.
    score_win = models.DecimalField(_("points for a win"), max_digits=4, decimal_places=1, default=Decimal("2"))
    score_draw = models.DecimalField(_("points for a draw"), max_digits=4, decimal_places=1, default=Decimal("1"))
    score_loss = models.DecimalField(_("points for a loss"), max_digits=4, decimal_places=1, default=Decimal("0"))
    bye_value = models.CharField(
        _("pairing-allocated bye worth"), max_length=4, choices=ByeValue.choices, default=ByeValue.WIN
    )
    # Points per game of the pairing-allocated bye when it is worth neither a win nor a draw (an imported file's
    # point system, e.g. a TRF's BBU line): it then takes the place of ``bye_value``.
    bye_points = models.DecimalField(
        _("pairing-allocated bye worth (points)"), max_digits=4, decimal_places=1, null=True, blank=True
    )
    # An imported file's point system may value a forfeit lost and a round not played at zero (TRF BBF, BBZ, 162 Z)
    # apart from a loss: kept then (null: a forfeit lost is a loss; an absence at zero is a loss, a round not
    # paired is 0).
    score_forfeit_loss = models.DecimalField(
        _("points for a forfeit loss"), max_digits=4, decimal_places=1, null=True, blank=True
    )
    score_zero_bye = models.DecimalField(
        _("points for a round not played at zero"), max_digits=4, decimal_places=1, null=True, blank=True
    )
    absence_value = models.CharField(
        _("announced absence worth"), max_length=4, choices=AbsenceValue.choices, default=AbsenceValue.ZERO
    )

    # Pairing.
    acceleration = models.CharField(
        _("acceleration"), max_length=8, choices=Acceleration.choices, default=Acceleration.NONE
    )
    initial_colour = models.CharField(
        _("initial colour (top seed, round 1)"),
        max_length=5,
        choices=InitialColour.choices,
        default=InitialColour.WHITE,
    )
    provisional_rating = models.PositiveIntegerField(_("provisional rating for unrated players"), default=1600)
    # Staff: whether the tournament's arbiters pair, publish, edit and undo rounds, or only the director (issue
    # 28.12; set on the Equipe page). Default on: at a CBJD stage the chief arbiter often runs the pairing.
    arbiters_may_pair = models.BooleanField(_("arbiters may pair rounds"), default=True)

    # Tiebreaks.
    tiebreak_profile = models.CharField(
        _("tiebreak profile"), max_length=8, choices=TiebreakProfile.choices, default=TiebreakProfile.CBJD
    )
    tiebreak_keys = models.JSONField(
        _("custom tiebreak list"), default=list, blank=True, validators=[tiebreak_keys_validator]
    )
    tiebreak_edition = models.CharField(
        _("unplayed rounds rule"), max_length=8, choices=TiebreakEdition.choices, default=TiebreakEdition.FIDE2026
    )
    progressive_move = models.CharField(
        _("CBJD exceptions: progressive score"),
        max_length=6,
        choices=ProgressiveMove.choices,
        default=ProgressiveMove.END,
    )
    corrected_progressive_cut = models.PositiveSmallIntegerField(
        _("corrected progressive: first rounds cut"), default=1
    )
    corrected_progressive_unplayed = models.BooleanField(
        _("corrected progressive: count points won without play"), default=True
    )
    top3_order = models.CharField(
        _("CBJD exception c): order for the three highest ratings"),
        max_length=8,
        choices=Top3Order.choices,
        default=Top3Order.BUCHHOLZ,
    )
    top3_scope = models.CharField(
        _("CBJD exception c): which ties"), max_length=6, choices=Top3Scope.choices, default=Top3Scope.TIE
    )
    direct_encounter_scope = models.CharField(
        _("CBJD exception b): two players level"),
        max_length=6,
        choices=DirectEncounterScope.choices,
        default=DirectEncounterScope.PAIR,
    )
    acceleration_order = models.CharField(
        _("CBJD exception a): first criterion with acceleration"),
        max_length=10,
        choices=AccelerationOrder.choices,
        default=AccelerationOrder.BUCHHOLZ,
    )

    # Openings (tablita).
    opening_table = models.ForeignKey(
        "tournaments.OpeningTable",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("opening table"),
    )
    opening_draw_mode = models.CharField(
        _("opening draw"), max_length=5, choices=OpeningDrawMode.choices, default=OpeningDrawMode.PER_ROUND
    )

    # Rules of play: the seeds say "20 (25) successive king moves"; read per player (FMJD) by default, or as
    # single moves (plies) when this is off.
    king_moves_per_player = models.BooleanField(
        _("king-move draw rule counts each player's moves"),
        default=True,
        help_text=_(
            "20 successive king moves on 64 squares (25 on 100) by each player; off: by both players together."
        ),
    )

    # Qualification and homologation.
    min_participants = models.PositiveSmallIntegerField(_("minimum participants for qualification rights"), default=30)
    participant_rule = models.CharField(
        _("who counts as a participant"),
        max_length=8,
        choices=ParticipantRule.choices,
        default=ParticipantRule.PLAYED,
    )
    spot_tie_rule = models.CharField(
        _("tie for the last qualification spot"),
        max_length=10,
        choices=SpotTieRule.choices,
        default=SpotTieRule.COMMITTEE,
    )
    pairing_program_rule = models.CharField(
        _("pairing software condition"),
        max_length=8,
        choices=PairingProgramRule.choices,
        default=PairingProgramRule.NAMED,
    )
    time_unit = models.CharField(
        _("“21 x 21 minutos (para ambas as partidas)” read as"),
        max_length=6,
        choices=TimeUnit.choices,
        default=TimeUnit.GAME,
    )
    tablita_100 = models.CharField(
        _("tablita on 100 squares"), max_length=8, choices=Tablita100.choices, default=Tablita100.REQUIRED
    )
    unrated_in_average = models.CharField(
        _("unrated players in the rating average"),
        max_length=12,
        choices=UnratedInAverage.choices,
        default=UnratedInAverage.PROVISIONAL,
    )
    spots_min_entries = models.PositiveSmallIntegerField(
        _("minimum entries for a category to earn spots"),
        default=0,
        help_text=_("0: every category earns the spots its average gives (the regulation names no minimum)."),
    )
    double_spot_rule = models.CharField(
        _("a player qualified in two categories"),
        max_length=6,
        choices=DoubleSpotRule.choices,
        default=DoubleSpotRule.BOTH,
    )
    # The national rating list the entries' ratings came from, recorded when round 1 is paired (art. 4).
    rating_list_name = models.CharField(_("rating list used"), max_length=200, blank=True)
    rating_list_date = models.DateField(_("date of the rating list used"), null=True, blank=True)
    homologation_exported_at = models.DateTimeField(_("homologation report exported at"), null=True, blank=True)
    # The federation's identifier of the circuit stage this event is (issue 35.2: "CBJD-2026-007"), given when
    # the stage was registered; every submission carries it. Empty: not bound to a registered stage.
    stage_id = models.CharField("etapa no calendário da federação", max_length=20, blank=True, db_index=True)
    # Where the event came from when it was imported (issue 35.4): {"file", "sha256", "program", "format", "at"},
    # recorded by the import itself, never typed. Empty: the event was created and paired here.
    provenance = models.JSONField("origem (evento importado)", default=dict, blank=True)

    staff = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="TournamentRole", related_name="staffed_tournaments"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TournamentQuerySet.as_manager()

    CONSTRAINT_MESSAGES = {
        "tournament_dates_ordered": ("end_date", _("The end date cannot come before the start date.")),
        "tournament_rounds_range": ("planned_rounds", _("A tournament has from 1 to 100 rounds.")),
        "tournament_minutes_positive": ("minutes_per_game", _("Give at least 1 minute per game.")),
        "tournament_bye_points_positive": ("bye_points", _("Points cannot be negative.")),
        "tournament_unplayed_points_positive": ("score_forfeit_loss", _("Points cannot be negative.")),
        "tournament_scoring_ordered": (
            "score_win",
            _("A win must be worth more than a draw, a draw at least as much as a loss, and a loss 0 or more."),
        ),
        "tournament_variant_valid": ("variant", _("Choose a variant from the list.")),
        "tournament_format_valid": ("format", _("Choose a format from the list.")),
        "tournament_acceleration_valid": ("acceleration", _("Choose an acceleration from the list.")),
        "tournament_provisional_rating_range": (
            "provisional_rating",
            _("The provisional rating must be between 100 and 3000."),
        ),
        "tournament_tiebreak_keys_list": ("tiebreak_keys", _("The tiebreak list must be a list, between [ and ].")),
    }

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="tournament_dates_ordered"),
            models.CheckConstraint(
                condition=Q(planned_rounds__gte=1, planned_rounds__lte=MAX_ROUNDS), name="tournament_rounds_range"
            ),
            models.CheckConstraint(condition=Q(minutes_per_game__gte=1), name="tournament_minutes_positive"),
            models.CheckConstraint(
                condition=Q(bye_points__isnull=True) | Q(bye_points__gte=0), name="tournament_bye_points_positive"
            ),
            models.CheckConstraint(
                condition=(Q(score_forfeit_loss__isnull=True) | Q(score_forfeit_loss__gte=0))
                & (Q(score_zero_bye__isnull=True) | Q(score_zero_bye__gte=0)),
                name="tournament_unplayed_points_positive",
            ),
            models.CheckConstraint(
                condition=Q(score_win__gt=F("score_draw"), score_draw__gte=F("score_loss"), score_loss__gte=0),
                name="tournament_scoring_ordered",
            ),
            models.CheckConstraint(condition=Q(variant__in=Variant.values), name="tournament_variant_valid"),
            models.CheckConstraint(condition=Q(format__in=RoundFormat.values), name="tournament_format_valid"),
            models.CheckConstraint(
                condition=Q(acceleration__in=Acceleration.values), name="tournament_acceleration_valid"
            ),
            models.CheckConstraint(
                condition=Q(provisional_rating__gte=RATING_MIN, provisional_rating__lte=RATING_MAX),
                name="tournament_provisional_rating_range",
            ),
            # issue 25, item 4: the custom tiebreak list is a JSON array (its keys are checked by the validator)
            models.CheckConstraint(
                condition=Q(tiebreak_keys__json_typeof="array"), name="tournament_tiebreak_keys_list"
            ),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if self.circuit_stage:
            self._apply_edition()
        self._guard_locked_facts(kwargs.get("update_fields"))
        super().save(*args, **kwargs)

    def _apply_edition(self):
        """A stage takes the edition in force on its start date (kept once round 1 is paired) and the edition's
        numbers and readings, whatever was set."""
        from tournaments.models.editions import edition_by_code, edition_for_day

        if not self.facts_locked_at or not self.edition_code:
            found = edition_for_day(self.start_date)
            self.edition_code = found.code if found is not None else ""
        edition = edition_by_code(self.edition_code)
        for key, value in edition.settings_values().items():
            setattr(self, key, value)
        kept = self._file_unplayed_values()
        for key, value in edition.fixed_unplayed().items():
            if key in kept:  # an imported file scored its rounds with its own: kept, and the report says so
                continue
            setattr(self, key, value)
            if key == "bye_value":
                self.bye_points = None  # the edition's win or draw, not an imported point system's own points

    def _file_unplayed_values(self):
        """The values of unplayed rounds an imported file scored its rounds with (issue 35.1): kept for the event's
        scores even where the edition fixes another (the homologation's ``unplayed_values`` condition names them).
        The import says which the file used (``_file_values``); an event imported earlier keeps its own, and so
        does an event whose round 1 was paired (the values are frozen then, with its edition)."""
        given = getattr(self, "_file_values", None)
        if given is not None:
            return frozenset(given)
        return frozenset(UNPLAYED_READINGS) if self.provenance or self.facts_locked_at else frozenset()

    def edition_fields(self):
        """The fields this event's edition decides (issue 35.1), shown read only on the settings page and in the
        admin: for a circuit stage, its minimum, its readings and the values of unplayed rounds the edition fixes
        (with an imported point system's bye points); none for a club event."""
        if not self.circuit_stage:
            return ()
        from tournaments.models.editions import edition_by_code

        fixed = tuple(edition_by_code(self.edition_code).fixed_unplayed())
        return (*EDITION_FIELDS, *fixed, *(("bye_points",) if "bye_value" in fixed else ()))

    def _guard_locked_facts(self, update_fields):
        if self.pk is None or self._state.adding:
            return
        names = [f for f in LOCKED_FACTS if update_fields is None or f in update_fields]
        if not names:
            return
        columns = ["opening_table_id" if f == "opening_table" else f for f in names]
        old = type(self).objects.filter(pk=self.pk).values("facts_locked_at", "start_date_unknown", *columns).first()
        if old is None or old["facts_locked_at"] is None:
            return
        changed = [n for n, c in zip(names, columns, strict=True) if old[c] != getattr(self, c)]
        if old["start_date_unknown"]:  # the director gives the dates an imported file did not
            changed = [n for n in changed if n not in DATES]
        if changed and not getattr(self, "_change_reason", ""):
            raise LockedFact(locked_message(changed))

    def clean(self):
        super().clean()
        empty_list = empty_custom_list_error(self.tiebreak_profile, self.tiebreak_keys)
        if empty_list:
            raise ValidationError({"tiebreak_keys": empty_list})
        if self.opening_table_id and self.opening_table.variant != self.variant:
            raise ValidationError(
                {
                    "opening_table": _("This opening table is for %(variant)s.")
                    % {"variant": self.opening_table.get_variant_display()}
                }
            )

    def bye_worth_display(self):
        """What the pairing-allocated bye is worth, for people: "Win", "Draw", or its points when it is neither."""
        if self.bye_points is not None:
            from tournaments.templatetags.damas import fmt_number

            return _("%(points)s points per game") % {"points": fmt_number(self.bye_points)}
        return self.get_bye_value_display()

    @property
    def games_per_round(self):
        return 2 if self.format == RoundFormat.MICRO_MATCH else 1

    @property
    def is_micro_match(self):
        return self.format == RoundFormat.MICRO_MATCH


class TournamentRole(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    role = models.CharField(_("role"), max_length=8, choices=StaffRole.choices)

    class Meta:
        verbose_name = _("tournament staff member")
        verbose_name_plural = _("tournament staff")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="role_one_per_user"),
            models.CheckConstraint(condition=Q(role__in=StaffRole.values), name="role_valid"),
        ]

    def __str__(self):
        return f"{self.user} — {self.get_role_display()} — {self.tournament}"


class SettingsChange(models.Model):
    """A setting that decides the homologation (``LOCKED_SETTINGS``) changed after round 1 was paired: who, when,
    the value before and after, and the reason (required). Listed on the homologation page and in the workbook,
    carried by the interchange file (``settings_changes``); the homologation check judges the value before the
    first change of each setting."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="settings_changes")
    field = models.CharField(_("setting"), max_length=40)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    at = models.DateTimeField(_("when"))
    by = models.CharField(_("by"), max_length=150, blank=True)
    reason = models.CharField(_("reason"), max_length=300)

    class Meta:
        verbose_name = _("settings change")
        verbose_name_plural = _("settings changes")
        ordering = ["at", "id"]
        constraints = [models.CheckConstraint(condition=~Q(reason=""), name="settings_change_has_reason")]

    def __str__(self):
        return f"{self.tournament_id} {self.field}: {self.before} -> {self.after}"


# What a category is, as the changes record it; its facts are the code, the sex and the ages (the name is shown
# only).
CATEGORY_FIELDS = ("code", "name", "sex", "min_age", "max_age")
CATEGORY_FACT_FIELDS = ("code", "sex", "min_age", "max_age")


def _get(obj: Any, key: str) -> Any:
    return obj[key] if isinstance(obj, dict) else getattr(obj, key)


def definition_of(category: Any) -> dict[str, Any]:
    """A category (a model or a ``values()`` row) as a change records it."""
    return {k: _get(category, k) for k in CATEGORY_FIELDS}


def category_facts(category: Any) -> tuple[Any, ...]:
    return tuple(_get(category, k) for k in CATEGORY_FACT_FIELDS)


class CategoryQuerySet(models.QuerySet):
    """A queryset's update of a category's facts, or its delete, on a locked stage: only inside ``facts_changed``
    (each row then recorded), as ``Category.save`` and ``delete``."""

    def update(self, **kwargs):
        if any(k in CATEGORY_FACT_FIELDS for k in kwargs):
            self._guard()
        return super().update(**kwargs)

    def delete(self):
        self._guard()
        return super().delete()

    def _guard(self):
        rows = list(self.values("pk", "tournament_id", *CATEGORY_FIELDS))
        locked = {t for t in {r["tournament_id"] for r in rows} if stage_locked(t)}
        for r in rows:
            if r["tournament_id"] in locked:
                _pending(CATEGORY_CHANGE, r["pk"], r["tournament_id"], definition_of(r))


class Category(FriendlyConstraints):
    """A ranking category of the tournament: absoluto, feminino, sub-18, veteranos, ..."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="categories")
    code = models.CharField(_("code"), max_length=10)
    name = models.CharField(_("name"), max_length=60)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    min_age = models.PositiveSmallIntegerField(_("minimum age on 31 December"), null=True, blank=True)
    max_age = models.PositiveSmallIntegerField(_("maximum age on 31 December"), null=True, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    objects = CategoryQuerySet.as_manager()

    CONSTRAINT_MESSAGES = {
        "category_code_unique": ("code", _("This tournament already has a category with this code.")),
        "category_ages_ordered": ("max_age", _("The maximum age cannot be below the minimum age.")),
    }

    class Meta:
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        ordering = ["position", "code"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "code"], name="category_code_unique"),
            models.CheckConstraint(
                condition=Q(min_age__isnull=True) | Q(max_age__isnull=True) | Q(max_age__gte=F("min_age")),
                name="category_ages_ordered",
            ),
        ]

    def __str__(self):
        return f"{self.code} — {self.name}"

    # Issue 35.3: a stage's categories are facts the spots read, locked in the model layer once round 1 is
    # published: created, changed (code, sex, ages: the name is free) or deleted only inside ``facts_changed``
    # (with a reason), each change recorded. An imported event's categories stay open, each one defined after
    # the import recorded so that the report lists it.
    def save(self, *args, **kwargs):
        adding = self._state.adding
        if adding and stage_locked(self.tournament_id):
            _allowed(CATEGORIES_LOCKED)
        elif not adding:
            old = type(self).objects.filter(pk=self.pk).values(*CATEGORY_FIELDS).first()
            if old is not None and category_facts(old) != category_facts(self) and stage_locked(self.tournament_id):
                _pending(CATEGORY_CHANGE, self.pk, self.tournament_id, old)
        super().save(*args, **kwargs)
        if adding and stage_locked(self.tournament_id):
            _pending(CATEGORY_CHANGE, self.pk, self.tournament_id, None, created=self.code)
        elif adding and imported_open(self.tournament_id):
            _record_after_import(self)

    def delete(self, *args, **kwargs):
        if stage_locked(self.tournament_id):
            _pending(CATEGORY_CHANGE, self.pk, self.tournament_id, definition_of(self))
        return super().delete(*args, **kwargs)


class EntryQuerySet(models.QuerySet):
    """A queryset's update of the ratings on a locked stage: only inside ``facts_changed`` (each row then
    recorded), as ``Entry.save``."""

    def update(self, **kwargs):
        if "rating" in kwargs:
            rows = list(self.values_list("pk", "tournament_id", "rating"))
            locked = {t for t in {r[1] for r in rows} if ratings_locked(t)}
            for pk, tournament_id, rating in rows:
                if tournament_id in locked:
                    _pending(RATING_CHANGE, pk, tournament_id, rating)
        return super().update(**kwargs)


class Entry(models.Model):
    """A player in one tournament. ``rating`` is the registry's rating, refreshed until round 1 is paired and
    frozen from then on (late entries: the registry's rating on the day they enter); on a stage it changes after
    round 1 only inside ``facts_changed`` (with a reason, recorded; issue 35.3)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("tournaments.Player", on_delete=models.PROTECT, related_name="entries")
    pairing_number = models.PositiveIntegerField(_("pairing number"), null=True, blank=True)
    rating = models.PositiveIntegerField(_("rating (frozen when round 1 is paired)"), null=True, blank=True)
    fmjd_rating = models.PositiveIntegerField(_("FMJD rating at registration"), null=True, blank=True)
    categories = models.ManyToManyField(Category, blank=True, related_name="entries", verbose_name=_("categories"))
    status = models.CharField(_("status"), max_length=10, choices=EntryStatus.choices, default=EntryStatus.ACTIVE)
    withdrawn_from_round = models.PositiveSmallIntegerField(_("withdrawn from round"), null=True, blank=True)
    withdrawal_kind = models.CharField(_("withdrawal kind"), max_length=12, choices=WithdrawalKind.choices, blank=True)
    late_entry_round = models.PositiveSmallIntegerField(_("late entry: first round"), null=True, blank=True)
    declared_adult = models.BooleanField(_("21 or older (no birth date needed)"), default=False)
    # Virtual points per round from an imported file (TRF XXA/250 lines, or a Baku acceleration as the reference
    # engine reads it): they override the tournament's acceleration method for this entry.
    accelerations = models.JSONField(_("acceleration (virtual points per round)"), default=list, blank=True)
    # Before round 1 every entry takes the registry's current rating, unless the director keeps the rating of
    # registration, with this reason (regulation art. 4).
    rating_kept_reason = models.CharField(
        _("reason for keeping the rating of registration"), max_length=200, blank=True
    )
    # Game points given (positive) or taken (negative) outside the games, a bonus or a penalty, with the reason: an
    # imported file's (TRF 299 lines); counted in the standings' score, in no round's. ``adjustment_lines``: the
    # 299 lines as the file wrote them for this entry ({"kind", "points", "round"}), to write them back.
    points_adjustment = models.DecimalField(
        _("points given or taken outside the games"), max_digits=6, decimal_places=1, default=Decimal(0)
    )
    points_adjustment_reason = models.CharField(
        _("reason for the points outside the games"), max_length=300, blank=True
    )
    adjustment_lines = models.JSONField(_("TRF 299 lines as written"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EntryQuerySet.as_manager()

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["pairing_number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_once"),
            models.UniqueConstraint(
                fields=["tournament", "pairing_number"],
                condition=Q(pairing_number__isnull=False),
                name="entry_pairing_number_unique",
            ),
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__gte=RATING_MIN, rating__lte=RATING_MAX),
                name="entry_rating_range",
            ),
            models.CheckConstraint(
                condition=Q(pairing_number__isnull=True) | Q(pairing_number__gte=1),
                name="entry_pairing_number_positive",
            ),
            models.CheckConstraint(condition=Q(status__in=EntryStatus.values), name="entry_status_valid"),
            models.CheckConstraint(
                condition=(
                    Q(status=EntryStatus.WITHDRAWN, withdrawn_from_round__isnull=False) & Q(withdrawn_from_round__gte=1)
                )
                | (Q(status=EntryStatus.ACTIVE) & Q(withdrawn_from_round__isnull=True)),
                name="entry_withdrawal_consistent",
            ),
            models.CheckConstraint(
                condition=Q(late_entry_round__isnull=True) | Q(late_entry_round__gte=2), name="entry_late_round_valid"
            ),
            models.CheckConstraint(
                condition=Q(points_adjustment=0) | ~Q(points_adjustment_reason=""), name="entry_adjustment_has_reason"
            ),
        ]

    def __str__(self):
        return f"{self.pairing_number or '—'}. {self.player.name}"

    def save(self, *args, **kwargs):
        update_fields = kwargs.get("update_fields")
        if not self._state.adding and (update_fields is None or "rating" in update_fields):
            old = type(self).objects.filter(pk=self.pk).values_list("rating", flat=True).first()
            if old != self.rating and ratings_locked(self.tournament_id):
                _pending(RATING_CHANGE, self.pk, self.tournament_id, old)
        super().save(*args, **kwargs)

    def is_out_for_round(self, number):
        """Not to be paired in round ``number`` (withdrawn before it, or entered later)."""
        if self.withdrawn_from_round is not None and number >= self.withdrawn_from_round:
            return True
        return self.late_entry_round is not None and number < self.late_entry_round


class Absence(models.Model):
    """An absence announced before the round is paired: the player is not paired and scores the absence value."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="absences")
    round_number = models.PositiveSmallIntegerField(_("round"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    # Blank: the tournament's absence value (the default); an imported tournament keeps each absence's own.
    value = models.CharField(_("worth"), max_length=4, choices=OwnAbsenceValue.choices, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("announced absence")
        verbose_name_plural = _("announced absences")
        constraints = [
            models.UniqueConstraint(fields=["entry", "round_number"], name="absence_once_per_round"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="absence_round_positive"),
            models.CheckConstraint(condition=Q(value__in=OwnAbsenceValue.values), name="absence_value_valid"),
        ]

    def __str__(self):
        return f"{self.entry} ({self.round_number})"


class ForbiddenPair(models.Model):
    """Two entries that must not be paired (whole event, or rounds from..to)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs")
    entry_a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    entry_b = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    from_round = models.PositiveSmallIntegerField(_("from round"), null=True, blank=True)
    to_round = models.PositiveSmallIntegerField(_("to round"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = [
            models.CheckConstraint(condition=~Q(entry_a=F("entry_b")), name="forbidden_pair_distinct"),
            models.CheckConstraint(
                condition=Q(from_round__isnull=True) | Q(to_round__isnull=True) | Q(to_round__gte=F("from_round")),
                name="forbidden_pair_rounds_ordered",
            ),
        ]

    def __str__(self):
        return f"{self.entry_a} × {self.entry_b}"

    def applies_to(self, number):
        return (self.from_round is None or number >= self.from_round) and (
            self.to_round is None or number <= self.to_round
        )


def stage_locked(tournament_id):
    """A stage whose round 1, paired here, has been published: its categories and who is in them are locked, for
    good (also while round 1 is undone). An event imported from another program's file gets its categories after
    the import (a TRF has none), so they stay open there (the settings are locked all the same)."""
    locked = Tournament.objects.filter(pk=tournament_id, circuit_stage=True, facts_locked_at__isnull=False).exclude(
        rounds__explanation={}
    )
    return locked.filter(Q(rounds__number=1) | Q(rounds__isnull=True, provenance={})).exists()


def imported_open(tournament_id):
    """An imported stage (its facts locked by the import, its rounds another program's): its categories stay open,
    and each one defined after the import is recorded."""
    return Tournament.objects.filter(
        pk=tournament_id, circuit_stage=True, facts_locked_at__isnull=False
    ).exists() and not stage_locked(tournament_id)


def ratings_locked(tournament_id):
    """The entries' ratings are frozen (art. 4) as a stage's categories are locked: once its round 1, paired here,
    is published, for good. An imported event's are the file's, judged by the federation from its own list."""
    return stage_locked(tournament_id)


@dataclass
class _Reason:
    reason: str
    by: str
    # (field, pk) -> (tournament id, value before the first change in the block)
    pending: dict[tuple[str, int], tuple[int, Any]] = field(default_factory=dict)
    created: set[str] = field(default_factory=set)  # codes of the categories created in the block


_REASON: ContextVar[_Reason | None] = ContextVar("facts_changed", default=None)
_MESSAGES = {CATEGORY_CHANGE: "categories", MEMBERSHIP_CHANGE: "categories", RATING_CHANGE: "ratings"}


@contextmanager
def facts_changed(reason: str, by: str = "") -> Iterator[None]:
    """The one way to change a locked stage's categories, who is in them or an entry's rating (issue 35.3): made
    inside this block, by any path (a service, a page, the shell, a queryset), each change is allowed and, when
    the block ends, recorded as a ``SettingsChange`` row (the value before its first change in the block and
    after its last, when, ``by``, ``reason``). Outside it, ``LockedFact``. A change that ends where it began is
    not recorded; nor are the memberships of a category created in the block (the category's row says it)."""
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise LockedFact(_("Give the reason for the change: it is recorded and listed in the homologation report."))
    state = _Reason(reason[:300], str(by or "")[:150])
    token = _REASON.set(state)
    try:
        yield
        _record(state)
    finally:
        _REASON.reset(token)


def _allowed(message):
    if _REASON.get() is None:
        raise LockedFact(message)


def _pending(kind, pk, tournament_id, before, created=None):
    _allowed(RATINGS_LOCKED if kind == RATING_CHANGE else CATEGORIES_LOCKED)
    state = _REASON.get()
    state.pending.setdefault((kind, pk), (tournament_id, before))
    if created:
        state.created.add(created)


def player_key(cbjd_id, name):
    """How a change names a player: the CBJD ID, else the name (both kept, for the words)."""
    return {"cbjd_id": cbjd_id or None, "name": name}


def _record(state: _Reason) -> None:
    """The block's changes as ``SettingsChange`` rows (a few queries, whatever their number)."""
    of = {kind: {pk: v for (k, pk), v in state.pending.items() if k == kind} for kind in _MESSAGES}
    now = timezone.now()
    rows = []

    def add(tournament_id, name, before, after):
        if before != after:
            rows.append(
                SettingsChange(
                    tournament_id=tournament_id,
                    field=name,
                    before=before,
                    after=after,
                    at=now,
                    by=state.by,
                    reason=state.reason,
                )
            )

    categories = of[CATEGORY_CHANGE]
    current = {r["pk"]: r for r in Category.objects.filter(pk__in=categories).values("pk", *CATEGORY_FIELDS)}
    state.created |= {
        current[pk]["code"] for pk, (_t, before) in categories.items() if before is None and pk in current
    }
    for pk, (tournament_id, before) in categories.items():
        after = definition_of(current[pk]) if pk in current else None
        if before is None or after is None or category_facts(before) != category_facts(after):
            add(tournament_id, CATEGORY_CHANGE, before, after)
    entries = {**of[MEMBERSHIP_CHANGE], **of[RATING_CHANGE]}
    info = {
        pk: (rating, player_key(cbjd_id, name))
        for pk, rating, cbjd_id, name in Entry.objects.filter(pk__in=entries).values_list(
            "pk", "rating", "player__cbjd_id", "player__name"
        )
    }
    codes = _codes_of(of[MEMBERSHIP_CHANGE])
    for pk, (tournament_id, before) in of[MEMBERSHIP_CHANGE].items():
        if pk in info:
            kept = (
                [c for c in before if c not in state.created],
                [c for c in codes.get(pk, []) if c not in state.created],
            )
            player = info[pk][1]
            add(
                tournament_id,
                MEMBERSHIP_CHANGE,
                {"player": player, "categories": kept[0]},
                {"player": player, "categories": kept[1]},
            )
    for pk, (tournament_id, before) in of[RATING_CHANGE].items():
        if pk in info:
            rating, player = info[pk]
            add(
                tournament_id, RATING_CHANGE, {"player": player, "rating": before}, {"player": player, "rating": rating}
            )
    SettingsChange.objects.bulk_create(rows)


def _codes_of(entry_ids: Any) -> dict[int, list[str]]:
    """{entry id: its categories' codes, sorted}."""
    out: dict[int, list[str]] = {}
    through = Entry.categories.through.objects.filter(entry_id__in=entry_ids).values_list("entry_id", "category__code")
    for entry_id, code in through.order_by("category__code"):
        out.setdefault(entry_id, []).append(code)
    return out


AFTER_IMPORT_REASON = "categoria definida no local depois da importação do arquivo"


def _record_after_import(category):
    """A category defined after the import of a stage (its file's categories are the venue's own from then on):
    recorded, listed in the report and carried to the federation."""
    state = _REASON.get()
    SettingsChange.objects.create(
        tournament_id=category.tournament_id,
        field=CATEGORY_AFTER_IMPORT,
        before=None,
        after=definition_of(category),
        at=timezone.now(),
        by=state.by if state else "",
        reason=AFTER_IMPORT_REASON,
    )


@receiver(m2m_changed, sender=Entry.categories.through)
def _members_locked(sender, instance, action, reverse, pk_set, **kwargs):
    """Who is in a locked stage's categories changes only inside ``facts_changed`` (issue 35.3), by any path. A
    late entry, entered after round 1, takes its first categories freely."""
    if action not in ("pre_add", "pre_remove", "pre_clear"):
        return
    if reverse:  # category.entries.add(...)
        tournament_id = instance.tournament_id
        ids = set(pk_set) if pk_set is not None else set(instance.entries.values_list("pk", flat=True))
    else:  # entry.categories.add(...)
        tournament_id = instance.tournament_id
        ids = {instance.pk} if pk_set is None or pk_set else set()
    if not ids or not stage_locked(tournament_id):
        return
    codes = _codes_of(ids)
    if action == "pre_add":
        locked_at = Tournament.objects.filter(pk=tournament_id).values_list("facts_locked_at", flat=True).get()
        late = set(Entry.objects.filter(pk__in=ids, created_at__gt=locked_at).values_list("pk", flat=True))
        ids = {pk for pk in ids if pk not in late or codes.get(pk)}
    for pk in ids:
        _pending(MEMBERSHIP_CHANGE, pk, tournament_id, codes.get(pk, []))


@receiver(m2m_changed, sender=Entry.categories.through)
def _members_by_sex(sender, instance, action, reverse, pk_set, **kwargs):
    """Nobody is put in a category of the other sex, by any path (issue 35: "a man can be put into the women's
    category by hand")."""
    if action != "pre_add" or not pk_set:
        return
    if reverse:  # category.entries.add(...)
        sexes = {instance.sex} if instance.sex else set()
        players = Entry.objects.filter(pk__in=pk_set).values_list("player__name", "player__sex")
        wrong = [name for name, sex in players if sexes and sex and sex not in sexes]
    else:  # entry.categories.add(...)
        sex = instance.player.sex
        wrong = (
            [instance.player.name]
            if sex and Category.objects.filter(pk__in=pk_set).exclude(sex="").exclude(sex=sex).exists()
            else []
        )
    if wrong:
        raise ValidationError(
            _("A player cannot be in a category of the other sex: %(names)s.") % {"names": ", ".join(wrong)}
        )
