"""The form of a tournament's category."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.core.forms import single_line_fields
from tournaments.core.safetext import validate_single_line
from tournaments.models import Category, Tournament
from tournaments.models.tournament import stage_locked

# Once round 1 of a stage is published, a change of its categories or of who is in them needs a reason (issue 35.3).
REASON_LABEL = _("Reason for the change (round 1 has been published)")
REASON_HELP = _(
    "Needed once round 1 is published: recorded and listed in the homologation report. A category created now "
    "earns no qualification spot."
)


def reason_field() -> forms.CharField:
    return forms.CharField(
        label=REASON_LABEL, max_length=300, required=False, validators=[validate_single_line], help_text=REASON_HELP
    )


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

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        self.tournament = tournament
        super().__init__(*args, **kwargs)
        sex: Any = self.fields["sex"]  # a ChoiceField (the model field has choices)
        sex.choices = [("", _("any")), *list(sex.choices)[1:]]
        if stage_locked(tournament.pk):
            self.fields["change_reason"] = reason_field()

    def clean_code(self) -> str:
        code = self.cleaned_data["code"].strip().upper()
        clash = Category.objects.filter(tournament=self.tournament, code=code).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(_("This tournament already has a category with this code."))
        return code


single_line_fields(CategoryForm)
