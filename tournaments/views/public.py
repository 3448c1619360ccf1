"""Public pages: read-only, no login, GET only.

Drafts never show: every round is read with ``published_only=True`` (the filter is in the query).
Caching, under ``cache.page_key`` (a per-tournament version that every write bumps, so a saved result or a
published round shows on the next view):
* anonymous visitors get the whole page from the cache, with a hole for the CSRF token of the language form,
  filled per request (``full_page_cache``): no query at all;
* logged-in users get the heavy part (the tables) from the cache and the layout rendered per request, so nothing
  user-specific is ever cached.
Hot pages (standings, pairings) are plain template loops over rows prepared here (numbers already formatted in
the active locale, URLs already built): django-tables2 is kept for the staff tables.
"""

import time
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property, wraps

from django.conf import settings
from django.core.cache import cache as django_cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_safe

from .. import cache as page_cache
from .. import standings as standings_module
from ..models import Category, Entry, Game, Round, Tournament
from ..models.choices import EntryStatus, RoundStatus, TiebreakProfile
from ..scoring import board_points, white_is_first
from ..selectors import board_pair, entries_in_order, scoring_of, tournament_history
from ..templatetags.damas import board_svg_markup, fmt_number

PAGE_TIMEOUT = 60 * 60 * 6
# With a per-process cache (LocMemCache, the default without REDIS_URL) a write bumps the version only in the
# process that made it: other app-server processes would keep their pages. There, pages live a few seconds only,
# so every process shows a saved result within LOCAL_PAGE_TIMEOUT seconds. A shared cache (Redis) is exact.
LOCAL_PAGE_TIMEOUT = 10


def page_timeout():
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    return LOCAL_PAGE_TIMEOUT if backend.endswith("LocMemCache") else PAGE_TIMEOUT


MIRROR = {"1-0": "0-1", "0-1": "1-0", "1/2": "1/2", "+/-": "-/+", "-/+": "+/-", "-/-": "-/-"}
SHOW = {"1-0": "1-0", "0-1": "0-1", "1/2": "½-½", "+/-": "+/−", "-/+": "−/+", "-/-": "−/−"}


# --------------------------------------------------------------------------------------------- helpers


def tournament_or_404(slug):
    return get_object_or_404(Tournament.objects.select_related("opening_table"), slug=slug)


def cached_fragment(tournament, name, build, *parts):
    """HTML of ``build()`` kept under the tournament's current version and the active language."""
    key = page_cache.page_key(tournament.pk, name, translation.get_language() or "", *parts)
    html = django_cache.get(key)
    if html is None:
        html = build()
        django_cache.set(key, html, page_timeout())
    return html


def sort_key(name):
    """Alphabetical order that ignores accents and case (Á sorts with A)."""
    text = unicodedata.normalize("NFKD", name or "")
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def game_from_first(number, code):
    """A game's code seen from the board's first player (left), from the code seen from that game's White."""
    if code is None:
        return None
    return code if white_is_first(number) else MIRROR[code]


def show_code(code):
    return SHOW.get(code, "…") if code else "…"


def player_outcome(code_from_player):
    """win / draw / loss of a game from a player's side, from the code seen from that player."""
    return {"1-0": "win", "+/-": "win", "1/2": "draw", "0-1": "loss", "-/+": "loss", "-/-": "loss"}[code_from_player]


def base_context(tournament, **extra):
    ctx = {"tournament": tournament}
    ctx.update(extra)
    return ctx


@dataclass
class Seen:
    """One entry's view of one round, for pairings, player cards and the cross table."""

    number: int
    kind: str
    points: Decimal
    board: int | None = None
    colour: str | None = None  # "w" first player (White in game 1), "b" second
    opponent: object = None  # Entry
    games: list = field(default_factory=list)  # dicts: number, white (own colour), code and outcome from me
    opening: object = None
    running: Decimal = Decimal(0)


def published_rounds(tournament, entries, published_only=True):
    """Rounds with boards, seats and games; drafts filtered out in the query (never in a template). The
    standings module's lean reader gives plain rows, several times faster than the model prefetch."""
    return standings_module.lean_rounds_with_boards(tournament, entries, published_only=published_only)


