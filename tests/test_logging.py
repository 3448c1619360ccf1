"""Issue 16 item 6: logging. A user's error (``ServiceError`` and its kin) is shown to the user in Portuguese and
logged as information; anything else is an internal error: logged with its traceback, the user gets a generic
message. No exception is swallowed without a log line."""

import ast
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.models import Round, TournamentRole

ROOT = Path(__file__).resolve().parents[1]


def records(caplog, name, level):
    return [r for r in caplog.records if r.name == name and r.levelno == level]


def test_no_exception_is_swallowed_without_a_log_line():
    """Every handler of a broad ``except`` (Exception, BaseException, bare) re-raises or logs."""
    silent = []
    for package in ("tournaments", "pairing", "draughts", "config"):
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ExceptHandler):
                    continue
                caught = node.type
                names = [getattr(e, "id", None) for e in (caught.elts if isinstance(caught, ast.Tuple) else [caught])]
                if caught is not None and not {"Exception", "BaseException"} & set(names):
                    continue
                body = list(ast.walk(ast.Module(body=node.body, type_ignores=[])))
                raises = any(isinstance(n, ast.Raise) for n in body)
                logs = any(
                    isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute)
                    and n.func.attr in {"debug", "info", "warning", "error", "exception", "critical"}
                    for n in body
                )
                if not (raises or logs):
                    silent.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert silent == []


@pytest.mark.django_db
def test_pair_round_logs_an_internal_error_with_its_traceback(
    make_tournament, make_player, director, monkeypatch, caplog
):
    from tournaments.entries.services import entry_register
    from tournaments.rounds import services as rounds

    t = make_tournament()
    for _ in range(4):
        entry_register(tournament=t, player=make_player(), user=director)

    def broken(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(rounds, "pair_next_round", broken)
    with pytest.raises(CommandError) as error:
        call_command("pair_round", t.slug)
    assert str(error.value) == "falha interna no emparceiramento (nada foi gravado; o erro está no log)"
    assert not Round.objects.filter(tournament=t).exists()
    [logged] = records(caplog, "tournaments.management.commands.pair_round", logging.ERROR)
    assert logged.getMessage() == f"pair_round {t.slug}: internal error while pairing"
    assert logged.exc_info[0] is RuntimeError and str(logged.exc_info[1]) == "engine bug"


@pytest.mark.django_db
def test_pair_round_shows_a_users_error_and_logs_no_error(make_tournament, make_player, director, caplog):
    from tournaments.entries.services import entry_register

    t = make_tournament()
    entry_register(tournament=t, player=make_player(), user=director)
    with translation.override("pt-br"), pytest.raises(CommandError) as error:  # the language of the command
        call_command("pair_round", t.slug)
    assert str(error.value) == "São necessários ao menos dois jogadores para emparceirar uma rodada."
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.django_db
def test_pairing_a_round_is_logged(make_tournament, make_player, director, caplog):
    from tournaments.entries.services import entry_register
    from tournaments.rounds.services import round_pair

    t = make_tournament(slug="logado")
    for _ in range(5):
        entry_register(tournament=t, player=make_player(), user=director)
    with caplog.at_level(logging.INFO, logger="tournaments"):
        round_pair(tournament=t, user=director)
    [logged] = records(caplog, "tournaments.rounds.services", logging.INFO)
    message = logged.getMessage()
    assert message.startswith("logado: round 1 paired by diretor in ")
    assert message.endswith(" s: 2 boards, bye 5")


@pytest.mark.django_db
def test_the_game_viewer_logs_a_record_it_cannot_read(client, director, monkeypatch, caplog):
    import draughts
    from testkit.builders import build_tournament
    from tournaments.models import Game

    t = build_tournament(slug="visor", players=6, rounds=1)
    game = Game.objects.filter(board__round__tournament=t, board__number=1, number=1).get()
    Game.objects.filter(pk=game.pk).update(pdn="11-15 22-18")

    def broken(*args, **kwargs):
        raise RuntimeError("reader bug")

    monkeypatch.setattr(draughts, "validate_game", broken)
    response = client.get(f"/t/{t.slug}/rodadas/1/mesas/1/")
    assert response.status_code == 200  # the page is shown without the viewer
    [logged] = records(caplog, "tournaments.rounds.presenters", logging.WARNING)
    assert logged.getMessage() == f"game {game.pk}: the recorded moves could not be read for the viewer"
    assert logged.exc_info[0] is RuntimeError


@pytest.mark.django_db
def test_a_staff_page_shows_a_users_error_and_a_generic_page_for_an_internal_one(
    director, make_tournament, make_player, monkeypatch, caplog, settings
):
    from tournaments.entries.services import entry_register
    from tournaments.rounds import pairing_jobs

    settings.DEBUG = False
    t = make_tournament(slug="pagina")
    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})
    client = Client(raise_request_exception=False)
    client.force_login(director)
    url = reverse("staff:round_pair", args=[t.slug])

    # a user's error: one player only -> the reason, in Portuguese, on the page; logged as information
    entry_register(tournament=t, player=make_player(), user=director)
    with caplog.at_level(logging.INFO, logger="tournaments"):
        response = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="pt-br")
    assert response.status_code == 200
    assert "São necessários ao menos dois jogadores para emparceirar uma rodada." in response.content.decode()
    # (the pairing runs as a job: its refusal is logged where the job runs)
    [refused] = records(caplog, "tournaments.rounds.pairing_jobs", logging.INFO)
    assert refused.getMessage() == (
        "round_pair refused for diretor: São necessários ao menos dois jogadores para emparceirar uma rodada."
    )
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    # an internal error: a generic message, and the traceback in the log
    def broken(**kwargs):
        raise RuntimeError("service bug")

    monkeypatch.setattr(pairing_jobs, "round_pair", broken)
    response = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="pt-br")
    assert response.status_code == 200
    page = response.content.decode()
    assert "O emparceiramento falhou por um erro interno; nada foi salvo. Tente novamente." in page
    assert "service bug" not in page
    [logged] = records(caplog, "tournaments.rounds.pairing_jobs", logging.ERROR)
    assert logged.exc_info[0] is RuntimeError
    assert not t.rounds.exists()


def test_log_file_setting_writes_the_apps_records_to_that_file(tmp_path):
    log_file = tmp_path / "damas.log"
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('tournaments.rounds.services').info('round 3 paired'); "
        "logging.getLogger('tournaments.x').debug('not at INFO'); "
        "logging.getLogger('some.library').info('a library at INFO is not shown')"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_FILE": str(log_file), "LOG_LEVEL": "info"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = log_file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO tournaments.rounds.services \[\d+\] round 3 paired", lines[0]
    )
    assert done.stderr.splitlines() == lines  # the console (standard error) gets the same


def test_by_default_the_app_logs_warnings_and_errors_only():
    """So a management command's standard error stays its one-line reason unless LOG_LEVEL=INFO is asked for."""
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('tournaments.rounds.services').info('round 3 paired'); "
        "logging.getLogger('tournaments.rounds.presenters').warning('game 7 unreadable')"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("LOG_LEVEL", None)
    env.pop("LOG_FILE", None)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [line] = done.stderr.splitlines()
    assert line.endswith("] game 7 unreadable") and " WARNING tournaments.rounds.presenters " in line
