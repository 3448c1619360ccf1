"""Pairing outside the request: the job row's state and progress, all or nothing, one pairing at a time."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tournaments.core.errors import ServiceError
from tournaments.models import Absence, PairingJob, Round
from tournaments.models.choices import PairingJobStatus
from tournaments.rounds.pairing_jobs import expire_stale_jobs, pairing_job_start
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair, round_publish

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


def play_round(t, number, director, result=("1-0", "1-0")):
    rnd = Round.objects.get(tournament=t, number=number)
    for board in rnd.boards.all():
        game_record_result(
            board=board, results=dict(enumerate(result, start=1)), expected_version=board.version, user=director
        )
    round_publish(round=rnd, user=director)


def test_a_job_pairs_the_round_and_records_its_progress(field, director):
    t, entries = field(12)
    round_pair(tournament=t, user=director)
    play_round(t, 1, director)
    job = pairing_job_start(tournament=t, user=director)
    assert (job.status, job.message) == (PairingJobStatus.DONE, "")
    assert job.round == Round.objects.get(tournament=t, number=2)
    assert (job.round_number, job.paired, job.total, job.percent, job.message) == (2, 12, 12, 100, "")
    assert job.round.boards.count() == 6


def test_a_failed_pairing_writes_nothing_and_says_why_in_portuguese(field, director):
    t, entries = field(2)
    round_pair(tournament=t, user=director)
    play_round(t, 1, director)
    job = pairing_job_start(tournament=t, user=director)
    assert job.status == PairingJobStatus.FAILED
    assert job.message.startswith("Não existe emparceiramento válido para a rodada 2")
    assert job.round is None and job.finished_at is not None
    assert list(Round.objects.filter(tournament=t).values_list("number", flat=True)) == [1]


def test_a_change_made_while_the_engine_runs_discards_its_pairing(field, director):
    t, entries = field(10)
    round_pair(tournament=t, user=director)
    play_round(t, 1, director)
    calls = []

    def meanwhile(paired, total):
        if not calls:  # an arbiter announces an absence while the engine is busy
            Absence.objects.create(entry=entries[3], round_number=2)
        calls.append((paired, total))

    with pytest.raises(ServiceError) as exc:
        round_pair(tournament=t, user=director, progress=meanwhile)
    assert exc.value.messages == [
        "O torneio mudou enquanto a rodada 2 era emparceirada (um resultado, uma ausência ou uma inscrição): "
        "nada foi salvo. Emparceire a rodada novamente."
    ]
    assert calls and calls[-1] == (10, 10)
    assert not Round.objects.filter(tournament=t, number=2).exists()
    # paired again, the absent player sits out
    rnd = round_pair(tournament=t, user=director)
    assert rnd.number == 2 and rnd.boards.count() == 4


def test_one_pairing_at_a_time_and_an_interrupted_one_frees_the_tournament(field, director):
    t, entries = field(8)
    running = PairingJob.objects.create(tournament=t, round_number=1, created_by=director)
    with pytest.raises(ServiceError) as exc:
        pairing_job_start(tournament=t, user=director)
    assert exc.value.messages == ["Já há um emparceiramento deste torneio em andamento: aguarde o término."]
    assert not Round.objects.filter(tournament=t).exists()

    # its worker died: no heartbeat for a minute
    PairingJob.objects.filter(pk=running.pk).update(
        started_at=timezone.now() - timedelta(seconds=90), heartbeat=timezone.now() - timedelta(seconds=61)
    )
    expire_stale_jobs(t)
    running.refresh_from_db()
    assert running.status == PairingJobStatus.FAILED
    assert running.message == (
        "O emparceiramento foi interrompido: o processo que o executava deixou de responder (foi reiniciado ou "
        "perdeu o banco de dados); nada foi salvo. Emparceire a rodada novamente."
    )
    job = pairing_job_start(tournament=t, user=director)
    assert job.status == PairingJobStatus.DONE and job.round.number == 1


def test_a_live_job_is_not_expired(field, director):
    t, entries = field(4)
    job = PairingJob.objects.create(tournament=t, round_number=1, created_by=director)
    PairingJob.objects.filter(pk=job.pk).update(
        started_at=timezone.now() - timedelta(seconds=90), heartbeat=timezone.now() - timedelta(seconds=30)
    )
    expire_stale_jobs(t)
    job.refresh_from_db()
    assert job.status == PairingJobStatus.RUNNING


def test_the_staff_page_pairs_and_the_status_reads_the_job(client, field, director):
    t, entries = field(6)
    client.force_login(director)
    response = client.post(reverse("staff:round_pair", args=[t.slug]))
    assert response.status_code == 302
    assert response.url == reverse("staff:round", args=[t.slug, 1])

    play_round(t, 1, director)
    job = PairingJob.objects.create(tournament=t, round_number=2, created_by=director, paired=2, total=6)
    page = client.get(reverse("staff:pairing_job", args=[t.slug, job.pk]))
    assert page.status_code == 200
    assert 'value="33"' in page.content.decode()
    status = client.get(reverse("staff:pairing_job_status", args=[t.slug, job.pk])).json()
    assert status == {
        "status": "running",
        "paired": 2,
        "total": 6,
        "percent": 33,
        "label": "2 de 6 jogadores emparceirados (33%)",
        "next": None,
    }
    PairingJob.objects.filter(pk=job.pk).update(status=PairingJobStatus.FAILED, message="Nada foi salvo.")
    status = client.get(reverse("staff:pairing_job_status", args=[t.slug, job.pk])).json()
    assert status["next"] == reverse("staff:pairing_job", args=[t.slug, job.pk])
    ended = client.get(status["next"])
    assert ended.status_code == 302 and ended.url == reverse("staff:tournament", args=[t.slug])


def test_a_job_of_another_tournament_is_not_found(client, field, director):
    t, _ = field(4)
    other, _ = field(4)
    job = PairingJob.objects.create(tournament=other, round_number=1, created_by=director)
    client.force_login(director)
    assert client.get(reverse("staff:pairing_job_status", args=[t.slug, job.pk])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_engine_runs_in_a_background_worker(field, director, monkeypatch):
    """Issue 25 item 8: not in the web server's process (a recycled gunicorn worker cannot take it along) but in
    ``manage.py db_worker``'s, through django-tasks' database queue."""
    from django.core.management import call_command
    from django_tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from tournaments.rounds import pairing_jobs

    t, entries = field(10)
    round_pair(tournament=t, user=director)
    play_round(t, 1, director)
    monkeypatch.setattr(pairing_jobs, "WAIT_IN_REQUEST", 0.2)
    job = pairing_job_start(tournament=t, user=director)
    assert (job.status, job.started_at) == (PairingJobStatus.RUNNING, None)  # queued: the request has returned
    [queued] = DBTaskResult.objects.all()
    assert (queued.task_path, queued.status) == ("tournaments.rounds.pairing_jobs.pair_in_background", "READY")
    assert queued.args_kwargs["args"] == [job.pk]
    assert not Round.objects.filter(tournament=t, number=2).exists()

    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)  # the worker's process
    job.refresh_from_db()
    assert job.status == PairingJobStatus.DONE and job.round.number == 2 and job.started_at is not None
    assert job.paired == job.total == 10
    queued.refresh_from_db()
    assert queued.status == TaskResultStatus.SUCCESSFUL and queued.return_value == "done"

    pairing_jobs.run_pairing_job(job.pk)  # a task delivered twice does not pair again
    assert Round.objects.filter(tournament=t).count() == 2


def test_a_job_no_worker_took_is_reported_after_five_minutes(field, director):
    t, entries = field(4)
    waiting = PairingJob.objects.create(tournament=t, round_number=1, created_by=director)
    PairingJob.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(minutes=4))
    expire_stale_jobs(t)
    waiting.refresh_from_db()
    assert waiting.status == PairingJobStatus.RUNNING  # a worker busy with another pairing may still take it
    PairingJob.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(minutes=6))
    expire_stale_jobs(t)
    waiting.refresh_from_db()
    assert waiting.status == PairingJobStatus.FAILED
    assert waiting.message == (
        "Nenhum processo de segundo plano pegou o emparceiramento em 5 minutos (o “manage.py db_worker” está "
        "rodando?); nada foi salvo. Emparceire a rodada novamente."
    )