class PublicData:
    """Everything the public pages show, from a handful of queries (published rounds only)."""

    def __init__(self, tournament, include_drafts=False):
        """``include_drafts`` is for the tournament's own staff (printing a round before publishing it)."""
        self.tournament = tournament
        self.scoring = scoring_of(tournament)
        self.entries = entries_in_order(tournament)
        self.rounds = published_rounds(tournament, self.entries, published_only=not include_drafts)
        self.by_id = {e.pk: e for e in self.entries}
        self.categories = list(Category.objects.filter(tournament=tournament).order_by("position", "code"))
        _e, _r, self.history = tournament_history(tournament, rounds=self.rounds, entries=self.entries)
        self.sep = formats.get_format("DECIMAL_SEPARATOR")
        # URL prefixes reversed once: a {% url %} tag per row costs more than the rest of the row.
        self.player_url = reverse("public:player", args=[tournament.slug, 0])[:-2]
        self.round_url = reverse("public:round", args=[tournament.slug, 0])[:-2]

    def fmt(self, value):
        return fmt_number(value, self.sep)

    def round(self, number):
        for rnd in self.rounds:
            if rnd.number == number:
                return rnd
        raise Http404(_("This round is not published."))

    @property
    def current(self):
        return self.rounds[-1] if self.rounds else None

    def score_before(self, number):
        """Points of every entry before round ``number``."""
        out = {}
        for entry_id, records in self.history.items():
            out[entry_id] = sum((r.points for r in records if r.round < number), Decimal(0))
        return out

    def totals(self):
        return {entry_id: sum((r.points for r in records), Decimal(0)) for entry_id, records in self.history.items()}

    def boards(self, rnd, with_scores=True):
        """Rows of the pairings-by-board table of a round."""
        before = self.score_before(rnd.number) if with_scores else {}
        rows = []
        for board in rnd.boards.all():
            first, second = board_pair(board)
            if first is None or second is None:
                continue
            results = {g.number: g.result for g in board.games.all()}
            p1, p2 = board_points(results, self.scoring)
            complete = bool(results) and all(r is not None for r in results.values())
            started = any(r is not None for r in results.values())
            games = [
                {
                    "number": n,
                    "code": game_from_first(n, code),
                    "show": show_code(game_from_first(n, code)),
                    "white_is_first": white_is_first(n),
                }
                for n, code in sorted(results.items())
            ]
            rows.append(
                {
                    "number": board.number,
                    "first": first,
                    "second": second,
                    "first_url": f"{self.player_url}{first.pk}/",
                    "second_url": f"{self.player_url}{second.pk}/",
                    "url": f"{self.round_url}{rnd.number}/mesas/{board.number}/",
                    "first_before": self.fmt(before.get(first.pk)),
                    "second_before": self.fmt(before.get(second.pk)),
                    "first_points": self.fmt(p1),
                    "second_points": self.fmt(p2),
                    "complete": complete,
                    "started": started,
                    "games": games,
                    "opening": board.opening or rnd.opening,
                    "search": f"{first.player.name} {second.player.name} {first.pairing_number} {second.pairing_number}",
                }
            )
        return rows

    def bye_entries(self, rnd):
        return [seat.entry for seat in rnd.bye_seats]

    def not_paired(self, rnd):
        """Entries with no seat in the round (absent, withdrawn, entered later), with what they scored."""
        seated = {s.entry_id for b in rnd.boards.all() for s in b.seats.all()} | {s.entry_id for s in rnd.bye_seats}
        out = []
        for entry in self.entries:
            if entry.pk in seated:
                continue
            record = next((r for r in self.history.get(entry.pk, []) if r.round == rnd.number), None)
            kind = record.kind if record else "absent"
            out.append(
                {
                    "entry": entry,
                    "kind": kind,
                    "label": kind_label(kind),
                    "points": self.fmt(record.points if record else 0),
                }
            )
        return out

    def alphabetical(self, rnd):
        """Every entry of the round by name: board, colour and opponent (or bye / absence)."""
        before = self.score_before(rnd.number)
        rows = []
        for b in self.boards(rnd, with_scores=False):
            for me, opp, colour in ((b["first"], b["second"], "w"), (b["second"], b["first"], "b")):
                rows.append(
                    {
                        "entry": me,
                        "board": b["number"],
                        "colour": colour,
                        "opponent": opp,
                        "board_url": b["url"],
                        "before": self.fmt(before.get(me.pk)),
                        "kind": "board",
                    }
                )
        for entry in self.bye_entries(rnd):
            rows.append(
                {
                    "entry": entry,
                    "board": None,
                    "kind": "pab",
                    "label": kind_label("pab"),
                    "before": self.fmt(before.get(entry.pk)),
                }
            )
        for item in self.not_paired(rnd):
            rows.append(
                {
                    "entry": item["entry"],
                    "board": None,
                    "kind": item["kind"],
                    "label": item["label"],
                    "before": self.fmt(before.get(item["entry"].pk)),
                }
            )
        rows.sort(key=lambda r: (sort_key(r["entry"].player.name), r["entry"].pk))
        for row in rows:
            row["search"] = f"{row['entry'].player.name} {row['entry'].pairing_number or ''}"
            row["url"] = f"{self.player_url}{row['entry'].pk}/"
        return rows

    @cached_property
    def seat_index(self):
        """(round number, entry id) -> (board, first entry, second entry), built once for every card."""
        index = {}
        for rnd in self.rounds:
            for board in rnd.boards.all():
                first, second = board_pair(board)
                if first is None or second is None:
                    continue
                index[(rnd.number, first.pk)] = index[(rnd.number, second.pk)] = (board, first, second)
        return index

    def card(self, entry):
        """Every round of one entry: opponent, colours, opening, each game's result, running score."""
        seen = []
        running = Decimal(0)
        records = {r.round: r for r in self.history.get(entry.pk, [])}
        for rnd in self.rounds:
            record = records.get(rnd.number)
            if record is None:
                continue
            item = Seen(rnd.number, record.kind, record.points)
            seat = self.seat_index.get((rnd.number, entry.pk))
            if seat is not None:
                board, first, second = seat
                am_first = first.pk == entry.pk
                item.board = board.number
                item.colour = "w" if am_first else "b"
                item.opponent = second if am_first else first
                item.opening = board.opening or rnd.opening
                for game in board.games.all():
                    white = white_is_first(game.number) == am_first
                    code = None
                    if game.result:
                        code = game.result if white else MIRROR[game.result]
                    item.games.append(
                        {
                            "number": game.number,
                            "white": white,
                            "code": code,
                            "show": show_code(code),
                            "outcome": player_outcome(code) if code else None,
                        }
                    )
            running += record.points
            item.running = running
            item.points_text = self.fmt(record.points)
            item.running_text = self.fmt(running)
            item.label = kind_label(record.kind)
            seen.append(item)
        return seen


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


