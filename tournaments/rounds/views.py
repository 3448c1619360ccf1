"""Staff: pairing, reviewing, publishing, undoing and hand-editing rounds; the opening draw; results entry."""

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.generic import TemplateView
from django_tables2 import RequestConfig

from tournaments.accounts.permissions import TournamentStaffMixin, may_pair
from tournaments.core.errors import ServiceError
from tournaments.core.exports import FORMATS as EXPORT_FORMATS
from tournaments.core.exports import table_download
from tournaments.core.labels import explanation_row
from tournaments.core.staff_views import object_or_404, parse_id, run_service
from tournaments.core.tables import PairingTable
from tournaments.games.services import RuleConflict
from tournaments.models import PairingJob, Round
from tournaments.models.choices import PairingJobStatus
from tournaments.reporting.presenters import reports_panel
from tournaments.rounds.edit_views import RoundEditView  # noqa: F401  # the URLs name it here
from tournaments.rounds.pairing_jobs import expire_stale_jobs, pairing_job_start
from tournaments.rounds.presence import next_round_to_pair, presence_confirm, presence_rows
from tournaments.rounds.presenters import PublicData, one_sided_row, page_kind
from tournaments.rounds.repair import next_round_of, warn_next_round_paired
from tournaments.rounds.results import ReasonRequired, round_record_results
from tournaments.rounds.results_form import MAX_SELECTION, RESULT_FIELD, board_selection, parse_shown, posted_fields
from tournaments.rounds.scoring import board_points, entry_label, is_complete, parse_entry, side_label
from tournaments.rounds.selectors import board_pair, round_one_sided, rounds_with_boards, scoring_of
from tournaments.rounds.services import round_publish, round_undo
from tournaments.setup.openings import opening_draw, opening_set_code
from tournaments.templatetags.damas import fmt_number


class RoundPairView(TournamentStaffMixin, TemplateView):
    """Pairing the next round (issue 28.12): first who is present (a list of the entrants, one click marks an
    absentee), then the pairing (services.pairing_jobs): a quick one comes back paired, a long one shows its
    progress. For the director, or an arbiter the director lets pair; anyone else gets 403."""

    template_name = "staff/round_presence.html"
    pairing_only = True

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        number = next_round_to_pair(self.tournament)
        rows, out = presence_rows(self.tournament, number) if number <= self.tournament.planned_rounds else ([], [])
        ctx.update(
            number=number,
            rows=[{"entry": r.entry, "points": fmt_number(r.points), "absent": r.absent} for r in rows],
            out=out,
            absent_count=sum(1 for r in rows if r.absent),
            all_paired=number > self.tournament.planned_rounds,
        )
        return ctx

    def post(self, request, *args, **kwargs):
        if request.POST.get("presence") == "1":
            number = parse_id(request.POST.get("round"))
            ids = [parse_id(v) for v in request.POST.getlist("absent")[:5000]]
            if number is None or None in ids:
                messages.error(request, _("The list of absentees sent is not readable: reload the page."))
                return redirect("staff:round_pair", slug=self.tournament.slug)
            ok, _counts = run_service(
                request, presence_confirm, tournament=self.tournament, number=number, absent=ids, user=request.user
            )
            if not ok:
                return redirect("staff:round_pair", slug=self.tournament.slug)
        ok, job = run_service(
            request,
            pairing_job_start,
            tournament=self.tournament,
            user=request.user,
            publish=request.POST.get("publish") == "1",
        )
        if not ok:
            return redirect("staff:tournament", slug=self.tournament.slug)
        return job_outcome(request, self.tournament, job)


def job_outcome(request, tournament, job):
    """Where a pairing job leads: the round when paired, the dashboard with the reason when it failed, its
    progress page while it runs."""
    if job.status == PairingJobStatus.DONE and job.round_id:
        messages.success(
            request, _("Round %(n)s paired: review it, draw the opening and publish.") % {"n": job.round_number}
        )
        return redirect("staff:round", slug=tournament.slug, number=job.round_number)
    if job.status == PairingJobStatus.FAILED:
        messages.error(request, job.message)
        return redirect("staff:tournament", slug=tournament.slug)
    return redirect("staff:pairing_job", slug=tournament.slug, job=job.pk)


