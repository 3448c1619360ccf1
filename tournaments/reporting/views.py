"""Players' pages ("minha mesa", no account): sign in with the code of one's card, see one's board in the
current round, report its games or confirm the opponent's report. Never cached, never public: the pages carry
``Cache-Control: private, no-store`` and the phone's session holds only the entry and its code's generation."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.core.client_ip import client_ip
from tournaments.core.errors import ServiceError
from tournaments.models import Entry, PlayerCode, Tournament
from tournaments.reporting import services
from tournaments.reporting.selectors import MyBoard, my_board, reporting_enabled

SESSION_KEY = "reporting"

OUTCOMES = [("W", gettext_lazy("I won")), ("D", gettext_lazy("Draw")), ("L", gettext_lazy("I lost"))]


class CodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Your code"), max_length=12, strip=True)


class ReportForm(forms.Form):
    game1 = forms.ChoiceField(choices=OUTCOMES, widget=forms.RadioSelect)
    game2 = forms.ChoiceField(choices=OUTCOMES, widget=forms.RadioSelect, required=False)


def _signed_in(request: HttpRequest, tournament: Tournament) -> Entry | None:
    """The entry this phone signed in as, while its code has not been reissued since."""
    held = request.session.get(SESSION_KEY, {}).get(str(tournament.pk))
    if not held:
        return None
    code = PlayerCode.objects.select_related("entry__player", "entry__tournament").filter(entry_id=held[0]).first()
    if code is None or code.generation != held[1] or code.tournament_id != tournament.pk:
        request.session.get(SESSION_KEY, {}).pop(str(tournament.pk), None)
        request.session.modified = True
        return None
    return code.entry


def _sign_in(request: HttpRequest, code: PlayerCode) -> None:
    request.session.cycle_key()
    held = dict(request.session.get(SESSION_KEY, {}))
    held[str(code.tournament_id)] = [code.entry_id, code.generation]
    request.session[SESSION_KEY] = held


def _outcomes(mine: MyBoard, codes: dict[int, str] | None) -> dict[int, str]:
    """Each game of a report as the signed-in player's outcome (W/D/L)."""
    if not codes:
        return {}
    out = {}
    for number, code in codes.items():
        white_me = (number % 2 == 1) == mine.i_am_first
        if code == "1/2":
            out[number] = "D"
        elif code in ("1-0", "0-1"):
            out[number] = "W" if (code == "1-0") == white_me else "L"
        else:
            out[number] = code  # a forfeit the arbiter recorded: shown as its code
    return out


@never_cache
@require_http_methods(["GET", "POST"])
def sign_in(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    board_hint = request.GET.get("mesa", "")[:4]
    if _signed_in(request, tournament) is not None:
        return redirect("public:my_board", slug=slug)
    form = CodeForm(request.POST or None)
    wait = 0
    if request.method == "POST" and form.is_valid():
        try:
            code = services.code_sign_in(
                tournament=tournament, pin=form.cleaned_data["code"], address=client_ip(request)
            )
        except services.TooManyAttempts as exc:
            form.add_error("code", exc.messages[0])
            wait = exc.wait
        except ServiceError as exc:
            form.add_error("code", exc.messages[0])
        else:
            _sign_in(request, code)
            return redirect("public:my_board", slug=slug)
    response = render(
        request,
        "public/reporting/sign_in.html",
        {
            "tournament": tournament,
            "form": form,
            "enabled": reporting_enabled(tournament),
            "board_hint": board_hint if board_hint.isdigit() else "",
        },
        status=429 if wait else 200,
    )
    if wait:
        response["Retry-After"] = str(wait)
    return response


@never_cache
def card_link(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The QR of a player's card: signs the phone in as that player."""
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        code = services.code_sign_in(tournament=tournament, token=token, address=client_ip(request))
    except ServiceError as exc:
        messages.error(request, exc.messages[0])
        return redirect("public:my_board_sign_in", slug=slug)
    _sign_in(request, code)
    return redirect("public:my_board", slug=slug)


def _state(mine: MyBoard | None) -> str | None:
    """What the player's page says about the board: approved, waiting, to_confirm, confirmed, conflict or open."""
    if mine is None:
        return None
    if mine.approved:
        return "approved"
    if mine.mine and mine.theirs:
        return "confirmed" if mine.mine == mine.theirs else "conflict"
    if mine.mine:
        return "waiting"
    return "to_confirm" if mine.theirs else "open"


def _submit(request: HttpRequest, tournament: Tournament, entry: Entry, mine: MyBoard) -> bool:
    """Send the posted report; True when it was taken (the messages say what happened either way)."""
    form = ReportForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the result of every game of the board."))
        return False
    outcomes = {1: form.cleaned_data["game1"]}
    if tournament.is_micro_match:
        outcomes[2] = form.cleaned_data.get("game2") or ""
    try:
        codes = services.player_view_to_codes(mine.i_am_first, outcomes)
        services.report_submit(entry=entry, board=mine.board, results=codes)
    except ServiceError as exc:
        messages.error(request, exc.messages[0])
        return False
    messages.success(request, _("Result sent. The arbiter approves it once both players agree."))
    return True


@never_cache
@require_http_methods(["GET", "POST"])
def board(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    entry = _signed_in(request, tournament)
    if entry is None:
        return redirect("public:my_board_sign_in", slug=slug)
    mine = my_board(entry)
    if request.method == "POST" and mine is not None:
        if _submit(request, tournament, entry, mine):
            return redirect("public:my_board", slug=slug)
        mine = my_board(entry)
    return render(
        request,
        "public/reporting/board.html",
        {
            "tournament": tournament,
            "entry": entry,
            "mine": mine,
            "state": _state(mine),
            "my_outcomes": _outcomes(mine, mine.mine) if mine else {},
            "their_outcomes": _outcomes(mine, mine.theirs) if mine else {},
            "stored_outcomes": _outcomes(mine, {n: c for n, c in mine.games.items() if c}) if mine else {},
            "games": [1, 2] if tournament.is_micro_match else [1],
            "outcomes": OUTCOMES,
            "enabled": reporting_enabled(tournament),
        },
    )


@require_POST
def sign_out(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    held = dict(request.session.get(SESSION_KEY, {}))
    held.pop(str(tournament.pk), None)
    request.session[SESSION_KEY] = held
    return redirect("public:my_board_sign_in", slug=slug)
