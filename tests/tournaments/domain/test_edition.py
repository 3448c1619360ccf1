"""The regulation as the federation's edition (issue 35.1): the pure type, its JSON, the editions shipped."""

import json
from datetime import date
from fractions import Fraction

import pytest

from tournaments.domain.edition import (
    EDITIONS_DIR,
    ORGANISER,
    READINGS,
    EditionError,
    Reading,
    edition_from_json,
    edition_in_force,
    shipped_editions,
    with_readings,
)
from tournaments.models import choices


def _by_code():
    return {e.code: e for e in shipped_editions()}


def test_the_seed_edition_ships_with_the_product_and_fixes_the_texts_numbers():
    seed = _by_code()["cbjd-circuito-nacional"]
    assert seed.min_participants == 30
    assert [(rt.rounds, rt.minutes) for rt in seed.rounds_and_time] == [(7, 21), (5, 30)]
    assert (seed.suspension_months, seed.sending_days, seed.spots_top_n) == (3, 2, 30)
    assert seed.tiebreak_order == ("progressive", "corrected_progressive", "buchholz")
    assert seed.quote("participants").text == "Mínimo de 30 participantes."
    # the rating method issue 40 reads
    r = seed.rating
    assert (r.method, r.expected_score_cap, r.k_new, r.new_games, r.k, r.k_top, r.top_rating, r.first_rating_games) == (
        "elo",
        400,
        40,
        30,
        20,
        10,
        2400,
        9,
    )
    # every reading of issue 26 is a reading of the edition, with its article
    assert {r.key for r in seed.readings} == set(READINGS)
    assert seed.reading_article("spot_tie_rule") == "art. 6, 13"


def test_the_2010_text_judges_its_own_stages():
    editions = shipped_editions()
    assert edition_in_force(editions, date(2012, 5, 1)).code == "cbjd-circuito-2010"
    assert edition_in_force(editions, date(2012, 5, 1)).min_participants == 20
    assert edition_in_force(editions, date(2026, 5, 1)).code == "cbjd-circuito-nacional"
    assert edition_in_force(editions, date(2009, 12, 31)) is None
    assert edition_in_force(editions, None) is None


def test_a_later_edition_takes_over_from_its_first_day():
    seed = _by_code()["cbjd-circuito-nacional"]
    data = seed.as_json() | {"code": "cbjd-2027", "published_on": "2026-11-01", "in_force_from": "2027-01-01"}
    later = edition_from_json(data)
    assert edition_in_force([seed, later], date(2026, 12, 31)) is seed
    assert edition_in_force([seed, later], date(2027, 1, 1)) is later


def test_json_round_trip_is_exact():
    for edition in shipped_editions():
        assert edition_from_json(json.loads(json.dumps(edition.as_json()))) == edition


def test_the_readings_allowed_values_are_the_models_choices():
    fields = {
        "participant_rule": choices.ParticipantRule,
        "spot_tie_rule": choices.SpotTieRule,
        "pairing_program_rule": choices.PairingProgramRule,
        "time_unit": choices.TimeUnit,
        "tablita_100": choices.Tablita100,
        "unrated_in_average": choices.UnratedInAverage,
        "double_spot_rule": choices.DoubleSpotRule,
        "progressive_move": choices.ProgressiveMove,
        "acceleration_order": choices.AccelerationOrder,
        "direct_encounter_scope": choices.DirectEncounterScope,
        "top3_order": choices.Top3Order,
        "top3_scope": choices.Top3Scope,
        "tiebreak_edition": choices.TiebreakEdition,
    }
    for key, enum in fields.items():
        assert set(READINGS[key][1]) == set(enum.values), key


def test_spots_table_from_the_edition():
    seed = _by_code()["cbjd-circuito-nacional"]
    assert seed.spots_for(Fraction(4001, 2), 40) == 1  # 2000.5: unrounded
    assert seed.spots_for(2001, 40) == 2
    assert seed.spots_for(2100, 120) == 2
    assert seed.spots_for(2100, 121) == 3
    assert seed.spots_for(2150, 10) == 3
    assert seed.spots_for(1899, 500) == 0


def test_art5_names_are_matched_whole_not_inside_another_name():
    seed = _by_code()["cbjd-circuito-nacional"]
    assert seed.program_accepted("Swiss Perfect 98")
    assert seed.program_accepted("SwissPerfect")
    assert seed.program_accepted("48")
    assert not seed.program_accepted("Emparceirador caseiro 2048")
    assert not seed.program_accepted("Swiss Perfect clone by me")
    assert not seed.program_accepted("")


