"""Issue 25, item 15: on shared venue laptops a login's session lasts a working day (STAFF_SESSION_HOURS from the
login, not Django's two weeks), and "Sair de todos os aparelhos" ends every session of the login on every device.
A player's phone signed in with its card's code holds no login and keeps its own session."""

import time

import pytest
from django.contrib.sessions.backends.cache import SessionStore as CacheSessionStore
from django.test import Client
from django.urls import reverse

from tournaments.accounts import sessions
from tournaments.models import LoginSessions

pytestmark = pytest.mark.django_db

PASSWORD = "senha-forte-123"
HOME = "/gestao/"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("arbitra", password=PASSWORD)


def logged_in(user):
    client = Client()
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302, response.content[:300]
    return client


def sent_to_login(response):
    return response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_a_staff_session_lasts_the_working_day_and_its_cookie_too(staff, settings):
    assert settings.STAFF_SESSION_HOURS == 12
    assert settings.SESSION_COOKIE_AGE == 14 * 24 * 3600  # a player's phone: Django's two weeks
    client = logged_in(staff)
    assert client.session.get_expiry_age() == 12 * 3600
    assert client.cookies["sessionid"]["max-age"] == 12 * 3600
    assert client.get(HOME).status_code == 200


def test_a_staff_session_ends_twelve_hours_after_its_login_even_if_used_meanwhile(staff, monkeypatch):
    client = logged_in(staff)
    start = time.time()
    monkeypatch.setattr(sessions.time, "time", lambda: start + 11.9 * 3600)
    assert client.get(HOME).status_code == 200  # used all day: still in, but the count stays from the login
    monkeypatch.setattr(sessions.time, "time", lambda: start + 12 * 3600 + 1)
    response = client.get(HOME)
    assert sent_to_login(response)
    page = client.get(response["Location"])
    assert "Sua sessão terminou: entre de novo." in page.content.decode()
    assert "_auth_user_id" not in client.session
    monkeypatch.undo()
    assert sent_to_login(client.get(HOME))  # logged out for good, not just refused once


def test_staff_session_hours_come_from_the_setting(staff, settings):
    settings.STAFF_SESSION_HOURS = 0.5
    client = logged_in(staff)
    assert client.session.get_expiry_age() == 1800


def test_a_session_from_before_the_rule_carries_no_stamp_and_ends(staff):
    client = logged_in(staff)
    session = client.session
    del session[sessions.LOGIN_AT]
    session.save()
    assert sent_to_login(client.get(HOME))


def test_leaving_every_device_ends_every_session_of_that_login_only(staff, django_user_model):
    laptop, phone = logged_in(staff), logged_in(staff)
    other_user = django_user_model.objects.create_user("diretor", password=PASSWORD)
    other = logged_in(other_user)
    home = laptop.get(HOME).content.decode()
    assert 'id="logout-everywhere"' in home and "Sair de todos os aparelhos" in home

    response = phone.post(reverse("logout_everywhere"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("login")
    assert "Você saiu de todos os aparelhos. Entre de novo para continuar." in response.content.decode()
    assert "_auth_user_id" not in phone.session
    assert LoginSessions.objects.get(user=staff).ended_at is not None

    assert sent_to_login(laptop.get(HOME))  # the other device: its next request is anonymous
    assert other.get(HOME).status_code == 200  # another login is untouched
    again = logged_in(staff)  # logging in afterwards works as before
    assert again.get(HOME).status_code == 200


def test_leaving_every_device_needs_a_post_and_a_login(staff):
    client = logged_in(staff)
    assert client.get(reverse("logout_everywhere")).status_code == 405
    assert not LoginSessions.objects.exists()
    anonymous = Client()
    assert sent_to_login(anonymous.post(reverse("logout_everywhere")))
    assert not LoginSessions.objects.exists()


def test_leaving_every_device_holds_with_sessions_in_the_cache(staff, settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cache"
    laptop, phone = logged_in(staff), logged_in(staff)
    key = laptop.cookies["sessionid"].value
    assert CacheSessionStore(session_key=key).exists(key)
    phone.post(reverse("logout_everywhere"))
    assert sent_to_login(laptop.get(HOME))


def test_a_players_phone_session_is_not_a_staff_one(client, make_tournament):
    """The reporting pages sign a phone in with a code: no login, so no staff stamp is asked of it."""
    from tournaments.models import Entry, Player, ReportingConfig
    from tournaments.reporting import services

    t = make_tournament(name="Aberto de Olinda")
    entry = Entry.objects.create(tournament=t, player=Player.objects.create(name="Ana Peão"))
    ReportingConfig.objects.create(tournament=t, enabled=True)
    services.codes_issue(tournament=t, user=None)
    pin = entry.player_code.pin
    response = client.post(reverse("public:my_board_sign_in", args=[t.slug]), {"code": pin})
    assert response.status_code == 302 and response["Location"] == reverse("public:my_board", args=[t.slug])
    assert client.session.get_expiry_age() == 14 * 24 * 3600
    assert sessions.LOGIN_AT not in client.session
    assert client.get(response["Location"]).status_code == 200
