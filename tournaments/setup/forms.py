"""Forms of a tournament's settings, its staff and the registry files the director loads (opening tables, the
rating kept at registration). Validation of the domain rules is in the services; forms check shapes and ranges."""

import json
from typing import Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from tournaments.core.forms import DateInput, single_line_fields
from tournaments.core.safetext import validate_single_line
from tournaments.core.slugs import free_slug
from tournaments.models import Tournament
from tournaments.models.choices import StaffRole, TiebreakProfile, Variant
from tournaments.models.tournament import EDITION_FIELDS
from tournaments.setup.tiebreak_editor import TiebreakListWidget
from tournaments.setup.tiebreak_list import parse_tiebreak_text, tiebreak_keys_validator
from tournaments.standings.readings import unplayed_readings

TOURNAMENT_FIELDS = [
    "name",
    "slug",
    "circuit_stage",
    "variant",
    "format",
    "planned_rounds",
    "minutes_per_game",
    "start_date",
    "end_date",
    "city",
    "state",
    "venue",
    "chief_arbiter",
    "time_zone",
    "score_win",
    "score_draw",
    "score_loss",
    "bye_value",
    "absence_value",
    "acceleration",
    "initial_colour",
    "provisional_rating",
    "tiebreak_profile",
    "tiebreak_keys",
    "tiebreak_edition",
    "progressive_move",
    "corrected_progressive_cut",
    "corrected_progressive_unplayed",
    "opening_table",
    "opening_draw_mode",
    "king_moves_per_player",
    "top3_order",
    "min_participants",
    "participant_rule",
    "spot_tie_rule",
    "pairing_program_rule",
    "top3_scope",
    "direct_encounter_scope",
    "acceleration_order",
    "time_unit",
    "tablita_100",
    "unrated_in_average",
    "spots_min_entries",
    "double_spot_rule",
]