def test_six_rounds_of_21_minutes_can_never_give_spots():
    seed = _by_code()["cbjd-circuito-nacional"]
    assert not seed.can_give_spots(6, 21)
    assert seed.can_give_spots(7, 21)
    assert seed.can_give_spots(5, 30)
    assert not seed.can_give_spots(5, 29)


def test_settings_values_are_the_readings_and_the_minimum():
    seed = with_readings(_by_code()["cbjd-circuito-nacional"], double_spot_rule="pass")
    values = seed.settings_values()
    assert values["min_participants"] == 30
    assert values["double_spot_rule"] == "pass"
    assert set(values) == set(READINGS) | {"min_participants"}


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("code"), "falta “code”"),
        (lambda d: d.update(code="Bad Code!"), "“code”"),
        (lambda d: d.update(in_force_from="ontem"), "in_force_from"),
        (lambda d: d.update(in_force_until="2000-01-01"), "antes de"),
        (lambda d: d["fixed"].update(min_participants=True), "inteiro"),
        (lambda d: d["fixed"].update(min_participants=-1), "fora do intervalo"),
        (lambda d: d["readings"].update(min_participants={"value": 2}), "leitura desconhecida"),
        (lambda d: d["readings"]["participant_rule"].update(value="anyone"), "valor inválido"),
        (lambda d: d["fixed"].update(spots="many"), "tipo inválido"),
        (lambda d: d["quotes"].update(x={"article": "a", "text": "b"}), "citação desconhecida"),
    ],
)
def test_hostile_edition_json_is_refused_with_a_clear_message(change, message):
    data = json.loads(json.dumps(_by_code()["cbjd-circuito-nacional"].as_json()))
    change(data)
    with pytest.raises(EditionError, match=message):
        edition_from_json(data)


def test_not_an_object_is_refused():
    with pytest.raises(EditionError):
        edition_from_json([1, 2])


# issue 35.1: the bye's and the announced absence's values, readings of art. 13 the shipped editions leave to the
# stage's organiser and a published edition may fix
def test_the_shipped_editions_leave_the_bye_and_the_absence_to_the_organiser():
    for edition in shipped_editions():
        assert edition.fixed_unplayed() == {}, edition.code
        assert edition.unplayed_reading("bye_value") == Reading("bye_value", ORGANISER, "art. 13")
        assert edition.unplayed_reading("absence_value") == Reading("absence_value", ORGANISER, "art. 13")
        written = json.loads((EDITIONS_DIR / f"{edition.code}.json").read_text(encoding="utf-8"))["readings"]
        assert written["bye_value"] == written["absence_value"] == {"value": "organiser", "article": "art. 13"}
        # published without them, so a venue that does not know these readings still reads it
        assert "bye_value" not in edition.as_json()["readings"] and edition_from_json(edition.as_json()) == edition


def test_an_edition_published_before_these_readings_leaves_them_to_the_organiser():
    data = json.loads((EDITIONS_DIR / "cbjd-circuito-nacional.json").read_text(encoding="utf-8"))
    del data["readings"]["bye_value"], data["readings"]["absence_value"]
    edition = edition_from_json(data)
    assert edition == _by_code()["cbjd-circuito-nacional"]
    assert edition.fixed_unplayed() == {} and edition.unplayed_reading("bye_value").value == ORGANISER
    assert {r.key for r in edition.readings} == set(READINGS)  # the other readings as they were


def test_an_edition_fixing_the_bye_round_trips_and_says_so():
    fixed = with_readings(_by_code()["cbjd-circuito-nacional"], bye_value="draw")
    assert fixed.fixed_unplayed() == {"bye_value": "draw"}
    assert fixed.as_json()["readings"]["bye_value"] == {"value": "draw", "article": "art. 13"}
    assert edition_from_json(json.loads(json.dumps(fixed.as_json()))) == fixed
    assert fixed.settings_values() == _by_code()["cbjd-circuito-nacional"].settings_values()  # not a setting
    both = with_readings(fixed, absence_value="zero")
    assert both.fixed_unplayed() == {"bye_value": "draw", "absence_value": "zero"}


@pytest.mark.parametrize(
    "key, value", [("bye_value", "loss"), ("bye_value", None), ("absence_value", "win"), ("absence_value", 0)]
)
def test_an_unplayed_reading_outside_its_values_is_refused(key, value):
    data = _by_code()["cbjd-circuito-nacional"].as_json()
    data["readings"][key] = {"value": value, "article": "art. 13"}
    with pytest.raises(EditionError, match=f"valor inválido para a leitura “{key}”.*organiser"):
        edition_from_json(data)
