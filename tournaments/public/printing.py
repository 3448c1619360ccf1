"""Printable pages (A4, the browser's print): pairings by board and by name, result slips, standings, cross table
and a QR code for the venue wall. Public for published rounds; a tournament's staff may also print a draft round
(marked as such), since slips are often printed before the pairing is announced."""

from zoneinfo import ZoneInfo

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.accounts.permissions import can_run
from tournaments.core.phone_urls import phone_base
from tournaments.public.page_cache import category_code
from tournaments.public.views import tournament_or_404
from tournaments.reporting.selectors import reporting_enabled
from tournaments.rounds.presenters import PublicData
from tournaments.rounds.scoring import side_label, white_is_first
from tournaments.standings.presenters import crosstable_rows, standings_table

SLIPS_PER_PAGE = 4


def _data(request, t):
    staff = can_run(request.user, t)
    return PublicData(t, include_drafts=staff), staff


def _context(request, t, **extra):
    ctx = {
        "tournament": t,
        "printed_at": timezone.localtime(timezone=ZoneInfo(t.time_zone)),
        "public_url": request.build_absolute_uri(reverse("public:tournament", args=[t.slug])),
    }
    ctx.update(extra)
    return ctx


@require_safe
def index(request, slug):
    t = tournament_or_404(slug)
    data, staff = _data(request, t)
    return render(request, "print/index.html", _context(request, t, rounds=data.rounds, staff=staff))


@require_safe
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
def pairings_alpha(request, slug, number):
    t = tournament_or_404(slug)
    data, _staff = _data(request, t)
    rnd = data.round(number)
    return render(
        request, "print/pairings_alpha.html", _context(request, t, round=rnd, rows=data.alphabetical(rnd), show_qr=True)
    )


@require_safe
def slips(request, slug, number):
    """One slip per board with both games (who has White in each) and the opening code, several per A4 page."""
    t = tournament_or_404(slug)
    data, _staff = _data(request, t)
    rnd = data.round(number)
    slips = []
    # A QR per board: the players open "minha mesa" for it on their phones (issue 30), when reporting is on.
    report_base = (
        phone_base(request) + reverse("public:my_board_sign_in", args=[t.slug])
        if rnd.is_published and reporting_enabled(t)
        else ""
    )
    for row in data.boards(rnd, with_scores=False):
        games = []
        for n in range(1, t.games_per_round + 1):
            games.append({"number": n, "first_is_white": white_is_first(n)})
        report_url = f"{report_base}?mesa={row['number']}" if report_base else ""
        slips.append({"row": row, "games": games, "report_url": report_url})
    pages = [slips[i : i + SLIPS_PER_PAGE] for i in range(0, len(slips), SLIPS_PER_PAGE)]
    choices = [side_label(code, t.is_micro_match) for code in ("1-0", "1/2", "0-1")]
    return render(request, "print/slips.html", _context(request, t, round=rnd, pages=pages, choices=choices))


@require_safe
def standings(request, slug):
    category = request.GET.get("categoria") or None
    if category is not None:
        category = category_code(slug, category)  # 404 before the standings are computed
    t = tournament_or_404(slug)
    table = standings_table(t, None, category)
    if table is None:
        raise Http404(_("No such category."))
    return render(request, "print/standings.html", _context(request, t, table=table, show_qr=True))


@require_safe
def crosstable(request, slug):
    t = tournament_or_404(slug)
    data = PublicData(t)
    table, rows = crosstable_rows(t, data)
    return render(
        request, "print/crosstable.html", _context(request, t, rows=rows, rounds=data.rounds, columns=table["columns"])
    )


@require_safe
def qr(request, slug):
    t = tournament_or_404(slug)
    pairings_url = request.build_absolute_uri(reverse("public:pairings", args=[t.slug]))
    return render(request, "print/qr.html", _context(request, t, pairings_url=pairings_url))
