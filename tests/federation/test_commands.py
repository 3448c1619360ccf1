"""The federation's commands (issue 29): verify_event (a contract, interchange.md), submit_event, sync_registry."""

import json

import pytest
from django.core.management import CommandError, call_command

from tournaments.models import OutgoingSubmission


@pytest.mark.django_db
def test_verify_event_json_against_this_databases_registry(national_list, stage_data, tmp_path, capsys):
    stage_data["rounds"][0]["boards"][0]["second"], stage_data["rounds"][0]["boards"][1]["second"] = (
        stage_data["rounds"][0]["boards"][1]["second"],
        stage_data["rounds"][0]["boards"][0]["second"],
    )
    path = tmp_path / "etapa.json"
    path.write_text(json.dumps(stage_data), encoding="utf-8")
    call_command("verify_event", str(path), "--format", "json")
    out = json.loads(capsys.readouterr().out)
    assert out["rights"] is False
    assert [f["code"] for f in out["findings"]][:2] == ["round1_not_by_rating", "pairing_differs"]
    assert set(out["findings"][0]) == {"code", "article", "message"} and out["findings"][0]["article"] == "art. 4, 6"
    call_command("verify_event", str(path))
    text = capsys.readouterr().out
    assert "Lista nacional em vigor na data do evento: 01/10/2026" in text
    assert "[IMPEDE] round1_not_by_rating (art. 4, 6): Rodada 1 emparceirada por rating: A 1ª rodada" in text
    assert "Direito a vagas: não" in text


@pytest.mark.django_db
def test_verify_event_prints_the_categories_as_homologation_check_does(national_list, stage_data, tmp_path, capsys):
    """Issue 36.1: ``categories`` in the shape of ``homologation_check --format json``, so anyone can compare the
    two: the stage imported at a venue and checked there gives the same rights and the same qualifiers as the
    federation's verification of its file (a spot passed on, double_spot_rule=pass)."""
    from tournaments.interchange import import_data

    stage_data["tournament"]["double_spot_rule"] = "pass"
    path = tmp_path / "etapa.json"
    path.write_text(json.dumps(stage_data), encoding="utf-8")
    call_command("verify_event", str(path), "--format", "json")
    federation = json.loads(capsys.readouterr().out)
    tournament = import_data(stage_data)
    call_command("homologation_check", tournament.slug, "--format", "json")
    venue = json.loads(capsys.readouterr().out)
    assert federation["rights"] is venue["rights"] is True
    assert federation["categories"] == venue["categories"]
    assert [set(c) for c in federation["categories"]] == [
        {"code", "entries", "average", "counted", "spots", "qualified"}
    ] * 3
    assert [len(c["qualified"]) for c in federation["categories"]] == [3, 3, 2]


