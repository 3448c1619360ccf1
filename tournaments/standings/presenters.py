"""The standings as the public, printed and staff pages show them: plain rows (rank, entry, points, tiebreak
values already formatted in the active locale), the tie groups with the order used and why, the readings of the
regulation in force, and the Swiss cross table."""

import html
import re

from django.urls import reverse
from django.utils import formats
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.core.labels import tiebreak_abbr, tiebreak_description, tiebreak_label
from tournaments.models.choices import TiebreakProfile
from tournaments.setup.tiebreak_list import custom_tiebreaks
from tournaments.standings.readings import order_reason_text, regulation_readings
from tournaments.templatetags.damas import fmt_number


def settings_in_force(t):
    """The readings in force, shown next to the standings and on the tournament page (docs/domain.md)."""
    items = [
        (_("Variant"), t.get_variant_display()),
        (_("Format"), t.get_format_display()),
        (_("Rounds"), t.planned_rounds),
        (_("Time control"), _("%(m)s minutes per player per game") % {"m": t.minutes_per_game}),
        (
            _("Scoring per game"),
            _("win %(w)s, draw %(d)s, loss %(l)s")
            % {"w": fmt_number(t.score_win), "d": fmt_number(t.score_draw), "l": fmt_number(t.score_loss)},
        ),
        (_("Bye worth"), t.bye_worth_display()),
        (
            _("Tiebreak profile"),
            TiebreakProfile.CBJD.label if custom_tiebreaks(t) is None else TiebreakProfile.CUSTOM.label,
        ),
        (_("Unplayed rounds in Buchholz"), t.get_tiebreak_edition_display()),
        (_("Acceleration"), t.get_acceleration_display()),
    ]
    if custom_tiebreaks(t) is None:  # the CBJD profile, also for a stored list it cannot use (issue 25.4)
        items.append((_("CBJD exceptions: progressive score"), t.get_progressive_move_display()))
    if t.opening_table_id:
        items.append((_("Opening table"), str(t.opening_table)))
    return items


def readings(t):
    """The readings of the regulation in force, shown next to the standings (docs/domain.md section 5)."""
    return regulation_readings(t)


def standings_table(tournament, ts, category=None):
    """The standings ``ts`` (a ``TournamentStandings``; for a category's page, computed with that category:
    ``with_categories``) as plain rows for the templates: rank, entry, points, tiebreak values (already formatted
    in the active locale), and per tie group the order used and why. None when ``category`` is not one of the
    standings' categories."""
    categories = list(ts.snapshot.categories)
    sep = formats.get_format("DECIMAL_SEPARATOR")
    keys = ts.columns()
    columns = [
        {"key": k, "label": tiebreak_label(k), "abbr": tiebreak_abbr(k), "description": tiebreak_description(k)}
        for k in keys
    ]
    qual = None
    if category is None:
        pairs = [(row.rank, None, row) for row in ts.rows]
    else:
        code = getattr(category, "code", category)
        try:
            cat = ts.category(code)
        except KeyError:
            return None
        category = cat.category
        pairs = [(c.rank, c.overall_rank, c.row) for c in cat.rows]
        qual = cat.qualification
    qualified = set(qual.qualified) if qual else set()
    player_url = reverse("public:player", args=[tournament.slug, 0])[:-2]  # ".../jogadores/" + pk + "/"
    rows, groups = [], []
    previous = object()
    for index, (rank, overall, row) in enumerate(pairs):
        group = None
        if row.points != previous:
            size = 1
            while index + size < len(pairs) and pairs[index + size][2].points == row.points:
                size += 1
            previous = row.points
            if size > 1:
                order = " → ".join(str(tiebreak_label(k)) for k in row.order)
                text = ngettext(
                    "%(size)s players tied on %(points)s point",
                    "%(size)s players tied on %(points)s points",
                    int(row.points) if row.points == int(row.points) else 2,
                )
                text %= {"size": size, "points": fmt_number(row.points, sep)}
                text += " — " + _("order") + ": " + order
                reason = order_reason_text(row.order_reasons)
                group = {
                    "points": fmt_number(row.points, sep),
                    "size": size,
                    "order": order,
                    "reason": reason,
                    "text": text + (". " + reason if reason else ""),
                }
                groups.append(group)
        entry = ts.entries[row.id]
        player = entry.player
        info = [str(entry.pairing_number or "")]
        if player.state:
            info.append(player.state)
        if entry.rating:
            info.append(str(entry.rating))
        values = [fmt_number(row.tiebreaks.get(k), sep) for k in keys]  # numbers only: safe to join as HTML
        rows.append(
            {
                "rank": rank,
                "overall": overall,
                "entry": entry,
                "name": player.name,
                "url": f"{player_url}{entry.pk}/",
                "search": f"{player.name} {entry.pairing_number or ''}",
                "info": " · ".join(info),
                "points": fmt_number(row.points, sep),
                "values": values,
                # SafeString(text) is what mark_safe(text) returns for a str, without its lazy-argument wrapper
                "cells": SafeString("".join([f"<td>{v}</td>" for v in values])),
                "group": group,
                # the rating shown is the entry's as it is now (one corrected after round 1 still counts as played
                # in the tiebreaks and the spots, issue 35.3)
                "unrated": entry.rating is None,
                "qualified": row.id in qualified,
                "withdrawn": (_("withdrew in round %(n)s") % {"n": row.withdrawn_from}) if row.withdrawn_from else "",
            }
        )
    span = len(columns) + (4 if category is not None else 3)
    _add_rows_html(rows, span, category is not None, ts.spots_provisional)
    return {
        "columns": columns,
        "rows": rows,
        # the rows' lines in one piece: the template shows it as it is (a loop over 1,000 rows was 2 ms of the page)
        "rows_html": SafeString("".join([r["html"] for r in rows])),
        "groups": groups,
        "readings": readings(tournament),
        "span": span,
        "category": category,
        "categories": categories,
        "rounds_completed": ts.rounds_completed,
        "qualification": qual,
        "rights": ts.rights,
        "spots_provisional": ts.spots_provisional,
        "average": fmt_number(qual.average, sep) if qual and qual.average is not None else None,
    }


