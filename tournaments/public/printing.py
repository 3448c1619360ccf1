"""Printable pages (A4, the browser's print): pairings by board and by name, result slips, standings, cross table
and a QR code for the venue wall. Public for published rounds; a tournament's staff may also print a draft round
(marked as such), since slips are often printed before the pairing is announced.

Anonymous visitors get them from the page cache as the public pages (``page_cache.full_page_cache``). What depends
on the request is left as holes in the cached page and filled on every request (``fill_holes``): the time printed,
and each address with its QR code: the one the players' phones open (``phone_urls.phone_base``: at a venue served
with ``make run LAN=1`` and printed from the laptop itself, its address on the Wi-Fi, not 127.0.0.1; issue 37.3).
A hole holds only the address's path, made from the database's values, never the request's host; the page is kept
split at its holes (``page_cache.hole``), so no text of the page can pass for one."""

from functools import lru_cache
from zoneinfo import ZoneInfo

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.accounts.permissions import can_run
from tournaments.core.phone_urls import phone_base
from tournaments.homologation.report import published_standings
from tournaments.public.page_cache import CSRF, category_code, full_page_cache, hole
from tournaments.public.views import tournament_or_404
from tournaments.reporting.selectors import reporting_enabled
from tournaments.rounds.presenters import PublicData
from tournaments.rounds.scoring import side_label, white_is_first
from tournaments.standings.presenters import crosstable_rows, standings_table
from tournaments.templatetags.damas import qr_svg

SLIPS_PER_PAGE = 4


def _data(request, t):
    staff = can_run(request.user, t)
    return PublicData(t, include_drafts=staff), staff


def _printed_when(time_zone):
    return formats.date_format(timezone.localtime(timezone=ZoneInfo(time_zone)), "SHORT_DATETIME_FORMAT")


def _base(request, kind):
    """``p``: the address the players' phones open, which every printed address and QR code uses; ``s``: the site's
    address as this request reached it (only holes of pages cached by an earlier version name it)."""
    return phone_base(request) if kind == "p" else request.build_absolute_uri("/").rstrip("/")


@lru_cache(maxsize=2048)
def _qr(url, scale):
    return qr_svg(url, scale)


class Holes:
    """The request-dependent parts of a printed page: filled now, or left as holes for ``fill_holes``."""

    def __init__(self, request):
        self.request = request
        self.cached = getattr(request, "_full_page_cache", False)

    def when(self, time_zone):
        return hole(self.request, f"time:::{time_zone}") if self.cached else _printed_when(time_zone)

    def url(self, path, kind="p"):
        return hole(self.request, f"url:{kind}::{path}") if self.cached else _base(self.request, kind) + path

    def qr(self, path, scale, kind="p"):
        return (
            hole(self.request, f"qr:{kind}:{scale}:{path}")
            if self.cached
            else _qr(_base(self.request, kind) + path, scale)
        )


def fill_holes(request, payload):
    """One hole of the cached page for this request: the time printed, an address or its QR code."""
    what, kind, scale, text = payload.split(":", 3)
    if what == "time":
        return escape(_printed_when(text)).encode()
    url = _base(request, kind) + text
    return (_qr(url, int(scale)) if what == "qr" else escape(url)).encode()


cached_print = full_page_cache(fill=fill_holes)


def _context(request, t, **extra):
    holes = Holes(request)
    public_path = reverse("public:tournament", args=[t.slug])
    ctx = {
        "tournament": t,
        "printed_when": holes.when(t.time_zone),
        "public_url": holes.url(public_path),
        "qr": holes.qr(public_path, 2) if extra.get("show_qr") else "",
    }
    if holes.cached:
        ctx["csrf_token"] = hole(request, CSRF)
    ctx.update(extra)
    return ctx


@require_safe
@cached_print
def index(request, slug):
    t = tournament_or_404(slug)
    data, staff = _data(request, t)
    return render(request, "print/index.html", _context(request, t, rounds=data.rounds, staff=staff))


@require_safe
@cached_print
def pairings(request, slug, number):
    t = tournament_or_404(slug)
    data, _staff = _data(request, t)
    rnd = data.round(number)
    return render(
        request,
        "print/pairings.html",
        _context(
            request,
            t,
            round=rnd,
            show_qr=True,
            boards=data.boards(rnd),
            byes=data.bye_entries(rnd),
            not_paired=data.not_paired(rnd),
            one_sided=data.one_sided(rnd),
        ),
    )


@require_safe
@cached_print
def pairings_alpha(request, slug, number):
    t = tournament_or_404(slug)
    data, _staff = _data(request, t)
    rnd = data.round(number)
    return render(
        request, "print/pairings_alpha.html", _context(request, t, round=rnd, rows=data.alphabetical(rnd), show_qr=True)
    )


@require_safe
@cached_print
def slips(request, slug, number):
    """One slip per board with both games (who has White in each) and the opening code, several per A4 page."""
    t = tournament_or_404(slug)
    data, _staff = _data(request, t)
    rnd = data.round(number)
    slips = []
    # A QR per board: the players open "minha mesa" for it on their phones (issue 30), when reporting is on.
    report_path = reverse("public:my_board_sign_in", args=[t.slug]) if rnd.is_published and reporting_enabled(t) else ""
    holes = Holes(request)
    for row in data.boards(rnd, with_scores=False):
        games = []
        for n in range(1, t.games_per_round + 1):
            games.append({"number": n, "first_is_white": white_is_first(n)})
        report_qr = holes.qr(f"{report_path}?mesa={row['number']}", 1) if report_path else ""
        slips.append({"row": row, "games": games, "report_qr": report_qr})
    pages = [slips[i : i + SLIPS_PER_PAGE] for i in range(0, len(slips), SLIPS_PER_PAGE)]
    choices = [side_label(code, t.is_micro_match) for code in ("1-0", "1/2", "0-1")]
    return render(request, "print/slips.html", _context(request, t, round=rnd, pages=pages, choices=choices))


@require_safe
@full_page_cache(query={"categoria": "category"}, fill=fill_holes)
def standings(request, slug, category=None):
    if category is not None:
        category = category_code(slug, category)  # 404 before the standings are computed
    t = tournament_or_404(slug)
    table = standings_table(t, published_standings(t, category=category), category)
    if table is None:
        raise Http404(_("No such category."))
    return render(request, "print/standings.html", _context(request, t, table=table, show_qr=True))


@require_safe
@cached_print
def crosstable(request, slug):
    t = tournament_or_404(slug)
    data = PublicData(t)
    table, rows = crosstable_rows(t, data, published_standings(t, data.snapshot))
    return render(
        request, "print/crosstable.html", _context(request, t, rows=rows, rounds=data.rounds, columns=table["columns"])
    )


@require_safe
def qr(request, slug):
    t = tournament_or_404(slug)
    pairings_url = phone_base(request) + reverse("public:pairings", args=[t.slug])
    return render(request, "print/qr.html", _context(request, t, pairings_url=pairings_url))
