"""Issue 28.12: who is present is asked before pairing (absentees marked become the round's announced absences, all
or nothing); whether an arbiter pairs is the director's choice (403 without it); the audit log says in which role
a round was paired and published."""

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments.accounts.services import staff_pairing_permission
from tournaments.audit.presenters import audit_sentence
from tournaments.core.errors import ServiceError
from tournaments.entries.services import entry_withdraw
from tournaments.models import Absence, AuditEntry, Round, TournamentRole
from tournaments.rounds.presence import presence_confirm, presence_rows
from tournaments.rounds.results import game_record_result
from tournaments.rounds.services import round_pair, round_publish

pytestmark = pytest.mark.django_db
PASSWORD = "senha-forte-123"


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


@pytest.fixture
def arbiter(django_user_model):
    return django_user_model.objects.create_user("arbitra", password=PASSWORD)


def absent_names(t, number):
    return sorted(
        Absence.objects.filter(entry__tournament=t, round_number=number).values_list("entry__player__name", flat=True)
    )


def test_the_absences_of_the_round_become_exactly_those_marked(field, director):
    t, e = field(6)
    assert presence_confirm(tournament=t, number=1, absent=[e[1].pk, e[4].pk], user=director) == (2, 0)
    assert absent_names(t, 1) == ["P02", "P05"]
    assert presence_confirm(tournament=t, number=1, absent=[e[4].pk, e[5].pk], user=director) == (1, 1)
    assert absent_names(t, 1) == ["P05", "P06"]
    rows, out = presence_rows(t, 1)
    assert [(r.entry.player.name, r.absent) for r in rows][4:] == [("P05", True), ("P06", True)]
    assert out == []
    rnd = round_pair(tournament=t, user=director)
    seated = {s.entry.player.name for s in rnd.seats.select_related("entry__player")}
    assert seated == {"P01", "P02", "P03", "P04"}
    assert [a.action for a in AuditEntry.objects.filter(action__startswith="absence.").order_by("id")] == [
        "absence.create",
        "absence.create",
        "absence.create",
        "absence.delete",
    ]


def test_a_withdrawn_player_cannot_be_marked_and_nothing_is_written(field, director):
    t, e = field(6)
    round_pair(tournament=t, user=director, publish=True)
    for board in Round.objects.get(tournament=t, number=1).boards.all():
        game_record_result(board=board, results={1: "1-0", 2: "1-0"}, expected_version=board.version, user=director)
    entry_withdraw(entry=e[2], from_round=2, kind="approved", user=director)
    rows, out = presence_rows(t, 2)
    assert [x.player.name for x in out] == ["P03"]
    assert [r.points for r in rows if r.entry.player.name == "P01"] == [2]  # won game 1, lost game 2
    with pytest.raises(ServiceError) as exc:
        presence_confirm(tournament=t, number=2, absent=[e[0].pk, e[2].pk], user=director)
    assert exc.value.messages == [
        "P03 não pode jogar a rodada 2 (desistiu ou entra numa rodada posterior): nada foi gravado."
    ]
    assert absent_names(t, 2) == []
    with pytest.raises(ServiceError) as exc:
        presence_confirm(tournament=t, number=3, absent=[], user=director)
    assert "A rodada 3 não é mais a próxima a emparceirar" in exc.value.messages[0]


def test_an_arbiter_pairs_only_when_the_director_allows_it(client, field, director, arbiter):
    t, e = field(4)
    TournamentRole.objects.create(tournament=t, user=arbiter, role="arbiter")
    client.force_login(arbiter)
    assert client.get(reverse("staff:round_pair", args=[t.slug])).status_code == 200
    staff_pairing_permission(tournament=t, user=director, allowed=False)
    assert client.get(reverse("staff:round_pair", args=[t.slug])).status_code == 403
    assert client.post(reverse("staff:round_pair", args=[t.slug])).status_code == 403
    assert 'id="pair-next"' not in client.get(reverse("staff:tournament", args=[t.slug])).content.decode()
    assert not t.rounds.exists()
    rnd = round_pair(tournament=t, user=director)
    assert client.post(reverse("staff:round", args=[t.slug, 1]), {"action": "publish"}).status_code == 403
    assert client.get(reverse("staff:round_edit", args=[t.slug, 1])).status_code == 403
    page = client.get(reverse("staff:round", args=[t.slug, 1])).content.decode()
    assert 'id="publish"' not in page and 'id="draw-opening"' in page
    rnd.refresh_from_db()
    assert rnd.status == "draft"
    roles = dict(TournamentRole.objects.filter(tournament=t).values_list("user_id", "role"))
    assert audit_sentence(AuditEntry.objects.get(action="staff.pairing"), roles) == (
        "Emparceiramento das rodadas restrito ao diretor pelo diretor diretor."
    )


def test_the_audit_log_says_which_role_paired_and_published(client, field, director, arbiter):
    t, e = field(4)
    TournamentRole.objects.create(tournament=t, user=arbiter, role="arbiter")
    client.force_login(arbiter)
    response = client.post(
        reverse("staff:round_pair", args=[t.slug]), {"presence": "1", "round": "1", "absent": [str(e[3].pk)]}
    )
    assert response.status_code == 302
    assert absent_names(t, 1) == ["P04"]
    round_publish(round=t.rounds.get(number=1), user=director)
    TournamentRole.objects.filter(user=arbiter).update(role="director")  # the role later changes: the log keeps
    roles = dict(TournamentRole.objects.filter(tournament=t).values_list("user_id", "role"))
    paired = AuditEntry.objects.get(action="round.pair")
    published = AuditEntry.objects.get(action="round.publish")
    assert audit_sentence(paired, roles).startswith("Rodada 1 emparceirada pelo árbitro arbitra:")
    assert audit_sentence(published, roles) == "Rodada 1 publicada pelo diretor diretor."
