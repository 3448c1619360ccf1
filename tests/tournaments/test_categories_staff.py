"""Categories managed on the staff pages (rules, automatic membership, standings and spots per category) and staff
accounts made from the Staff page with a one-time invite link (issue 14)."""

import re
from datetime import date

import pytest
from django.urls import reverse

from tournaments.entries.services import entry_register
from tournaments.models import AuditEntry, Category, TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_tournament, make_player, director):
    t = make_tournament(start_date=date(2026, 11, 7), end_date=date(2026, 11, 8))
    people = [
        ("Ana Lima", "F", date(2010, 12, 31), 2100),  # 16 on 31/12/2026: sub-17
        ("Bia Souza", "F", date(2009, 1, 1), 2000),  # 17: not sub-17
        ("Caio Reis", "M", date(2012, 5, 5), 1900),  # 14
        ("Davi Melo", "M", None, 1800),  # no birth date: in no age category
        ("Elis Rocha", "F", date(1960, 3, 3), 1700),  # 66
    ]
    entries = {
        name: entry_register(
            tournament=t,
            player=make_player(name=name, sex=sex, birth_date=born, rating=rating),
            user=director,
        )
        for name, sex, born, rating in people
    }
    return t, entries


def members(t, code):
    return sorted(Category.objects.get(tournament=t, code=code).entries.values_list("player__name", flat=True))


def test_ready_made_categories_take_their_entries_by_rule(client, director, event):
    t, _entries = event
    client.force_login(director)
    url = reverse("staff:categories", args=[t.slug])
    for code in ("FEM", "S17", "VET"):
        assert client.post(url, {"action": "preset", "code": code}).status_code == 302
    assert members(t, "FEM") == ["Ana Lima", "Bia Souza", "Elis Rocha"]
    assert members(t, "S17") == ["Ana Lima", "Caio Reis"]
    assert members(t, "VET") == ["Elis Rocha"]
    assert len(members(t, "ABS")) == 5  # given to each entry when entered
    fem = Category.objects.get(tournament=t, code="FEM")
    fem.entries.remove(_entries["Ana Lima"])  # a change by hand on the entry page ...
    client.post(url, {"action": "reapply"})  # ... until the rules are applied again
    assert members(t, "FEM") == ["Ana Lima", "Bia Souza", "Elis Rocha"]
    html = client.get(url).content.decode()
    assert "até 16 anos em 31/12/2026" in html and "mulheres" in html and "60 anos ou mais em 31/12/2026" in html
    fem = re.search(r'<tr data-code="FEM">(.*?)</tr>', html, re.S).group(1)
    assert "<td>3</td>" in fem and "<td>1</td>" in fem  # 3 entries, average 1933.3: 1 spot
    assert "1.933,3" in fem or "1933,3" in fem


def test_a_custom_category_is_validated_in_portuguese_and_audited(client, director, event):
    t, _entries = event
    client.force_login(director)
    url = reverse("staff:categories", args=[t.slug])
    bad = {"action": "create", "code": "S21", "name": "Sub-21", "min_age": "30", "max_age": "20"}
    response = client.post(url, bad)
    assert response.status_code == 200
    assert response.context["form"].errors["max_age"] == ["A idade máxima não pode ser menor que a idade mínima."]
    assert "category_ages_ordered" not in response.content.decode()
    assert 'value="Sub-21"' in response.content.decode()
    response = client.post(url, dict(bad, code="abs", min_age=""))
    assert response.context["form"].errors["code"] == ["Este torneio já tem uma categoria com este código."]
    response = client.post(url, dict(bad, code="sub 21!", min_age=""))
    assert response.context["form"].errors["code"] == ["Use até 10 letras sem acento, algarismos ou hífens."]
    assert client.post(url, dict(bad, code="s21", min_age="")).status_code == 302
    assert members(t, "S21") == ["Ana Lima", "Bia Souza", "Caio Reis"]
    log = AuditEntry.objects.get(action="category.create", tournament=t)
    assert log.new == {"code": "S21", "name": "Sub-21", "sex": "", "min_age": None, "max_age": 20, "entries": 3}
    # edited: women only
    cat = Category.objects.get(tournament=t, code="S21")
    edit = reverse("staff:category", args=[t.slug, cat.pk])
    assert (
        client.post(edit, {"code": "S21F", "name": "Sub-21 Feminino", "sex": "F", "max_age": "20"}).status_code == 302
    )
    assert members(t, "S21F") == ["Ana Lima", "Bia Souza"]
    assert client.post(edit, {"action": "delete"}).status_code == 302
    assert not Category.objects.filter(pk=cat.pk).exists()


