"""The entries page (issue 14): several players at once from a search or a pasted list (all or nothing, every
refused line explained), late entries that say what the missed rounds score, deleting an entry made by mistake."""

from datetime import date

import pytest
from django.urls import reverse

from tournaments.entries.services import entry_register
from tournaments.models import AuditEntry, Entry, Suspension
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


def add_url(t):
    return reverse("staff:entry_add", args=[t.slug])


@pytest.fixture
def registry(make_player):
    return {
        "joao": make_player(name="João Araújo", cbjd_id="30101", rating=2100),
        "joana": make_player(name="Joana Lima", cbjd_id="30102", rating=2000, sex="F"),
        "silva1": make_player(name="Carlos Silva", cbjd_id="30103", rating=1900),
        "silva2": make_player(name="Carlos Silva", cbjd_id="30104", rating=1800),
        "edson": make_player(name="Édson Monteiro", cbjd_id="30105", rating=1700),
    }


def test_several_players_picked_from_a_search_are_entered_at_once(client, director, make_tournament, registry):
    t = make_tournament()
    client.force_login(director)
    picked = [registry["joao"].pk, registry["joana"].pk, registry["edson"].pk]
    response = client.post(add_url(t), {"action": "pick", "player": picked, "q": "jo"})
    assert response.status_code == 302 and response["Location"].endswith("/inscritos/?q=jo")
    assert sorted(t.entries.values_list("player__cbjd_id", flat=True)) == ["30101", "30102", "30105"]
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == ["3 jogadores inscritos: Édson Monteiro, Joana Lima, João Araújo."]


def test_a_suspended_player_in_the_selection_enters_nobody(client, director, make_tournament, registry):
    t = make_tournament(start_date=date(2026, 11, 8), end_date=date(2026, 11, 9))
    Suspension.objects.create(
        player=registry["joana"],
        start_date=date(2026, 10, 1),
        end_date=date(2026, 12, 31),
        source="tribunal",
        reason="conduta antidesportiva",
    )
    client.force_login(director)
    html = client.get(reverse("staff:entries", args=[t.slug]), {"q": "jo"}).content.decode()
    assert "suspensa até 31/12/2026" in html  # said in the search results already, agreeing with her sex
    response = client.post(add_url(t), {"action": "pick", "player": [registry["joao"].pk, registry["joana"].pk]})
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages[0] == "Ninguém foi inscrito."
    assert messages[1] == (
        "Joana Lima está suspensa até 31/12/2026 (Tribunal nacional: conduta antidesportiva) e não pode ser inscrita."
    )
    assert not t.entries.exists()


def test_a_pasted_list_with_problems_enters_nobody_and_marks_each_line(client, director, make_tournament, registry):
    t = make_tournament()
    entry_register(tournament=t, player=registry["edson"], user=director)
    client.force_login(director)
    text = "30101\njoana lima\n\nCarlos Silva\nFulano de Tal\n30105\nJOAO ARAUJO\n"
    response = client.post(add_url(t), {"action": "paste", "lines": text})
    assert response.status_code == 200
    report = {
        m.number: (m.player.name if m.player else None, problem) for m, problem in response.context["paste_report"]
    }
    assert report == {
        1: ("João Araújo", ""),
        2: ("Joana Lima", ""),
        4: (None, "corresponde a vários jogadores: escreva o ID CBJD do jogador certo"),
        5: (None, "não corresponde a nenhum jogador do cadastro"),
        6: ("Édson Monteiro", "já inscrito"),  # the line shows the name once (issue 28.14)
        7: ("João Araújo", "o mesmo jogador da linha 1"),
    }
    html = response.content.decode()
    assert "Ninguém foi inscrito: 4 de 6 linhas precisam de correção" in html
    assert '<td class="bad">Édson Monteiro: já inscrito</td>' in html
    assert "30103" in html and "30104" in html  # the two Carlos Silva, to choose from
    assert "Fulano de Tal" in html and "joana lima" in html  # the typed list is kept
    assert list(t.entries.values_list("player__cbjd_id", flat=True)) == ["30105"]
    # corrected: entered all at once
    response = client.post(add_url(t), {"action": "paste", "lines": "30101\njoana lima\n30104"})
    assert response.status_code == 302
    assert sorted(t.entries.values_list("player__cbjd_id", flat=True)) == ["30101", "30102", "30104", "30105"]


def test_a_late_entry_says_what_the_missed_rounds_score_and_joins_from_the_round_chosen(
    client, director, field, registry
):
    t, entries = field(6, planned_rounds=5)
    round_pair(tournament=t, user=director)
    client.force_login(director)
    html = client.get(reverse("staff:entries", args=[t.slug])).content.decode()
    assert "Joga a partir da rodada" in html
    assert 'data-note="Rodada 1 perdida: 0 pontos (quem' in html
    assert 'data-note="Rodadas 1 a 3 perdidas: 0 pontos cada, 0 no total' in html
    response = client.post(add_url(t), {"action": "pick", "player": [registry["joao"].pk], "late_entry_round": "4"})
    assert response.status_code == 302
    entry = t.entries.get(player=registry["joao"])
    assert entry.late_entry_round == 4 and entry.pairing_number == 7
    # a round already paired cannot be chosen: the next one is taken
    client.post(add_url(t), {"action": "pick", "player": [registry["joana"].pk], "late_entry_round": "1"})
    assert t.entries.get(player=registry["joana"]).late_entry_round == 2


def test_an_entry_made_by_mistake_is_deleted_until_it_is_paired(client, director, field, registry):
    t, entries = field(4)
    mistake = entry_register(tournament=t, player=registry["joao"], user=director)
    client.force_login(director)
    url = reverse("staff:entry", args=[t.slug, mistake.pk])
    assert 'id="delete-entry"' in client.get(url).content.decode()
    response = client.post(url, {"action": "delete"})
    assert response.status_code == 302
    assert not Entry.objects.filter(pk=mistake.pk).exists()
    log = AuditEntry.objects.get(action="entry.delete")
    assert log.summary == "João Araújo" and log.username == "diretor"
    # once paired, the entry stays (a withdrawal is the way out)
    round_pair(tournament=t, user=director)
    paired = entries[0]
    url = reverse("staff:entry", args=[t.slug, paired.pk])
    assert 'id="delete-entry"' not in client.get(url).content.decode()
    response = client.post(url, {"action": "delete"})
    messages = [str(m) for m in response.wsgi_request._messages]
    name = paired.player.name
    assert messages[0].startswith(f"{name} está emparceirado na rodada 1: uma inscrição já emparceirada")
    assert Entry.objects.filter(pk=paired.pk).exists()
