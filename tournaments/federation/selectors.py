"""Reads of the federation's side: the registry at a date (for verifying), the review queue, the season."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import CharField, Q, QuerySet
from django.db.models.functions import Coalesce

from tournaments.federation.verification import Registry, RegistryPlayer, SuspensionPeriod
from tournaments.models import (
    ApiCredential,
    OutgoingSubmission,
    Player,
    RatingList,
    RatingListRow,
    RegistrySync,
    Stage,
    Submission,
    Suspension,
    Tournament,
)
from tournaments.models.choices import SuspensionSource
from tournaments.models.federation import SubmissionStatus


def list_in_force(on: date) -> RatingList | None:
    """The national list in force on ``on``: the latest published on or before that day."""
    return RatingList.objects.filter(list_date__lte=on).order_by("-list_date", "-imported_at", "-id").first()


def registry_at(on: date) -> Registry:
    """The registry as the verification reads it: every player with a CBJD ID, at the rating of the list in force
    on ``on`` (the current rating when that list's rows were not kept, or the player is not on it), and the
    suspensions, each with whether it was lifted and when, and the stage that gave it (its origin)."""
    rating_list = list_in_force(on)
    rows: dict[str, int | None] = {}
    if rating_list is not None:
        rows = dict(RatingListRow.objects.filter(rating_list=rating_list).values_list("cbjd_id", "rating"))
    players: dict[str, RegistryPlayer] = {}
    for cbjd_id, name, rating, sex, birth, club in Player.objects.filter(cbjd_id__isnull=False).values_list(
        "cbjd_id", "name", "rating", "sex", "birth_date", "club"
    ):
        key = str(cbjd_id)
        players[key] = RegistryPlayer(key, name, rows.get(key, rating), sex, birth, club)
    # every suspension, lifted ones too (one lifted after the event still judges it): which count for the event's
    # dates is the verification's question (tournaments.domain.suspensions)
    suspensions = [
        SuspensionPeriod(
            str(cbjd_id),
            start,
            end,
            reason,
            abandonment=source == SuspensionSource.ABANDONMENT,
            lifted_at=lifted_at,
            origin=origin or "",
        )
        for cbjd_id, start, end, reason, source, lifted_at, origin in Suspension.objects.filter(
            national_pending=False, player__cbjd_id__isnull=False
        ).values_list(
            "player__cbjd_id",
            "start_date",
            "end_date",
            "reason",
            "source",
            "lifted_at",
            # the stage that gave it: its identifier in the calendar (issue 36.5: whatever slug), else its slug
            Coalesce("submission__stage__identifier", "submission__event_slug", output_field=CharField()),
        )
    ]
    return Registry(
        list_date=rating_list.list_date if rating_list else None,
        list_name=rating_list.filename if rating_list else "",
        players=players,
        suspensions=suspensions,
    )


def credentials() -> QuerySet[ApiCredential]:
    return ApiCredential.objects.select_related("created_by", "revoked_by").order_by("-created_at", "-id")


def review_queue(*, status: str = "", season: int | None = None, text: str = "") -> QuerySet[Submission]:
    """The latest version of every event first (a superseded version is listed under its successor), filtered
    (issue 36.8) by ``status`` (a SubmissionStatus value; "" every one but superseded), ``season`` (the year of
    the event's start) and ``text`` (in the event's name, slug or organiser)."""
    qs = Submission.objects.select_related("credential", "decided_by", "stage").defer("payload")
    qs = qs.filter(status=status) if status else qs.exclude(status=SubmissionStatus.SUPERSEDED)
    if season:
        qs = qs.filter(start_date__year=season)
    text = text.strip()[:100]
    if text:
        qs = qs.filter(
            Q(event_name__icontains=text)
            | Q(event_slug__icontains=text)
            | Q(credential__label__icontains=text)
            | Q(stage__identifier__icontains=text)
        )
    return qs.order_by("-received_at", "-id")


def queue_seasons() -> list[int]:
    """The years of the stages received, latest first (the queue's season filter)."""
    return sorted(set(Submission.objects.values_list("start_date__year", flat=True)), reverse=True)


def record_of(stage: Stage | None, slug: str) -> QuerySet[Submission]:
    """Every version of one stage (issue 36.5): a registered stage's, whatever slug each was sent under; a file
    naming no stage, those of its slug that name none either."""
    if stage is not None:
        return Submission.objects.filter(stage=stage)
    return Submission.objects.filter(event_slug=slug, stage__isnull=True)


def versions_of(slug: str) -> QuerySet[Submission]:
    """The versions asked for by a slug or by a stage's identifier ("CBJD-2026-007")."""
    stage = Stage.objects.filter(identifier=slug).first()
    versions = Submission.objects.filter(stage=stage) if stage else Submission.objects.filter(event_slug=slug)
    return versions.defer("payload").order_by("-version")


def versions_of_submission(submission: Submission) -> QuerySet[Submission]:
    return record_of(submission.stage, submission.event_slug).defer("payload").order_by("-version")


def approved_version(slug: str) -> Submission | None:
    return Submission.objects.filter(event_slug=slug, status=SubmissionStatus.APPROVED).order_by("-version").first()


def approved_of_record(record: QuerySet[Submission]) -> Submission | None:
    return record.filter(status=SubmissionStatus.APPROVED).order_by("-version").first()


def calendar(year: int | None = None) -> QuerySet[Stage]:
    """The stages asked for and their state, for the staff's calendar page (a year's, or every one)."""
    stages = Stage.objects.select_related("credential", "decided_by").order_by("start_date", "identifier")
    return stages.filter(start_date__year=year) if year else stages


def outgoing_of(tournament: Tournament) -> QuerySet[OutgoingSubmission]:
    return OutgoingSubmission.objects.filter(tournament=tournament).defer("payload").order_by("-created_at", "-id")


def last_registry_sync() -> RegistrySync | None:
    return RegistrySync.objects.order_by("-synced_at", "-id").first()


def seasons() -> list[int]:
    years = Submission.objects.filter(status=SubmissionStatus.APPROVED).values_list("start_date__year", flat=True)
    return sorted(set(years), reverse=True)


def season_stages(year: int) -> list[Submission]:
    """The approved stages of a season, in date order (only approved stages count)."""
    approved = list(
        Submission.objects.filter(status=SubmissionStatus.APPROVED, start_date__year=year)
        .defer("payload")
        .order_by("start_date", "received_at", "id")
    )
    # one stage is one record (issue 36.5): its latest approved version only, whatever the slug
    latest: dict[tuple[str, object], Submission] = {}
    for s in approved:
        key = _record_key(s)
        if key not in latest or s.version > latest[key].version:
            latest[key] = s
    return [s for s in approved if latest[_record_key(s)] is s]


def _record_key(s: Submission) -> tuple[str, object]:
    return ("stage", s.stage_id) if s.stage_id else ("slug", s.event_slug)


def national_list() -> dict[str, Any]:
    """What a venue downloads: the national list (latest), the suspensions in force and the regulation's
    editions."""
    from django.utils import timezone

    from tournaments.federation.editions import editions_served

    today = timezone.localdate()
    latest = RatingList.objects.order_by("-list_date", "-imported_at", "-id").first()
    players = [
        {
            "cbjd_id": p["cbjd_id"],
            "name": p["name"],
            "rating": p["rating"],
            "sex": p["sex"],
            "birth_date": p["birth_date"].isoformat() if p["birth_date"] else None,
            "state": p["state"],
            "club": p["club"],
            "rated_games": p["rated_games"],
        }
        for p in Player.objects.filter(cbjd_id__isnull=False)
        .order_by("cbjd_id")
        .values("cbjd_id", "name", "rating", "sex", "birth_date", "state", "club", "rated_games")
    ]
    suspensions = [
        {
            "cbjd_id": s["player__cbjd_id"],
            "start": s["start_date"].isoformat(),
            "end": s["end_date"].isoformat(),
            "source": s["source"],
            "reason": s["reason"],
        }
        for s in Suspension.objects.filter(
            lifted_at__isnull=True, national_pending=False, end_date__gte=today, player__cbjd_id__isnull=False
        )
        .order_by("player__cbjd_id", "start_date")
        .values("player__cbjd_id", "start_date", "end_date", "source", "reason")
    ]
    return {
        "list": {
            "name": latest.filename if latest else "",
            "date": latest.list_date.isoformat() if latest else None,
        },
        "players": players,
        "suspensions": suspensions,
        "editions": editions_served(),  # the regulation's editions the federation published (issue 35.1)
    }


def suspensions_in_force() -> QuerySet[Suspension]:
    """The suspensions in force today, every venue's (art. 3, 10)."""
    from django.utils import timezone

    today = timezone.localdate()
    return (
        Suspension.objects.filter(
            lifted_at__isnull=True, national_pending=False, start_date__lte=today, end_date__gte=today
        )
        .select_related("player")
        .order_by("end_date", "player__search_name")
    )