# --------------------------------------------------------------------------------------------- standings


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
    ]
    found = [text for original, text in known if original in reason]
    return " ".join(found) if found else reason


def readings(t):
    """The readings of the regulation in force, shown next to the standings (domain.md section 5)."""
    cut = t.corrected_progressive_cut
    out = [
        ngettext(
            "Corrected progressive score: the progressive score without the first round",
            "Corrected progressive score: the progressive score without the first %(n)s rounds",
            cut,
        )
        % {"n": cut}
        + "; "
        + (
            _("points won without play count.")
            if t.corrected_progressive_unplayed
            else _("points won without play (BYE, W.O.) do not count.")
        ),
        _("Buchholz: unplayed rounds as in article 16 of the FIDE Tie-Break Regulations (%(edition)s).")
        % {"edition": t.get_tiebreak_edition_display()},
    ]
    if t.tiebreak_profile == TiebreakProfile.CBJD:
        out.append(
            _(
                "CBJD order: progressive score, corrected progressive score, Buchholz, decided per tie "
                "group; when every criterion is equal the players share the place."
            )
        )
    return out


def compute_standings_for(t, data=None, rights=False, category=None):
    """(``tournaments.standings.TournamentStandings`` of the published, complete rounds, every category).

    With ``data`` (a PublicData already loaded) the rounds and entries are reused, which saves queries.
    ``rights``: ask the homologation check whether qualification spots are awarded (only the category pages
    show it; it costs as much as the tiebreaks themselves on a large event). ``category`` (a code): the only
    category whose standings and spots are computed (none for the overall page).
    """
    module = standings_module
    rights = None if rights else False  # None: the standings ask the homologation check
    if data is None:
        entries, counted, history, categories = module.read_tournament(t, public=True)
    else:
        counted = module.counted_rounds(data.rounds, True)
        entries, counted, history = tournament_history(t, rounds=counted, entries=data.entries)
        categories = data.categories
    code = (getattr(category, "code", category) or "").lower()
    wanted = [c for c in categories if code and c.code.lower() == code]
    return module.standings_from_history(t, entries, counted, history, wanted, True, rights), categories


