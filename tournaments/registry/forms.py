"""Forms of a player of the national registry: entered by a director, corrected by the federation."""

from typing import Any

from django import forms

from tournaments.core.forms import DateInput, single_line_fields
from tournaments.models import Player


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "sex", "birth_date", "state", "club", "cbjd_id", "rating", "fmjd_rating", "title"]
        widgets = {"birth_date": DateInput()}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["sex"].required = True  # blank only for players imported from files that do not say

    def clean_cbjd_id(self) -> str | None:
        return self.cleaned_data["cbjd_id"] or None


class PlayerEditForm(forms.ModelForm):
    """The registry's data a federation member corrects on the player's page (ratings come from rating lists)."""

    class Meta:
        model = Player
        fields = ["name", "birth_date", "sex", "state", "club", "cbjd_id", "title"]
        widgets = {"birth_date": DateInput()}

    def clean_cbjd_id(self) -> str | None:
        return self.cleaned_data["cbjd_id"] or None


single_line_fields(PlayerForm, PlayerEditForm)
