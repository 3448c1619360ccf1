"""Issue 25, item 11: password guessing spread over many addresses is bounded per account. Five wrong passwords
from one address lock that address out of that account (as before); twenty wrong passwords at one account from
any addresses lock the account for the cool-off (15 minutes). A shared venue address, where several staff members
mistype, locks out nobody else."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "senha-certa-123"


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_superuser("admin", password=PASSWORD)


def attempt(username, password, address):
    response = Client(REMOTE_ADDR=address).post(reverse("login"), {"username": username, "password": password})
    return response


def logged_in(response):
    return response.status_code == 302


def test_guesses_from_twenty_addresses_lock_the_account(admin):
    for i in range(20):
        assert not logged_in(attempt("admin", f"chute-{i}", f"203.0.113.{i + 1}"))
    # the right password, from a twenty-first address, is refused for the cool-off
    response = attempt("admin", PASSWORD, "198.51.100.7")
    assert not logged_in(response)
    assert response.status_code == 429


def test_nineteen_guesses_spread_out_lock_nothing(admin):
    for i in range(19):
        attempt("admin", f"chute-{i}", f"203.0.113.{i + 1}")
    assert logged_in(attempt("admin", PASSWORD, "198.51.100.7"))


def test_a_shared_venue_address_locks_only_the_account_mistyped_there(admin, django_user_model):
    django_user_model.objects.create_user("arbitro", password=PASSWORD)
    venue = "192.0.2.10"
    for i in range(5):
        attempt("admin", f"errado-{i}", venue)
    assert attempt("admin", PASSWORD, venue).status_code == 429  # five from one address: that address, that account
    assert logged_in(attempt("arbitro", PASSWORD, venue))  # the other staff at the venue still log in
    assert logged_in(attempt("admin", PASSWORD, "198.51.100.7"))  # and the account from elsewhere
