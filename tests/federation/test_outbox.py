"""The venue's queue (issue 29): offline first, retries with a growing wait, the same file once, a later version
supersedes the unsent one, and the federation's word (its receipt time, its decision) is what the director sees."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.federation import client, outbox
from tournaments.federation.presenters import outgoing_state
from tournaments.models import OutgoingSubmission


def test_backoff_doubles_up_to_an_hour():
    assert [outbox.backoff(n).total_seconds() for n in (1, 2, 3, 4, 8, 20)] == [30, 60, 120, 240, 3600, 3600]


@pytest.mark.django_db
def test_offline_the_submission_waits_in_the_queue_with_backoff(venue, venue_event):
    o, created = outbox.submission_queue(tournament=venue_event, user=None)
    assert created and o.status == "pending" and o.attempts == 0
    before = timezone.now()
    assert outbox.send_due() is not None  # a real connection refused on 127.0.0.1:9
    o.refresh_from_db()
    assert o.status == "pending" and o.attempts == 1
    assert o.last_error == "sem conexão com a federação: confira a internet deste computador"
    assert before + timedelta(seconds=29) < o.next_attempt_at <= timezone.now() + timedelta(seconds=30)
    assert outgoing_state(o).startswith(
        "pendente (1 tentativa; sem conexão com a federação: confira a internet deste computador; próxima em "
    )
    # not due yet: nothing is tried
    assert outbox.send_due() == o.next_attempt_at
    o.refresh_from_db()
    assert o.attempts == 1
    # due: tried again, and the wait doubles
    OutgoingSubmission.objects.filter(pk=o.pk).update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    outbox.send_due()
    o.refresh_from_db()
    assert o.attempts == 2 and o.next_attempt_at > timezone.now() + timedelta(seconds=59)


@pytest.mark.django_db
def test_same_file_once_and_a_new_version_supersedes_the_unsent_one(venue, venue_event):
    from tournaments.models import Game

    first, created = outbox.submission_queue(tournament=venue_event, user=None)
    again, created_again = outbox.submission_queue(tournament=venue_event, user=None)
    assert created and not created_again and again.pk == first.pk
    game = Game.objects.filter(board__round__tournament=venue_event, board__round__number=7).order_by("pk").first()
    Game.objects.filter(pk=game.pk).update(result="0-1" if game.result != "0-1" else "1-0")
    second, created = outbox.submission_queue(tournament=venue_event, user=None)
    assert created and second.pk != first.pk
    first.refresh_from_db()
    assert first.status == "superseded" and second.status == "pending"


@pytest.mark.django_db
def test_online_the_federations_receipt_time_and_decision_are_shown(venue, venue_event, monkeypatch):
    o, _ = outbox.submission_queue(tournament=venue_event, user=None)
    answers = {"status": "received", "received_at": "2026-10-19T21:30:00-03:00", "version": 1, "sha256": o.sha256}
    monkeypatch.setattr(client, "send_stage", lambda payload, created_at: dict(answers))
    assert outbox.send_due() is None
    o.refresh_from_db()
    assert o.status == "received" and o.remote_version == 1
    assert outgoing_state(o) == "recebido pela federação em 19/10/2026 21:30"
    decided = {
        **answers,
        "status": "refused",
        "decided_at": "2026-10-20T10:00:00-03:00",
        "findings_count": 2,
        "decision_reason": "1ª rodada\nfora do rating",
    }
    monkeypatch.setattr(client, "stage_state", lambda slug: {"versions": [decided]})
    assert outbox.sync_states() == 1
    o.refresh_from_db()
    assert outgoing_state(o) == "recebido pela federação em 19/10/2026 21:30 · recusado (1ª rodada fora do rating)"


@pytest.mark.django_db
def test_not_linked_to_a_federation_is_said(settings, venue_event):
    from tournaments.core.errors import ServiceError

    settings.FEDERATION_URL = ""
    with pytest.raises(ServiceError) as exc:
        outbox.submission_queue(tournament=venue_event, user=None)
    assert exc.value.messages == [client.NOT_CONNECTED]  # what to do, not which variables to set (37.9)
    assert "FEDERATION_URL" not in client.NOT_CONNECTED and "guia do diretor" in client.NOT_CONNECTED
    assert OutgoingSubmission.objects.count() == 0


@pytest.mark.django_db
def test_the_audit_line_of_a_queued_submission_says_what_was_queued(venue, venue_event, director):
    """Issue 37.9: the audit log showed the file's bare hash ("A3b502dd8cb7, pelo diretor diretor.")."""
    import re

    from tournaments.audit.presenters import audit_sentence
    from tournaments.models import AuditEntry

    o, _created = outbox.submission_queue(tournament=venue_event, user=director)
    entry = AuditEntry.objects.get(tournament=venue_event, action="federation.queue")
    rounds = venue_event.rounds.count()
    sentence = str(audit_sentence(entry))
    assert f"arquivo do torneio com {rounds} rodadas posto na fila de envio à federação" in sentence
    assert f"(identificação do arquivo {o.sha256[:12]})" in sentence
    assert not re.match(r"^[0-9a-fA-F]{12}", sentence)


@pytest.mark.django_db
def test_the_pages_of_a_laptop_not_connected_say_what_to_do(client, settings, venue_event, director):
    """Issue 37.9: the page told the director to set environment variables."""
    from django.urls import reverse

    from tournaments.models import TournamentRole

    settings.DAMAS_ROLE = "venue"
    settings.FEDERATION_URL = ""
    TournamentRole.objects.create(tournament=venue_event, user=director, role="director")
    client.force_login(director)
    html = client.get(reverse("federation:venue", args=[venue_event.slug])).content.decode()
    assert f'<p class="msg msg-warning" id="not-configured">{client_text()}</p>' in html
    assert "defina FEDERATION_URL" not in html


def client_text():
    from django.utils.html import escape

    return escape(client.NOT_CONNECTED)
