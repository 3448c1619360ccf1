"""The federation's next rating list (issue 40.3): every approved stage of a period rated from the list in force at
the period's start, with the same functions the venue's estimate uses (:mod:`tournaments.domain.ratings`), the
method of the regulation's edition in force then; published as the CSV and XLSX the venues import.

Read (:func:`rating_plan`: the list in force, the stages, their games), compute (``next_list``), present
(:func:`plan_rows`, :func:`list_csv`, :func:`list_xlsx`); the write is :func:`rating_release_publish`.

What a published list counted is frozen in its :class:`~tournaments.models.RatingRelease`: a stage approved
after it was published, or whose approval was withdrawn (or replaced by a corrected version) since, changes the
next list, never a published one.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import transaction
from openpyxl import Workbook

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.errors import ServiceError
from tournaments.core.safetext import append_row
from tournaments.domain.edition import RatingMethod
from tournaments.domain.interchange import snapshot_from_interchange
from tournaments.domain.ratings import Game, ListEntry, Standing, games_of_records, next_list
from tournaments.domain.snapshot import round_records
from tournaments.federation.selectors import list_in_force
from tournaments.models import Player, RatingList, RatingListRow, RatingRelease, Submission
from tournaments.models.choices import AuditAction
from tournaments.models.editions import edition_for_day
from tournaments.models.federation import SubmissionStatus

HEADER = ["ID CBJD", "Nome", "Rating", "Nascimento", "Sexo", "UF", "Clube", "Partidas"]


@dataclass(frozen=True)
class PlanStage:
    """A stage the list rates: its submission (the approved version), name and dates; ``withdrawn``: counted by an
    earlier list and no longer approved in that version, so taken back."""

    submission: int
    key: str
    name: str
    end_date: date
    version: int
    withdrawn: bool = False

    @property
    def label(self) -> str:
        return f"{self.key} v{self.version}"


@dataclass(frozen=True)
class RatingPlan:
    start: date
    end: date
    based_on: RatingList | None
    method: RatingMethod
    stages: tuple[PlanStage, ...]
    entries: Mapping[int, ListEntry]
    players: Mapping[int, Player] = field(default_factory=dict)

    @property
    def changed(self) -> list[ListEntry]:
        return [e for e in self.entries.values() if e.by_stage or e.new_player]


def stage_key(submission: Submission) -> str:
    """The stage a submission is a version of: the federation's stage identifier when it has one, else its slug."""
    return submission.stage.identifier if submission.stage is not None else submission.event_slug


def _counted_before() -> dict[int, str]:
    """Submission -> its label, for every submission the published lists counted and have not taken back."""
    net: dict[int, int] = {}
    labels: dict[int, str] = {}
    for stages in RatingRelease.objects.values_list("stages", flat=True):
        for s in stages:
            net[s["submission"]] = net.get(s["submission"], 0) + (-1 if s.get("withdrawn") else 1)
            labels[s["submission"]] = s["label"]
    return {pk: labels[pk] for pk, n in net.items() if n > 0}


def _plan_stages(end: date) -> list[tuple[PlanStage, Submission]]:
    counted = _counted_before()
    out: list[tuple[PlanStage, Submission]] = []
    approved = (
        Submission.objects.filter(status=SubmissionStatus.APPROVED, end_date__lte=end)
        .select_related("stage")
        .order_by("end_date", "id")
    )
    for sub in approved:
        if sub.pk not in counted:
            out.append((PlanStage(sub.pk, stage_key(sub), sub.event_name, sub.end_date, sub.version), sub))
    for sub in (
        Submission.objects.filter(pk__in=counted).select_related("stage").exclude(status=SubmissionStatus.APPROVED)
    ):
        stage = PlanStage(sub.pk, stage_key(sub), sub.event_name, sub.end_date, sub.version, withdrawn=True)
        out.append((stage, sub))
    return out


def _standings(based_on: RatingList | None) -> tuple[dict[int, Standing], dict[str, int], dict[int, Player]]:
    """Every registry player with a CBJD ID as the list in force has them (a player not on it: unrated), keyed by
    the player's id; and the CBJD ID -> id map."""
    rows: dict[str, tuple[int | None, int]] = {}
    if based_on is not None:
        rows = {
            cbjd: (rating, games)
            for cbjd, rating, games in RatingListRow.objects.filter(rating_list=based_on).values_list(
                "cbjd_id", "rating", "rated_games"
            )
        }
    players = {p.pk: p for p in Player.objects.filter(cbjd_id__isnull=False)}
    by_cbjd = {str(p.cbjd_id): pk for pk, p in players.items()}
    standings: dict[int, Standing] = {}
    for pk, p in players.items():
        if rows:
            rating, games = rows.get(str(p.cbjd_id), (None, 0))
        else:  # a list whose rows were not kept: the registry as it is
            rating, games = p.rating, p.rated_games
        standings[pk] = Standing(rating, games)
    return standings, by_cbjd, players


def _stage_games(
    stage: PlanStage, payload: dict[str, Any], by_cbjd: Mapping[str, int], guest: int
) -> dict[int, list[Game]]:
    """The stage's games keyed by registry player; an entry without a CBJD ID (or not in the registry) gets a key of
    its own below ``guest`` (negative): an unrated opponent, whose games count for nobody on the list."""
    snapshot = snapshot_from_interchange(payload)
    key_of: dict[int, int] = {}  # the file's entry -> the registry player (or a guest's key)
    for offset, entry in enumerate(snapshot.entries):
        cbjd = entry.player.cbjd_id
        key_of[entry.pk] = by_cbjd.get(str(cbjd), guest - offset) if cbjd else guest - offset
    numbers = {entry.number: key_of[entry.pk] for entry in snapshot.entries}
    records = {key_of[pk]: recs for pk, recs in round_records(snapshot).items()}
    return games_of_records(records, numbers, stage.label)


