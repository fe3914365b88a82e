"""The addresses a host listens on by default: this machine's IPv4 addresses on its local
networks, found without sending a single packet.

- Linux and Android: the kernel's interface list (ioctl SIOCGIFCONF, what `ifconfig` reads).
- Elsewhere (macOS, Windows): a UDP socket "connected" to an address in each private range.
  Connecting a UDP socket only asks the routing table which local address would be used; no
  datagram is sent unless the program sends one, and this never does. Resolving the host name
  (getaddrinfo) is not used: it may ask a DNS server.

Loopback, link-local (169.254/16) and unspecified addresses are left out: no judge can reach them.
"""

from __future__ import annotations

import array
import ipaddress
import socket
import struct
import sys

_SIOCGIFCONF = 0x8912
_IFREQ_SIZE = 40  # struct ifreq on 64-bit Linux (32 on 32-bit)
_PROBES = ("10.255.255.254", "172.31.255.254", "192.168.255.254")


def usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _from_interfaces() -> list[str]:
    import fcntl  # Linux and Android only

    size = _IFREQ_SIZE if struct.calcsize("P") == 8 else 32
    buffer = array.array("B", b"\0" * size * 64)
    address, _ = buffer.buffer_info()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("iL", len(buffer), address)
        answer = fcntl.ioctl(probe.fileno(), _SIOCGIFCONF, request)
    length = struct.unpack("iL", answer)[0]
    data = buffer.tobytes()[:length]
    found = []
    for offset in range(0, length, size):
        raw = data[offset + 20 : offset + 24]  # sockaddr_in.sin_addr after the 16-byte name
        if len(raw) == 4:
            found.append(socket.inet_ntoa(raw))
    return found


def _from_routes() -> list[str]:
    found = []
    for target in _PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                probe.connect((target, 9))  # sends nothing: only picks the route
                found.append(probe.getsockname()[0])
            except OSError:
                continue
    return found


def local_addresses() -> tuple[str, ...]:
    """This machine's usable IPv4 addresses, in a stable order (no duplicates)."""
    found: list[str] = []
    if sys.platform.startswith("linux") or sys.platform == "android":
        try:
            found = _from_interfaces()
        except (OSError, ImportError, struct.error):
            found = []
    if not found:
        found = _from_routes()
    return tuple(dict.fromkeys(a for a in found if usable(a)))
