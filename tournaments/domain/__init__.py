"""Pure standings arithmetic for damas-swiss (no Django import anywhere in this package).

Public API::

    from tournaments.domain import (
        TournamentData, PlayerData, RoundRecord, RoundKind, GameResult, Scoring, Format,
        ByeValue, UnplayedRules, StandingsSettings, compute_standings,
        CategoryRule, Person, is_member, members, category_standings,
        category_qualification, spots_for_average, performances, tournament_from_interchange,
    )
"""

from tournaments.domain.catalogue import TIEBREAK_BY_KEY, TIEBREAKS, Tiebreak
from tournaments.domain.categories import CategoryRow, CategoryRule, Person, category_standings, is_member, members
from tournaments.domain.interchange import tournament_from_interchange
from tournaments.domain.model import (
    CBJD,
    RESULTS_BY_CODE,
    TIEBREAK_KEYS,
    AcceleratedProgressive,
    AccelerationOrder,
    ByeValue,
    DirectEncounterScope,
    DummyCapRounds,
    Format,
    GameResult,
    PlayerData,
    RoundKind,
    RoundRecord,
    Scoring,
    StandingsSettings,
    Top3Order,
    Top3Scope,
    TournamentData,
    UnplayedRules,
)
from tournaments.domain.participants import ParticipantRule, Participation, participated, participation
from tournaments.domain.performance import Performance, performances
from tournaments.domain.qualification import (
    Candidate,
    CategorySpots,
    DoubleSpotRule,
    QualificationResult,
    SpotNote,
    SpotTieRule,
    UnratedInAverage,
    award_categories,
    award_spots,
    category_qualification,
    spots_for_average,
)
from tournaments.domain.standings import StandingRow, Standings, compute_standings
from tournaments.domain.tiebreaks import TiebreakCalculator, TournamentError

__all__ = [
    "CBJD",
    "RESULTS_BY_CODE",
    "TIEBREAK_BY_KEY",
    "TIEBREAK_KEYS",
    "TIEBREAKS",
    "Tiebreak",
    "AcceleratedProgressive",
    "AccelerationOrder",
    "DirectEncounterScope",
    "ByeValue",
    "DummyCapRounds",
    "Format",
    "GameResult",
    "PlayerData",
    "RoundKind",
    "RoundRecord",
    "Scoring",
    "StandingsSettings",
    "Top3Order",
    "Top3Scope",
    "TournamentData",
    "UnplayedRules",
    "TiebreakCalculator",
    "TournamentError",
    "Standings",
    "StandingRow",
    "compute_standings",
    "CategoryRule",
    "CategoryRow",
    "Person",
    "category_standings",
    "is_member",
    "members",
    "QualificationResult",
    "Candidate",
    "SpotNote",
    "SpotTieRule",
    "award_spots",
    "award_categories",
    "CategorySpots",
    "DoubleSpotRule",
    "UnratedInAverage",
    "ParticipantRule",
    "Participation",
    "participated",
    "participation",
    "category_qualification",
    "spots_for_average",
    "Performance",
    "performances",
    "tournament_from_interchange",
]