def standings_table(tournament, data=None, category=None):
    """The standings as plain rows for the templates: rank, entry, points, tiebreak values (already formatted in
    the active locale), and per tie group the order used and why."""
    ts, categories = compute_standings_for(tournament, data, rights=category is not None, category=category)
    sep = formats.get_format("DECIMAL_SEPARATOR")
    keys = ts.columns()
    columns = [{"key": k, "label": tiebreak_label(k), "abbr": tiebreak_abbr(k)} for k in keys]
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
                reason = reason_text(row.order_reason)
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
                "cells": mark_safe("".join(f"<td>{v}</td>" for v in values)),
                "group": group,
                "unrated": row.unrated,
                "qualified": row.id in qualified,
                "withdrawn": (_("withdrew in round %(n)s") % {"n": row.withdrawn_from}) if row.withdrawn_from else "",
            }
        )
    return {
        "columns": columns,
        "rows": rows,
        "groups": groups,
        "readings": readings(tournament),
        "span": len(columns) + (4 if category is not None else 3),
        "category": category,
        "categories": categories,
        "rounds_completed": ts.rounds_completed,
        "qualification": qual,
        "rights": ts.rights,
        "average": fmt_number(qual.average, sep) if qual and qual.average is not None else None,
    }


# --------------------------------------------------------------------------------------------- views


CSRF_HOLE = "csrf-hole-3f9a1c"
CSRF_HOLE_BYTES = CSRF_HOLE.encode()
SLUG_TIMEOUT = 60


_SLUGS = {}  # slug -> (tournament id, expiry): kept in the process, it saves a cache round trip per page


@receiver([post_save, post_delete], sender=Tournament, dispatch_uid="public-forget-slug")
def _forget_slug(sender, instance, **kwargs):
    _SLUGS.pop(instance.slug, None)


def tournament_pk(slug):
    """The tournament's id by slug, remembered for a minute (a cached page then costs no query at all)."""
    now = time.monotonic()
    known = _SLUGS.get(slug)
    if known is not None and known[1] > now:
        return known[0]
    pk = Tournament.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if pk is None:
        _SLUGS.pop(slug, None)
        raise Http404(_("No such tournament."))
    if len(_SLUGS) > 1000:
        _SLUGS.clear()
    _SLUGS[slug] = (pk, now + SLUG_TIMEOUT)
    return pk


def _render(request, template, tournament, **ctx):
    if getattr(request, "_full_page_cache", False):
        ctx["csrf_token"] = CSRF_HOLE
    return render(request, template, base_context(tournament, **ctx))


def full_page_cache(view):
    """For anonymous visitors, keep the whole page (layout included) under the tournament's version.

    The only per-visitor piece of an anonymous page is the CSRF token of the language form: the cached HTML keeps
    a hole there, filled on every request. A hit costs one small query (the tournament's id by slug). Logged-in
    users, URLs with a query string and visitors with pending messages get the page rendered around the cached
    fragment instead.
    """

    @wraps(view)
    def wrapper(request, slug, **kwargs):
        if request.GET or "messages" in request.COOKIES or request.user.is_authenticated:
            return view(request, slug, **kwargs)
        pk = tournament_pk(slug)
        key = page_cache.page_key(pk, "page", translation.get_language() or "", request.path)
        content = django_cache.get(key)  # UTF-8 bytes: no decoding or encoding of the page on a hit
        if content is None:
            request._full_page_cache = True
            response = view(request, slug, **kwargs)
            if response.status_code != 200:
                return response
            content = response.content
            django_cache.set(key, content, page_timeout())
        return HttpResponse(content.replace(CSRF_HOLE_BYTES, get_token(request).encode()))

    return wrapper


