"""The form that imports a tournament file (interchange JSON, TRF, Swiss Perfect) for its homologation."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.core.forms import single_line_fields
from tournaments.models.choices import MAX_ROUNDS


class TournamentFileForm(forms.Form):
    file = forms.FileField(
        label=_(
            "tournament file (.json interchange file, .trf, or Swiss Perfect: .zip with .ini, .trn and .sco, or its cross table .txt)"
        )
    )
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ROUNDS,
        label=_("number of rounds"),
        help_text=_("For a TRF that does not say how many rounds the event has (no XXR or 142 line)."),
    )
    follow_declared_points = forms.BooleanField(
        required=False,
        label=_("follow the declared points"),
        help_text=_(
            "For a TRF whose players' declared points differ from the sum of their results: the declared points "
            "count (the difference becomes points outside the games, with the reason, in the standings and the "
            "pairing). Unticked, the sum of the results counts and each difference is listed."
        ),
    )
    leave_out_round_in_progress = forms.BooleanField(
        required=False,
        label=_("leave out the round in progress"),
        help_text=_(
            "For a TRF whose round in progress (paired, results not all in) contradicts itself: the complete rounds "
            "are imported and that round is left out, to be paired again here."
        ),
    )
    slug = forms.SlugField(
        required=False,
        max_length=80,
        label=_("Web address"),
        help_text=_("To import a copy of a tournament this server already has: another address for the copy."),
    )


single_line_fields(TournamentFileForm)
