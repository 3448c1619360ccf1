"""Enumerations shared by the models, the services and the interchange file."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.domain import labelled, model, participants, qualification

# The settings the pure code reads are its enums (tournaments/domain/labelled.py), defined once there: the models take
# their choices from the same classes, under the names the app has always used (RoundFormat is the domain's Format,
# ProgressiveMove its AcceleratedProgressive, TiebreakEdition its UnplayedRules). Their labels speak the active language.
labelled.use_translation(_)
RoundFormat = model.Format
ByeValue = model.ByeValue
TiebreakEdition = model.UnplayedRules
ProgressiveMove = model.AcceleratedProgressive
Top3Order = model.Top3Order
Top3Scope = model.Top3Scope
DirectEncounterScope = model.DirectEncounterScope
AccelerationOrder = model.AccelerationOrder
ParticipantRule = participants.ParticipantRule
DoubleSpotRule = qualification.DoubleSpotRule
SpotTieRule = qualification.SpotTieRule
UnratedInAverage = qualification.UnratedInAverage

# Brazilian states (UF).
UF_CODES = [
    "AC",
    "AL",
    "AP",
    "AM",
    "BA",
    "CE",
    "DF",
    "ES",
    "GO",
    "MA",
    "MT",
    "MS",
    "MG",
    "PA",
    "PB",
    "PR",
    "PE",
    "PI",
    "RJ",
    "RN",
    "RS",
    "RO",
    "RR",
    "SC",
    "SP",
    "SE",
    "TO",
]
UF_CHOICES = [(uf, uf) for uf in UF_CODES]

RATING_MIN = 100
RATING_MAX = 3000
# Rounds of a tournament: lichess Swiss events reach 100, and their TRF files are imported as they are.
MAX_ROUNDS = 100


class Sex(models.TextChoices):
    MALE = "M", _("Male")
    FEMALE = "F", _("Female")


class Title(models.TextChoices):
    GMI = "GMI", "GMI"
    MI = "MI", "MI"
    MF = "MF", "MF"
    GMIF = "GMIF", "GMIF"
    MIF = "MIF", "MIF"
    MFF = "MFF", "MFF"
    MN = "MN", "MN"


class Variant(models.TextChoices):
    BRAZILIAN_64 = "brazilian-64", _("Brazilian draughts (64 squares)")
    INTERNATIONAL_100 = "international-100", _("International draughts (100 squares)")


class Acceleration(models.TextChoices):
    NONE = "none", _("None")
    BAKU = "baku", _("Baku")
    CLASSIC = "classic", _("Classic")


class AbsenceValue(models.TextChoices):
    ZERO = "zero", _("Zero")
    DRAW = "draw", _("Draw")


class OwnAbsenceValue(models.TextChoices):
    """The value of one announced absence, when it is not the tournament's setting (imported files: a TRF gives
    each absence its own, H half a point, F a full point, Z zero)."""

    SETTING = "", _("The tournament's setting")
    ZERO = "zero", _("Zero")
    DRAW = "draw", _("Draw")
    WIN = "win", _("Win")


class TiebreakProfile(models.TextChoices):
    CBJD = "cbjd", _("CBJD (national regulation)")
    CUSTOM = "custom", _("Custom list")


class TimeUnit(models.TextChoices):
    """ "21 x 21 minutos ... (para ambas as partidas)" (regulation art. 2 and 6)."""

    GAME = "game", _("Minutes per player for each game")
    MICRO_MATCH = "match", _("Minutes per player for the whole micro-match (both games)")


class Tablita100(models.TextChoices):
    """ "usando a Tablita em micro-match" on 100 squares, where the seeds hold no official table (art. 2, 6)."""

    REQUIRED = "required", _("Required, as the text says (without a table loaded the condition is not met)")
    FREE = "free", _("Free openings accepted when no 100-square table is loaded")


class PairingProgramRule(models.TextChoices):
    """How the pairing-software condition (regulation art. 5 and 6) is read."""

    NAMED = "named", _("Met when every round was paired by a named program (the federation is asked to accept it)")
    STRICT = "strict", _("Only Swiss Perfect or “48”, as art. 5 says")


class OpeningDrawMode(models.TextChoices):
    PER_ROUND = "round", _("One opening per round")
    PER_BOARD = "board", _("One opening per board")


class InitialColour(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class WithdrawalKind(models.TextChoices):
    APPROVED = "approved", _("Withdrawal approved by the arbiter")
    ABANDONMENT = "abandonment", _("Abandonment")


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")


class PairingJobStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class SeatSide(models.TextChoices):
    FIRST = "first", _("First (White in game 1)")
    SECOND = "second", _("Second")
    BYE = "bye", _("Pairing-allocated bye")


class GameResult(models.TextChoices):
    """A game's result from the point of view of that game's White (the interchange codes)."""

    WHITE_WIN = "1-0", "1-0"
    DRAW = "1/2", "½-½"
    BLACK_WIN = "0-1", "0-1"
    WHITE_FORFEIT_WIN = "+/-", _("+/- (W.O. for White)")
    BLACK_FORFEIT_WIN = "-/+", _("-/+ (W.O. for Black)")
    DOUBLE_FORFEIT = "-/-", _("-/- (double W.O.)")


class SuspensionSource(models.TextChoices):
    TRIBUNAL = "tribunal", _("National tribunal")
    ABANDONMENT = "abandonment", _("Abandonment (regulation art. 10)")
    # the "Situação" column of a rating list the federation published (issue 37.9: it read "Tribunal nacional")
    RATING_LIST = "rating_list", _("Federation's rating list (Situação column)")


class OpeningKind(models.TextChoices):
    MOVES = "moves", _("Moves")
    SETUP = "setup", _("Set-up position")


class DrawMethod(models.TextChoices):
    RANDOM = "random", _("Random draw")
    VENUE = "venue", _("Drawn at the venue")


class StaffRole(models.TextChoices):
    DIRECTOR = "director", _("Tournament director")
    ARBITER = "arbiter", _("Arbiter")


BRAZIL_TIME_ZONES = [
    ("America/Noronha", "Fernando de Noronha (UTC-2)"),
    ("America/Sao_Paulo", _("Brasília (UTC-3)")),
    ("America/Manaus", _("Amazon (UTC-4)")),
    ("America/Rio_Branco", _("Acre (UTC-5)")),
]


class AuditAction(models.TextChoices):
    """Every action the audit log records (``tournaments.audit.services.audit`` refuses any other): the one list.
    Each label is the action as a short sentence (the audit page's words when an action has no sentence of its own,
    the admin's list); callers pass the member, never its code as a string (tests/tournaments/test_audit_actions.py)."""

    TOURNAMENT_CREATE = "tournament.create", _("Tournament created")
    TOURNAMENT_IMPORT = "tournament.import", _("Tournament imported from a file")
    TOURNAMENT_SETTINGS = "tournament.settings", _("Settings changed")
    STAFF_CREATE = "staff.create", _("Staff login created")
    STAFF_INVITE = "staff.invite", _("Staff login invited")
    STAFF_OFFER = "staff.offer", _("Access offered")
    STAFF_GRANT = "staff.grant", _("Access given")
    STAFF_DECLINE = "staff.decline", _("Offered access declined")
    STAFF_WITHDRAW = "staff.withdraw", _("Offered access withdrawn")
    STAFF_REMOVE = "staff.remove", _("Access removed")
    STAFF_PAIRING = "staff.pairing", _("Who may pair the rounds changed")
    PLAYER_CREATE = "player.create", _("Player registered")
    PLAYER_UPDATE = "player.update", _("Registry data changed")
    RATINGLIST_IMPORT = "ratinglist.import", _("Rating list imported")
    SUSPENSION_CREATE = "suspension.create", _("Player suspended")
    SUSPENSION_LIFT = "suspension.lift", _("Suspension lifted")
    SUSPENSION_CONFIRM = "suspension.confirm", _("Suspension confirmed")
    CATEGORY_CREATE = "category.create", _("Category created")
    CATEGORY_UPDATE = "category.update", _("Category changed")
    CATEGORY_DELETE = "category.delete", _("Category deleted")
    CATEGORY_REAPPLY = "category.reapply", _("Categories applied again to the entries")
    ENTRY_CREATE = "entry.create", _("Player entered")
    ENTRY_UPDATE = "entry.update", _("Entry changed")
    ENTRY_DELETE = "entry.delete", _("Entry deleted")
    ENTRY_WITHDRAW = "entry.withdraw", _("Player withdrawn")
    ENTRY_WITHDRAWAL_KIND = "entry.withdrawal_kind", _("Kind of withdrawal changed")
    ENTRY_REINSTATE = "entry.reinstate", _("Withdrawal undone")
    ENTRY_RATING_REFRESH = "entry.rating_refresh", _("Entry's rating updated")
    ENTRY_RATING_KEEP = "entry.rating_keep", _("Entry's rating kept")
    ENTRY_RENUMBER = "entry.renumber", _("Pairing numbers re-assigned")
    ABSENCE_CREATE = "absence.create", _("Absence announced")
    ABSENCE_DELETE = "absence.delete", _("Announced absence cancelled")
    FORBIDDEN_CREATE = "forbidden.create", _("Forbidden pair recorded")
    FORBIDDEN_REMOVE = "forbidden.remove", _("Forbidden pair removed")
    OPENING_DRAW = "opening.draw", _("Opening drawn")
    OPENINGTABLE_IMPORT = "openingtable.import", _("Opening tables imported")
    ROUND_PAIR = "round.pair", _("Round paired")
    ROUND_PUBLISH = "round.publish", _("Round published")
    ROUND_UNDO = "round.undo", _("Pairing undone")
    ROUND_EDIT = "round.edit", _("Pairing edited by hand")
    ROUND_PROGRAM = "round.program", _("Pairing program recorded")
    RESULT_ENTER = "result.enter", _("Result entered")
    RESULT_CORRECT = "result.correct", _("Result corrected")
    GAME_PDN = "game.pdn", _("Moves recorded")
    GAME_CONFLICT_KEPT = "game.conflict_kept", _("Result kept against the recorded moves")
    REPORTING_ENABLED = "reporting.enabled", _("Player reporting turned on")
    REPORTING_DISABLED = "reporting.disabled", _("Player reporting turned off")
    REPORTING_CODES = "reporting.codes", _("Players' reporting codes issued")
    REPORTING_REISSUE = "reporting.reissue", _("A player's reporting code issued again")
    REPORTING_APPROVE = "reporting.approve", _("Result reported by the players approved")
    REPORTING_ATTEMPTS = "reporting.attempts", _("Wrong player codes cleared")
    HOMOLOGATION_EXPORT = "homologation.export", _("Homologation workbook recorded as sent")
    HOMOLOGATION_RESEND = "homologation.resend", _("Homologation sent again")
    FEDERATION_QUEUE = "federation.queue", _("Stage queued for the federation")
    FEDERATION_STAGE_REQUEST = "federation.stage_request", "Registro da etapa pedido à federação"
    FEDERATION_STAGE_BOUND = "federation.stage_bound", "Evento ligado à etapa do calendário da federação"
    STAGE_REQUEST = "stage.request", "Etapa pedida ao calendário"
    STAGE_ACCEPT = "stage.accept", "Etapa aceita no calendário"
    STAGE_REFUSE = "stage.refuse", "Etapa recusada no calendário"
    STAGE_ASK_AGAIN = "stage.ask_again", "Etapa recusada pedida de novo ao calendário"
    SUBMISSION_RECEIVE = "submission.receive", _("Stage received")
    SUBMISSION_APPROVE = "submission.approve", _("Stage approved")
    SUBMISSION_REFUSE = "submission.refuse", _("Stage refused")
    RATING_RELEASE_PUBLISH = "rating_release.publish", _("National rating list published")
    SUBMISSION_REVERIFY = "submission.reverify", _("Stage verified again, its verdict changed")
    SUBMISSION_IDENTITY = "submission.identity", _("Identity of a player without an ID checked")
    OFFICER_CREATE = "officer.create", _("Federation officer created")
    CREDENTIAL_ISSUE = "credential.issue", _("API credential issued")
    CREDENTIAL_REVOKE = "credential.revoke", _("API credential revoked")
    REGISTRY_SYNC = "registry.sync", _("Registry synchronised")
    EDITION_PUBLISH = "edition.publish", _("Regulation edition published")
