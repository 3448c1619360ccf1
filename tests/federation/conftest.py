"""Fixtures of the federation's tests: the federation's role, tasks run at once, the stage file, a registry that
agrees with it, and a credential."""

import json
from datetime import date
from pathlib import Path

import pytest

STAGE = Path(__file__).resolve().parents[1] / "data" / "federation" / "etapa-caruaru.json"
IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend", "QUEUES": ["default"]}}


@pytest.fixture
def stage_data():
    return json.loads(STAGE.read_text(encoding="utf-8"))


@pytest.fixture
def recent_stage(stage_data):
    """The stage as if played yesterday (the deadline of art. 6 and 11 is met when sent today)."""
    from django.utils import timezone

    yesterday = (timezone.localdate() - timezone.timedelta(days=1)).isoformat()
    stage_data["tournament"]["start_date"] = stage_data["tournament"]["end_date"] = yesterday
    return stage_data


@pytest.fixture
def as_federation(settings):
    settings.DAMAS_ROLE = "federation"
    settings.TASKS = IMMEDIATE
    return settings


@pytest.fixture
def national_list(db, stage_data, federation):
    """The federation's registry: the stage's players on the list of 1 October 2026 (as a rating list import)."""
    from tournaments.entries.services import rating_list_import

    lines = ["ID CBJD;Nome;Rating;Nascimento;Sexo;UF;Clube"]
    for p in stage_data["players"]:
        born = date.fromisoformat(p["birth_date"])
        lines.append(f"{p['cbjd_id']};{p['name']};{p['rating'] or ''};{born:%d/%m/%Y};{p['sex']};PE;Clube")
    rating_list_import(
        data=("\n".join(lines) + "\n").encode(),
        filename="rating-cbjd-2026-10.csv",
        user=federation,
        list_date=date(2026, 10, 1),
    )


@pytest.fixture
def credential(db, federation):
    from tournaments.federation.services import credential_issue

    return credential_issue(label="Federação Pernambucana", user=federation)


@pytest.fixture
def venue(settings):
    """A venue's laptop linked to a federation that cannot be reached (nothing listens on port 9)."""
    settings.DAMAS_ROLE = "venue"
    settings.TASKS = IMMEDIATE
    settings.FEDERATION_URL = "http://127.0.0.1:9"
    settings.FEDERATION_TOKEN = "dsw_00000000_chave-de-teste"
    return settings


@pytest.fixture
def venue_event(db, recent_stage):
    """The stage imported at the venue (as the director's laptop holds it)."""
    from tournaments.interchange import import_data

    # bound to its stage in the federation's calendar, as if the director had asked for it (issue 35.2)
    return import_data({**recent_stage, "tournament": {**recent_stage["tournament"], "stage_id": "CBJD-2026-001"}})


def register(credential, data, accepted=True, late=False):
    """The stage registered in the federation's calendar by the credential's organiser (issue 35.2), accepted, and
    the file bound to it."""
    from tournaments.federation.calendar import stage_decide, stage_request_receive

    t = data["tournament"]
    stage, _created = stage_request_receive(
        credential=credential,
        data={
            "name": t["name"],
            "city": t.get("city") or "Caruaru",
            "start_date": t["start_date"],
            "end_date": t["end_date"],
            "format": t.get("format") or "micro-match",
            "planned_rounds": t.get("rounds") or 7,
            "minutes_per_game": t.get("minutes_per_game") or 21,
            "venue_slug": t["slug"],
        },
    )
    if not late:  # asked for ten days before its start
        from datetime import datetime, time, timedelta

        from django.utils import timezone

        from tournaments.models import Stage

        asked = timezone.make_aware(datetime.combine(date.fromisoformat(t["start_date"]) - timedelta(days=10), time(9)))
        Stage.objects.filter(pk=stage.pk).update(requested_at=asked, late=False)
        stage.refresh_from_db()
    if accepted:
        stage = stage_decide(stage=stage, user=None, accept=True)
    t["stage_id"] = stage.identifier
    return stage


@pytest.fixture
def registered(db, credential, recent_stage):
    """The recent stage registered (and accepted) in the calendar by the credential's organiser."""
    return register(credential[0], recent_stage)


@pytest.fixture
def received(db, as_federation, credential, national_list, recent_stage, registered):
    """A stage (registered in the calendar) received and verified at the federation."""

    from tournaments.federation.services import submission_receive, submission_verify

    cred, _token = credential
    submission, _ = submission_receive(credential=cred, data=recent_stage, nonce="n" * 32)
    return submission_verify(submission=submission)
