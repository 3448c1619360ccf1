"""damas-swiss pairing engine: FIDE Dutch system (C.04.3, 2026 edition), pure Python.

No Django import anywhere in this package.  The web app converts its data to
the plain dataclasses below, calls one function, and converts the result back.

Public API (stable)
-------------------

    from pairing import (pair_round, TournamentState, PlayerState, RoundEntry,
                         Scoring, ForbiddenPair, Pairing, Explanation,
                         NoValidPairing, InvalidInput)

    pairing = pair_round(state)          # -> Pairing
    pairing.round                        # the round that was paired (1-based)
    pairing.boards                       # [(white_id, black_id), ...] in board order
    pairing.bye                          # id of the pairing-allocated bye, or None
    pairing.explanations[id]             # Explanation for every paired player / the bye

``TournamentState`` (what to pair):
    players: list[PlayerState]; total_rounds: int; initial_color: "w" | "b"
    (colour of pairing number 1 in round 1); scoring: Scoring; micro_match: bool;
    acceleration: "none" | "baku" | "classic"; forbidden: list[ForbiddenPair];
    absences: {id: "zero_bye" | "half_bye" | "full_bye"} for the round to pair;
    round_to_pair: int | None (default: the round after the history).

``PlayerState``: id (pairing number, 1..n, no gaps), name, rating, fmjd_rating,
    title, history: list[RoundEntry | None] (index 0 = round 1; None = no entry,
    i.e. absent with zero points), late_entry_round, withdrawn_from_round,
    accelerations (manual virtual points per round; overrides the method).

``RoundEntry``: kind ("game", "forfeit_win", "forfeit_loss", "pab", "half_bye",
    "full_bye", "zero_bye", "absent"), opponent (id), color ("w"/"b"/None),
    result ("W"/"D"/"L" for games), points (points scored that round; None =
    from the scoring; in micro-match mode the game points of the round, 0..2*win).

``Scoring``: win, draw, loss per game (1/0.5/0 or 2/1/0), bye (pairing-allocated
    bye, default = a win), zero_bye, forfeit_loss.  In micro-match mode a round
    is worth twice these values.

``ForbiddenPair``: players (ids, all mutually forbidden), first_round /
    last_round (None = whole event).

``Explanation`` (per player, plain data): score (pairing score), bracket,
    opponent, color, float ("down"/"up"/None) and float_reason, color_preference
    ("W"/"B"/None), preference_strength ("absolute"/"strong"/"mild"/None),
    preference_granted, color_rule (E.1..E.5).

Errors: ``NoValidPairing`` (no pairing satisfies the absolute criteria);
``InvalidInput`` (message in Portuguese; ``.line`` is the TRF line when known).

Other helpers:
    pairing.check_pairing(state, boards, bye)  # absolute criteria of an edited pairing
                                         # -> list of problems (Portuguese), [] if valid
    pairing.seed_order(players)          # round-1 order: rating, FMJD rating, title, name
    pairing.trffile.parse(text)          # -> TrfDocument: every field of a TRF (the one TRF grammar)
    pairing.trffile.write(document)      # the document as TRF text
    pairing.trf.parse(text) / read(path) # -> TrfData (.state is a TournamentState, .document the file)
    pairing.trf.dumps(state)             # TRF-16 + XX extensions (trf2026=True: 142/152/162)
    pairing.pair_trf(trf_data)           # pair a parsed TRF
    python -m pairing --dutch IN.trf -p [OUT] | -c

Micro-match mode (``micro_match=True``): the colour criteria are switched off
while pairing; the colour of each board is game-1 White, allocated by the
colour-allocation rules (E.1-E.5) on the game-1 colour history.

The pairings are identical to bbpPairings 6.0.0 ``--dutch`` (same pairs,
colours, bye and board order): all 1,894 reference vectors (tests/pairing) and
random tournaments compared with it.  Cost: a 300-player round takes well under
a second; 1,000 players about 6-9 s from round 4 on (early rounds, with huge
score groups, take longer); see bench/pairing.py.

Baku acceleration: group A is the first half of the entries rounded up to an
even number (docs/pairing.md); a TRF marked ``192 FIDE_DUTCH_BAKU`` is accelerated
as the reference engine does (first half rounded up).  Manual virtual points
(``PlayerState.accelerations`` / TRF ``XXA``, ``250``) override the method.
"""

from .api import check_pairing, pair_round, pair_trf, seed_order
from .model import (
    ABSENT,
    ACCEL_BAKU,
    ACCEL_CLASSIC,
    ACCEL_NONE,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    FULL_BYE,
    GAME,
    HALF_BYE,
    PAB,
    ZERO_BYE,
    Explanation,
    ForbiddenPair,
    InvalidInput,
    NoValidPairing,
    Pairing,
    PairingError,
    PlayerState,
    RoundEntry,
    Scoring,
    TournamentState,
)

__all__ = [
    "pair_round",
    "pair_trf",
    "seed_order",
    "check_pairing",
    "TournamentState",
    "PlayerState",
    "RoundEntry",
    "Scoring",
    "ForbiddenPair",
    "Pairing",
    "Explanation",
    "NoValidPairing",
    "InvalidInput",
    "PairingError",
    "GAME",
    "FORFEIT_WIN",
    "FORFEIT_LOSS",
    "PAB",
    "HALF_BYE",
    "FULL_BYE",
    "ZERO_BYE",
    "ABSENT",
    "ACCEL_NONE",
    "ACCEL_BAKU",
    "ACCEL_CLASSIC",
]
