"""Issue 35.3: the changes of a stage's categories, who is in them and the entries' ratings after round 1, on plain
data: how they are judged (the ratings as played, a category created late), said in words, and the shapes the
interchange file accepts."""

from datetime import UTC, datetime, timedelta

import pytest

from tournaments.domain.settings_lock import SettingsChange, categories_created_late, first_ratings, same_player
from tournaments.domain.snapshot import SnapEntry, SnapPlayer, played_ratings
from tournaments.homologation.changes import change_lines, definition_text
from tournaments.interchange.settings_changes import _problem

T0 = datetime(2026, 11, 9, 13, 0, tzinfo=UTC)


def change(field, before, after, minutes=0, reason="correção"):
    return SettingsChange(field, before, after, T0 + timedelta(minutes=minutes), "diretor", reason)


def cat(code, **rule):
    return {"code": code, "name": rule.pop("name", code), "sex": "", "min_age": None, "max_age": None, **rule}


ANA = {"cbjd_id": None, "name": "Ana Lins"}
BIA = {"cbjd_id": "123", "name": "Bia"}


def test_the_rating_as_played_is_the_one_before_the_first_change_found_by_cbjd_id_else_by_name():
    changes = [
        change("entry_rating", {"player": ANA, "rating": 1900}, {"player": ANA, "rating": 2000}, 5),
        change("entry_rating", {"player": ANA, "rating": 1800}, {"player": ANA, "rating": 1900}),
        change("entry_rating", {"player": BIA, "rating": None}, {"player": BIA, "rating": 1700}),
        change("minutes_per_game", 15, 21),
        change("entry_rating", 1800, 1900),  # no player: left aside
    ]
    assert first_ratings(changes) == [(ANA, 1800), (BIA, None)]
    entries = [
        SnapEntry(1, 1, 1, 2000, SnapPlayer("Ana Lins")),
        SnapEntry(2, 2, 2, 1700, SnapPlayer("Bia Outra", cbjd_id="123")),
        SnapEntry(3, 3, 3, 1500, SnapPlayer("Bia")),  # the same name, another CBJD ID: not her
    ]
    assert played_ratings(entries, changes) == {1: 1800, 2: None}
    assert played_ratings(entries, changes[3:4]) == {}
    assert same_player({"cbjd_id": 123, "name": "x"}, "123", "y") and not same_player({"name": ""}, None, "")


def test_a_category_created_after_round_1_stays_late_under_a_new_code_and_goes_when_deleted():
    changes = [
        change("category", None, cat("ELI")),
        change("category", cat("ELI"), cat("ELITE"), 1),
        change("category", None, cat("S18", max_age=17), 2),
        change("category", cat("S18", max_age=17), None, 3),
        change("category", cat("ABS"), cat("ABS", min_age=10), 4),  # an existing category corrected: not late
        change("entry_rating", None, None, 5),
    ]
    assert categories_created_late(changes) == frozenset({"ELITE"})


def test_the_changes_in_words_and_the_categories_defined_after_an_import_in_one_line():
    changes = [
        change("category", None, cat("FEM", name="Feminino", sex="F")),
        change("category", cat("S18", max_age=17), cat("S18", min_age=10, max_age=17)),
        change("category", cat("VET", min_age=60), None),
        change("entry_categories", {"player": BIA, "categories": ["ABS"]}, {"player": BIA, "categories": []}),
        change("entry_rating", {"player": ANA, "rating": None}, {"player": ANA, "rating": 1900}, reason="lista"),
        change("category_after_import", None, cat("ABS"), 60),
        change("category_after_import", None, cat("FEM"), 61),
    ]
    assert change_lines(changes, "America/Sao_Paulo") == [
        "categoria FEM “Feminino” (sexo F) criada, em 09/11/2026 10:00 por diretor; motivo: correção",
        "categoria S18: S18 “S18” (até 17 anos) → S18 “S18” (de 10 a 17 anos), em 09/11/2026 10:00 por diretor; "
        "motivo: correção",
        "categoria VET “VET” (60 anos ou mais) excluída, em 09/11/2026 10:00 por diretor; motivo: correção",
        "categorias de Bia (ID CBJD 123): ABS → nenhuma, em 09/11/2026 10:00 por diretor; motivo: correção",
        "rating de Ana Lins: sem rating → 1900 (as vagas e os desempates contam o rating da 1ª rodada), em "
        "09/11/2026 10:00 por diretor; motivo: lista",
        "categorias definidas depois da importação: ABS (09/11/2026 11:00), FEM (09/11/2026 11:01); são do local, "
        "não do arquivo importado",
    ]
    assert definition_text(None) == "—" and definition_text(cat("ABS")) == "ABS “ABS” (todos)"


def item(field, before, after):
    return {"field": field, "before": before, "after": after, "at": "2026-11-09T10:00:00-03:00", "reason": "x"}


@pytest.mark.parametrize(
    ("field", "value", "ok"),
    [
        ("category", None, True),
        ("category", cat("FEM", sex="F", min_age=10, max_age=17), True),
        ("category", {"code": "FEM"}, True),
        ("category", {"code": ""}, False),
        ("category", {"code": "FEM", "color": "red"}, False),
        ("category", {"code": "FEM", "sex": "X"}, False),
        ("category", {"code": "FEM", "min_age": -1}, False),
        ("category", {"code": "FEM", "max_age": True}, False),
        ("category", ["FEM"], False),
        ("category_after_import", cat("ABS"), True),
        ("entry_categories", {"player": ANA, "categories": ["ABS", "FEM"]}, True),
        ("entry_categories", {"player": ANA, "categories": "ABS"}, False),
        ("entry_categories", {"player": ANA, "categories": ["A" * 11]}, False),
        ("entry_categories", {"player": ANA}, False),
        ("entry_categories", {"player": {"cbjd_id": None, "name": ""}, "categories": []}, False),
        ("entry_categories", {"player": {"cbjd_id": 7}, "categories": []}, True),
        ("entry_categories", {"player": {"name": "Ana", "club": "x"}, "categories": []}, False),
        ("entry_categories", None, False),
        ("entry_rating", {"player": BIA, "rating": 1800}, True),
        ("entry_rating", {"player": BIA, "rating": None}, True),
        ("entry_rating", {"player": BIA, "rating": "1800"}, False),
        ("entry_rating", {"player": BIA, "rating": 1800, "extra": 1}, False),
        ("entry_rating", {"player": "Bia", "rating": 1800}, False),
        ("entry_rating", 1800, False),
    ],
)
def test_the_file_accepts_each_change_only_in_its_shape(field, value, ok):
    problem = _problem(item(field, value, value))
    assert (problem == "") is ok, problem
    if not ok:
        assert problem.startswith(f"“before” e “after” de “{field}”: ")