class PairingJobView(TournamentStaffMixin, TemplateView):
    """The progress of a pairing while it runs (static/js/site.js polls the status below and moves on)."""

    template_name = "staff/pairing_job.html"

    def get(self, request, *args, **kwargs):
        expire_stale_jobs(self.tournament)
        self.job = object_or_404(PairingJob.objects.filter(tournament=self.tournament), kwargs["job"])
        if self.job.status != PairingJobStatus.RUNNING:
            return job_outcome(request, self.tournament, self.job)
        return super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        ctx["job"] = self.job
        return ctx


class PairingJobStatusView(TournamentStaffMixin, View):
    """The job's state as JSON, read by the progress page; ``next`` is where to go when it has ended."""

    def get(self, request, *args, **kwargs):
        expire_stale_jobs(self.tournament)
        job = object_or_404(PairingJob.objects.filter(tournament=self.tournament), kwargs["job"])
        page = reverse("staff:pairing_job", kwargs={"slug": self.tournament.slug, "job": job.pk})
        response = JsonResponse(
            {
                "status": job.status,
                "paired": job.paired,
                "total": job.total,
                "percent": job.percent,
                "label": progress_label(job),
                "next": page if job.status != PairingJobStatus.RUNNING else None,
            }
        )
        response["Cache-Control"] = "no-store"
        return response


def progress_label(job):
    if not job.total:
        return _("Preparing the pairing of round %(n)s…") % {"n": job.round_number}
    return _("%(paired)s of %(total)s players paired (%(percent)s%%)") % {
        "paired": job.paired,
        "total": job.total,
        "percent": job.percent,
    }


def board_rows(tournament, rnd, before=None):
    """One row per board: players, ratings, ``before`` (entry id -> points before the round, when given)."""
    scoring = scoring_of(tournament)
    before = before or {}
    rows = []
    for board in rnd.boards.all():
        first, second = board_pair(board)
        results = {g.number: g.result for g in board.games.all()}
        p1, p2 = board_points(results, scoring)
        done = is_complete(results)
        rows.append(
            {
                "board": board.number,
                "board_obj": board,
                "first_entry": first,
                "second_entry": second,
                "first_no": first.pairing_number,
                "first": first.player.name,
                "first_rating": first.rating or "",
                "first_before": fmt_number(before[first.pk]) if first.pk in before else "",
                "second_no": second.pairing_number,
                "second": second.player.name,
                "second_rating": second.rating or "",
                "second_before": fmt_number(before[second.pk]) if second.pk in before else "",
                "first_points": fmt_number(p1) if done else "",
                "second_points": fmt_number(p2) if done else "",
                "score": f"{fmt_number(p1)} - {fmt_number(p2)}" if done else "",
                "games": "  ".join(
                    entry_label(n, r, tournament.is_micro_match) or "…" for n, r in sorted(results.items())
                ),
                "results": results,
                "opening": (board.opening or rnd.opening).code if (board.opening or rnd.opening) else "",
                # the same as numbers, for the downloads
                "values": {
                    "first_before": before.get(first.pk),
                    "second_before": before.get(second.pk),
                    "first_points": p1 if done else None,
                    "second_points": p2 if done else None,
                },
            }
        )
    return rows


