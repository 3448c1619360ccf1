"""`make run LAN=1`: the laptop answers the phones on the venue's Wi-Fi by its network address (issue 30).

Without LAN mode a request naming the laptop's address gets Django's 400 ("Pedido inválido"); with it the same
request is served, and a host nobody configured is still refused. The real server is started as `make run`
starts it (manage.py serve, LAN=1 in its environment) and asked over 127.0.0.1 with the laptop's address as Host.
"""

import http.client
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command

from testkit.server import free_port
from tournaments.core.lan import addresses_in, lan_hosts, local_addresses, usable

ROOT = Path(__file__).resolve().parents[2]

IFCONFIG_MAC = """lo0: flags=8049<UP,LOOPBACK,RUNNING,MULTICAST> mtu 16384
\tinet 127.0.0.1 netmask 0xff000000
en0: flags=8863<UP,BROADCAST,SMART,RUNNING,SIMPLEX,MULTICAST> mtu 1500
\tinet6 fe80::1c2b:3aff:fe4d:5e6f%en0 prefixlen 64 secured scopeid 0x4
\tinet 192.168.15.23 netmask 0xffffff00 broadcast 192.168.15.255
bridge0: flags=8822<BROADCAST,SMART,SIMPLEX,MULTICAST> mtu 1500
\tinet 169.254.10.2 netmask 0xffff0000
"""
IFCONFIG_OLD_LINUX = (
    "wlan0     Link encap:Ethernet  HWaddr 00:11:22:33:44:55\n          inet addr:10.0.0.7  Bcast:10.0.0.255\n"
)


def test_addresses_are_read_from_the_listings_of_macos_and_old_linux():
    assert addresses_in(IFCONFIG_MAC) == ["127.0.0.1", "192.168.15.23", "169.254.10.2"]
    assert addresses_in(IFCONFIG_OLD_LINUX) == ["10.0.0.7"]
    assert [a for a in addresses_in(IFCONFIG_MAC) if usable(a)] == ["192.168.15.23"]


@pytest.mark.parametrize(
    ("address", "ok"),
    [("192.168.0.10", True), ("10.1.2.3", True), ("127.0.0.1", False), ("169.254.1.1", False), ("0.0.0.0", False)],
)
def test_only_addresses_a_phone_can_use_are_offered(address, ok):
    assert usable(address) is ok


def test_lan_hosts_are_the_machine_addresses_and_its_names():
    hosts = lan_hosts()
    assert hosts[: len(local_addresses())] == local_addresses()
    assert "*" not in hosts and "127.0.0.1" not in hosts


def test_the_command_prints_the_address_and_a_qr_code(capsys, monkeypatch):
    monkeypatch.setattr("tournaments.management.commands.lan_address.local_addresses", lambda: ["192.168.15.23"])
    call_command("lan_address", "--port", "8123")
    out = capsys.readouterr().out
    assert "http://192.168.15.23:8123/" in out
    assert "█" in out  # the QR code, drawn with block characters


def test_the_command_says_what_to_do_without_a_network(capsys, monkeypatch):
    monkeypatch.setattr("tournaments.management.commands.lan_address.local_addresses", lambda: [])
    call_command("lan_address")
    assert "conecte o laptop ao Wi-Fi" in capsys.readouterr().out


def _get(port, host, path="/"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": f"{host}:{port}"})
        response = conn.getresponse()
        return response.status, response.read().decode("utf-8", "replace")
    finally:
        conn.close()


@pytest.fixture(scope="module")
def venue_database(tmp_path_factory):
    path = tmp_path_factory.mktemp("venue") / "venue.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}"}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    return env


def _serve(env, lan):
    port = free_port()
    env = {**env, "LAN": "1" if lan else "0", "DEBUG": "0"}
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            _get(port, "127.0.0.1")
            return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("manage.py serve did not start")


@pytest.mark.parametrize("lan", [False, True], ids=["make run", "make run LAN=1"])
def test_a_phone_naming_the_laptop_address_is_served_only_in_lan_mode(venue_database, lan):
    # The machine running the tests may have no network interface but loopback: its name is then the address.
    address = (local_addresses() or lan_hosts())[0]
    proc, port = _serve(venue_database, lan)
    try:
        status, body = _get(port, address)
        assert status == (200 if lan else 400), body[:300]
        if not lan:
            assert "Pedido inválido" in body
        status, _body = _get(port, "evil.example")  # a host nobody configured: refused in both modes
        assert status == 400
    finally:
        proc.terminate()
        proc.wait(10)
