"""What every staff form shares: the date widget, and one-line text fields that refuse line breaks."""

from typing import Any

from django import forms

from tournaments.core.safetext import validate_single_line


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%d", **kwargs)


def single_line_fields(*form_classes: type[forms.Form] | type[forms.ModelForm]) -> None:
    """Names and every other one-line text field refuse line breaks and control characters (issue 15, item 3:
    a name with a line break would start a line of its own in a TRF or a PDN header); text areas keep theirs."""
    for form_class in form_classes:
        for field in form_class.base_fields.values():
            if isinstance(field, forms.CharField) and not isinstance(field.widget, forms.Textarea):
                field.validators.append(validate_single_line)
