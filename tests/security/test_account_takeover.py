"""Issue 25, item 1: no account takeover across tournaments. An invite link is (re)issued only by whoever made the
login or by the federation's staff; giving a tournament's role to an existing login is an offer that login accepts
(it never hands over its credentials); the grant form answers the same whether or not the name exists."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from tournaments.models import RoleOffer, TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_directors(make_tournament, director, django_user_model):
    """Director A runs tournament A; director B, another login allowed to create tournaments, runs tournament B."""
    from tournaments.setup.services import tournament_create

    t_a = make_tournament(name="Aberto de Olinda")
    b = django_user_model.objects.create_user("diretor.b", password="senha-forte-123")
    b.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    b = django_user_model.objects.get(pk=b.pk)
    t_b = tournament_create(
        user=b,
        name="Aberto de Caruaru",
        slug="aberto-caruaru",
        start_date=t_a.start_date,
        end_date=t_a.end_date,
        planned_rounds=5,
    )
    return director, t_a, b, t_b


def logged(user):
    c = Client()
    c.force_login(user)
    return c


def messages_of(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def invite_links(response):
    invite = response.context.get("invite") if response.context else None
    return [invite["url"]] if invite else []


def test_a_director_cannot_take_over_an_arbiter_of_another_tournament(two_directors, django_user_model):
    a, t_a, b, t_b = two_directors
    client_a, client_b = logged(a), logged(b)
    # director A makes arbiter X for tournament A: no password yet
    made = client_a.post(
        reverse("staff:roles", args=[t_a.slug]),
        {"action": "create_account", "full_name": "Xavier Árbitro", "username": "arbitro.x", "role": "arbiter"},
    )
    assert made.status_code == 200 and len(invite_links(made)) == 1
    x = django_user_model.objects.get(username="arbitro.x")
    assert not x.has_usable_password()

    # director B gives X a role in B's tournament by name: only an offer, X has no access until X accepts
    url_b = reverse("staff:roles", args=[t_b.slug])
    granted = client_b.post(url_b, {"username": "arbitro.x", "role": "director"}, follow=True)
    assert granted.status_code == 200
    assert not TournamentRole.objects.filter(tournament=t_b, user=x).exists()
    assert RoleOffer.objects.filter(tournament=t_b, username="arbitro.x", role="director").exists()
    page = granted.content.decode()
    assert 'name="action" value="invite_again"' not in page

    # "Novo link de convite" by B: refused, whatever B posts
    role_in_a = TournamentRole.objects.get(tournament=t_a, user=x)
    attempt = client_b.post(url_b, {"action": "invite_again", "role": role_in_a.pk})
    assert attempt.status_code == 404 and not invite_links(attempt)
    # even if X had accepted B's role, B did not make the login: no link
    TournamentRole.objects.create(tournament=t_b, user=x, role="arbiter")
    role_in_b = TournamentRole.objects.get(tournament=t_b, user=x)
    assert 'value="invite_again"' not in client_b.get(url_b).content.decode()
    attempt = client_b.post(url_b, {"action": "invite_again", "role": role_in_b.pk}, follow=True)
    assert not invite_links(attempt)
    assert "Só quem criou o login “arbitro.x” ou a federação pode fazer um novo link de convite." in messages_of(
        attempt
    )
    x.refresh_from_db()
    assert not x.has_usable_password()

    # B never reaches A's tournament (its staff pages, its JSON export)
    assert client_b.get(reverse("staff:tournament", args=[t_a.slug])).status_code == 403
    assert client_b.get(reverse("staff:download", args=[t_a.slug, "json"])).status_code == 403

    # A, who made the login, still can
    again = client_a.post(reverse("staff:roles", args=[t_a.slug]), {"action": "invite_again", "role": role_in_a.pk})
    assert len(invite_links(again)) == 1


def test_the_federation_may_issue_an_invite_again(two_directors, django_user_model, federation):
    a, t_a, _b, _t_b = two_directors
    logged(a).post(
        reverse("staff:roles", args=[t_a.slug]),
        {"action": "create_account", "full_name": "Xavier Árbitro", "username": "arbitro.x", "role": "arbiter"},
    )
    x = django_user_model.objects.get(username="arbitro.x")
    # a federation officer directing tournament A (the Equipe page is a director's page)
    TournamentRole.objects.create(tournament=t_a, user=federation, role="director")
    role = TournamentRole.objects.get(tournament=t_a, user=x)
    again = logged(federation).post(
        reverse("staff:roles", args=[t_a.slug]), {"action": "invite_again", "role": role.pk}
    )
    assert len(invite_links(again)) == 1


def test_the_grant_form_does_not_tell_which_names_exist(two_directors, django_user_model):
    _a, _t_a, b, t_b = two_directors
    django_user_model.objects.create_user("ana.lima", password="senha-forte-123")
    client_b = logged(b)
    url = reverse("staff:roles", args=[t_b.slug])

    def answer(name):
        r = client_b.post(url, {"username": name, "role": "arbiter"}, follow=True)
        assert r.status_code == 200
        offered = list(RoleOffer.objects.values_list("username", "role"))
        RoleOffer.objects.all().delete()
        page = re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", r.content.decode())
        page = re.sub(r'name="offer" value="\d+"', "", page)
        return [m.replace(name, "NOME") for m in messages_of(r)], page.replace(name, "NOME"), offered

    existing, page_existing, offered = answer("ana.lima")
    assert offered == [("ana.lima", "arbiter")]
    missing, page_missing, offered = answer("ninguem.aqui")
    assert offered == [("ninguem.aqui", "arbiter")]
    assert existing == missing == ["Acesso oferecido a “NOME”: vale quando esse login o aceitar em “Meus torneios”."]
    assert page_existing == page_missing and "NOME" in page_existing


def test_the_offered_login_accepts_or_declines_on_its_home_page(two_directors, django_user_model):
    _a, _t_a, b, t_b = two_directors
    maria = django_user_model.objects.create_user("maria.souza", password="senha-forte-123")
    logged(b).post(reverse("staff:roles", args=[t_b.slug]), {"username": "Maria.Souza", "role": "arbiter"})
    client = logged(maria)
    home = client.get(reverse("staff:home"))
    offer = RoleOffer.objects.get(tournament=t_b)
    assert "Aberto de Caruaru" in home.content.decode() and f'value="{offer.pk}"' in home.content.decode()
    # another login cannot accept it
    other = django_user_model.objects.create_user("joao", password="senha-forte-123")
    assert logged(other).post(reverse("staff:home"), {"accept": offer.pk}).status_code == 404
    done = client.post(reverse("staff:home"), {"accept": offer.pk}, follow=True)
    assert TournamentRole.objects.get(tournament=t_b, user=maria).role == "arbiter"
    assert not RoleOffer.objects.exists()
    assert "Agora você trabalha em Aberto de Caruaru como Árbitro." in messages_of(done)
    assert client.get(reverse("staff:tournament", args=[t_b.slug])).status_code == 200


def test_a_declined_offer_gives_nothing(two_directors, django_user_model):
    _a, _t_a, b, t_b = two_directors
    maria = django_user_model.objects.create_user("maria.souza", password="senha-forte-123")
    logged(b).post(reverse("staff:roles", args=[t_b.slug]), {"username": "maria.souza", "role": "director"})
    offer = RoleOffer.objects.get(tournament=t_b)
    logged(maria).post(reverse("staff:home"), {"decline": offer.pk})
    assert not RoleOffer.objects.exists()
    assert not TournamentRole.objects.filter(user=maria).exists()


def test_the_create_account_form_answers_alike_whether_or_not_the_login_exists(two_directors, django_user_model):
    """Issue 34.4: "the login is taken" told any director which logins exist. The account is made either way (the
    login asked for shown alike); the one who accepts the invite learns, there, that the login is taken."""
    a, t_a, b, t_b = two_directors
    existing = django_user_model.objects.create_user("maria.souza", password="a-senha-dela-1")
    client = logged(a)
    url = reverse("staff:roles", args=[t_a.slug])

    def create(login):
        """The answer, as the director sees it: the messages, the invite and the new account's row."""
        r = client.post(
            url, {"action": "create_account", "full_name": "Fulano Tal", "username": login, "role": "arbiter"}
        )
        page = r.content.decode()
        invite = re.search(r'<section class="card msg msg-success" id="invite">.*?</section>', page, re.S).group(0)
        invite = re.sub(r'value="[^"]*/convite/[^"]*"', "", invite)
        invite = re.sub(r'<div class="invite-qr" id="invite-qr">.*?</div>', "", invite, flags=re.S)
        row = re.search(rf"<tr><td>{re.escape(login)}</td><td>Fulano Tal</td>.*?</tr>", page, re.S)
        row = re.sub(r'value="[^"]*"', "", row.group(0)) if row else None  # ids, CSRF tokens
        return r.status_code, [m.replace(login, "LOGIN") for m in messages_of(r)], invite.replace(login, "LOGIN"), row

    taken, free = create("maria.souza"), create("joao.novo")
    assert taken[0] == free[0] == 200
    assert (
        taken[1]
        == free[1]
        == ["Conta LOGIN criada. Passe o link de convite abaixo: com ele a pessoa escolhe a senha, uma única vez."]
    )
    assert taken[2] == free[2]
    assert taken[3].replace("maria.souza", "LOGIN") == free[3].replace("joao.novo", "LOGIN")
    existing.refresh_from_db()
    assert existing.username == "maria.souza" and existing.check_password("a-senha-dela-1")  # untouched

    # the invite of the account made for the taken login: its owner is told there and chooses another
    pending = django_user_model.objects.get(username__startswith="maria.souza~")
    from tournaments.accounts.services import invite_path

    invitee = Client()
    page = invitee.get(invite_path(pending), follow=True)
    form_url = page.redirect_chain[-1][0]
    assert 'value="maria.souza"' in page.content.decode()
    r = invitee.post(
        form_url, {"login": "maria.souza", "new_password1": "Outra-senha-77", "new_password2": "Outra-senha-77"}
    )
    assert "O login “maria.souza” já existe; escolha outro." in r.content.decode()
    r = invitee.post(
        form_url, {"login": "maria.tal", "new_password1": "Outra-senha-77", "new_password2": "Outra-senha-77"}
    )
    assert r.status_code == 302
    pending.refresh_from_db()
    assert pending.username == "maria.tal" and pending.check_password("Outra-senha-77")
