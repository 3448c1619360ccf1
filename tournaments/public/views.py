"""Public pages: read-only, no login, GET only.

Drafts never show: every round is read with ``published_only=True`` (the filter is in the query). The views are
thin: rows come from the presenters (``tournaments.presenters``), caching from ``page_cache``. Hot pages
(standings, pairings) are plain template loops over rows prepared by the presenters (numbers already formatted in
the active locale, URLs already built): django-tables2 is kept for the staff tables.
"""

from collections import defaultdict

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.core.labels import show_code
from tournaments.homologation.report import published_categories, published_standings
from tournaments.models import Entry, Game, Opening, Round, Tournament
from tournaments.models.choices import EntryStatus, RoundStatus
from tournaments.public.page_cache import cached_fragment, category_code, full_page_cache, render_page, shared
from tournaments.rounds.presenters import PublicData, game_from_first, game_viewer, sort_key
from tournaments.rounds.scoring import white_is_first
from tournaments.standings import gc_paused, read_snapshot
from tournaments.standings.presenters import crosstable_rows, rating_lines, settings_in_force, standings_table
from tournaments.standings.ratings import snapshot_estimates
from tournaments.templatetags.damas import board_svg_markup, fmt_number


def public_snapshot(t):
    """The tournament's published rounds (``read_snapshot``), read once per version by each process while its
    pages are rebuilt after a write (``page_cache.shared``), instead of once per page."""
    return shared(t.pk, "snapshot", lambda: read_snapshot(t, public=True))


def public_data(t):
    """What the public pages show of the tournament (``PublicData``), built once per version likewise."""
    return shared(t.pk, f"public-data:{get_language()}", lambda: PublicData(t, snapshot=public_snapshot(t)))


def public_standings(t, category=None, data=None):
    """The public standings, overall or of a category (its code), computed once per version likewise (from
    ``data``'s snapshot when the page has it)."""
    return shared(
        t.pk,
        f"standings:{get_language()}:{category or ''}",
        lambda: published_standings(t, public_snapshot(t) if data is None else data.snapshot, category=category),
    )


