"""The management commands of docs/interchange.md: output formats, exit codes, one-line errors, no partial write."""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command, get_commands, load_command_class
from django.core.management.base import CommandError
from openpyxl import load_workbook

from tests.tournaments.interchange.helpers import DATA, import_named, load, row_counts
from tournaments.interchange import export_data
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def argv(monkeypatch, capsys):
    """Run a command the way manage.py does (exit code, stderr), keeping the test database connection open."""
    from django.core.management import base

    monkeypatch.setattr(base.connections, "close_all", lambda: None)

    def do(*args):
        command = load_command_class(get_commands()[args[0]], args[0])
        code = 0
        try:
            command.run_from_argv(["manage.py", *args])
        except SystemExit as exc:
            code = exc.code
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return do


def test_import_json_prints_the_slug(argv):
    code, out, err = argv("import_tournament", str(DATA / "small5.json"))
    assert (code, out, err) == (0, "teste-5\n", "")
    assert Tournament.objects.get().slug == "teste-5"


def test_import_trf_prints_the_slug(tmp_path):
    data = load("small5.json")
    data["tournament"].update(format="single-game", slug="unica")
    data["rounds"] = [
        {
            "number": 1,
            "boards": [
                {"board": 1, "first": 1, "second": 3, "games": ["1-0"]},
                {"board": 2, "first": 2, "second": 4, "games": ["1/2"]},
            ],
            "bye": 5,
            "absent": [],
        }
    ]
    source = import_named(data)
    path = tmp_path / "t.trf"
    run("export_tournament", source.slug, "-o", str(path))
    assert run("import_tournament", str(path)).strip() == "aberto-de-teste-5-jogadores"


@pytest.mark.parametrize(
    "mutate,reason",
    [
        (lambda d: d["rounds"][0]["boards"][0].update(second=99), "rodada 1: jogador 99 (mesa 1) não está na lista"),
        (lambda d: d["tournament"].update(start_date="2026-02-30"), "torneio: data inválida em “start_date”"),
    ],
)
def test_import_of_a_bad_file_exits_non_zero_with_one_line_and_writes_nothing(argv, tmp_path, mutate, reason):
    data = load("small5.json")
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = row_counts()
    code, out, err = argv("import_tournament", str(path))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and reason in err
    assert row_counts() == before


def test_import_of_a_missing_or_unknown_file(argv, tmp_path):
    code, _out, err = argv("import_tournament", str(tmp_path / "nada.json"))
    assert code == 1 and "não foi possível ler" in err and err.count("\n") == 1
    other = tmp_path / "t.xml"
    other.write_text("<x/>")
    code, _out, err = argv("import_tournament", str(other))
    assert code == 1 and "tipo de arquivo não reconhecido" in err


def test_import_director_and_argument_errors_write_nothing(argv, django_user_model):
    """``--director LOGIN`` (docs/interchange.md): the login directs the imported event; an unknown or disabled login,
    a bad ``--rounds`` or ``--slug`` stop before anything is written, each with one Portuguese line."""
    from tournaments.models import TournamentRole

    django_user_model.objects.create_user("antigo", password="x", is_active=False)
    arbiter = django_user_model.objects.create_user("arbitra", password="x")
    before = row_counts()
    refused = [
        (("--director", "ninguem"), "login “ninguem” não existe neste computador: nada foi importado"),
        (("--director", "antigo"), "o login “antigo” está desativado: nada foi importado"),
        (("--rounds", "0"), "número de rodadas inválido: '0'"),
        (("--rounds", "x7"), "número de rodadas inválido: 'x7'"),
        (("--slug", "com espaço"), "endereço inválido: 'com espaço'"),
        (("--slug", "a" * 81), "endereço longo demais (no máximo 80 caracteres)"),
    ]
    for args, message in refused:
        code, out, err = argv("import_tournament", str(DATA / "small5.json"), *args)
        assert code != 0 and out == "" and message in err, (args, err)
    assert row_counts() == before
    code, out, err = argv("import_tournament", str(DATA / "small5.json"), "--director", " arbitra ")
    assert (code, out) == (0, "teste-5\n")
    role = TournamentRole.objects.get(tournament__slug="teste-5")
    assert (role.user, role.role) == (arbiter, "director")


