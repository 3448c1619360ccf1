"""The data model of the whole domain (see ../shared/spec/domain.md). Invariants live in constraints."""

from .audit import AuditEntry
from .jobs import PairingJob
from .openings import Opening, OpeningDraw, OpeningTable
from .players import Player, RatingList, Suspension
from .rounds import Board, Game, OneSidedRound, Round, Seat
from .tournament import Absence, Category, Entry, ForbiddenPair, Tournament, TournamentRole

__all__ = [
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
    "RatingList",
    "Round",
    "Seat",
    "Suspension",
    "Tournament",
    "TournamentRole",
]
