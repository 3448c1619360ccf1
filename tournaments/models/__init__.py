"""The data model of the whole domain (see docs/domain.md). Invariants live in constraints."""

from tournaments.models.accounts import LoginSessions, RoleOffer, StaffAccount
from tournaments.models.attempts import AttemptCounter
from tournaments.models.audit import AuditEntry
from tournaments.models.editions import RegulationEdition
from tournaments.models.federation import (
    ApiCredential,
    ApiNonce,
    OutgoingStatus,
    OutgoingSubmission,
    RatingListRow,
    RatingRelease,
    RegistrySync,
    Stage,
    StageFingerprint,
    StageRequest,
    StageStatus,
    Submission,
    SubmissionStatus,
)
from tournaments.models.jobs import PairingJob
from tournaments.models.openings import Opening, OpeningDraw, OpeningTable
from tournaments.models.players import Player, RatingList, Suspension
from tournaments.models.reporting import PlayerCode, ReportingConfig, ResultReport
from tournaments.models.rounds import Board, Game, OneSidedRound, Round, Seat
from tournaments.models.tournament import (
    Absence,
    Category,
    Entry,
    ForbiddenPair,
    SettingsChange,
    Tournament,
    TournamentRole,
)

__all__ = [
    "RegulationEdition",
    "LoginSessions",
    "ApiCredential",
    "ApiNonce",
    "OutgoingStatus",
    "OutgoingSubmission",
    "RatingListRow",
    "RatingRelease",
    "RegistrySync",
    "Stage",
    "StageFingerprint",
    "StageRequest",
    "StageStatus",
    "Submission",
    "SubmissionStatus",
    "Absence",
    "AuditEntry",
    "Board",
    "Category",
    "Entry",
    "ForbiddenPair",
    "Game",
    "OneSidedRound",
    "Opening",
    "OpeningDraw",
    "OpeningTable",
    "PairingJob",
    "Player",
    "PlayerCode",
    "AttemptCounter",
    "RoleOffer",
    "RatingList",
    "ReportingConfig",
    "ResultReport",
    "Round",
    "Seat",
    "SettingsChange",
    "StaffAccount",
    "Suspension",
    "Tournament",
    "TournamentRole",
]
