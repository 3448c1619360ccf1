"""Words shown for the codes the domain returns: game results, how a round went for an entry, tiebreak
names and abbreviations, why a tie group's order changed. Every text is translated here, in the active language;
the domain itself returns codes only."""

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..domain.catalogue import TIEBREAK_BY_KEY
from ..scoring import outcome_of

SHOW = {"1-0": "1-0", "0-1": "0-1", "1/2": "½-½", "+/-": "+/−", "-/+": "−/+", "-/-": "−/−"}


def show_code(code):
    return SHOW.get(code, "…") if code else "…"


def player_outcome(code_from_player):
    """win / draw / loss of a game from a player's side, from the code seen from that player."""
    return outcome_of(code_from_player)


def kind_label(kind):
    return {
        "played": _("played"),
        "forfeit_win": _("won by forfeit (W.O.)"),
        "forfeit_loss": _("lost by forfeit (W.O.)"),
        "double_forfeit": _("double forfeit (W.O.)"),
        "pab": _("BYE"),
        "absent": _("absent"),
        "withdrawn": _("withdrawn"),
        "late": _("late entry"),
        "pending": _("in progress"),
    }.get(kind, kind)


def _tiebreak(key):
    return TIEBREAK_BY_KEY.get(key)


def tiebreak_label(key):
    """The tiebreak's name in the active language (the catalogue, ``domain.catalogue``)."""
    tiebreak = _tiebreak(key)
    return tiebreak.name(get_language()) if tiebreak else key


def tiebreak_abbr(key):
    tiebreak = _tiebreak(key)
    return tiebreak.abbr(get_language()) if tiebreak else key


def tiebreak_description(key):
    tiebreak = _tiebreak(key)
    return tiebreak.description(get_language()) if tiebreak else ""
