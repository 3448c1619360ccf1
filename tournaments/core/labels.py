"""Words shown for the codes the domain returns: game results, how a round went for an entry, tiebreak
names and abbreviations, why a tie group's order changed. Every text is translated here, in the active language;
the domain itself returns codes only."""

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments.domain.catalogue import TIEBREAK_BY_KEY
from tournaments.rounds.scoring import RESULT_CODES, outcome_of, side_label

# A game's code seen from one player's side in the one notation of the product (``scoring.side_label``):
# 2-0 / 1-1 / 0-2 in a micro-match, 1-0 / ½-½ / 0-1 in single games, +/- -/+ -/- for forfeits.
SHOW = {code: side_label(code) for code in RESULT_CODES}
SHOW_SINGLE = {code: side_label(code, micro=False) for code in RESULT_CODES}


def show_code(code, micro=True):
    """A code seen from one player's side in the product's notation; "…" while not entered."""
    return (SHOW if micro else SHOW_SINGLE).get(code, "…") if code else "…"


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


def one_sided_label(kind, code_from_player=None, micro=True):
    """What an imported file recorded for one player alone in a round (``models.OneSidedRound``), said as such:
    "won by forfeit (W.O.) (only on this player's line)"; a game with its result from that player's side."""
    what = kind_label(kind)
    if kind == "played" and code_from_player:
        what = f"{what}, {show_code(code_from_player, micro)}"
    return _("%(what)s (only on this player's line)") % {"what": what}


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


def _decimal_text(text):
    """The engine writes scores with a point ("4.5"); show them with the active locale's separator."""
    import re

    from django.utils import formats

    sep = formats.get_format("DECIMAL_SEPARATOR")
    return re.sub(r"(\d)\.(\d)", rf"\1{sep}\2", str(text or ""))


def explanation_row(info):
    """The engine's explanation of one player's pairing (codes from ``pairing.explain``), in words."""
    floats = {"down": _("floated down"), "up": _("floated up")}
    colours = {"W": _("White"), "B": _("Black")}
    strengths = {"absolute": _("absolute"), "strong": _("strong"), "mild": _("mild")}
    granted = info.get("preference_granted")
    preference = colours.get(info.get("color_preference") or "", "")
    if preference and info.get("preference_strength"):
        preference = f"{preference} ({strengths.get(info['preference_strength'], '')})"
    return {
        "score": _decimal_text(info.get("score")),
        "bracket": _decimal_text(info.get("bracket")) or "—",
        "float": floats.get(info.get("float") or "", _("no float")),
        "float_reason": _decimal_text(info.get("float_reason")),
        "preference": preference or "—",
        "granted": "—" if granted is None else (_("yes") if granted else _("no")),
        "color_rule": info.get("color_rule") or "",
    }
