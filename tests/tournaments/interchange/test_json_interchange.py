"""The JSON interchange file: lossless round trip, what an import creates, and every bad file rejected whole."""

import json

import pytest
from django.db import IntegrityError

from tests.tournaments.interchange.helpers import direct_encounter_file, import_named, load, row_counts
from tournaments.interchange import (
    IMPORTED_ENGINE,
    InterchangeError,
    export_data,
    export_json,
    import_data,
    import_json,
)
from tournaments.models import Absence, Entry, Player, Round, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def small5():
    return load("small5.json")


def _wipe():
    for t in Tournament.objects.all():
        Seat.objects.filter(round__tournament=t).delete()
        t.delete()
    Player.objects.all().delete()


@pytest.mark.parametrize("name", ["full.json", "small5.json"])
def test_round_trip_export_import_export_is_identical(name):
    first = export_data(import_named(name))
    text = export_json(Tournament.objects.get())
    assert json.loads(text) == first
    _wipe()
    assert Tournament.objects.count() == Player.objects.count() == 0
    second = export_data(import_data(json.loads(text)))
    assert second == first
    assert export_json(Tournament.objects.get()) == text


def test_export_of_a_complete_file_is_the_file_itself():
    """full.json carries every field (drafts, absences, byes, openings, categories, withdrawals, late entry)."""
    assert export_data(import_named("full.json")) == load("full.json")


def test_import_creates_what_the_file_says():
    t = import_named("full.json")
    assert (t.slug, t.planned_rounds, t.minutes_per_game, t.absence_value, t.time_zone) == (
        "recife-2026",
        4,
        30,
        "draw",
        "America/Noronha",
    )
    rounds = {r.number: r for r in Round.objects.filter(tournament=t)}
    assert {n: r.status for n, r in rounds.items()} == {1: "published", 2: "published", 3: "draft"}
    assert {r.engine for r in rounds.values()} == {IMPORTED_ENGINE}
    assert rounds[2].manually_edited and not rounds[1].manually_edited
    assert rounds[1].opening.code == "1-IV" and rounds[3].opening is None
    byes = dict(
        Seat.objects.filter(round__tournament=t, side="bye").values_list("round__number", "entry__pairing_number")
    )
    assert byes == {1: 4, 2: 8, 3: 6}
    absences = set(Absence.objects.filter(entry__tournament=t).values_list("round_number", "entry__pairing_number"))
    assert absences == {(2, 6), (4, 2)}
    e = {x.pairing_number: x for x in Entry.objects.filter(tournament=t).select_related("player")}
    assert (e[7].status, e[7].withdrawn_from_round, e[7].withdrawal_kind) == ("withdrawn", 3, "abandonment")
    assert e[8].late_entry_round == 2 and e[3].declared_adult and e[7].rating is None
    assert sorted(c.code for c in e[1].categories.all()) == ["ABS", "FEM", "S18"]
    assert e[4].player.cbjd_id is None and e[1].player.title == "MN" and e[1].fmjd_rating == 2150
    board = rounds[2].boards.get(number=2)
    assert [g.result for g in board.games.order_by("number")] == ["0-1", "-/-"]


def test_import_reuses_a_stored_player_with_the_same_cbjd_id(make_player):
    ana = make_player(name="Ana M. Souza", cbjd_id="90001", sex="F", rating=2050)
    t = import_named("small5.json")
    assert Player.objects.count() == 5
    entry = Entry.objects.get(tournament=t, pairing_number=1)
    assert entry.player == ana and entry.rating == 2100  # the file's rating is the entry's snapshot


def _drop(path):
    def mutate(d):
        *parents, key = path
        obj = d
        for p in parents:
            obj = obj[p]
        del obj[key]

    return mutate


def _set(path, value):
    def mutate(d):
        *parents, key = path
        obj = d
        for p in parents:
            obj = obj[p]
        obj[key] = value

    return mutate


