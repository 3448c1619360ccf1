"""Wrong staff passwords slow the guesser, not the owner (issue 34.3; before: issue 25.11's lockouts, which 20
wrong passwords from 20 addresses turned on the owner for 15 minutes, again and again).

Each password is counted under the login at the client's address (4 free), the login from anywhere (19 free) and
the address whatever the login (49 free); after its free ones each key waits 5 s, then twice as long after each
wrong password, up to 15 minutes. The owner's browser, where the login succeeded before (a signed cookie), is
counted apart: the right password from it gets in while the login waits. The federation's officers see the
counts and clear them."""

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.accounts.lockout import KNOWN_DEVICE_COOKIE
from tournaments.models import AttemptCounter

pytestmark = pytest.mark.django_db

PASSWORD = "senha-certa-123"


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_superuser("admin", password=PASSWORD)


def attempt(username, password, address, client=None):
    client = client or Client()
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(response):
    return response.status_code == 302


def test_twenty_guesses_from_twenty_addresses_make_the_login_wait_but_not_its_owners_device(admin, frozen_clock):
    owner = Client()
    assert logged_in(attempt("admin", PASSWORD, "198.51.100.7", owner))  # a login before: a known device
    assert owner.cookies[KNOWN_DEVICE_COOKIE].value
    for i in range(20):
        assert not logged_in(attempt("admin", f"chute-{i}", f"203.0.113.{i + 1}"))
    # from a new device: the login waits 5 s (not 15 minutes), said in Portuguese, 429 with Retry-After
    response = attempt("admin", PASSWORD, "198.51.100.8")
    assert response.status_code == 429 and response["Retry-After"] == "5"
    assert "Muitas senhas erradas. Tente de novo em 5 segundos." in response.content.decode()
    # from the owner's device, at once, even from an address that guessed
    assert logged_in(attempt("admin", PASSWORD, "203.0.113.1", owner))
    frozen_clock.advance(5)
    assert logged_in(attempt("admin", PASSWORD, "198.51.100.8"))  # and from anywhere once the wait is over


def test_each_further_guess_doubles_the_wait_up_to_fifteen_minutes(admin, frozen_clock):
    waits = []
    for i in range(30):
        attempt("admin", f"chute-{i}", f"203.0.113.{i + 1}")
        row = AttemptCounter.objects.get(kind="login", subject="admin")
        waits.append(0 if row.wait_until is None else round((row.wait_until - frozen_clock.moment).total_seconds()))
        frozen_clock.advance(waits[-1])
    assert waits[:19] == [0] * 19
    assert waits[19:] == [5, 10, 20, 40, 80, 160, 320, 640, 900, 900, 900]


def test_nineteen_guesses_spread_out_make_nobody_wait(admin, frozen_clock):
    for i in range(19):
        attempt("admin", f"chute-{i}", f"203.0.113.{i + 1}")
    assert logged_in(attempt("admin", PASSWORD, "198.51.100.7"))


def test_a_shared_venue_address_makes_only_the_login_mistyped_there_wait(admin, django_user_model, frozen_clock):
    django_user_model.objects.create_user("arbitro", password=PASSWORD)
    venue = "192.0.2.10"
    for i in range(5):
        attempt("admin", f"errado-{i}", venue)
    assert attempt("admin", PASSWORD, venue).status_code == 429  # five from one address: that login there waits
    assert logged_in(attempt("arbitro", PASSWORD, venue))  # the other staff at the venue still log in
    assert logged_in(attempt("admin", PASSWORD, "198.51.100.7"))  # and the login from elsewhere


def test_a_known_device_cookie_counts_only_for_its_own_login_and_cannot_be_forged(admin, django_user_model):
    django_user_model.objects.create_user("outro", password=PASSWORD)
    owner = Client()
    attempt("admin", PASSWORD, "198.51.100.7", owner)
    for i in range(20):
        attempt("outro", f"chute-{i}", f"203.0.113.{i + 1}")
    assert attempt("outro", PASSWORD, "198.51.100.7", owner).status_code == 429  # admin's device, not outro's
    forged = Client()
    forged.cookies[KNOWN_DEVICE_COOKIE] = "eyJsb2dpbiI6Im91dHJvIn0:forjado"
    assert attempt("outro", PASSWORD, "198.51.100.9", forged).status_code == 429


def test_a_stolen_device_cookie_gives_a_guesser_only_a_few_tries(admin):
    owner = Client()
    attempt("admin", PASSWORD, "198.51.100.7", owner)
    for i in range(5):
        assert attempt("admin", f"chute-{i}", "203.0.113.1", owner).status_code == 200
    assert attempt("admin", PASSWORD, "203.0.113.1", owner).status_code == 429


def test_the_admin_login_is_counted_too(admin, frozen_clock):
    for i in range(5):
        Client().post(reverse("admin:login"), {"username": "admin", "password": f"x{i}"}, REMOTE_ADDR="10.1.1.1")
    r = Client().post(reverse("admin:login"), {"username": "admin", "password": PASSWORD}, REMOTE_ADDR="10.1.1.1")
    assert r.status_code == 200 and "Muitas senhas erradas" in r.content.decode()
    assert "_auth_user_id" not in Client().session


def test_the_federation_sees_the_wrong_passwords_and_clears_them(admin, federation, settings, frozen_clock):
    settings.DAMAS_ROLE = "federation"
    for i in range(6):
        attempt("admin", f"chute-{i}", "203.0.113.5")
    officer = Client()
    officer.force_login(federation)
    url = reverse("federation:login_attempts")
    page = officer.get(url).content.decode()
    assert 'data-kind="login-at-address" data-subject="admin @ 203.0.113.5"' in page
    assert 'data-kind="login" data-subject="admin"' in page and "mais 5 s" in page  # the sixth refused unread
    officer.post(url, {"clear": AttemptCounter.objects.get(kind="login-at-address").key})
    assert not AttemptCounter.objects.filter(kind="login-at-address").exists()
    assert logged_in(attempt("admin", PASSWORD, "203.0.113.5"))
    officer.post(url, {})
    assert "Nenhuma senha errada na última hora." in officer.get(url).content.decode()
    # a director is no officer
    settings.DAMAS_ROLE = "federation"
    director_client = Client()
    director_client.force_login(admin.__class__.objects.create_user("d", password=PASSWORD))
    assert director_client.get(url).status_code == 403