@require_safe
def home(request):
    tournaments = list(
        Tournament.objects.order_by("-start_date", "name").only(
            "name", "slug", "start_date", "end_date", "city", "state", "planned_rounds"
        )
    )
    published = defaultdict(int)
    for tid, number in Round.objects.filter(status=RoundStatus.PUBLISHED).values_list("tournament_id", "number"):
        published[tid] = max(published[tid], number)
    for t in tournaments:
        t.rounds_published = published.get(t.pk, 0)
    return render(request, "public/home.html", {"tournaments": tournaments})


@require_safe
@full_page_cache
def tournament(request, slug):
    t = tournament_or_404(slug)

    def build():
        data = PublicData(t)
        rnd = data.current
        standing = standings_table(t, data)
        return render_to_string(
            "public/_tournament.html",
            {
                "tournament": t,
                "round": rnd,
                "boards": data.boards(rnd) if rnd else [],
                "byes": data.bye_entries(rnd) if rnd else [],
                "entries_count": len(data.entries),
                "rounds": data.rounds,
                "top": standing["rows"][:10],
                "categories": list(t.categories.all()),
                "settings_in_force": settings_in_force(t),
            },
        )

    return _render(
        request,
        "public/page.html",
        t,
        title=_("Overview"),
        body=cached_fragment(t, "tournament", build),
        section="tournament",
    )


def settings_in_force(t):
    """The readings in force, shown next to the standings and on the tournament page (domain.md)."""
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
        (_("Bye worth"), t.get_bye_value_display()),
        (_("Tiebreak profile"), t.get_tiebreak_profile_display()),
        (_("Unplayed rounds in Buchholz"), t.get_tiebreak_edition_display()),
        (_("Acceleration"), t.get_acceleration_display()),
    ]
    if t.tiebreak_profile == TiebreakProfile.CBJD:
        items.append((_("CBJD exceptions: progressive score"), t.get_progressive_move_display()))
    if t.opening_table_id:
        items.append((_("Opening table"), str(t.opening_table)))
    return items


@require_safe
@full_page_cache
def rounds(request, slug):
    t = tournament_or_404(slug)

    def build():
        data = PublicData(t)
        summary = []
        for rnd in data.rounds:  # every round's progress; the last one's results in full
            boards = data.boards(rnd, with_scores=False)
            summary.append(
                {
                    "round": rnd,
                    "boards": boards,
                    "done": sum(1 for b in boards if b["complete"]),
                    "total": len(boards),
                    "byes": data.bye_entries(rnd),
                }
            )
        return render_to_string("public/_rounds.html", {"tournament": t, "summary": summary})

    return _render(
        request,
        "public/page.html",
        t,
        title=_("Results by round"),
        body=cached_fragment(t, "rounds", build),
        section="rounds",
    )


def round_title(number, alphabetical):
    if number is None:
        return _("Pairings by name") if alphabetical else _("Pairings")
    if alphabetical:
        return _("Round %(n)s by name") % {"n": number}
    return _("Round %(n)s") % {"n": number}


def _round_page(request, slug, number, alphabetical):
    t = tournament_or_404(slug)
    name = "round-alpha" if alphabetical else "round"

    def build():
        data = PublicData(t)
        if number is None:
            rnd = data.current
            if rnd is None:
                return render_to_string("public/_no_round.html", {"tournament": t})
        else:
            rnd = data.round(number)
        ctx = {"tournament": t, "round": rnd, "rounds": data.rounds, "alphabetical": alphabetical}
        if alphabetical:
            ctx["rows"] = data.alphabetical(rnd)
        else:
            ctx.update(boards=data.boards(rnd), byes=data.bye_entries(rnd), not_paired=data.not_paired(rnd))
        return render_to_string("public/_round.html", ctx)

    body = cached_fragment(t, name, build, number or "current")
    return _render(
        request,
        "public/page.html",
        t,
        title=round_title(number, alphabetical),
        body=body,
        number=number,
        alphabetical=alphabetical,
        section="alpha" if alphabetical else "pairings",
    )