def _bye_with_result(d):
    d["rounds"][0]["bye"] = None
    d["rounds"][0]["boards"].append({"board": 3, "first": 5, "second": None, "games": ["1-0", "1-0"]})


def _rematch(d):
    d["rounds"][2]["boards"] = [
        {"board": 1, "first": 1, "second": 3, "games": ["1/2", "1/2"]},
        {"board": 2, "first": 4, "second": 5, "games": ["0-1", "1/2"]},
    ]
    d["rounds"][2]["bye"] = 2


def _duplicate_future_absence(d):
    d["rounds"].pop()
    d["absences"] = [{"round": 3, "player": 2}, {"round": 3, "player": 2}]


BAD_FILES = [
    ("missing slug", _drop(["tournament", "slug"]), "torneio: campo obrigatório “slug” ausente"),
    ("missing start date", _drop(["tournament", "start_date"]), "torneio: campo obrigatório “start_date” ausente"),
    ("missing player name", _drop(["players", 1, "name"]), "jogador 2: campo obrigatório “name” ausente"),
    (
        "missing games",
        _drop(["rounds", 0, "boards", 1, "games"]),
        "rodada 1, mesa 2: campo obrigatório “games” ausente",
    ),
    (
        "unknown player",
        _set(["rounds", 0, "boards", 0, "second"], 99),
        "rodada 1: jogador 99 (mesa 1) não está na lista de jogadores",
    ),
    ("unknown bye", _set(["rounds", 1, "bye"], 42), "rodada 2: jogador 42 (bye) não está na lista de jogadores"),
    (
        "twice on boards",
        _set(["rounds", 0, "boards", 1, "first"], 1),
        "rodada 1: o jogador 1 aparece mais de uma vez (mesa 1 e mesa 2)",
    ),
    ("board and bye", _set(["rounds", 1, "bye"], 2), "rodada 2: o jogador 2 aparece mais de uma vez (mesa 2 e bye)"),
    (
        "board and absent",
        _set(["rounds", 0, "absent"], [3]),
        "rodada 1: o jogador 3 aparece mais de uma vez (mesa 1 e ausente)",
    ),
    ("result for a bye", _bye_with_result, "rodada 1, mesa 3: resultado registrado para um bye"),
    (
        "bye given a result",
        _set(["rounds", 0, "bye"], {"player": 5, "games": ["1-0", "1-0"]}),
        "rodada 1: resultado registrado para o bye",
    ),
    ("rematch", _rematch, "rodada 3, mesa 1: os jogadores 1 e 3 já se enfrentaram na rodada 1"),
    (
        "bad result code",
        _set(["rounds", 1, "boards", 0, "games", 1], "2-0"),
        "rodada 2, mesa 1: resultado inválido na partida 2: '2-0'",
    ),
    (
        "one game in a micro-match",
        _set(["rounds", 1, "boards", 0, "games"], ["1-0"]),
        "rodada 2, mesa 1: 1 resultado informado; cada mesa tem 2 partidas",
    ),
    ("bad start date", _set(["tournament", "start_date"], "2026-13-01"), "torneio: data inválida em “start_date”"),
    ("bad end date", _set(["tournament", "end_date"], "8/11/2026"), "torneio: data inválida em “end_date”"),
    (
        "end before start",
        _set(["tournament", "end_date"], "2026-11-01"),
        "torneio: a data de término (2026-11-01) é anterior à de início (2026-11-07)",
    ),
    ("bad birth date", _set(["players", 0, "birth_date"], "01/03/1990"), "jogador 1: data inválida em “birth_date”"),
    ("future birth date", _set(["players", 0, "birth_date"], "2999-01-01"), "jogador 1: data de nascimento impossível"),
    (
        "unknown opening",
        _set(["rounds", 0, "opening"], "99-XX"),
        "rodada 1: abertura “99-XX” não existe na tabela IDF-64",
    ),
    (
        "unknown category",
        _set(["players", 0, "categories"], ["ABS", "XYZ"]),
        "jogador 1: categoria “XYZ” não existe no torneio",
    ),
    (
        "a list as a category code",
        _set(["players", 0, "categories"], [["ABS"]]),
        "jogador 1: categoria “['ABS']” não existe no torneio",
    ),
    (
        "an object as a result",
        _set(["rounds", 1, "boards", 0, "games", 1], {"result": "1-0"}),
        "rodada 2, mesa 1: resultado inválido na partida 2: {'result': '1-0'}",
    ),
    ("bad format tag", _set(["format"], "outro/2"), "arquivo: formato “outro/2” desconhecido"),
    ("bad rating", _set(["players", 2, "rating"], 5000), "jogador 3: rating inválido: 5000"),
    ("bad sex", _set(["players", 2, "sex"], "X"), "jogador 3: sexo inválido"),
    (
        "draft before published",
        _set(["rounds", 0, "status"], "draft"),
        "rodada 1: uma rodada em rascunho só pode ser a última",
    ),
    (
        "pending before a paired round",
        _set(["rounds", 0, "boards", 0, "games"], ["1-0", None]),
        "rodada 1: há resultados pendentes, mas a rodada seguinte já foi emparceirada",
    ),
    ("rounds out of order", _set(["rounds", 1, "number"], 3), "rodada 3: rodadas fora de ordem ou faltando"),
    ("duplicate player id", _set(["players", 1, "id"], 1), "jogador 1: id repetido"),
    (
        "absence announced for a paired round",
        _set(["absences"], [{"round": 2, "player": 1}]),
        "ausências, rodada 2: a rodada já foi emparceirada",
    ),
    (
        "absence of an unknown player",
        _set(["absences"], [{"round": 2, "player": 77}]),
        "ausências, rodada 2: jogador 77 não está na lista de jogadores",
    ),
    ("absence announced twice", _duplicate_future_absence, "ausências, rodada 3: ausência do jogador 2 repetida"),
]