def test_export_tournament_json_trf_and_cross_table(tmp_path, argv):
    t = import_named("full.json")
    path = tmp_path / "out.json"
    assert argv("export_tournament", t.slug, "-o", str(path))[0] == 0
    assert json.loads(path.read_text(encoding="utf-8")) == export_data(t) == load("full.json")
    tsv = tmp_path / "cruzada.tsv"
    run("export_tournament", t.slug, "-o", str(tsv))
    header, blank = tsv.read_bytes().decode("utf-8").split("\r\n")[:2]  # Swiss Perfect's layout: CRLF, blank line
    assert [c.strip() for c in header.split("\t")] == [
        "No",
        "Name",
        "Feder",
        "Intl Id",
        "Loc Id",
        "Rtg",
        "Loc",
        "Title",
        "Total",
        "1",
        "2",
    ]
    assert blank == "" and header.split("\t")[-1] == " 2  "
    trf = tmp_path / "out.trf"
    code, _out, err = argv("export_tournament", t.slug, "-o", str(trf))
    assert code == 1 and "partida única" in err and not trf.exists()
    code, _out, err = argv("export_tournament", "nao-existe", "-o", str(path))
    assert code == 1 and err.strip() == "CommandError: torneio “nao-existe” não encontrado"
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


def test_standings_json():
    import_named("small5.json")
    rows = json.loads(run("standings", "teste-5", "--format", "json"))
    assert [(r["rank"], r["id"], r["name"], r["points"]) for r in rows] == [
        ("1", 1, "Ana Souza", 8),
        ("2", 5, "Edu Gomes", 8),
        ("3", 2, "Bruno Lima", 8),
        ("4", 4, "Davi Rocha", 7),
        ("5", 3, "Carla Dias", 5),
    ]
    assert rows[0]["tiebreaks"] == {"progressive": 17, "progressive_corrected": 14, "buchholz": 21}
    assert list(rows[0]) == ["rank", "id", "name", "points", "tiebreaks", "order_reason"]
    # Ana and Edu are left level by the progressive score inside the tie of three, and met (Ana won 3-1): art. 6,
    # b) "quando o desempate for entre dois jogadores" puts their direct encounter first (issue 26, point 10)
    assert [r["order_reason"] for r in rows][2:] == [None, None, None]
    assert all("art. 6º, b" in r["order_reason"] for r in rows[:2])
    fem = json.loads(run("standings", "teste-5", "--format", "json", "--category", "FEM"))
    assert [(r["rank"], r["id"]) for r in fem] == [("1", 1), ("2", 3)]


def test_standings_csv_and_text():
    import_named("small5.json")
    rows = list(csv.reader(io.StringIO(run("standings", "teste-5", "--format", "csv"))))
    assert rows[0] == [
        "rank",
        "id",
        "name",
        "points",
        "progressive",
        "progressive_corrected",
        "buchholz",
        "order",
        "order_reason",
    ]
    assert rows[1] == [
        "1",
        "1",
        "Ana Souza",
        "8",
        "17",
        "14",
        "21",
        "progressive > progressive_corrected > buchholz",
        "Dois jogadores que se enfrentaram ficaram empatados dentro de um empate maior: o confronto direto decidiu "
        "entre eles (regulamento, art. 6º, b: “quando o desempate for entre dois jogadores”).",
    ]
    assert len(rows) == 6
    text = run("standings", "teste-5")
    assert "Ana Souza" in text and "após 3 rodadas" in text and "Milésimos" in text
    lines = text.splitlines()
    assert lines[3].split() == ["1", "1", "Ana", "Souza", "8", "17", "14", "21"]


def test_standings_errors(argv):
    import_named("small5.json")
    code, _out, err = argv("standings", "teste-5", "--category", "XYZ")
    assert code == 1 and "categoria “XYZ” não existe" in err and err.count("\n") == 1
    code, _out, err = argv("standings", "teste-5", "--format", "xml")
    assert code == 2  # argparse: invalid choice


