"""Issue 25 item 12: a database outage during a pairing is reported as what it is, not as a restarted server.

The fault is injected under Django's database layer (``connection.execute_wrapper``): from the engine's first
progress report on, every query fails as a lost connection does, until the database "comes back" after a few
tries. The job then says that the database was unreachable, and nothing of the round was written."""

import logging

import pytest
from django.db import OperationalError, connection
from django.utils import translation

from tournaments.models import PairingJob, Round
from tournaments.models.choices import PairingJobStatus
from tournaments.rounds import pairing_jobs
from tournaments.rounds.pairing_jobs import pairing_job_start
from tournaments.rounds.services import round_pair

# Committed for real, and the job run outside any transaction as a worker runs it: a failed query then breaks the
# pairing's own transaction, as a lost connection does.
pytestmark = pytest.mark.django_db(transaction=True)

LOST = "O banco de dados ficou inacessível durante o emparceiramento (a conexão com ele falhou ou caiu); nada foi salvo. Emparceire a rodada novamente."


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


class Outage:
    """Every query fails as a dropped connection does while ``down``; the database is back after ``lasts`` of them."""

    def __init__(self, lasts):
        self.down, self.lasts, self.refused = False, lasts, 0

    def __call__(self, execute, sql, params, many, context):
        if self.down:
            self.refused += 1
            if self.refused >= self.lasts:
                self.down = False
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)


@pytest.fixture
def second_round(field, director, monkeypatch, settings):
    from tournaments.models import Board
    from tournaments.rounds.results import game_record_result
    from tournaments.rounds.services import round_publish

    monkeypatch.setattr(pairing_jobs, "RETRY_PAUSE", 0)
    settings.PAIRING_IN_BACKGROUND = False  # in this thread, outside a transaction
    t, _entries = field(12)
    round_pair(tournament=t, user=director)
    for board in Board.objects.filter(round__tournament=t):
        game_record_result(board=board, results={1: "1-0", 2: "0-1"}, expected_version=board.version, user=director)
    round_publish(round=Round.objects.get(tournament=t, number=1), user=director)
    return t


def pair_with(t, director, outage, monkeypatch, when="progress"):
    """Start the pairing with ``outage`` armed at the engine's first progress report (or as the round is written)."""
    real_round_pair = pairing_jobs.round_pair

    def armed(**kwargs):
        if when == "progress":
            report = kwargs["progress"]

            def progress(paired, total):
                outage.down = True
                report(paired, total)

            kwargs["progress"] = progress
            return real_round_pair(**kwargs)
        rnd = real_round_pair(**kwargs)
        outage.down = True  # committed, then the connection drops before the job records it
        raise OperationalError("server closed the connection unexpectedly")
        return rnd

    monkeypatch.setattr(pairing_jobs, "round_pair", armed)
    with connection.execute_wrapper(outage):
        return pairing_job_start(tournament=t, user=director)


def test_a_database_outage_during_the_pairing_is_said_and_nothing_is_written(
    second_round, director, monkeypatch, caplog
):
    outage = Outage(lasts=5)
    job = pair_with(second_round, director, outage, monkeypatch)
    assert outage.refused == 5  # the database refused five queries, then came back
    job = PairingJob.objects.get(pk=job.pk)
    assert (job.status, job.message) == (PairingJobStatus.FAILED, LOST)
    assert "reiniciou" not in job.message
    assert list(Round.objects.filter(tournament=second_round).values_list("number", flat=True)) == [1]
    [logged] = [r for r in caplog.records if r.levelno == logging.ERROR and r.name == "tournaments.rounds.pairing_jobs"]
    assert logged.getMessage() == f"pairing job {job.pk}: database error while pairing"


def test_a_database_error_that_is_no_outage_is_an_internal_error(second_round, director, monkeypatch):
    outage = Outage(lasts=1)  # one query fails, the next one (the check that the database answers) succeeds
    job = pair_with(second_round, director, outage, monkeypatch)
    job = PairingJob.objects.get(pk=job.pk)
    assert job.status == PairingJobStatus.FAILED
    assert job.message == "O emparceiramento falhou por um erro interno; nada foi salvo. Tente novamente."
    assert not Round.objects.filter(tournament=second_round, number=2).exists()


def test_a_connection_lost_after_the_round_was_committed_reports_the_round(second_round, director, monkeypatch):
    outage = Outage(lasts=3)
    job = pair_with(second_round, director, outage, monkeypatch, when="committed")
    job = PairingJob.objects.get(pk=job.pk)
    rnd = Round.objects.get(tournament=second_round, number=2)
    assert (job.status, job.round, job.message) == (PairingJobStatus.DONE, rnd, "")


def test_a_database_that_never_comes_back_leaves_the_job_to_the_heartbeat_rule(
    second_round, director, monkeypatch, caplog
):
    monkeypatch.setattr(pairing_jobs, "OUTAGE_WAIT", 0)
    outage = Outage(lasts=10**9)
    with pytest.raises(OperationalError):  # the request that started it fails too: the database is down
        pair_with(second_round, director, outage, monkeypatch)
    outage.down = False
    job = PairingJob.objects.get(tournament=second_round)
    assert job.status == PairingJobStatus.RUNNING  # nobody could write anything; expire_stale_jobs will say it
    assert f"pairing job {job.pk}: the database did not come back within 0 s" in caplog.text
    assert not Round.objects.filter(tournament=second_round, number=2).exists()


def test_an_interrupted_job_does_not_claim_the_server_restarted(second_round, director):
    from datetime import timedelta

    from django.utils import timezone

    job = PairingJob.objects.create(tournament=second_round, round_number=2, created_by=director)
    PairingJob.objects.filter(pk=job.pk).update(
        started_at=timezone.now() - timedelta(seconds=90), heartbeat=timezone.now() - timedelta(seconds=61)
    )
    pairing_jobs.expire_stale_jobs(second_round)
    job.refresh_from_db()
    assert job.message == (
        "O emparceiramento foi interrompido: o processo que o executava deixou de responder (foi reiniciado ou "
        "perdeu o banco de dados); nada foi salvo. Emparceire a rodada novamente."
    )