def tournament_or_404(slug):
    return get_object_or_404(Tournament.objects.select_related("opening_table"), slug=slug)


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
        data = public_data(t)
        rnd = data.current
        overall = public_standings(t, data=data)
        standing = standings_table(t, overall)
        winners = _all_winners(t, data, overall, standing) if data.finished else []
        return render_to_string(
            "public/_tournament.html",
            {
                "tournament": t,
                "finished": data.finished,
                "winners": winners,
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

    return render_page(
        request,
        "public/page.html",
        t,
        title=_("Overview"),
        body=cached_fragment(t, "tournament", build),
        section="tournament",
    )


def place_of(standings, entry_id):
    """The player's place in the published standings (issue 28.16): the rank ("3" or, shared, "3-4"), out of how
    many, the points and after which round; None before a round counts or for a player not in them."""
    done = standings.rounds_completed
    # the rows name each entry by its number in the standings (``entries``' keys), not by its database id
    number = next((n for n, e in standings.entries.items() if e.pk == entry_id), None)
    row = next((r for r in standings.rows if r.id == number), None) if done and number is not None else None
    if row is None:
        return None
    points = fmt_number(row.points, formats.get_format("DECIMAL_SEPARATOR"))
    count = int(row.points) if row.points == int(row.points) else 2
    return {
        "rank": row.rank,
        "of": len(standings.rows),
        "round": done,
        "points": ngettext("%(p)s point", "%(p)s points", count) % {"p": points},
    }


def _all_winners(t, data, overall, standing):
    """The final standings' winners, then every category's. A category of everyone (the "Absoluto") is the overall
    standings again: said once, under its name, not as a second line (issue 28.16)."""
    first = {"category": None, "label": None, "rows": _winners(standing)}
    winners = [first]
    ranked = published_categories(t, overall)
    for category in data.categories:
        table = standings_table(t, ranked, category.code)
        if table is None:
            continue
        if len(table["rows"]) == len(standing["rows"]):
            first["label"] = first["label"] or category.name
        else:
            winners.append({"category": category, "rows": _winners(table)})
    return winners


def _winners(table):
    """The first place of a standings table (several players when they share it)."""
    return [row for row in table["rows"] if str(row["rank"]).split("-")[0] == "1"]


@require_safe
@full_page_cache
def rounds(request, slug):
    t = tournament_or_404(slug)

    def build():
        data = public_data(t)
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
                    "one_sided": data.one_sided(rnd) if rnd is data.rounds[-1] else [],  # the last one is shown
                }
            )
        return render_to_string("public/_rounds.html", {"tournament": t, "summary": summary})

    return render_page(
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
    if number is not None and number < 1:  # /rodadas/0/ is no round (it once showed the current one, issue 25.14)
        raise Http404
    t = tournament_or_404(slug)
    name = "round-alpha" if alphabetical else "round"

    def build():
        data = public_data(t)
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
            ctx.update(
                boards=data.boards(rnd),
                byes=data.bye_entries(rnd),
                not_paired=data.not_paired(rnd),
                one_sided=data.one_sided(rnd),
            )
        return render_to_string("public/_round.html", ctx)

    body = cached_fragment(t, name, build, "current" if number is None else number)
    return render_page(
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
    if category is not None:
        category = category_code(slug, category)  # 404 before anything is computed or cached
    t = tournament_or_404(slug)

    def build():
        with gc_paused():  # the standings and their rows (tens of thousands of objects): see gc_paused
            table = standings_table(t, public_standings(t, category), category)
            html = (
                "" if table is None else render_to_string("public/_standings.html", {"tournament": t, "table": table})
            )
            del table  # freed while the collector is paused: once back, it has none of them to walk
        return html

    body = cached_fragment(t, "standings", build, category or "")
    if not body:
        raise Http404(_("No such category."))
    return render_page(request, "public/page.html", t, body=body, section="standings", title=_("Standings"))


@require_safe
@full_page_cache
def crosstable(request, slug):
    t = tournament_or_404(slug)

    def build():
        data = public_data(t)
        table, rows = crosstable_rows(t, data, public_standings(t, data=data))
        return render_to_string(
            "public/_crosstable.html",
            {"tournament": t, "rows": rows, "rounds": data.rounds, "columns": table["columns"]},
        )

    return render_page(
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
        data = public_data(t)
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

    return render_page(
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
        data = public_data(t)
        entry = data.by_id[entry_id]
        estimates = shared(t.pk, "rating-estimates", lambda: snapshot_estimates(data.snapshot))
        return render_to_string(
            "public/_player.html",
            {
                "tournament": t,
                "entry": entry,
                "place": place_of(public_standings(t, data=data), entry_id),
                "card": data.card(entry),
                "rating": rating_lines(estimates.get(entry_id), data.by_id),
                "categories": list(entry.categories.all()),
                "withdrawn": entry.status == EntryStatus.WITHDRAWN,
            },
        )

    return render_page(
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
        rnd = public_data(t).round(number)
        pks = {o.pk for o in [rnd.opening, *(b.opening for b in rnd.boards)] if o is not None}
        models = Opening.objects.in_bulk(pks)  # the openings' positions and kinds, for the diagrams
        openings = []
        if rnd.opening is not None:
            openings.append({"boards": None, "opening": models[rnd.opening.pk]})
        per_board = defaultdict(list)
        for board in rnd.boards:
            if board.opening is not None:
                per_board[models[board.opening.pk]].append(board.number)
        for op, numbers in per_board.items():
            openings.append({"boards": numbers, "opening": op})
        for item in openings:
            op = item["opening"]
            item["svg"] = board_svg_markup(op.fen, t.variant, title=_("Opening %(code)s") % {"code": op.code})
        return render_to_string("public/_opening.html", {"tournament": t, "round": rnd, "openings": openings})

    return render_page(
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
        data = public_data(t)
        rnd = data.round(number)
        row = next((b for b in data.boards(rnd) if b["number"] == board_number), None)
        if row is None:
            return ""
        board_obj = next(b for b in rnd.boards if b.number == board_number)
        shown = board_obj.opening or rnd.opening
        op = Opening.objects.get(pk=shown.pk) if shown is not None else None
        games = []
        for game in Game.objects.filter(board_id=board_obj.pk).order_by("number"):
            games.append(
                {
                    "game": game,
                    "first_is_white": white_is_first(game.number),
                    "show": show_code(game_from_first(game.number, game.result), t.is_micro_match),
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
    return render_page(
        request,
        "public/page.html",
        t,
        title=_("Round %(n)s, board %(b)s") % {"n": number, "b": board_number},
        body=body,
        number=number,
        section="pairings",
    )


@require_safe
@full_page_cache
def screen(request, slug, what="standings"):
    """Large type for a projector: refreshes itself and scrolls long lists."""
    t = tournament_or_404(slug)
    if what not in ("standings", "pairings"):
        raise Http404

    def build():
        data = public_data(t)
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
            {
                "tournament": t,
                "table": standings_table(t, public_standings(t, data=data)),
                "current": data.current,
            },
        )

    try:
        seconds = max(15, min(int(request.GET.get("segundos", 60)), 600))
    except ValueError:
        seconds = 60
    return render_page(
        request,
        "public/screen.html",
        t,
        body=cached_fragment(t, "screen", build, what),
        refresh=seconds,
        what=what,
        other=reverse("public:screen_pairings" if what == "standings" else "public:screen_standings", args=[t.slug]),
    )