# a character html.escape changes
_ESCAPED = re.compile("[&<>\"']").search


def _escape(value):
    """django.utils.html.conditional_escape without its lazy-string wrapper (a tenth of a large table's time):
    the same characters escaped (html.escape, as Django's escape), safe strings kept as they are. A plain string
    without any of them (almost every name, rank and number) is returned as it is, without html.escape's five
    replacements."""
    if value.__class__ is str:
        return html.escape(value) if _ESCAPED(value) else value
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def _add_rows_html(rows, span, with_overall, provisional=False):
    """Each row's lines of the standings table (``public/_standings_table.html``) as HTML, under ``"html"``: the
    tie group's line when one starts there, then the player's. Written here rather than as template tags: a
    1,000-player table is 12,000 tags, as long to render as the standings are to compute. Every value goes
    through conditional_escape, as the template's autoescaping would (tests/public/test_standings_rows_html.py
    renders the template markup and compares).

    It pays (issue 39.10, ``bench/shortcuts.py``, CPU, load 18 on 2 cores): 1,000 rows in 0.0019 s here against
    0.0195 s through the template markup they replaced (x10)."""
    esc = _escape
    # the words outside the f-strings, where makemessages finds them ("s/r", "vaga" on a page in Portuguese)
    unrated_title, unrated_abbr, spot_word = esc(_("unrated")), esc(_("unr.")), esc(_("spot"))
    if provisional:  # issue 35.6: while the event runs, as the homologation report says
        spot_word = esc(_("provisional spot"))
    unrated = f' <span class="tag" title="{unrated_title}">{unrated_abbr}</span>'
    spot = f' <span class="tag ok">{spot_word}</span>'
    for r in rows:
        group = r["group"]
        head = f'<tr class="tie-group"><td colspan="{span}">{esc(group["text"])}</td></tr>\n' if group else ""
        tags = (unrated if r["unrated"] else "") + (
            f' <span class="tag warn">{esc(r["withdrawn"])}</span>' if r["withdrawn"] else ""
        )
        if r["qualified"]:
            tags += spot
        overall = f'<td class="muted">{esc(r["overall"])}</td>' if with_overall else ""
        qualified = ' class="qualified"' if r["qualified"] else ""
        r["html"] = SafeString(
            f"{head}<tr{qualified}><td>{esc(r['rank'])}</td>"
            f'<td><a href="{esc(r["url"])}">{esc(r["name"])}</a>{tags} <small>{esc(r["info"])}</small></td>'
            f'{overall}<td class="points">{esc(r["points"])}</td>{r["cells"]}</tr>\n'
        )


def crosstable_rows(t, data, ts):
    """Standings order (``ts``: the overall standings of ``data.snapshot``) with, per round, the opponent's line
    number, colour and points (Swiss cross table)."""
    table = standings_table(t, ts)
    line = {row["entry"].pk: index for index, row in enumerate(table["rows"], start=1)}
    white = pgettext("White in game 1, one letter", "w")
    black = pgettext("Black in game 1, one letter", "b")
    out = []
    for index, row in enumerate(table["rows"], start=1):
        entry = row["entry"]
        cells = []
        for item in data.card(entry):
            if item.opponent is not None:
                text = f"{line.get(item.opponent.pk, '?')}{white if item.colour == 'w' else black}"
            else:
                text = {"pab": _("BYE"), "withdrawn": "–", "late": "–"}.get(item.kind, _("abs."))
            cells.append(
                {
                    "text": text,
                    "points": item.points_text,
                    "kind": item.kind,
                    "forfeit": item.kind in ("forfeit_win", "forfeit_loss", "double_forfeit"),
                }
            )
        out.append(
            {
                "line": index,
                "rank": row["rank"],
                "entry": entry,
                "points": row["points"],
                "cells": cells,
                "values": row["values"],
            }
        )
    return table, out


def rating_lines(change, entries):
    """A player's rating estimate as the player page shows it (issue 40.4): the change, the expected score, the
    performance and one line per game that counted (round, game, opponent, the opponent's rating, the expected
    score, the result, its share of the change), so anyone can check it by hand. ``entries``: pk -> Entry (the
    opponents). None for a player without a rated game."""
    if change is None or (not change.games and change.rating is not None):
        return None
    return {
        "change": change,
        "lines": [
            {
                "round": line.round,
                "game": line.number,
                "opponent": entries.get(line.opponent),
                "opponent_rating": line.opponent_rating,
                "expected": line.expected,
                "score": line.score,
                "change": line.change,
            }
            for line in change.lines
        ],
    }
