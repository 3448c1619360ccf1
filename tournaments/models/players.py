"""People: players (reused across tournaments) and their suspensions."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import RATING_MAX, RATING_MIN, UF_CHOICES, Sex, SuspensionSource, Title
from tournaments.models.friendly import FriendlyConstraints, SearchKeyField


class Player(FriendlyConstraints):
    name = models.CharField(_("full name"), max_length=120)
    # The name without accents or case, for searches ("joao" finds João) on every database.
    search_name = SearchKeyField(max_length=120, source="name", db_index=True)
    # Blank only for a player imported from a file that does not say (a TRF's sex column left blank).
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(
        _("year of birth (when only the year is known)"), null=True, blank=True
    )
    state = models.CharField(_("state (UF)"), max_length=2, choices=UF_CHOICES, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    cbjd_id = models.CharField(_("CBJD ID"), max_length=20, null=True, blank=True)
    rating = models.PositiveIntegerField(_("national rating"), null=True, blank=True)
    # The rated games the national list counts for the player: the rating method's K depends on it (issue 40).
    rated_games = models.PositiveIntegerField(_("rated games"), default=0)
    fmjd_rating = models.PositiveIntegerField(_("FMJD rating"), null=True, blank=True)
    title = models.CharField(_("title"), max_length=4, choices=Title.choices, blank=True)
    # From imported files (TRF): the federation, the file's ID (FIDE or another federation's: never a CBJD ID, so
    # never matched against the registry) and the title as the file writes it (GM, g, WGM, wg, CM...).
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    foreign_id = models.CharField(_("ID in the imported file (FIDE or other federation)"), max_length=20, blank=True)
    title_as_written = models.CharField(_("title as written in the imported file"), max_length=10, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    CONSTRAINT_MESSAGES = {
        "player_cbjd_id_unique": ("cbjd_id", _("Another player in the registry already has this CBJD ID.")),
        "player_cbjd_id_not_empty": ("cbjd_id", _("Leave the CBJD ID empty or give one.")),
        "player_rating_range": ("rating", _("The rating must be between 100 and 3000.")),
        "player_fmjd_rating_range": ("fmjd_rating", _("The rating must be between 100 and 3000.")),
        "player_sex_valid": ("sex", _("Choose the sex.")),
    }

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["search_name", "pk"]  # the Portuguese order: Élton with E, not after Z (issue 37.8)
        constraints = [
            models.UniqueConstraint(
                fields=["cbjd_id"], condition=Q(cbjd_id__isnull=False), name="player_cbjd_id_unique"
            ),
            models.CheckConstraint(condition=~Q(cbjd_id=""), name="player_cbjd_id_not_empty"),
            models.CheckConstraint(
                condition=Q(rating__isnull=True) | Q(rating__gte=RATING_MIN, rating__lte=RATING_MAX),
                name="player_rating_range",
            ),
            models.CheckConstraint(
                condition=Q(fmjd_rating__isnull=True) | Q(fmjd_rating__gte=RATING_MIN, fmjd_rating__lte=RATING_MAX),
                name="player_fmjd_rating_range",
            ),
            models.CheckConstraint(condition=Q(sex__in=[*Sex.values, ""]), name="player_sex_valid"),
        ]
        indexes = [models.Index(fields=["name"])]

    def __str__(self):
        return self.name


class Suspension(models.Model):
    """A period in which the player may not be entered in any tournament.

    An abandonment creates one at once (regulation art. 10: "suspensão automática"); a director may lift it,
    with a reason (audited). A lifted suspension no longer refuses entries.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="suspensions", verbose_name=_("player"))
    start_date = models.DateField(_("start"))
    end_date = models.DateField(_("end"))
    source = models.CharField(_("source"), max_length=12, choices=SuspensionSource.choices)
    reason = models.TextField(_("reason"), blank=True)
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="suspensions",
        verbose_name=_("tournament"),
    )
    # At the federation: the approved stage whose abandonment (art. 10) gave it (issue 36.2). A suspension a stage
    # gave never judges that stage.
    submission = models.ForeignKey(
        "tournaments.Submission",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="suspensions",
        verbose_name="etapa que a gerou",
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    lift_reason = models.CharField(_("reason for lifting"), max_length=300, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Issue 25, item 7: a suspension read from an imported file applies to that tournament only until the
    # federation (or the director of the event where it happened) confirms it nationally.
    national_pending = models.BooleanField(_("waiting for national confirmation"), default=False)
    confirmed_at = models.DateTimeField(_("confirmed nationally at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("suspension")
        verbose_name_plural = _("suspensions")
        ordering = ["-end_date"]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="suspension_dates_ordered"),
            models.CheckConstraint(condition=Q(source__in=SuspensionSource.values), name="suspension_source_valid"),
            models.CheckConstraint(
                condition=Q(lifted_at__isnull=True, lift_reason="") | (Q(lifted_at__isnull=False) & ~Q(lift_reason="")),
                name="suspension_lift_has_reason",
            ),
        ]

    def __str__(self):
        return f"{self.player} ({self.start_date:%d/%m/%Y} - {self.end_date:%d/%m/%Y})"

    def overlaps(self, start, end):
        return self.start_date <= end and self.end_date >= start

    @property
    def active(self):
        return self.lifted_at is None


class RatingList(models.Model):
    """One national rating list imported into the registry (the date the federation published it)."""

    filename = models.CharField(_("file"), max_length=200)
    list_date = models.DateField(_("date of the list"))
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.PositiveIntegerField(_("new players"), default=0)
    updated = models.PositiveIntegerField(_("players updated"), default=0)

    class Meta:
        verbose_name = _("rating list")
        verbose_name_plural = _("rating lists")
        ordering = ["-imported_at", "-id"]

    def __str__(self):
        return f"{self.filename} ({self.list_date:%d/%m/%Y})"
