"""The federation's next rating list (issue 40.3): the approved stages of a period rated from the list in force at
its start with the venue's own functions, published frozen, imported back as the venues import it; a stage
approved later, or an approval withdrawn, changes the next list and never a published one."""

import csv
import io
from datetime import date, timedelta

import pytest
from django.utils import timezone

from tournaments.core.errors import ServiceError
from tournaments.domain.interchange import snapshot_from_interchange
from tournaments.federation.ratings import list_xlsx, plan_rows, rating_plan, rating_release_publish
from tournaments.federation.services import submission_decide, submission_receive, submission_verify
from tournaments.models import Player, RatingRelease, Submission
from tournaments.registry.ratinglist import parse_rating_list
from tournaments.standings.ratings import snapshot_estimates

pytestmark = pytest.mark.django_db
START = date(2026, 10, 1)  # the day of the national list of the fixtures


def send(credential, data, nonce):
    cred, _token = credential
    submission, _ = submission_receive(credential=cred, data=data, nonce=nonce * 32, sent_at=timezone.now())
    return submission_verify(submission=submission)


@pytest.fixture
def others(db):
    """Players registered before the stage's: the registry's ids differ from the file's (1 to 34)."""
    for n in range(7):
        Player.objects.create(name=f"Outro {n}", sex="M", cbjd_id=f"SP{n:04d}", rating=1500 + n)


@pytest.fixture
def approved(others, as_federation, credential, national_list, recent_stage, registered, federation):
    submission = send(credential, recent_stage, "a")
    return submission_decide(submission=submission, user=federation, approve=True)


def test_the_list_rates_the_stage_as_the_venue_estimates_it(approved):
    today = timezone.localdate()
    plan = rating_plan(START, today)
    # keyed by the stage's identifier in the calendar (issue 36.5)
    assert [(s.key, s.withdrawn) for s in plan.stages] == [(approved.stage.identifier, False)]
    # every player's change is the venue's own estimate of the same file (one implementation)
    venue = snapshot_from_interchange(approved.payload)
    estimates = snapshot_estimates(venue)
    by_cbjd = {Player.objects.get(cbjd_id=e.player.cbjd_id).pk: estimates[e.pk] for e in venue.entries}
    assert len(by_cbjd) == 34
    for pk, change in by_cbjd.items():
        entry = plan.entries[pk]
        assert entry.change == pytest.approx(change.change), pk
        assert entry.new_rating == change.new_rating and entry.rated_games == change.games
    rows = plan_rows(plan)
    rated = [r for r in rows if r["rating"] is not None]
    assert rated and all(r["stages"][0]["stage"] == f"{approved.stage.identifier} v1" for r in rated)


def test_published_frozen_imported_back_and_the_same_as_csv_and_xlsx(approved, federation):
    today = timezone.localdate()
    plan = rating_plan(START, today)
    expected = {Player.objects.get(pk=pk).cbjd_id: e.new_rating for pk, e in plan.entries.items()}
    release = rating_release_publish(start=START, end=today, list_date=today, user=federation)
    # the registry took the new list, through the same import the venues run
    assert dict(Player.objects.values_list("cbjd_id", "rating")) == expected
    assert release.rating_list.list_date == today and release.based_on.list_date == START
    csv_rows = parse_rating_list(release.csv.encode(), "lista.csv")
    xlsx_rows = parse_rating_list(list_xlsx(release), "lista.xlsx")
    assert [(r.cbjd_id, r.rating, r.rated_games) for r in csv_rows] == [
        (r.cbjd_id, r.rating, r.rated_games) for r in xlsx_rows
    ]
    assert {r.cbjd_id: r.rating for r in csv_rows} == expected
    header = next(csv.reader(io.StringIO(release.csv), delimiter=";"))
    assert header == ["ID CBJD", "Nome", "Rating", "Nascimento", "Sexo", "UF", "Clube", "Partidas"]
    with pytest.raises(ValueError, match="não muda"):
        release.save()
    # nothing left to rate: publishing again is refused, in Portuguese
    with pytest.raises(ServiceError, match="Nenhuma etapa homologada"):
        rating_release_publish(start=START, end=today, list_date=today + timedelta(days=1), user=federation)


def test_a_corrected_version_approved_later_goes_into_the_next_list(approved, credential, recent_stage, federation):
    today = timezone.localdate()
    first = rating_release_publish(start=START, end=today, list_date=today, user=federation)
    published_rows, published_csv = first.rows, first.csv
    # the organiser corrects a result of round 1 and the federation approves version 2
    corrected = dict(recent_stage)
    rounds = [dict(r) for r in corrected["rounds"]]
    board = dict(rounds[0]["boards"][0])
    flipped = {"1-0": "0-1", "0-1": "1-0"}
    board["games"] = [flipped.get(board["games"][0], "1-0"), *board["games"][1:]]
    rounds[0]["boards"] = [board, *rounds[0]["boards"][1:]]
    corrected["rounds"] = rounds
    second = send(credential, corrected, "b")
    # a result changed after approval takes the rights (issue 36.8: approved only on purpose, with a reason)
    assert not second.rights
    submission_decide(
        submission=second,
        user=federation,
        approve=True,
        reason="resultado da rodada 1 corrigido pela arbitragem",
        confirm_without_rights=True,
    )
    assert Submission.objects.get(pk=approved.pk).status == "superseded"
    plan = rating_plan(today + timedelta(days=1), today + timedelta(days=1))
    assert sorted((s.version, s.withdrawn) for s in plan.stages) == [(1, True), (2, False)]
    # version 1 taken back, version 2 counted: the net change is version 2's less version 1's
    moved = [e for e in plan.entries.values() if e.by_stage]
    assert moved and all(len(e.by_stage) == 2 for e in moved)
    # the published list is untouched
    first.refresh_from_db()
    assert first.rows == published_rows and first.csv == published_csv
    assert RatingRelease.objects.count() == 1


def test_the_rating_officers_page_previews_publishes_and_serves_the_files(client, approved, federation):
    today = timezone.localdate()
    client.force_login(federation)
    page = client.get("/gestao/federacao/rating/", {"inicio": START.isoformat(), "fim": today.isoformat()})
    html = page.content.decode()
    assert 'id="rating-changes"' in html and approved.event_name in html and "Publicar a lista" in html
    r = client.post(
        "/gestao/federacao/rating/",
        {"inicio": START.isoformat(), "fim": today.isoformat(), "data_da_lista": today.isoformat()},
        follow=True,
    )
    assert "publicada e aplicada ao cadastro nacional" in r.content.decode()
    release = RatingRelease.objects.get()
    got = client.get(f"/gestao/federacao/rating/{release.pk}/lista/")
    assert got["Content-Disposition"] == f'attachment; filename="lista-cbjd-{today:%Y-%m-%d}.csv"'
    assert got.content.decode() == release.csv
    xlsx = client.get(f"/gestao/federacao/rating/{release.pk}/lista/", {"formato": "xlsx"})
    assert [r.rating for r in parse_rating_list(xlsx.content, "l.xlsx")] == [
        r.rating for r in parse_rating_list(release.csv.encode(), "l.csv")
    ]
    bad = client.post("/gestao/federacao/rating/", {"inicio": today.isoformat(), "fim": START.isoformat()})
    assert "Informe o período" in bad.content.decode()
