"""The venue's director login (issue 37.2, issue 35.3): made once with a password generated (or typed) at the first
run and shown once, never reset by a later run, changed by the director on a page of its own; a director by its
permissions, not a superuser, kept out of the Django admin, which belongs to the federation's staff."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from tournaments.accounts.director import PUBLISHED_PASSWORD
from tournaments.accounts.permissions import can_create_tournaments, visible_tournaments
from tournaments.registry.services import federation_group
from tournaments.setup.demo import load_demo

pytestmark = pytest.mark.django_db
PASSWORD_LINE = re.compile(r"Senha:\s+(\S+)\n")


def start(**options):
    """What `make run` runs for the login, its console output."""
    out = io.StringIO()
    call_command("demo_login", "--url", "http://127.0.0.1:8000/", stdout=out, **options)
    return out.getvalue()


def log_in(client, password):
    """The login page, as the director uses it (django-axes needs the request)."""
    response = client.post(reverse("login"), {"username": "diretor", "password": password})
    return response.status_code == 302


def director():
    return get_user_model().objects.get(username="diretor")


def test_the_first_run_shows_a_generated_password_once_and_later_runs_never_reset_it(client):
    first = start()
    password = PASSWORD_LINE.search(first).group(1)
    assert len(password) >= 16 and password != PUBLISHED_PASSWORD
    assert "não aparece de novo" in first
    assert log_in(client, password)
    session = client.session.session_key
    second = start()
    assert password not in second and "a definida no primeiro uso" in second and "changepassword diretor" in second
    assert director().check_password(password)
    assert client.get(reverse("staff:home")).status_code == 200  # the restart did not log the director out
    assert client.session.session_key == session
    assert PASSWORD_LINE.search(start(password="outra-senha-qualquer")) is None  # an option never resets it either
    assert director().check_password(password)


def test_two_venues_get_different_passwords():
    first = PASSWORD_LINE.search(start()).group(1)
    get_user_model().objects.all().delete()
    assert PASSWORD_LINE.search(start()).group(1) != first


def test_the_demo_made_first_leaves_the_password_to_the_first_run():
    load_demo()  # `make run` loads the demo before the login command
    assert not director().has_usable_password()
    password = PASSWORD_LINE.search(start()).group(1)
    assert director().check_password(password)


def test_a_login_made_by_an_older_version_loses_the_published_password_and_the_superuser():
    User = get_user_model()
    User.objects.create_superuser("diretor", password=PUBLISHED_PASSWORD)
    password = PASSWORD_LINE.search(start()).group(1)
    user = director()
    assert not user.check_password(PUBLISHED_PASSWORD) and user.check_password(password)
    assert not user.is_superuser and not user.is_staff


def test_the_director_is_a_director_by_permissions_not_a_superuser():
    start()
    user = director()
    assert not user.is_superuser and not user.is_staff
    assert can_create_tournaments(user)
    assert not user.has_perm("tournaments.add_ratinglist") and not user.has_perm("tournaments.change_player")
    t, _created = load_demo()
    assert list(visible_tournaments(user)) == [t]


def test_the_django_admin_belongs_to_the_federations_staff(client, django_user_model):
    password = PASSWORD_LINE.search(start()).group(1)
    log_in(client, password)
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert client.get("/admin/tournaments/tournament/").status_code == 302
    # A staff account that is not the federation's is refused as well; the federation's staff gets in.
    clerk = django_user_model.objects.create_user("secretaria", password="senha-forte-123", is_staff=True)
    client.force_login(clerk)
    assert client.get("/admin/").status_code == 302
    clerk.groups.add(federation_group())
    assert client.get("/admin/").status_code == 200
    admin = django_user_model.objects.create_superuser("admin", password="senha-forte-123")
    client.force_login(admin)
    assert client.get("/admin/").status_code == 200


def test_the_director_changes_its_password_under_gestao(client):
    password = PASSWORD_LINE.search(start()).group(1)
    log_in(client, password)
    home = client.get(reverse("staff:home")).content.decode()
    assert 'href="/gestao/senha/"' in home
    page = client.get("/gestao/senha/")
    html = page.content.decode()
    assert page.status_code == 200 and "<h1>Trocar a senha</h1>" in html and "Senha antiga" in html
    wrong = client.post(
        "/gestao/senha/",
        {"old_password": "errada", "new_password1": "uma-senha-nova-7", "new_password2": "uma-senha-nova-7"},
    )
    assert wrong.status_code == 200 and "A senha antiga foi digitada incorretamente" in wrong.content.decode()
    done = client.post(
        "/gestao/senha/",
        {"old_password": password, "new_password1": "uma-senha-nova-7", "new_password2": "uma-senha-nova-7"},
        follow=True,
    )
    assert "Senha trocada." in done.content.decode()
    assert done.redirect_chain[-1][0] == reverse("staff:home")  # still logged in here
    assert director().check_password("uma-senha-nova-7")
    start()
    assert director().check_password("uma-senha-nova-7")  # the next `make run` keeps it
