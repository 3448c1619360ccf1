"""Rounds, boards, seats (who sits where, or gets the bye) and games."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import GameResult, RoundStatus, SeatSide


def lock_facts(tournament_id):
    """Round 1 is published (or an event is imported with its rounds): from now on, for good, the facts a
    homologation condition reads change only with a reason (issue 35.3; ``Tournament.facts_locked_at``)."""
    from tournaments.models.tournament import Tournament

    Tournament.objects.filter(pk=tournament_id, facts_locked_at__isnull=True).update(facts_locked_at=timezone.now())


class Round(models.Model):
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    opening = models.ForeignKey(
        "tournaments.Opening",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("opening drawn for the round"),
    )
    engine = models.CharField(_("pairing engine"), max_length=120, blank=True)
    manually_edited = models.BooleanField(_("edited by hand"), default=False)
    explanation = models.JSONField(_("pairing explanation"), default=dict, blank=True)
    paired_at = models.DateTimeField(_("paired at"), null=True, blank=True)
    paired_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    # The round's fingerprints (issue 35.4, tournaments/domain/fingerprints.py), stored when the pairing is
    # published and when the results are complete, each chained to the one before; never recomputed in place:
    # a round changed afterwards no longer matches them (a break). ``*_sent_at``: when the federation received it.
    pairing_fingerprint = models.CharField("impressão do emparceiramento", max_length=12, blank=True)
    results_fingerprint = models.CharField("impressão dos resultados", max_length=12, blank=True)
    pairing_fingerprint_at = models.DateTimeField(null=True, blank=True)
    results_fingerprint_at = models.DateTimeField(null=True, blank=True)
    pairing_fingerprint_sent_at = models.DateTimeField(null=True, blank=True)
    # the reasons the file an imported round came from gave for a change since it was published (its venue's audit
    # lines: {"pairing": [...], "results": [...]}); the breaks show them before this venue's own audit lines
    fingerprint_reasons = models.JSONField("motivos das alterações (arquivo importado)", default=dict, blank=True)
    results_fingerprint_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(status__in=RoundStatus.values), name="round_status_valid"),
        ]

    def __str__(self):
        return f"{self.tournament} — {_('round')} {self.number}"

    def save(self, *args, **kwargs):
        super().save(*args, **kwargs)
        if self.number == 1 and self.status == RoundStatus.PUBLISHED:
            lock_facts(self.tournament_id)

    @property
    def is_published(self):
        return self.status == RoundStatus.PUBLISHED


class Board(models.Model):
    """One table of a round: a micro-match (2 games) or a single game between the two seated entries.

    ``version`` grows with every saved result, so a save made on a stale form is refused.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("board"))
    opening = models.ForeignKey(
        "tournaments.Opening",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("opening drawn for the board"),
    )
    version = models.PositiveIntegerField(default=1)
    # A forfeit imported without colours (a TRF's "5 - +"): no colour is invented for it.
    colourless = models.BooleanField(_("forfeit without colours"), default=False)

    class Meta:
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="board_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
            models.CheckConstraint(condition=Q(version__gte=1), name="board_version_positive"),
        ]

    def __str__(self):
        return f"{self.round} — {_('board')} {self.number}"


class Seat(models.Model):
    """An entry's place in a round: first or second player of a board, or the pairing-allocated bye.

    One row per entry per round, so "a player at most once per round" is a unique constraint.
    The first player has White in game 1.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.RESTRICT, related_name="seats")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, null=True, blank=True, related_name="seats")
    side = models.CharField(_("side"), max_length=6, choices=SeatSide.choices)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_entry_once_per_round"),
            models.UniqueConstraint(
                fields=["board", "side"], condition=Q(board__isnull=False), name="seat_side_once_per_board"
            ),
            models.UniqueConstraint(fields=["round"], condition=Q(side=SeatSide.BYE), name="seat_one_bye_per_round"),
            models.CheckConstraint(
                condition=(Q(side=SeatSide.BYE) & Q(board__isnull=True))
                | (Q(side__in=[SeatSide.FIRST, SeatSide.SECOND]) & Q(board__isnull=False)),
                name="seat_side_matches_board",
            ),
        ]

    def __str__(self):
        return f"{self.entry} — {self.get_side_display()}"


class Game(models.Model):
    """One game of a board. Game 1: the first player has White; game 2: the second player has White.

    ``result`` is seen from that game's White (1-0, 1/2, 0-1, +/-, -/+, -/-); null while not entered.
    """

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    result = models.CharField(_("result"), max_length=3, choices=GameResult.choices, null=True, blank=True)
    pdn = models.TextField(_("moves (PDN)"), blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["board", "number"]
        constraints = [
            models.UniqueConstraint(fields=["board", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=Q(number__in=[1, 2]), name="game_number_valid"),
            models.CheckConstraint(
                condition=Q(result__isnull=True) | Q(result__in=GameResult.values), name="game_result_valid"
            ),
        ]

    def __str__(self):
        return f"{self.board} — {_('game')} {self.number}: {self.result or '…'}"


class OneSidedRound(models.Model):
    """One player's round as an imported file (TRF) writes it when the rest of the file does not say the same: a
    forfeit the opponent's line does not show, a second pairing-allocated bye in the round, a game whose two
    lines give contradicting results. The reference engine reads every player's line on its own, so the app
    keeps such a round for that player alone, on no board, and counts it (points, opponents met, the bye had)
    exactly as the file says; the TRF export writes it back as it was.

    ``result`` is the file's character: ``1`` ``=`` ``0`` (a game; ``colour`` ``w``/``b``), ``+`` ``-`` (a
    forfeit; ``colour`` may be blank), ``U`` (the pairing-allocated bye: no opponent, no colour).
    """

    RESULTS = ("1", "=", "0", "+", "-", "U")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="one_sided")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.RESTRICT, related_name="one_sided_rounds")
    opponent = models.ForeignKey(
        "tournaments.Entry", on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    colour = models.CharField(_("colour"), max_length=1, blank=True)
    result = models.CharField(_("result"), max_length=1)

    class Meta:
        verbose_name = _("round as the imported file writes it for one player")
        verbose_name_plural = _("rounds as the imported file writes them for one player")
        ordering = ["round", "entry"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_sided_once_per_round"),
            models.CheckConstraint(condition=Q(result__in=["1", "=", "0", "+", "-", "U"]), name="one_sided_result"),
            models.CheckConstraint(condition=Q(colour__in=["w", "b", ""]), name="one_sided_colour"),
            models.CheckConstraint(
                condition=(Q(result="U") & Q(opponent__isnull=True) & Q(colour=""))
                | (Q(result__in=["+", "-"]) & Q(opponent__isnull=False))
                | (Q(result__in=["1", "=", "0"]) & Q(opponent__isnull=False) & Q(colour__in=["w", "b"])),
                name="one_sided_shape",
            ),
            models.CheckConstraint(condition=~Q(opponent=models.F("entry")), name="one_sided_not_self"),
        ]

    def __str__(self):
        return f"{self.entry} — {self.round}: {self.result}"