class TiebreakListField(forms.CharField):
    """The custom tiebreak list, chosen in a list of selects (issue 28.15, ``TiebreakListWidget``) or posted as JSON
    text by a script, parsed safely (issue 25, item 4): no NaN, no infinity, no deep nesting, only names of the
    catalogue, each once; a Portuguese message otherwise."""

    widget = TiebreakListWidget

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("encoder", None), kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        kwargs["widget"] = TiebreakListWidget
        super().__init__(strip=True, **kwargs)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, list):  # the selects' keys, or the stored value of a disabled (frozen) field
            if not self.disabled:
                tiebreak_keys_validator(value)
            return value
        return parse_tiebreak_text(value)

    def run_validators(self, value: Any) -> None:
        """The parser has checked the list (the text validators of one-line fields do not apply to a list)."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return json.dumps(value, ensure_ascii=False)
        return value

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return self.to_python(data) != (initial if isinstance(initial, list) else self.to_python(initial))
        except forms.ValidationError:
            return True


def _yes(value: Any) -> bool:
    return value in (True, "True", "true", "1", "on")


class StageField(forms.TypedChoiceField):
    """Stage or club event, as radio buttons; a yes/no written any usual way is read too (a script's "on")."""

    def valid_value(self, value: Any) -> bool:
        return str(value).lower() in ("true", "false", "on", "off", "1", "0")


class TournamentForm(forms.ModelForm):
    # Chosen at creation (issue 35.1): a stage follows the federation's edition; a club event sets anything and
    # has no rights. A form that leaves it out keeps the value in force (a new event: a stage).
    circuit_stage = StageField(
        label="Tipo de evento",
        choices=[
            (True, "Etapa do Circuito Nacional (segue a edição do regulamento publicada pela federação)"),
            (False, "Evento de clube: não é etapa e não dá direito a vagas (define as próprias regras)"),
        ],
        coerce=_yes,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    # Once round 1 is paired, a setting that decides the homologation changes only with a reason (issue 26).
    change_reason = forms.CharField(
        label=_("Reason for changing settings that decide the homologation"),
        max_length=300,
        required=False,
        validators=[validate_single_line],
        help_text=_(
            "Needed once round 1 is paired: it goes to the audit log and to the homologation report, which keeps "
            "judging the settings in force when the event was played."
        ),
    )

    class Meta:
        model = Tournament
        fields = TOURNAMENT_FIELDS
        field_classes = {"tiebreak_keys": TiebreakListField}
        widgets = {
            "start_date": DateInput(),
            "end_date": DateInput(),
            # static/js/staff.js fills the address from the name until the director edits it
            "slug": forms.TextInput(attrs={"data-slug-from": "id_name", "autocomplete": "off"}),
        }
        labels = {"slug": _("Web address")}
        help_texts = {
            "slug": _(
                "The end of the public pages' address (/t/aberto-recife/): filled from the name, you may change it. "
                "Lowercase letters without accents, digits and hyphens; left empty, it is made from the name."
            )
        }
        error_messages = {
            "slug": {
                "unique": _("Another tournament already uses this web address; choose another one."),
                "invalid": _("Use only lowercase letters without accents, digits and hyphens (aberto-recife-2026)."),
            },
            "planned_rounds": {"max_value": _("A tournament has from 1 to 100 rounds.")},
        }

    # The readings of issue 26: a form that leaves them out (an older page, a script) keeps the value in force.
    OPTIONAL = (
        "circuit_stage",
        "top3_scope",
        "direct_encounter_scope",
        "acceleration_order",
        "time_unit",
        "tablita_100",
        "unrated_in_average",
        "spots_min_entries",
        "double_spot_rule",
    )

    # The settings a director sets for every event; the others are folded under "Advanced settings" (issue 28.15),
    # open when one of them has an error.
    # (the event's identity, the fields TOURNAMENT_FIELDS lists before the time zone, then the tiebreaks and openings)
    ESSENTIAL = (
        *TOURNAMENT_FIELDS[: TOURNAMENT_FIELDS.index("time_zone")],
        "tiebreak_profile",
        "tiebreak_keys",
        "opening_table",
        "change_reason",
    )

    def essential_fields(self) -> list[forms.BoundField]:
        return [field for field in self if field.name in self.ESSENTIAL]

    def advanced_fields(self) -> list[forms.BoundField]:
        return [field for field in self if field.name not in self.ESSENTIAL]

    def advanced_has_errors(self) -> bool:
        return any(field.errors for field in self.advanced_fields())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not (self.instance.pk and (self.instance.rounds.exists() or self.instance.facts_locked_at)):
            del self.fields["change_reason"]  # before round 1 every setting changes freely
        if not self.instance.pk:
            self.fields["slug"].required = False  # left empty, made from the name (clean)
        for name in self.OPTIONAL:
            self.fields[name].required = False
        for name in EDITION_FIELDS:
            # a stage's minimum and readings are its edition's: shown, never taken from the page (issue 35.1)
            if self.instance.pk and self.instance.circuit_stage:
                self.fields[name].disabled = True
                self.fields[name].help_text = "Fixado pela edição do regulamento publicada pela federação."
            elif not self.instance.pk:
                self.fields[name].help_text = (
                    "Numa etapa do Circuito Nacional vale a edição do regulamento; este valor só vale para um "
                    "evento de clube."
                )
        self._unplayed_values()
        self._long_choices_as_radios()

    def _unplayed_values(self) -> None:
        """The bye's and the announced absence's values of a stage: fixed by its edition (shown, never taken from
        the page, and said so), or the organiser's under art. 13 (issue 35.1: the standings and the homologation
        page say which)."""
        if not (self.instance.pk and self.instance.circuit_stage):
            return
        for name, reading in unplayed_readings(self.instance):
            if reading.fixed:
                self.fields[name].disabled = True
                self.fields[name].help_text = reading.sentence + (
                    " Este evento importado mantém o valor com que o arquivo pontuou as rodadas; o relatório de "
                    "homologação aponta a diferença."
                    if reading.differs
                    else ""
                )

    # A closed select shows one line: a choice longer than this does not fit a phone's width (issue 28.15).
    LONG_CHOICE = 34

    def _long_choices_as_radios(self) -> None:
        """The advanced settings whose choices are sentences become radio lists, whose labels wrap on a phone,
        instead of selects that would cut the chosen sentence."""
        for name in self.fields:
            field = self.fields[name]
            if name in self.ESSENTIAL or not isinstance(field.widget, forms.Select):
                continue
            choices = list(getattr(field, "choices", []))
            with translation.override("pt-br"):  # the same widget whatever the page's language
                longest = max((len(str(label)) for _value, label in choices), default=0)
            if longest > self.LONG_CHOICE:
                field.widget = forms.RadioSelect(choices=choices)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.instance.pk and not data.get("slug") and "slug" not in self.errors and data.get("name"):
            # as the page's script fills it, or, for a name in a script it cannot write in Latin letters, as it
            # cannot (issue 27.17): the same readable address, free in this database
            data["slug"] = free_slug(data["name"], "torneio", short=True)
        for name in self.OPTIONAL:
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = getattr(self.instance, name)
        if "tiebreak_keys" in self.errors and data.get("tiebreak_profile") == TiebreakProfile.CUSTOM:
            # the list's own error says what is wrong: not also "write the list" from the model's check of an
            # empty custom list (the form is invalid, nothing is saved)
            data["tiebreak_profile"] = TiebreakProfile.CBJD
        return data


class KeepRatingForm(forms.Form):
    reason = forms.CharField(max_length=200, label=_("reason for keeping the rating of registration"))


class OpeningTableForm(forms.Form):
    file = forms.FileField(label=_("opening table (CSV)"))
    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.INTERNATIONAL_100, label=_("variant"))


class StaffRoleForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("user name"))
    role = forms.ChoiceField(choices=StaffRole.choices, initial=StaffRole.ARBITER, label=_("role"))

    def clean_username(self) -> str:
        # Never looked up here: the answer must be the same whether or not the name exists (issue 25, item 1).
        return self.cleaned_data["username"].strip()


class StaffAccountForm(forms.Form):
    """A new login for an arbiter (or a second director), made from the tournament's Staff page."""

    full_name = forms.CharField(max_length=150, label=_("full name"))
    username = forms.RegexField(
        regex=r"^[\w.@+-]{3,150}$",
        max_length=150,
        label=_("login"),
        help_text=_("What they type to log in: letters, digits and . @ + - _ (for example maria.souza)."),
        error_messages={"invalid": _("Use 3 or more letters, digits or . @ + - _, without spaces.")},
    )
    role = forms.ChoiceField(choices=StaffRole.choices, initial=StaffRole.ARBITER, label=_("role"))


single_line_fields(TournamentForm, StaffAccountForm, KeepRatingForm, StaffRoleForm)