def test_staff_standings_per_category_rank_within_it(client, director, event):
    from tournaments.rounds.services import round_pair

    t, _entries = event
    client.force_login(director)
    client.post(reverse("staff:categories", args=[t.slug]), {"action": "preset", "code": "FEM"})
    round_pair(tournament=t, user=director)
    url = reverse("staff:standings", args=[t.slug])
    html = client.get(url, {"categoria": "fem"}).content.decode()
    table = html[html.index('id="staff-standings"') :]
    names = re.findall(r"<td>(Ana Lima|Bia Souza|Caio Reis|Davi Melo|Elis Rocha)", table)
    assert sorted(names) == ["Ana Lima", "Bia Souza", "Elis Rocha"]
    assert "Feminino: 3 inscritos; vagas: 1" in html
    assert client.get(url, {"categoria": "NADA"}).status_code == 404


def test_an_arbiter_sees_the_categories_but_cannot_change_them(client, event, django_user_model):
    t, _entries = event
    arbiter = django_user_model.objects.create_user("arbitro", password="x-senha-123")
    TournamentRole.objects.create(tournament=t, user=arbiter, role="arbiter")
    client.force_login(arbiter)
    url = reverse("staff:categories", args=[t.slug])
    html = client.get(url).content.decode()
    assert "Absoluto" in html and 'id="category-form"' not in html
    assert client.post(url, {"action": "preset", "code": "FEM"}).status_code == 403
    assert not Category.objects.filter(tournament=t, code="FEM").exists()


def test_a_staff_account_with_a_one_time_invite_link(client, director, event, django_user_model):
    t, _entries = event
    client.force_login(director)
    url = reverse("staff:roles", args=[t.slug])
    data = {
        "action": "create_account",
        "full_name": "Maria da Penha Souza",
        "username": "maria.souza",
        "role": "arbiter",
    }
    response = client.post(url, data)
    assert response.status_code == 200
    account = django_user_model.objects.get(username="maria.souza")
    assert (account.first_name, account.last_name) == ("Maria", "da Penha Souza")
    assert not account.has_usable_password()
    assert TournamentRole.objects.get(tournament=t, user=account).role == "arbiter"
    invite = response.context["invite"]["url"]
    assert invite.startswith("http://testserver/convite/")
    # the same login again answers alike (issue 34.4: the form no longer tells which logins exist); the account it
    # makes is pending, under a login of its own, and its invitee chooses a free login on the invite's page
    again = client.post(url, dict(data, username="Maria.Souza"))
    assert [str(m) for m in again.context["messages"]] == [
        "Conta Maria.Souza criada. Passe o link de convite abaixo: com ele a pessoa escolhe a senha, uma única vez."
    ]
    assert django_user_model.objects.filter(username__startswith="Maria.Souza~").count() == 1
    # the arbiter opens the link and chooses a password (the login asked for is suggested)
    client.logout()
    page = client.get(invite, follow=True)
    assert 'value="maria.souza"' in page.content.decode() and page.context["validlink"]
    done = client.post(
        page.redirect_chain[-1][0],
        {"login": "maria.souza", "new_password1": "Tabuleiro-64!", "new_password2": "Tabuleiro-64!"},
    )
    # logged in at once, on the tournament she was invited to (issue 28.9)
    assert done.status_code == 302 and done["Location"] == reverse("staff:tournament", args=[t.slug])
    assert client.session["_auth_user_id"] == str(account.pk)
    landed = client.get(done["Location"])
    assert landed.status_code == 200
    assert [str(m) for m in landed.context["messages"]] == ["Senha definida. Você entrou como maria.souza."]
    client.logout()
    client.post(reverse("login"), {"username": "maria.souza", "password": "Tabuleiro-64!"})
    assert client.session["_auth_user_id"] == str(account.pk)
    client.logout()
    # the link is spent
    assert not client.get(invite, follow=True).context["validlink"]


def test_an_invite_to_someone_on_two_tournaments_lands_on_the_staff_home(
    client, director, event, make_tournament, django_user_model
):
    """Issue 28.9: logged in at once; with two tournaments the staff home lists both instead of guessing one."""
    t, _entries = event
    client.force_login(director)
    data = {"action": "create_account", "full_name": "Rui Lopes", "username": "rui", "role": "arbiter"}
    invite = client.post(reverse("staff:roles", args=[t.slug]), data).context["invite"]["url"]
    account = django_user_model.objects.get(username="rui")
    TournamentRole.objects.create(tournament=make_tournament(), user=account, role="arbiter")
    client.logout()
    page = client.get(invite, follow=True)
    done = client.post(
        page.redirect_chain[-1][0], {"login": "rui", "new_password1": "Tabuleiro-64!", "new_password2": "Tabuleiro-64!"}
    )
    assert done.status_code == 302 and done["Location"] == reverse("staff:home")
    assert client.session["_auth_user_id"] == str(account.pk)
    assert len(client.get(done["Location"]).context["tournaments"]) == 2
