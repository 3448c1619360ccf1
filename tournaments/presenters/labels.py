"""Words shown for the codes the domain returns: game results, how a round went for an entry, tiebreak
names and abbreviations, why a tie group's order changed. Every text is translated here, in the active language;
the domain itself returns codes only."""

from django.utils.translation import gettext as _

SHOW = {"1-0": "1-0", "0-1": "0-1", "1/2": "½-½", "+/-": "+/−", "-/+": "−/+", "-/-": "−/−"}


def show_code(code):
    return SHOW.get(code, "…") if code else "…"


def player_outcome(code_from_player):
    """win / draw / loss of a game from a player's side, from the code seen from that player."""
    return {"1-0": "win", "+/-": "win", "1/2": "draw", "0-1": "loss", "-/+": "loss", "-/-": "loss"}[code_from_player]


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


def tiebreak_label(key):
    return {
        "progressive": _("Progressive score"),
        "progressive_corrected": _("Corrected progressive score"),
        "buchholz": _("Buchholz"),
        "buchholz_cut1": _("Buchholz cut 1"),
        "buchholz_median": _("Median Buchholz"),
        "direct_encounter": _("Direct encounter"),
        "sonneborn_berger": _("Sonneborn-Berger"),
        "matches_won": _("Micro-matches won"),
        "games_won": _("Games won"),
        "match_points": _("Match points"),
        "opponents_rating": _("Average rating of opponents"),
        "truncated_solkoff": _("Truncated Solkoff"),
        "riga": _("Riga coefficient"),
    }.get(key, key)


def tiebreak_abbr(key):
    return {
        "progressive": _("Prog."),
        "progressive_corrected": _("Prog. corr."),
        "buchholz": _("Buch."),
        "buchholz_cut1": _("Buch. c1"),
        "buchholz_median": _("Buch. med."),
        "direct_encounter": _("DE"),
        "sonneborn_berger": _("SB"),
        "matches_won": _("MW"),
        "games_won": _("GW"),
        "match_points": _("MP"),
        "opponents_rating": _("ARO"),
        "truncated_solkoff": _("TS"),
        "riga": _("Riga"),
    }.get(key, key)


def reason_text(reason):
    """The domain states why a tie group's order differs in Portuguese; show it in the active language."""
    if not reason:
        return ""
    from ..domain import standings as domain

    known = [
        (
            domain.REASON_DIRECT,
            _(
                "Two tied players who met: direct encounter comes first (regulation, art. 6, b); "
                "if their encounter was level, the normal order follows."
            ),
        ),
        (
            domain.REASON_ACCELERATION_END,
            _(
                "Pairing acceleration was used: the progressive score becomes the last "
                "criterion (regulation, art. 6, a)."
            ),
        ),
        (
            domain.REASON_ACCELERATION_SECOND,
            _(
                "Pairing acceleration was used: the progressive score becomes the "
                "second criterion (regulation, art. 6, a)."
            ),
        ),
        (
            domain.REASON_TOP3_END,
            _(
                "The 3 highest-rated players beat every other opponent and drew among "
                "themselves: the progressive score becomes the last criterion (regulation, "
                "art. 6, c)."
            ),
        ),
        (
            domain.REASON_TOP3_SECOND,
            _(
                "The 3 highest-rated players beat every other opponent and drew among "
                "themselves: the progressive score becomes the second criterion "
                "(regulation, art. 6, c)."
            ),
        ),
        (
            domain.REASON_TOP3_BUCHHOLZ_END,
            _(
                "The 3 highest-rated players beat every other opponent and drew among themselves: Buchholz "
                "becomes the first criterion and the progressive score (the corrected one too) the last "
                "(regulation, art. 6, c)."
            ),
        ),
        (
            domain.REASON_TOP3_BUCHHOLZ_SECOND,
            _(
                "The 3 highest-rated players beat every other opponent and drew among themselves: Buchholz "
                "becomes the first criterion and the progressive score the second (regulation, art. 6, c)."
            ),
        ),
    ]
    found = [text for original, text in known if original in reason]
    return " ".join(found) if found else reason