@require_safe
@full_page_cache
def pairings(request, slug):
    """The current (last published) round by board: the page the QR code on the venue wall points to."""
    return _round_page(request, slug, None, False)


@require_safe
@full_page_cache
def pairings_alpha(request, slug):
    return _round_page(request, slug, None, True)


@require_safe
@full_page_cache
def round_detail(request, slug, number):
    return _round_page(request, slug, number, False)


@require_safe
@full_page_cache
def round_alpha(request, slug, number):
    return _round_page(request, slug, number, True)


@require_safe
@full_page_cache
def standings(request, slug, category=None):
    t = tournament_or_404(slug)

    def build():
        table = standings_table(t, None, category)
        if table is None:
            return ""
        return render_to_string("public/_standings.html", {"tournament": t, "table": table})

    body = cached_fragment(t, "standings", build, (category or "").lower())
    if not body:
        raise Http404(_("No such category."))
    return _render(request, "public/page.html", t, body=body, section="standings", title=_("Standings"))


def crosstable_rows(t, data):
    """Standings order with, per round, the opponent's line number, colour and points (Swiss cross table)."""
    table = standings_table(t, data)
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


@require_safe
@full_page_cache
def crosstable(request, slug):
    t = tournament_or_404(slug)

    def build():
        data = PublicData(t)
        table, rows = crosstable_rows(t, data)
        return render_to_string(
            "public/_crosstable.html",
            {"tournament": t, "rows": rows, "rounds": data.rounds, "columns": table["columns"]},
        )

    return _render(
        request,
        "public/page.html",
        t,
        title=_("Cross table"),
        body=cached_fragment(t, "crosstable", build),
        section="crosstable",
    )


@require_safe
@full_page_cache
def players(request, slug):
    t = tournament_or_404(slug)

    def build():
        data = PublicData(t)
        totals = data.totals()
        entries = sorted(data.entries, key=lambda e: (sort_key(e.player.name), e.pk))
        rows = [
            {
                "entry": e,
                "points": data.fmt(totals.get(e.pk, 0)),
                "categories": ", ".join(c.code for c in e.categories.all()),
            }
            for e in entries
        ]
        return render_to_string("public/_players.html", {"tournament": t, "rows": rows})

    return _render(
        request, "public/page.html", t, title=_("Players"), body=cached_fragment(t, "players", build), section="players"
    )


@require_safe
@full_page_cache
def player(request, slug, entry_id):
    t = tournament_or_404(slug)
    entry = Entry.objects.select_related("player").filter(tournament=t, pk=entry_id).first()
    if entry is None:
        raise Http404(_("No such player in this tournament."))

    def build():
        data = PublicData(t)
        entry = data.by_id[entry_id]
        return render_to_string(
            "public/_player.html",
            {
                "tournament": t,
                "entry": entry,
                "card": data.card(entry),
                "categories": list(entry.categories.all()),
                "withdrawn": entry.status == EntryStatus.WITHDRAWN,
            },
        )

    return _render(
        request,
        "public/page.html",
        t,
        title=entry.player.name,
        body=cached_fragment(t, "player", build, entry_id),
        section="players",
    )