@pytest.mark.parametrize("mutate,expected", [case[1:] for case in BAD_FILES], ids=[case[0] for case in BAD_FILES])
def test_bad_file_is_rejected_naming_where_and_nothing_is_written(small5, mutate, expected):
    mutate(small5)
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_data(small5)
    assert any(m.startswith(expected) for m in exc.value.messages), exc.value.messages
    assert row_counts() == before
    assert "\n" not in exc.value.one_line()


def test_every_problem_is_listed_at_once(small5):
    small5["rounds"][0]["boards"][0]["second"] = 99
    small5["rounds"][1]["boards"][0]["games"][0] = "x"
    small5["players"][0]["birth_date"] = "ontem"
    with pytest.raises(InterchangeError) as exc:
        import_data(small5)
    assert len(exc.value.messages) == 3
    assert exc.value.one_line().endswith("(e mais 2 erros)")


def test_existing_slug_is_refused_and_nothing_is_written():
    import_named("small5.json")
    before = row_counts()
    with pytest.raises(InterchangeError, match="já existe um torneio com o endereço “teste-5”"):
        import_named("small5.json")
    assert row_counts() == before


def test_invalid_json_text_names_the_line():
    with pytest.raises(InterchangeError, match="JSON inválido na linha 2"):
        import_json('{"format": "damas-swiss/1",\n "tournament": }')


def test_a_failure_while_writing_rolls_everything_back(monkeypatch):
    from tournaments.interchange import jsonfile

    def boom(*args, **kwargs):
        raise IntegrityError("simulated")

    monkeypatch.setattr(jsonfile.Absence.objects, "bulk_create", boom)
    before = row_counts()
    with pytest.raises(InterchangeError, match="nada foi gravado"):
        import_named("full.json")
    assert row_counts() == before


def test_direct_encounter_file_imports():
    t = import_named(direct_encounter_file())
    assert t.rounds.count() == 2