def rating_plan(start: date, end: date) -> RatingPlan:
    """The next list of the period ``start``-``end`` as it would be published now."""
    if start > end:
        raise ServiceError("O início do período deve vir antes do fim.")
    based_on = list_in_force(start)
    edition = edition_for_day(start)  # shipped or published by the federation
    method = edition.rating if edition is not None else RatingMethod()
    standings, by_cbjd, players = _standings(based_on)
    games: dict[int, list[Game]] = {}
    stages = []
    guest = -1
    for stage, sub in _plan_stages(end):
        stages.append(stage)
        for key, played in _stage_games(stage, sub.payload, by_cbjd, guest).items():
            if key < 0:
                standings.setdefault(key, Standing(None))
            games.setdefault(key, []).extend(played)
        guest -= 10_000
    withdrawn = [s.label for s in stages if s.withdrawn]
    entries = next_list(standings, games, method, withdrawn)
    return RatingPlan(
        start,
        end,
        based_on,
        method,
        tuple(stages),
        {k: e for k, e in entries.items() if k > 0},
        players,
    )


def plan_rows(plan: RatingPlan) -> list[dict[str, Any]]:
    """One row per player the list changes: CBJD ID, name, the rating before and after, the change (a tenth), the
    rated games, each stage's change, and whether the player gets a first rating."""
    out = []
    for entry in sorted(plan.changed, key=lambda e: (plan.players[e.id].search_name, e.id)):
        p = plan.players[entry.id]
        out.append(
            {
                "cbjd_id": str(p.cbjd_id),
                "name": p.name,
                "rating": entry.rating,
                "new_rating": entry.new_rating,
                "change": round(entry.change, 1),
                "rated_games": entry.rated_games,
                "stages": [{"stage": s, "change": round(c, 1), "games": g} for s, c, g in entry.by_stage],
                "new_player": entry.new_player,
            }
        )
    return out


def _list_lines(plan: RatingPlan) -> list[list[str]]:
    lines = []
    for pk, p in sorted(plan.players.items(), key=lambda item: str(item[1].cbjd_id)):
        entry = plan.entries.get(pk)
        rating = entry.new_rating if entry is not None else p.rating
        games = entry.rated_games if entry is not None else p.rated_games
        lines.append(
            [
                str(p.cbjd_id),
                p.name,
                "" if rating is None else str(rating),
                p.birth_date.strftime("%d/%m/%Y") if p.birth_date else "",
                p.sex,
                p.state,
                p.club,
                str(games),
            ]
        )
    return lines


def list_csv(lines: Sequence[Sequence[str]]) -> str:
    """The list as the venues import it (``;``-separated, UTF-8, one header line; names kept as text)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(HEADER)
    for line in lines:  # read back by the product's own reader, cell by cell as text: written as they are
        writer.writerow(list(line))
    return out.getvalue()


def list_xlsx(release: RatingRelease) -> bytes:
    """The published list as XLSX (the same columns, read back from its CSV so the two cannot differ)."""
    wb = Workbook()
    ws = wb.create_sheet(f"Lista {release.list_date:%d-%m-%Y}", 0)
    del wb[wb.sheetnames[1]]  # the empty sheet a new workbook starts with
    for row in csv.reader(io.StringIO(release.csv), delimiter=";"):
        append_row(ws, row)  # every cell typed as text: a name is never a formula
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@transaction.atomic
def rating_release_publish(*, start: date, end: date, list_date: date, user: Actor) -> RatingRelease:
    """Compute the period's list and publish it: recorded frozen, and imported into the registry through the same
    CSV the venues import (all or nothing)."""
    if RatingRelease.objects.filter(list_date__gte=list_date).exists():
        raise ServiceError("Já há uma lista publicada nesta data ou depois: a nova lista deve ter data posterior.")
    if list_date < end:
        raise ServiceError("A data da lista deve ser o fim do período ou depois.")
    plan = rating_plan(start, end)
    if not plan.stages:
        raise ServiceError("Nenhuma etapa homologada a avaliar neste período: nada a publicar.")
    text = list_csv(_list_lines(plan))
    from tournaments.entries.services import rating_list_import_report

    report = rating_list_import_report(
        data=text.encode("utf-8"), filename=f"lista-cbjd-{list_date:%Y-%m-%d}.csv", user=user, list_date=list_date
    )
    rating_list = RatingList.objects.filter(list_date=list_date).order_by("-id").first()
    release = RatingRelease.objects.create(
        period_start=start,
        period_end=end,
        list_date=list_date,
        based_on=plan.based_on,
        rating_list=rating_list,
        stages=[
            {
                "submission": s.submission,
                "key": s.key,
                "label": s.label,
                "name": s.name,
                "version": s.version,
                "withdrawn": s.withdrawn,
            }
            for s in plan.stages
        ],
        rows=plan_rows(plan),
        csv=text,
        published_by=login_of(user),
    )
    audit(
        tournament=None,
        user=user,
        action=AuditAction.RATING_RELEASE_PUBLISH,
        obj=release,
        summary=f"{release} ({len(plan.stages)} etapas, {report.updated} jogadores)",
    )
    return release