class RoundView(TournamentStaffMixin, TemplateView):
    template_name = "staff/round.html"

    def get_round(self):
        rounds = rounds_with_boards(self.tournament, number=int(self.kwargs["number"]))
        if not rounds:
            from django.http import Http404

            raise Http404
        return rounds[0]

    def get(self, request, *args, **kwargs):
        self.round = self.get_round()
        self.data = PublicData(self.tournament, include_drafts=True)
        self.rows = board_rows(self.tournament, self.round, before=self.data.score_before(self.round.number))
        self.table = PairingTable(self.rows)
        RequestConfig(request, paginate=False).configure(self.table)
        response = table_download(
            request,
            self.table,
            f"{self.tournament.slug}-rodada-{self.round.number}",
            _("Round %(n)s") % {"n": self.round.number},
        )
        return response or super().get(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        rnd = self.round
        explanation = rnd.explanation or {}
        explained = []
        for row in self.rows:
            for key in ("first_entry", "second_entry"):
                e = row[key]
                info = explanation.get(str(e.pairing_number))
                if info:
                    explained.append((e, explanation_row(info)))
        bye = rnd.bye_seats[0].entry if rnd.bye_seats else None
        is_last = not self.tournament.rounds.filter(number__gt=rnd.number).exists()
        has_results = any(r for row in self.rows for r in row["results"].values())
        before = self.data.score_before(rnd.number)
        shown = self.data.round(rnd.number)
        not_paired = [
            {**item, "before": fmt_number(before.get(item["entry"].pk, 0))} for item in self.data.not_paired(shown)
        ]
        one_sided = [
            {**item, "before": fmt_number(before.get(item["entry"].pk, 0))} for item in self.data.one_sided(shown)
        ]
        ctx.update(
            not_paired=not_paired,
            one_sided=one_sided,
            bye_before=fmt_number(before.get(bye.pk, 0)) if bye else "",
            bye_points=fmt_number(
                next((r.points for r in self.data.history.get(bye.pk, []) if r.round == rnd.number), 0)
            )
            if bye
            else "",
            round=rnd,
            table=self.table,
            rows=self.rows,
            bye=bye,
            explained=explained,
            bye_info=explanation_row(explanation[str(bye.pairing_number)])
            if bye and str(bye.pairing_number) in explanation
            else None,
            can_undo=is_last and not has_results,
            undo_needs_reason=rnd.number == 1 and self.tournament.facts_locked_at is not None,
            has_results=has_results,
            export_formats=EXPORT_FORMATS,
            draws=rnd.opening_draws.select_related("opening", "drawn_by", "board").order_by("drawn_at"),
        )
        return ctx

    def post(self, request, *args, **kwargs):
        rnd = get_object_or_404(Round, tournament=self.tournament, number=self.kwargs["number"])
        action = request.POST.get("action")
        url = reverse("staff:round", args=[self.tournament.slug, rnd.number])
        if action in ("publish", "undo") and not may_pair(self.role, self.tournament):
            raise PermissionDenied  # the director has not let arbiters pair this tournament (issue 28.12)
        if action == "publish":
            run_service(
                request,
                round_publish,
                success=_("Round %(n)s published.") % {"n": rnd.number},
                round=rnd,
                user=request.user,
            )
        elif action == "undo" and request.POST.get("confirm") != "1":
            messages.error(
                request,
                _("Nothing was undone: tick the box that confirms undoing the pairing of round %(n)s.")
                % {"n": rnd.number},
            )
        elif action == "undo":
            ok, _r = run_service(
                request,
                round_undo,
                success=_("Pairing of round %(n)s undone.") % {"n": rnd.number},
                round=rnd,
                user=request.user,
                reason=request.POST.get("reason", ""),
            )
            if ok:
                return redirect("staff:tournament", slug=self.tournament.slug)
        elif action == "draw":
            run_service(request, opening_draw, success=_("Opening drawn."), round=rnd, user=request.user)
        elif action == "venue_code":
            run_service(
                request,
                opening_set_code,
                success=_("Opening recorded."),
                round=rnd,
                user=request.user,
                code=request.POST.get("code", ""),
            )
        else:
            messages.error(request, _("Unknown action."))
        return redirect(url)


class ResultsView(TournamentStaffMixin, TemplateView):
    """Type every board of a round fast: one text field per game, first player's side (2-0, 1-1, 0-2, +, -, x).

    A typing error saves nothing, which the message says; the cells in error are marked. A change to a result
    already saved (a correction) is saved only once confirmed with a reason. Two arbiters may share a round: a
    board another one saved while this form was open is merged (services.results.merge), and only a board where
    a typed value differs from what was stored meanwhile is left unsaved, marked with both."""

    template_name = "staff/results.html"

    def get_round(self):
        number = int(self.kwargs["number"])
        rnd = next(iter(rounds_with_boards(self.tournament, number=number)), None)
        if rnd is None:
            from django.http import Http404

            raise Http404
        return rnd

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        rnd = kwargs.get("round") or self.get_round()
        rows = board_rows(self.tournament, rnd)
        mine_text = (self.request.GET.get("mesas") or self.request.POST.get("mesas") or "").strip()[:MAX_SELECTION]
        mine = board_selection(mine_text)
        if mine is not None:  # "minhas mesas": an arbiter sharing the round keeps to her boards (issue 28.9)
            rows = [row for row in rows if row["board"] in mine]
        typed = kwargs.get("typed", {})
        cell_errors = kwargs.get("cell_errors", {})
        corrected = kwargs.get("corrected", set())
        stale = kwargs.get("stale", {})
        micro = self.tournament.is_micro_match
        for row in rows:
            board = row["board_obj"]
            results = row["results"]
            # After a refused save, what was typed is shown again with the version and values its form showed, so
            # saving again merges as the first save did; a board left unsaved because another arbiter stored other
            # values shows what is stored now (and says what was typed).
            posted = parse_id(typed.get((board.pk, "version")))
            keep = posted is not None and board.pk not in stale
            shown = typed.get((board.pk, "shown")) if keep else None
            row["version"] = posted if keep else board.version
            row["stale"] = board.pk in stale
            row["stale_message"] = stale[board.pk].message(micro) if board.pk in stale else ""
            row["error"] = cell_errors.get((board.pk, None), "")
            row["inputs"] = [
                {
                    "number": n,
                    "value": typed[(board.pk, n)] if keep and (board.pk, n) in typed else entry_label(n, r, micro),
                    "shown": entry_label(n, (shown if keep and shown is not None else results).get(n), micro),
                    "error": cell_errors.get((board.pk, n), ""),
                    "corrected": (board.pk, n) in corrected,
                }
                for n, r in sorted(results.items())
            ]
        ctx.update(
            round=rnd,
            rows=rows,
            # read-only: a round the imported file recorded for one player alone has no board and no result to enter
            one_sided=[
                one_sided_row(
                    item.entry,
                    item.opponent,
                    item.colour,
                    item.code,
                    page_kind(item.record.kind),
                    item.record.points,
                    micro,
                    fmt_number,
                )
                for item in round_one_sided(self.tournament, rnd)
            ],
            bye=rnd.bye_seats[0].entry if rnd.bye_seats else None,
            conflict=kwargs.get("conflict", False),
            corrections=kwargs.get("corrections", []),
            reason=kwargs.get("reason", ""),
            tokens=[side_label(c, micro) for c in ("1-0", "1/2", "0-1", "+/-", "-/+", "-/-")],
            reports=reports_panel(rnd),  # what the players reported from their phones (issue 30)
            next_round=next_round_of(self.tournament, rnd.number),  # paired on the old scores (issue 28.4)
            mine_text=mine_text,
            mine_unread=bool(mine_text) and mine is None,
        )
        return ctx

    def back_to_page(self, rnd):
        """The results page again, keeping the arbiter's "minhas mesas"."""
        url = reverse("staff:results", args=[self.tournament.slug, rnd.number])
        mine = (self.request.POST.get("mesas") or "").strip()[:MAX_SELECTION]
        return redirect(f"{url}?{urlencode({'mesas': mine})}" if board_selection(mine) else url)

    def read_post(self, rnd, fields):
        """(rows for services.results.round_record_results, typed, errors, cell_errors) from the posted fields."""
        boards = {board.pk: board for board in rnd.boards.all()}
        rows, typed, errors, cell_errors = [], {}, [], {}
        unknown = False
        for key in fields:
            match = RESULT_FIELD.match(key)
            if match is None or int(match["board"]) not in boards:
                unknown = True
            elif match["game"]:
                board = boards[int(match["board"])]
                if int(match["game"]) not in {g.number for g in board.games.all()}:
                    errors.append(_("Board %(b)s has no game %(g)s.") % {"b": board.number, "g": int(match["game"])})
                    cell_errors[(board.pk, None)] = errors[-1]
        if unknown:
            errors.append(
                _(
                    "This form names boards that are not in round %(n)s (was the round paired again after the page "
                    "was opened?). Reload the page and type the results again."
                )
                % {"n": rnd.number}
            )
        for board in rnd.boards.all():
            if f"b{board.pk}_v" in fields:
                row = self.read_board(board, fields, typed, errors, cell_errors)
                if row is not None:
                    rows.append(row)
        return rows, typed, errors, cell_errors

    def read_board(self, board, fields, typed, errors, cell_errors):
        """One board's row for the service (None when nothing changed or it is in error); what was typed into
        ``typed``, its errors into ``errors`` and ``cell_errors``."""
        prefix = f"b{board.pk}"
        games = sorted(g.number for g in board.games.all())
        version = parse_id(fields[f"{prefix}_v"])
        shown = parse_shown(fields, board.pk, games)
        typed[(board.pk, "version")] = fields[f"{prefix}_v"]
        typed[(board.pk, "shown")] = shown
        results = {}
        for n in games:
            if f"{prefix}_g{n}" not in fields:
                continue  # a box not sent is left alone
            raw = fields[f"{prefix}_g{n}"]
            typed[(board.pk, n)] = raw
            try:
                results[n] = parse_entry(n, raw)
            except ValueError:
                errors.append(self.bad_token(board, n, raw))
                cell_errors[(board.pk, n)] = _("“%(v)s” is not a result") % {"v": raw[:20]}
        current = {g.number: g.result for g in board.games.all()}
        if not any(results[n] != current[n] for n in results):
            return None
        if version is None:
            errors.append(_("Board %(b)s: the form is incomplete, reload the page.") % {"b": board.number})
            cell_errors[(board.pk, None)] = errors[-1]
            return None
        return (board.pk, version, results, shown)

    def bad_token(self, board, game, raw):
        micro = self.tournament.is_micro_match
        return _(
            "Board %(b)s, game %(g)s: “%(v)s” is not a result (use %(codes)s, + W.O. for the first, "
            "- W.O. for the second or x double W.O.)."
        ) % {
            "b": board.number,
            "g": game,
            "v": raw[:20],
            "codes": ", ".join(side_label(c, micro) for c in ("1-0", "1/2", "0-1")),
        }

    def post(self, request, *args, **kwargs):
        rnd = self.get_round()
        posted = posted_fields(request.POST)
        if posted.errors:
            rows, typed, errors, cell_errors = [], {}, posted.errors, {}
        else:
            rows, typed, errors, cell_errors = self.read_post(rnd, posted.fields)
        reason = " ".join(request.POST.get("reason", "").split())[:300]
        if reason and request.POST.get("confirm_correction") != "1":
            errors.append(_("Tick the box that confirms the corrections."))
        conflict, corrections, corrected, stale = False, [], set(), []
        if not errors:
            try:
                outcome = round_record_results(
                    round=rnd,
                    rows=rows,
                    user=request.user,
                    confirm_conflicts=request.POST.get("confirm_conflicts") == "1",
                    reason=reason,
                )
            except ReasonRequired as exc:  # corrections: shown, then confirmed with a reason
                corrections, stale = exc.corrections, exc.stale
                boards = {board.pk: board for board in rnd.boards.all()}
                for board_id, _version, results, _shown in rows:
                    stored = {g.number: g.result for g in boards[board_id].games.all()}
                    corrected |= {
                        (board_id, n) for n, code in results.items() if stored[n] is not None and stored[n] != code
                    }
            except RuleConflict as exc:  # results against the recorded moves: the arbiter decides
                errors.extend(exc.messages)
                conflict = True
            except ServiceError as exc:
                errors.extend(exc.messages)
            else:
                if outcome.saved:
                    messages.success(request, saved_message(outcome.saved))
                    warn_next_round_paired(request, self.tournament, rnd.number)
                elif not outcome.stale:
                    messages.info(request, _("Nothing to save: no result was changed."))
                else:
                    messages.info(request, _("No board was saved."))
                if not outcome.stale:
                    return self.back_to_page(rnd)
                stale, typed = outcome.stale, {}  # the boards saved show what is stored now
        micro = self.tournament.is_micro_match
        if stale:
            messages.warning(request, stale_message(len(stale)))
            for board in stale:
                messages.warning(request, board.message(micro))
        if corrections:
            messages.warning(request, _("Nothing was saved yet: confirm the corrections below and give the reason."))
        elif errors:
            messages.error(
                request,
                ngettext(
                    "Nothing was saved: correct the error below and save again.",
                    "Nothing was saved: correct the %(n)s errors below and save again.",
                    len(errors),
                )
                % {"n": len(errors)},
            )
            for e in errors:
                messages.error(request, e)
        fresh = self.get_round()
        return self.render_to_response(
            self.get_context_data(
                round=fresh,
                typed=typed,
                conflict=conflict,
                cell_errors=cell_errors,
                corrections=corrections,
                corrected=corrected,
                reason=reason,
                stale={board.board_id: board for board in stale},
            ),
            status=409,
        )


def saved_message(numbers):
    """“3 mesas salvas (1, 4, 7).” with the boards' numbers when they are few."""
    text = ngettext("%(n)s board saved", "%(n)s boards saved", len(numbers)) % {"n": len(numbers)}
    if len(numbers) <= 12:
        text += " (" + ", ".join(str(n) for n in numbers) + ")"
    return text + "."


def stale_message(count):
    return ngettext(
        "%(n)s board was not saved: another arbiter saved other results on it while you typed. It is marked "
        "below with what is stored now; check it and save again.",
        "%(n)s boards were not saved: another arbiter saved other results on them while you typed. They are "
        "marked below with what is stored now; check them and save again.",
        count,
    ) % {"n": count}
