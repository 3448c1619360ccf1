"""Issue 25 item 8, in the production set-up: gunicorn (each worker recycled after every request, as
``max_requests`` does, much sooner) and the background worker (``manage.py db_worker``) beside it. The director
pairs round 5 of the demo on the staff page; the pairing is queued, run by the worker process (not by a web
worker, which is gone after answering), and the progress page leads to the round."""

import json
import re
import shutil
import time

import pytest

from testkit import server as S

SLUG = S.DEMO_SLUG


@pytest.fixture
def site():
    folder = S.temp_folder("damas-pairing-worker-")
    s = S.Site(
        S.Database.sqlite(folder),
        folder,
        workers=2,
        extra_env={"GUNICORN_MAX_REQUESTS": "1", "GUNICORN_MAX_REQUESTS_JITTER": "0"},
    )
    worker = None
    try:
        s.prepare()
        s.start()
        worker = S.Worker(s, interval=0.3)
        yield s
    finally:
        if worker is not None:
            worker.stop()
        s.stop()
        s.db.drop()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_pairing_runs_in_the_worker_while_the_web_workers_recycle(site):
    browser = S.Browser(site.port)
    browser.login()
    dashboard = browser.get(f"/gestao/t/{SLUG}/")
    assert dashboard.status == 200
    pids_before = site.worker_pids()
    answer = browser.post(f"/gestao/t/{SLUG}/emparceirar/", {"csrfmiddlewaretoken": browser.csrf(dashboard.text)})
    assert answer.status == 302, answer.text[:500]
    location = answer.header("Location")
    if not location.endswith("/rodada/5/"):  # still running: the progress page polls the job's status
        job = re.search(r"/emparceirar/(\d+)/$", location).group(1)
        deadline = time.monotonic() + 90
        while True:
            status = json.loads(browser.get(f"/gestao/t/{SLUG}/emparceirar/{job}/estado/").text)
            if status["next"] or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert status["status"] == "done", status
    round_page = browser.get(f"/gestao/t/{SLUG}/rodada/5/")
    assert round_page.status == 200 and "Rodada 5" in round_page.text
    [(state, workers)] = site.db.query(
        "SELECT status, worker_ids FROM django_tasks_database_dbtaskresult "
        "WHERE task_path = 'tournaments.rounds.pairing_jobs.pair_in_background'"
    )
    assert state == "SUCCESSFUL" and workers not in ("", "[]")  # run by the db_worker process
    assert site.worker_pids() != pids_before  # the web workers were replaced meanwhile
