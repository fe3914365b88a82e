"""Helpers for the venue-sync tests: a loopback TCP proxy per device that a test can cut and
heal (and that can keep a copy of what passed), and signed raw requests to a host."""

from __future__ import annotations

import contextlib
import http.client
import secrets
import socket
import threading
from dataclasses import dataclass

from records.sync import codes, protocol


class Proxy:
    """127.0.0.1:<port> → target. `cut()` drops every connection and refuses new ones (the
    judge walked out of reach); `heal()` lets them through again. `seen` holds every byte sent
    towards the target when `capture` is on."""

    def __init__(self, target_port: int, *, capture: bool = False) -> None:
        self.target_port = target_port
        self.capture = capture
        self.seen = bytearray()
        self._open = True
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cut(self) -> None:
        with self._lock:
            self._open = False
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._sockets.clear()

    def heal(self) -> None:
        with self._lock:
            self._open = True

    def close(self) -> None:
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if not self._open:
                    client.close()
                    continue
                try:
                    upstream = socket.create_connection(("127.0.0.1", self.target_port), 2)
                    upstream.settimeout(None)
                except OSError:
                    client.close()
                    continue
                self._sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, outward: bool) -> None:
        try:
            while data := source.recv(65536):
                if outward and self.capture:
                    with self._lock:
                        self.seen += data
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]


def key_headers(
    key: codes.Secret,
    event_id: str,
    body: bytes,
    *,
    device: str = "d" * 32,
    time_ms: int,
    nonce: str = "",
    method: str = "POST",
    path: str = protocol.PATH,
) -> dict[str, str]:
    """The headers a device holding `key` sends for `body` (what an attacker must forge)."""
    headers = {
        "X-Sync-Event": event_id,
        "X-Sync-Device": device,
        "X-Sync-Key": codes.key_id(key),
        "X-Sync-Time": str(time_ms),
        "X-Sync-Nonce": nonce or secrets.token_hex(16),
    }
    headers["X-Sync-Signature"] = protocol.sign(
        key, protocol.signing_text(method, path, headers, body)
    )
    return headers


def signed_headers(
    code: str, event_id: str, body: bytes, *, device: str = "d" * 32, time_ms: int, nonce: str = ""
) -> dict[str, str]:
    """The headers a device with `code` would send (what an attacker must forge)."""
    key = codes.derive_key(codes.parse_code(code), event_id)
    return key_headers(key, event_id, body, device=device, time_ms=time_ms, nonce=nonce)


def post(port: int, headers: dict[str, str], body: bytes, path: str = protocol.PATH) -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return Answer(response.status, response.read(), dict(response.getheaders()))
    finally:
        connection.close()
