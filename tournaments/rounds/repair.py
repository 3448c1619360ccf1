"""A correction of a round after the next one is paired (issue 28.4): the next round was paired on the old scores.
Swiss Manager and Vega warn here; this says so on the results page and, while the next round is the last one and
has no result, offers to undo it and pair it again on the corrected scores."""

from dataclasses import dataclass

from django.contrib import messages
from django.db.models import Exists, OuterRef
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor
from tournaments.core.errors import ServiceError
from tournaments.models import Game, PairingJob, Round, Tournament
from tournaments.models.choices import RoundStatus
from tournaments.rounds.pairing_jobs import pairing_job_start
from tournaments.rounds.services import round_undo


@dataclass(frozen=True)
class NextRound:
    """The round paired after the one being corrected: its number, whether it has results, whether it is the last
    one paired and published, and so whether it can be undone and paired again."""

    number: int
    has_results: bool
    is_last: bool
    published: bool

    @property
    def can_repair(self) -> bool:
        return self.is_last and not self.has_results


def next_round_of(tournament: Tournament, number: int) -> NextRound | None:
    """The round after ``number``, if it is paired (one query)."""
    results = Game.objects.filter(board__round=OuterRef("pk"), result__isnull=False)
    rounds = list(
        Round.objects.filter(tournament=tournament, number__gt=number)
        .annotate(has_results=Exists(results))
        .order_by("number")
        .values_list("number", "has_results", "status")
    )
    if not rounds:
        return None
    first, has_results, status = rounds[0]
    return NextRound(first, has_results, len(rounds) == 1, status == RoundStatus.PUBLISHED)


def round_repair(*, tournament: Tournament, number: int, user: Actor) -> PairingJob:
    """Undo round ``number`` (the last, without results) and pair it again as a draft, like any pairing: the staff
    review it, draw its opening and publish it (issue 37.4: it was published at once, with no opening drawn, and
    slips printed then had none). The undo and the new pairing are two steps: when the pairing fails, the round
    stays undone and the dashboard pairs it."""
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        raise ServiceError(_("Round %(n)s is not paired.") % {"n": number})
    round_undo(round=rnd, user=user)  # refuses a round with results or not the last
    return pairing_job_start(tournament=tournament, user=user, publish=False)


def warn_next_round_paired(request: HttpRequest, tournament: Tournament, number: int) -> None:
    """A change to a round whose next one is paired: that pairing used the scores as they were."""
    following = next_round_of(tournament, number)
    if following is None:
        return
    text = _(
        "Round %(next)s was paired on the scores before this change: its pairing stays as it is unless you undo "
        "it and pair it again."
    ) % {"next": following.number}
    if following.can_repair:
        text += " " + _("It has no result yet: the button at the top of this page does it.")
    messages.warning(request, text)