@require_safe
@full_page_cache
def opening(request, slug, number):
    t = tournament_or_404(slug)

    def build():
        rnd = PublicData(t).round(number)
        openings = []
        if rnd.opening_id:
            openings.append({"boards": None, "opening": rnd.opening})
        per_board = defaultdict(list)
        for board in rnd.boards.all():
            if board.opening_id:
                per_board[board.opening].append(board.number)
        for op, numbers in per_board.items():
            openings.append({"boards": numbers, "opening": op})
        for item in openings:
            op = item["opening"]
            item["svg"] = board_svg_markup(op.fen, t.variant, title=_("Opening %(code)s") % {"code": op.code})
        return render_to_string("public/_opening.html", {"tournament": t, "round": rnd, "openings": openings})

    return _render(
        request,
        "public/page.html",
        t,
        title=_("Opening of round %(n)s") % {"n": number},
        body=cached_fragment(t, "opening", build, number),
        number=number,
        section="pairings",
    )


@require_safe
@full_page_cache
def board(request, slug, number, board_number):
    """One board of a round: both games, the opening diagram and, when moves were recorded, a move viewer."""
    t = tournament_or_404(slug)

    def build():
        data = PublicData(t)
        rnd = data.round(number)
        row = next((b for b in data.boards(rnd) if b["number"] == board_number), None)
        if row is None:
            return ""
        board_obj = next(b for b in rnd.boards.all() if b.number == board_number)
        op = board_obj.opening or rnd.opening
        games = []
        for game in Game.objects.filter(board_id=board_obj.pk).order_by("number"):
            white, black = (
                (row["first"], row["second"]) if white_is_first(game.number) else (row["second"], row["first"])
            )
            games.append(
                {
                    "game": game,
                    "white": white,
                    "black": black,
                    "show": show_code(game.result),
                    "viewer": game_viewer(t, game, op),
                }
            )
        return render_to_string(
            "public/_board.html",
            {
                "tournament": t,
                "round": rnd,
                "row": row,
                "games": games,
                "opening": op,
                "opening_svg": board_svg_markup(op.fen, t.variant, title=op.code) if op else "",
            },
        )

    body = cached_fragment(t, "board", build, number, board_number)
    if not body:
        raise Http404(_("No such board."))
    return _render(
        request,
        "public/page.html",
        t,
        title=_("Round %(n)s, board %(b)s") % {"n": number, "b": board_number},
        body=body,
        number=number,
        section="pairings",
    )


def game_viewer(t, game, op):
    """Positions of a recorded game as SVG diagrams (one per move), or None when no moves were recorded."""
    if not game.pdn.strip():
        return None
    try:
        from draughts import validate_game

        variant = "international" if t.variant == "international-100" else "brazilian"
        check = validate_game(game.pdn, variant, start_fen=op.fen if op else None)
    except Exception:  # an unreadable record must not break the page
        return None
    frames = [{"label": _("Start"), "svg": board_svg_markup(check.positions[0], t.variant)}] if check.positions else []
    for _index, move in enumerate(check.moves, start=1):
        label = f"{move.number}. {'' if move.side == 'W' else '… '}{move.notation}"
        frames.append({"label": label, "svg": board_svg_markup(move.fen_after, t.variant, last_move=move.notation)})
    return {"frames": frames, "ok": check.ok, "error": check.error}


# --------------------------------------------------------------------------------------------- venue screen


@require_safe
@full_page_cache
def screen(request, slug, what="standings"):
    """Large type for a projector: refreshes itself and scrolls long lists."""
    t = tournament_or_404(slug)
    if what not in ("standings", "pairings"):
        raise Http404

    def build():
        data = PublicData(t)
        if what == "pairings":
            rnd = data.current
            return render_to_string(
                "public/_screen_pairings.html",
                {
                    "tournament": t,
                    "round": rnd,
                    "boards": data.boards(rnd) if rnd else [],
                    "byes": data.bye_entries(rnd) if rnd else [],
                },
            )
        return render_to_string(
            "public/_screen_standings.html",
            {"tournament": t, "table": standings_table(t, data), "current": data.current},
        )

    try:
        seconds = max(15, min(int(request.GET.get("segundos", 60)), 600))
    except ValueError:
        seconds = 60
    return render(
        request,
        "public/screen.html",
        {
            "tournament": t,
            "body": cached_fragment(t, "screen", build, what),
            "refresh": seconds,
            "what": what,
            "other": reverse(
                "public:screen_pairings" if what == "standings" else "public:screen_standings", args=[t.slug]
            ),
        },
    )
