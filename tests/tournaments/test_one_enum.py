"""Issue 39.5: an enum the pure code reads and a model stores is defined once (tournaments/domain/labelled.py), not
once in the domain and again, with the same values, in ``models.choices``."""

import enum
import inspect

from django.db import models
from django.utils import translation

from tournaments import domain
from tournaments.domain import model, participants, qualification, snapshot
from tournaments.models import Tournament, choices


def _enums(module):
    return {
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, enum.Enum) and cls.__module__.startswith("tournaments.")
    }


def test_no_enum_of_the_app_repeats_an_enum_of_the_domain():
    pure = set().union(*(_enums(m) for m in (domain, model, participants, qualification, snapshot)))
    app = _enums(choices)
    twins = sorted(
        (a.__name__, d.__name__)
        for a in app
        for d in pure
        if a is not d and {m.value for m in a} == {m.value for m in d}
    )
    assert twins == []
    assert choices.Top3Order is model.Top3Order and choices.RoundFormat is model.Format  # the same class


def test_the_models_choices_come_from_the_domains_enums_with_labels_in_the_active_language():
    field = Tournament._meta.get_field("spot_tie_rule")
    assert [value for value, _ in field.choices] == qualification.SpotTieRule.values == ["committee", "share"]
    with translation.override("pt-br"):
        assert str(model.Format.SINGLE_GAME.label) == "Partida única"
        assert str(dict(field.choices)["share"]) == str(choices.SpotTieRule.SHARE.label)
    with translation.override("en"):
        assert str(model.Format.SINGLE_GAME.label) == "Single game"


def test_the_app_still_has_choices_of_its_own_only_where_the_domain_has_none():
    assert issubclass(choices.AuditAction, models.TextChoices)
    assert model.ByeValue("win") is choices.ByeValue.WIN and model.ByeValue.WIN == "win"
