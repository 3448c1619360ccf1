"""The laptop's addresses on the venue's network, for ``make run LAN=1`` (no Django here: settings import it).

Phones on the venue's Wi-Fi reach the laptop by one of its IPv4 addresses (printed with a QR code by
``manage.py lan_address``). Django answers only host names it knows (``ALLOWED_HOSTS``), so in LAN mode the
settings add every address found here, the machine's name and its ``.local`` name (mDNS), and nothing else:
a request naming any other host still gets 400, and no page is ever cached under a host a visitor made up.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import shutil
import socket
import struct
import subprocess
import sys

_SIOCGIFADDR = 0x8915  # Linux
_INET = re.compile(r"\binet (?:addr:)?(\d{1,3}(?:\.\d{1,3}){3})")


def usable(address: str) -> bool:
    """An IPv4 address a phone on the same network could use: not loopback, link-local or unspecified."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _linux_addresses() -> list[str]:
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _index, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(s.fileno(), _SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:  # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


def addresses_in(text: str) -> list[str]:
    """The IPv4 addresses an ``ifconfig`` or ``ip -4 addr`` listing shows, in order."""
    return _INET.findall(text)


def _ifconfig_addresses() -> list[str]:
    program = shutil.which("ifconfig")
    if program is None:
        return []
    out = subprocess.run([program], capture_output=True, text=True, timeout=5, check=False).stdout
    return addresses_in(out)


def local_addresses() -> list[str]:
    """This machine's usable IPv4 addresses, each once, in the order the system lists them."""
    found: list[str] = []
    if sys.platform.startswith("linux"):
        try:
            found = _linux_addresses()
        except (ImportError, OSError):
            found = []
    if not found:
        try:
            found = _ifconfig_addresses()
        except (OSError, subprocess.SubprocessError):
            found = []
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return list(dict.fromkeys(a for a in found if usable(a)))


def lan_hosts() -> list[str]:
    """The host names Django accepts in LAN mode: the addresses, the machine's name and its ``.local`` name."""
    name = socket.gethostname().strip().lower()
    names = [name, f"{name}.local"] if name and name != "localhost" else []
    return [*local_addresses(), *names]
