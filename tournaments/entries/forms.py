"""Forms of the entries: categories, withdrawal, announced absence, forbidden pairs, and the rating list loaded
for them."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.categories.forms import reason_field
from tournaments.core.forms import DateInput, single_line_fields
from tournaments.core.safetext import validate_single_line
from tournaments.models import Category, Tournament
from tournaments.models.choices import MAX_ROUNDS, RATING_MAX, RATING_MIN, WithdrawalKind
from tournaments.models.tournament import stage_locked


class EntryForm(forms.Form):
    categories = forms.ModelMultipleChoiceField(
        queryset=Category.objects.none(), required=False, widget=forms.CheckboxSelectMultiple, label=_("categories")
    )
    declared_adult = forms.BooleanField(required=False, label=_("21 or older (no birth date needed)"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field: Any = self.fields["categories"]  # a ModelMultipleChoiceField
        field.queryset = tournament.categories.all()
        if stage_locked(tournament.pk):
            self.fields["change_reason"] = reason_field()  # issue 35.3


class RatingForm(forms.Form):
    """An entry's rating corrected after round 1, with the reason (issue 35.3)."""

    rating = forms.IntegerField(
        required=False, min_value=RATING_MIN, max_value=RATING_MAX, label=_("rating (empty: unrated)")
    )
    change_reason = forms.CharField(
        label=_("Reason for the correction"),
        max_length=300,
        validators=[validate_single_line],
        help_text=_(
            "Recorded and listed in the homologation report. The qualification spots and the tiebreaks keep "
            "reading the rating frozen at round 1 (art. 4)."
        ),
    )


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


class ForbiddenPairForm(forms.Form):
    entry_a = forms.IntegerField(label=_("pairing number"), min_value=1, max_value=99_999)
    entry_b = forms.IntegerField(label=_("pairing number"), min_value=1, max_value=99_999)
    from_round = forms.IntegerField(required=False, min_value=1, max_value=MAX_ROUNDS, label=_("from round"))
    to_round = forms.IntegerField(required=False, min_value=1, max_value=MAX_ROUNDS, label=_("to round"))
    reason = forms.CharField(required=False, max_length=200, label=_("reason"))


single_line_fields(WithdrawForm, AbsenceForm, ForbiddenPairForm)
