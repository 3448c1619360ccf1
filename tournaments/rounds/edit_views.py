"""Staff: a draft round's pairing edited by hand (issue 28.6), by picking players by name.

One row per board with two lists of the players who may play the round, each shown as "nº — Name (pts)", and a
list for the bye; choosing in one list a player who sits elsewhere swaps the two (static/js/site.js), so a swap is
one choice. The service (``services.round_edit``) checks the whole pairing, all or nothing, and says in Portuguese
what is wrong, naming the players. A typed list of pairing numbers ("12 31" per line, field ``pairs``) is still
read when posted, for scripts."""

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.accounts.permissions import TournamentStaffMixin
from tournaments.core.errors import ServiceError
from tournaments.core.staff_views import parse_id
from tournaments.models import Absence, Entry, Round
from tournaments.rounds.presence import points_before
from tournaments.rounds.selectors import board_pair, rounds_with_boards
from tournaments.rounds.services import round_edit
from tournaments.templatetags.damas import fmt_number

MAX_BOARDS = 2000  # more boards than any event has: a longer post is refused

Pairs = list[tuple[int, int]]


def choices_for(tournament: Any, number: int) -> list[dict[str, Any]]:
    """The players who may play round ``number`` (not withdrawn, not entered later, no absence announced), by
    pairing number: {"id": entry id, "label": "nº — Name (pts)"}."""
    entries, before = points_before(tournament, number)
    absent = set(
        Absence.objects.filter(entry__tournament=tournament, round_number=number).values_list("entry_id", flat=True)
    )
    out = []
    for entry in sorted(entries, key=lambda e: (e.pairing_number or 0, e.player.name)):
        if entry.is_out_for_round(number) or entry.pk in absent:
            continue
        points = before.get(entry.pk, Decimal(0))
        out.append(
            {"id": entry.pk, "label": f"{entry.pairing_number or '—'} — {entry.player.name} ({fmt_number(points)})"}
        )
    return out


class RoundEditView(TournamentStaffMixin, TemplateView):
    """Edit a draft pairing by hand: each board's two players and the bye, picked by name."""

    template_name = "staff/round_edit.html"
    pairing_only = True

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        ctx = super().get_context_data(**kwargs)
        rnd = get_object_or_404(Round, tournament=self.tournament, number=self.kwargs["number"])
        rnd = rounds_with_boards(self.tournament, number=rnd.number)[0]
        current: Pairs = []
        for board in rnd.boards.all():
            a, b = board_pair(board)
            if a is not None and b is not None:
                current.append((a.pk, b.pk))
        pairs = kwargs.get("pairs", current)
        bye = kwargs.get("bye", rnd.bye_seats[0].entry_id if rnd.bye_seats else None)  # type: ignore[attr-defined]
        choices = choices_for(self.tournament, rnd.number)
        ctx.update(
            round=rnd,
            boards=[{"number": i, "first": a, "second": b} for i, (a, b) in enumerate(pairs, start=1)],
            bye=bye,
            has_bye=bye is not None or len(choices) % 2 == 1,
            choices=choices,
        )
        return ctx

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        rnd = get_object_or_404(Round, tournament=self.tournament, number=self.kwargs["number"])
        if "pairs" in request.POST:
            pairs, bye, errors = self.read_numbers(request)
        else:
            pairs, bye, errors = read_choices(request)
        if errors is None:  # too long to read
            messages.error(request, _("The pairing sent is too long: reload the page."))
            return self.render_to_response(self.get_context_data(), status=400)
        if not errors:
            try:
                _rnd, warnings = round_edit(round=rnd, user=request.user, pairs=pairs, bye=bye)
            except ServiceError as exc:
                errors.extend(exc.messages)
            else:
                messages.success(request, _("Pairing saved by hand."))
                for w in warnings:
                    messages.warning(request, w)
                return redirect("staff:round", slug=self.tournament.slug, number=rnd.number)
        messages.error(request, _("Nothing was saved: correct the pairing and save again."))
        for e in errors:
            messages.error(request, e)
        known = {c["id"] for c in choices_for(self.tournament, rnd.number)}
        shown = [(a if a in known else 0, b if b in known else 0) for a, b in pairs]
        return self.render_to_response(self.get_context_data(pairs=shown, bye=bye if bye in known else None))

    def read_numbers(self, request: HttpRequest) -> tuple[Pairs, int | None, list[str] | None]:
        """A typed list: one board per line, "first second" pairing numbers; the bye's number."""
        text, bye_text = request.POST.get("pairs", ""), request.POST.get("bye", "").strip()
        if len(text) > 20_000 or len(bye_text) > 20:
            return [], None, None
        by_number = dict(
            Entry.objects.filter(tournament=self.tournament, pairing_number__isnull=False).values_list(
                "pairing_number", "pk"
            )
        )
        pairs: Pairs = []
        errors: list[str] = []
        for i, line in enumerate(text.splitlines(), start=1):
            parts = line.replace(",", " ").replace("-", " ").split()
            if not parts:
                continue
            numbers = [parse_id(p) for p in parts]
            a, b = (by_number.get(n) for n in numbers) if len(parts) == 2 else (None, None)
            if len(parts) != 2 or None in numbers:
                errors.append(_("Line %(i)s: write two pairing numbers, e.g. “12 31”.") % {"i": i})
            elif a is None or b is None:
                errors.append(_("Line %(i)s: unknown pairing number.") % {"i": i})
            else:
                pairs.append((a, b))
        bye = by_number.get(parse_id(bye_text)) if bye_text else None
        if bye_text and bye is None:
            errors.append(_("Unknown pairing number for the bye."))
        return pairs, bye, errors


def read_choices(request: HttpRequest) -> tuple[Pairs, int | None, list[str] | None]:
    """The boards picked on the page: ``first`` and ``second`` (entry ids, one of each per board, in board order)
    and ``bye`` (an entry id or empty)."""
    firsts, seconds = request.POST.getlist("first"), request.POST.getlist("second")
    if len(firsts) > MAX_BOARDS or len(seconds) > MAX_BOARDS:
        return [], None, None
    errors: list[str] = []
    if len(firsts) != len(seconds):
        errors.append(_("The form is incomplete: reload the page."))
    pairs: Pairs = []
    for i, (raw_a, raw_b) in enumerate(zip(firsts, seconds), start=1):
        a, b = parse_id(raw_a), parse_id(raw_b)
        if a is None or b is None:
            errors.append(_("Board %(b)s: choose both players.") % {"b": i})
        pairs.append((a or 0, b or 0))
    raw_bye = request.POST.get("bye", "").strip()
    bye = parse_id(raw_bye) if raw_bye else None
    if raw_bye and bye is None:
        errors.append(_("The bye chosen is not a player of this round: reload the page."))
    return pairs, bye, errors
