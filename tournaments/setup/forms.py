"""Staff forms. Validation of the domain rules is in the services; forms check shapes and ranges."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.core.safetext import validate_single_line
from tournaments.models import Category, Player, Tournament
from tournaments.models.choices import MAX_ROUNDS, StaffRole, Variant, WithdrawalKind
from tournaments.setup.tiebreak_list import parse_tiebreak_text

TOURNAMENT_FIELDS = [
    "name",
    "slug",
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


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class TiebreakListField(forms.CharField):
    """The custom tiebreak list typed as JSON, parsed safely (issue 25, item 4): no NaN, no infinity, no deep
    nesting, only names of the catalogue, each once; a Portuguese message otherwise."""

    def __init__(self, **kwargs):
        kwargs.pop("encoder", None), kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        super().__init__(strip=True, **kwargs)

    def to_python(self, value):
        if isinstance(value, list):  # the stored value of a disabled (frozen) field
            return value
        return parse_tiebreak_text(value)

    def run_validators(self, value):
        """The parser has checked the list (the text validators of one-line fields do not apply to a list)."""

    def prepare_value(self, value):
        if isinstance(value, list):
            return json.dumps(value, ensure_ascii=False)
        return value

    def has_changed(self, initial, data):
        try:
            return self.to_python(data) != (initial if isinstance(initial, list) else self.to_python(initial))
        except forms.ValidationError:
            return True


class TournamentForm(forms.ModelForm):
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
                "Lowercase letters without accents, digits and hyphens."
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
        "top3_scope",
        "direct_encounter_scope",
        "acceleration_order",
        "time_unit",
        "tablita_100",
        "unrated_in_average",
        "spots_min_entries",
        "double_spot_rule",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not (self.instance.pk and self.instance.rounds.exists()):
            del self.fields["change_reason"]  # before round 1 every setting changes freely
        for name in self.OPTIONAL:
            self.fields[name].required = False

    def clean(self):
        data = super().clean()
        for name in self.OPTIONAL:
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = getattr(self.instance, name)
        return data


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "sex", "birth_date", "state", "club", "cbjd_id", "rating", "fmjd_rating", "title"]
        widgets = {"birth_date": DateInput()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["sex"].required = True  # blank only for players imported from files that do not say

    def clean_cbjd_id(self):
        return self.cleaned_data["cbjd_id"] or None


class PlayerEditForm(forms.ModelForm):
    """The registry's data a federation member corrects on the player's page (ratings come from rating lists)."""

    class Meta:
        model = Player
        fields = ["name", "birth_date", "sex", "state", "club", "cbjd_id", "title"]
        widgets = {"birth_date": DateInput()}

    def clean_cbjd_id(self):
        return self.cleaned_data["cbjd_id"] or None


class CategoryForm(forms.ModelForm):
    """A category's rule: sex, and age on 31 December of the tournament's year (sub-18: at most 17)."""

    code = forms.RegexField(
        regex=r"^[A-Za-z0-9-]{1,10}$",
        max_length=10,
        label=_("code"),
        help_text=_("Up to 10 letters, digits or hyphens (S21, FEM): it goes in the public standings' address."),
        error_messages={"invalid": _("Use up to 10 letters without accents, digits or hyphens.")},
    )

    class Meta:
        model = Category
        fields = ["code", "name", "sex", "min_age", "max_age"]
        labels = {"sex": _("only players of sex")}
        help_texts = {"max_age": _("Sub-21: 20; sub-18: 17 (age on 31 December of the tournament's year).")}

    def __init__(self, *args, tournament, **kwargs):
        self.tournament = tournament
        super().__init__(*args, **kwargs)
        self.fields["sex"].choices = [("", _("any"))] + list(self.fields["sex"].choices)[1:]

    def clean_code(self):
        code = self.cleaned_data["code"].strip().upper()
        clash = Category.objects.filter(tournament=self.tournament, code=code).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(_("This tournament already has a category with this code."))
        return code


class EntryForm(forms.Form):
    categories = forms.ModelMultipleChoiceField(
        queryset=Category.objects.none(), required=False, widget=forms.CheckboxSelectMultiple, label=_("categories")
    )
    declared_adult = forms.BooleanField(required=False, label=_("21 or older (no birth date needed)"))

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["categories"].queryset = tournament.categories.all()


class WithdrawForm(forms.Form):
    from_round = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, label=_("from round"))
    kind = forms.ChoiceField(choices=WithdrawalKind.choices, label=_("kind"))
    note = forms.CharField(max_length=200, label=_("reason (kept in the audit log)"))
    confirm = forms.BooleanField(label=_("I confirm the withdrawal (the player is not paired from that round on)."))


class AbsenceForm(forms.Form):
    round_number = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, label=_("round"))
    reason = forms.CharField(required=False, max_length=200, label=_("reason"))


class RatingListForm(forms.Form):
    file = forms.FileField(label=_("rating list (CSV or XLSX)"))
    list_date = forms.DateField(
        required=False,
        widget=DateInput(),
        label=_("date of the list"),
        help_text=_("The date the federation published it (default: today). Shown as the list used for round 1."),
    )


class KeepRatingForm(forms.Form):
    reason = forms.CharField(max_length=200, label=_("reason for keeping the rating of registration"))


class OpeningTableForm(forms.Form):
    file = forms.FileField(label=_("opening table (CSV)"))
    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.INTERNATIONAL_100, label=_("variant"))


class ForbiddenPairForm(forms.Form):
    entry_a = forms.IntegerField(label=_("pairing number"), min_value=1, max_value=99_999)
    entry_b = forms.IntegerField(label=_("pairing number"), min_value=1, max_value=99_999)
    from_round = forms.IntegerField(required=False, min_value=1, max_value=MAX_ROUNDS, label=_("from round"))
    to_round = forms.IntegerField(required=False, min_value=1, max_value=MAX_ROUNDS, label=_("to round"))
    reason = forms.CharField(required=False, max_length=200, label=_("reason"))


class OpeningCodeForm(forms.Form):
    code = forms.CharField(max_length=20, label=_("opening code drawn at the venue"))


class StaffRoleForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("user name"))
    role = forms.ChoiceField(choices=StaffRole.choices, initial=StaffRole.ARBITER, label=_("role"))

    def clean_username(self):
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


class TournamentFileForm(forms.Form):
    file = forms.FileField(
        label=_(
            "tournament file (.json interchange file, .trf, or Swiss Perfect: .zip with .ini, .trn and .sco, or its cross table .txt)"
        )
    )
    program = forms.CharField(
        required=False,
        max_length=120,
        label=_("program that paired the rounds"),
        help_text=_(
            "For an event paired by another program (Swiss Perfect, Swiss-Manager, …): recorded on the imported "
            "rounds for the homologation (regulation art. 5)."
        ),
    )
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ROUNDS,
        label=_("number of rounds"),
        help_text=_("For a TRF that does not say how many rounds the event has (no XXR or 142 line)."),
    )
    slug = forms.SlugField(
        required=False,
        max_length=80,
        label=_("Web address"),
        help_text=_("To import a copy of a tournament this server already has: another address for the copy."),
    )


def _single_line_fields(*form_classes):
    """Names and every other one-line text field refuse line breaks and control characters (issue 15, item 3:
    a name with a line break would start a line of its own in a TRF or a PDN header); text areas keep theirs."""
    for form_class in form_classes:
        for field in form_class.base_fields.values():
            if isinstance(field, forms.CharField) and not isinstance(field.widget, forms.Textarea):
                field.validators.append(validate_single_line)


_single_line_fields(
    TournamentForm,
    PlayerForm,
    PlayerEditForm,
    CategoryForm,
    StaffAccountForm,
    WithdrawForm,
    AbsenceForm,
    KeepRatingForm,
    ForbiddenPairForm,
    OpeningCodeForm,
    StaffRoleForm,
    TournamentFileForm,
)