@pytest.mark.django_db
def test_verify_event_unreadable_file_is_one_line_and_exit_1(tmp_path):
    bad = tmp_path / "ruim.json"
    bad.write_text('{"format": "damas-swiss/1",\n "tournament": ', encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        call_command("verify_event", str(bad))
    assert str(exc.value).startswith("arquivo ilegível: arquivo: JSON inválido na linha 2")
    assert "\n" not in str(exc.value)
    with pytest.raises(CommandError) as exc:
        call_command("verify_event", str(tmp_path / "nao-existe.json"))
    assert str(exc.value).startswith("não foi possível ler")


@pytest.mark.django_db
def test_submit_event_offline_queues_and_says_so(venue, venue_event, capsys):
    call_command("submit_event", venue_event.slug)
    out = capsys.readouterr().out
    assert out.startswith(f"{venue_event.slug}: na fila; situação: pendente (1 tentativa; sem conexão com a federação")
    call_command("submit_event", venue_event.slug)
    assert "mesmo arquivo já na fila ou enviado" in capsys.readouterr().out
    assert OutgoingSubmission.objects.count() == 1


@pytest.mark.django_db
def test_submit_event_unknown_slug_and_sync_registry_offline(venue):
    with pytest.raises(CommandError, match="torneio “nada” não encontrado"):
        call_command("submit_event", "nada")
    with pytest.raises(CommandError) as exc:
        call_command("sync_registry")
    assert str(exc.value) == (
        "Não foi possível baixar a lista da federação: sem conexão com a federação: confira a internet deste computador"
    )


def test_the_first_federation_officer_on_a_freshly_migrated_database(tmp_path):
    """Issue 36.8: docs/federation.md's first step, run as written on a database just migrated: the officer is
    in the group "Federação" (the staff pages' test), not a superuser, and logs in with the password shown."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'federacao.sqlite3'}", "DAMAS_ROLE": "federation"}
    env.pop("REDIS_URL", None)

    def manage(*args):
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=root, env=env, capture_output=True, text=True, timeout=300
        )

    assert manage("migrate", "-v0").returncode == 0
    out = manage("federation_officer", "oficial.cbjd", "--email", "homologacao@cbjd.org.br")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "oficial.cbjd: oficial da federação (grupo “Federação”)."
    password = lines[1].rsplit(": ", 1)[1]
    check = manage(
        "shell",
        "-c",
        "from django.contrib.auth.models import User; from tournaments.registry.services import can_edit_registry; "
        "u = User.objects.get(username='oficial.cbjd'); "
        f"print(u.check_password('{password}'), end=' '); "
        "print(can_edit_registry(u), u.is_superuser)",
    )
    assert check.stdout.splitlines()[-1].split() == ["True", "True", "False"], check.stderr
    again = manage("federation_officer", "oficial.cbjd")
    assert again.returncode == 0 and "Senha" not in again.stdout  # an existing login keeps its password


def test_request_stage_on_a_freshly_migrated_venue_database(tmp_path):
    """docs/federation.md's `manage.py request_stage SLUG`, run as written on a venue's database just migrated, with
    the file imported by `import_tournament`: the federation cannot be reached, so the request waits in the queue and
    the command says why; asked again, it is still one request; an unknown slug is refused in Portuguese."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from tests.federation.conftest import STAGE

    root = Path(__file__).resolve().parents[2]
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'sede.sqlite3'}",
        "DAMAS_ROLE": "venue",
        "FEDERATION_URL": "http://127.0.0.1:9",
        "FEDERATION_TOKEN": "dsw_00000000_chave-de-teste",
    }
    env.pop("REDIS_URL", None)

    def manage(*args):
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=root, env=env, capture_output=True, text=True, timeout=300
        )

    assert manage("migrate", "-v0").returncode == 0
    imported = manage("import_tournament", str(STAGE))
    assert imported.returncode == 0, imported.stderr
    slug = json.loads(STAGE.read_text(encoding="utf-8"))["tournament"]["slug"]
    for _ in range(2):
        out = manage("request_stage", slug)
        assert out.returncode == 0, out.stderr
        line = out.stdout.strip()
        assert line.startswith(f"{slug}: pedido na fila (") and "sem conexão com a federação" in line, line
    count = manage(
        "shell", "-c", "from tournaments.models import StageRequest; print(StageRequest.objects.count(), end='')"
    )
    assert count.stdout.splitlines()[-1] == "1", count.stderr
    unknown = manage("request_stage", "nao-existe")
    assert unknown.returncode != 0 and "nao-existe" in unknown.stderr


@pytest.mark.django_db
def test_request_stage_prints_the_stage_the_federation_answers(venue, recent_stage, monkeypatch, capsys):
    """The federation answers at once: the command prints the identifier the event is now bound to, and says when the
    stage is registered late (asked on or after its first day)."""
    from tournaments.federation import client
    from tournaments.interchange import import_data
    from tournaments.models import Tournament

    event = import_data(recent_stage)
    asked = []

    def answer(data):
        asked.append(data)
        return {"stage_id": "CBJD-2026-007", "status": "requested", "late": True}

    monkeypatch.setattr(client, "request_stage", answer)
    call_command("request_stage", event.slug)
    assert capsys.readouterr().out == f"{event.slug}: etapa CBJD-2026-007 (registrada tarde)\n"
    assert Tournament.objects.get(pk=event.pk).stage_id == "CBJD-2026-007"
    assert [(a["venue_slug"], a["name"]) for a in asked] == [(event.slug, event.name)]
    with pytest.raises(CommandError, match="CBJD-2026-007"):
        call_command("request_stage", event.slug)  # bound already: nothing asked again
    assert len(asked) == 1