def test_homologation_check_json_and_text():
    import_named("small5.json")
    data = json.loads(run("homologation_check", "teste-5", "--format", "json"))
    assert set(data) == {"conditions", "rights", "deadline", "categories"}
    assert [c["key"] for c in data["conditions"]] == [
        "participants",
        "rounds_and_time",
        "no_suspended",
        "round1_by_rating",
        "pairing_engine",
        "tiebreaks",
        "birth_dates",
    ]  # the sending deadline is shown on the page and in the workbook, not a key of this contract
    assert all(set(c) == {"key", "met", "detail"} and isinstance(c["met"], bool) for c in data["conditions"])
    assert data["rights"] is False and data["deadline"] == "2026-11-10"
    assert data["categories"] == [
        {"code": "ABS", "entries": 5, "average": 1900, "counted": 5, "spots": 1, "qualified": []},
        {"code": "FEM", "entries": 2, "average": 2000, "counted": 2, "spots": 1, "qualified": []},
    ]
    text = run("homologation_check", "teste-5")
    assert "[NÃO] participants" in text and "[OK] tiebreaks" in text and "10/11/2026" in text


def test_export_homologation(tmp_path, argv):
    t = import_named("small5.json")
    path = tmp_path / "h.xlsx"
    code, out, err = argv("export_homologation", t.slug, "-o", str(path))
    assert (code, err) == (0, "")
    assert load_workbook(path).sheetnames[0] == "Evento"
    t.refresh_from_db()
    assert t.homologation_exported_at is not None


def test_export_homologation_to_a_missing_folder_fails_and_records_nothing(tmp_path, argv):
    t = import_named("small5.json")
    code, _out, err = argv("export_homologation", t.slug, "-o", str(tmp_path / "nao" / "h.xlsx"))
    assert code == 1 and err.startswith("CommandError: não foi possível gravar") and err.count("\n") == 1
    t.refresh_from_db()
    assert t.homologation_exported_at is None


def test_pair_round_draft_then_publish(make_tournament, make_player, director, argv):
    from tournaments.entries.services import entry_register

    t = make_tournament(planned_rounds=5)
    for i in range(7):
        entry_register(tournament=t, player=make_player(rating=2000 - 10 * i), user=director)
    code, out, err = argv("pair_round", t.slug, "--draft")
    assert code == 0, err
    assert out.startswith("Rodada 1 emparceirada (rascunho): 3 mesas, bye para o nº 7")
    assert Round.objects.get(tournament=t).status == "draft"
    before = row_counts()
    code, out, err = argv("pair_round", t.slug)  # round 1 still a draft: refused, nothing written
    assert code == 1 and ("rascunho" in err.lower() or "draft" in err.lower()), err
    assert err.count("\n") == 1 and row_counts() == before
    t2 = make_tournament(planned_rounds=5)
    for i in range(4):
        entry_register(tournament=t2, player=make_player(rating=1900 - 10 * i), user=director)
    assert run("pair_round", t2.slug).startswith("Rodada 1 emparceirada (publicada): 2 mesas")
    assert Round.objects.get(tournament=t2).status == "published"


def test_pair_round_unknown_tournament():
    with pytest.raises(CommandError, match="não encontrado"):
        run("pair_round", "nao-existe")


def test_real_process_exit_codes(tmp_path):
    """manage.py in a subprocess on a throw-away SQLite file: exit codes and stderr as a user sees them."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}

    def manage(*args):
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )

    assert manage("migrate", "-v0").returncode == 0
    ok = manage("import_tournament", str(DATA / "small5.json"))
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "teste-5\n", "")
    again = manage("import_tournament", str(DATA / "small5.json"))
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr == (
        "CommandError: torneio: já existe um torneio com o endereço “teste-5”; para importar uma cópia, informe outro "
        "endereço (por exemplo “teste-5-2”: campo “Endereço na web” da página de importação, ou a opção --slug do "
        "manage.py import_tournament)\n"
    )
    copy = manage("import_tournament", str(DATA / "small5.json"), "--slug", "teste-5-copia")
    assert (copy.returncode, copy.stdout, copy.stderr) == (0, "teste-5-copia\n", "")
    standings = manage("standings", "teste-5", "--format", "json")
    assert standings.returncode == 0 and json.loads(standings.stdout)[0]["id"] == 1
