"""The client's address behind the load balancer (issue 15, item 4): X-Forwarded-For is read only on requests
from a trusted proxy, and from the right. The real-gunicorn test with two clients behind a balancer is
``tests/production/test_gunicorn.py::test_a_lockout_behind_the_balancer_keeps_out_only_that_client``."""

import pytest
from django.test import RequestFactory

from tournaments.core.client_ip import client_ip


@pytest.mark.parametrize(
    "trusted,remote,forwarded,expected",
    [
        (["10.0.0.5"], "10.0.0.5", "203.0.113.7", "203.0.113.7"),  # through the balancer
        (["10.0.0.5"], "10.0.0.5", "1.2.3.4, 203.0.113.7", "203.0.113.7"),  # the client's own header, ignored
        (["10.0.0.0/24"], "10.0.0.9", "203.0.113.7, 10.0.0.4", "203.0.113.7"),  # two proxies of the network
        (["10.0.0.5"], "198.51.100.1", "203.0.113.7", "198.51.100.1"),  # not from the balancer: header ignored
        (["10.0.0.5"], "10.0.0.5", "", "10.0.0.5"),
        (["10.0.0.5"], "10.0.0.5", "não-é-endereço", "10.0.0.5"),
        (["10.0.0.5"], "10.0.0.5", "2001:db8::1", "2001:db8::1"),
        ([], "127.0.0.1", "203.0.113.7", "127.0.0.1"),  # nobody trusted
        (["*"], "198.51.100.1", "203.0.113.7", "203.0.113.7"),
    ],
)
def test_client_ip(settings, trusted, remote, forwarded, expected):
    settings.TRUSTED_PROXIES = trusted
    meta = {"REMOTE_ADDR": remote}
    if forwarded:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    assert client_ip(RequestFactory().get("/", **meta)) == expected


@pytest.mark.django_db
def test_lockout_is_per_user_and_client_address(client, director, settings):
    from django.urls import reverse

    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    def login(password, client_address):
        return client.post(
            reverse("login"),
            {"username": "diretor", "password": password},
            REMOTE_ADDR="10.0.0.5",
            HTTP_X_FORWARDED_FOR=client_address,
        )

    # the fifth wrong password makes that login wait at that address (issue 34.3): the sixth is refused unread
    assert [login("errada", "203.0.113.7").status_code for _ in range(6)] == [200, 200, 200, 200, 200, 429]
    assert login("senha-forte-123", "203.0.113.7").status_code == 429
    assert login("senha-forte-123", "203.0.113.8").status_code == 302
