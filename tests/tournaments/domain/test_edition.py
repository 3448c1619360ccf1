"""The regulation as the federation's edition (issue 35.1): the pure type, its JSON, the editions shipped."""

import json
from datetime import date
from fractions import Fraction

import pytest

from tournaments.domain.edition import (
    READINGS,
    EditionError,
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
