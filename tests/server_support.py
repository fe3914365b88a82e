"""Helpers for the tests of the host's listener (records/sync/server.py): a host log that only
remembers what it was asked, a wall clock a test sets, and requests signed as a device signs."""

from __future__ import annotations

import hashlib
import http.client
import json
import socket
import threading
from collections.abc import Callable, Sequence
from typing import Any

from sync_support import key_headers

from records.errors import LogError
from records.sync import codes, protocol
from records.sync.items import ItemVersion
from records.sync.server import HostKeys, SyncServer
from regulation.model import Regulation

EVENT = "0f8e6d4c-2b1a-4c3d-8e9f-0a1b2c3d4e5f"
DEVICE = "d" * 32
START_MS = 1_800_000_000_000  # the host's wall clock when its server starts
CODE = codes.new_code().value
OLD_CODE = codes.new_code().value


def key_of(code: str, event_id: str = EVENT) -> codes.Secret:
    return codes.derive_key(codes.parse_code(code), event_id)


# Each key takes a deliberately slow derivation (codes.KDF_ITERATIONS): made once here.
KEY = key_of(CODE)
OLD_KEY = key_of(OLD_CODE)
OLD_KEY_ID = codes.key_id(OLD_KEY)
WRONG_KEY = key_of(codes.new_code().value)


class HostLog:
    """A HostBackend that stores nothing: it notes each call and answers a page of one item."""

    def __init__(self, regulation: Regulation) -> None:
        self.regulation = regulation
        self.received: list[tuple[str, list[ItemVersion], str, str | None]] = []
        self.pages: list[tuple[str, int, str]] = []
        self.failure: Exception | None = None

    def receive(
        self, event_id: str, versions: Sequence[ItemVersion], device: str, judge: str | None
    ) -> int:
        if self.failure is not None:
            raise self.failure
        self.received.append((event_id, list(versions), device, judge))
        return len(versions) + 3  # not the count pushed, so that a test sees it is passed on

    def page(self, event_id: str, cursor: int, device: str) -> tuple[list[str], int, bool]:
        self.pages.append((event_id, cursor, device))
        return [json.dumps({"page_of": cursor})], cursor + 5, cursor < 100


class Wall:
    def __init__(self, ms: int = START_MS) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


class Seen:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None, int]] = []

    def __call__(self, device: str, judge: str | None, accepted: int) -> None:
        self.calls.append((device, judge, accepted))


def host(
    regulation: Regulation, event_id: str = EVENT, key: codes.Secret = KEY
) -> tuple[SyncServer, HostLog, Wall, Seen]:
    log, wall, seen = HostLog(regulation), Wall(), Seen()
    keys = HostKeys(key, codes.key_id(key), frozenset({OLD_KEY_ID}))
    return SyncServer(log, event_id, keys, wall, seen), log, wall, seen


def payload(cursor: Any = 0, push: Any = (), judge: Any = "鈴木") -> bytes:
    return json.dumps({"judge": judge, "cursor": cursor, "push": list(push)}).encode()


def headers(
    body: bytes,
    *,
    time_ms: int = START_MS,
    key: codes.Secret = KEY,
    event_id: str = EVENT,
    device: str = DEVICE,
    nonce: str = "",
    method: str = "POST",
    path: str = protocol.PATH,
) -> dict[str, str]:
    """Every header a device sends, signed with `key` (Content-Length included)."""
    values = key_headers(
        key,
        event_id,
        body,
        device=device,
        time_ms=time_ms,
        nonce=nonce,
        method=method,
        path=path,
    )
    values["Content-Length"] = str(len(body))
    return values


def answer_signed(key: codes.Secret, nonce: str, status: int, body: bytes, time_ms: str) -> str:
    return protocol.sign(key, protocol.answer_text(nonce, status, time_ms, body))


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


class Reader:
    """`body_of` for SyncServer.handle: the body as sent, noting every length asked for."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self.asked: list[int] = []

    def __call__(self, length: int) -> bytes:
        self.asked.append(length)
        return self.body[:length]


SAVE_FAILED = LogError("the disk is full")


def within(action: Callable[[], object], seconds: float = 5.0) -> list[OSError]:
    """Runs `action` in a daemon thread and fails if it has not returned within `seconds` (a
    stop that hangs fails its test, never holds the process); returns the OSError it raised."""
    raised: list[OSError] = []

    def run() -> None:
        try:
            action()
        except OSError as exc:
            raised.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{action} did not return within {seconds} s"
    return raised


def send(
    sync: SyncServer, method: str, path: str, sent: dict[str, str], body: bytes
) -> http.client.HTTPResponse:
    assert sync.port is not None
    connection = http.client.HTTPConnection("127.0.0.1", sync.port, timeout=5)
    connection.request(method, path, body=body, headers=sent)
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


def body_of(response: http.client.HTTPResponse) -> Any:
    return json.loads(response.body)  # type: ignore[attr-defined]


def raw_request(port: int, head: bytes, body: bytes, *, finish: bool) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(head + body)
        if finish:
            sock.shutdown(socket.SHUT_WR)
        chunks = []
        while data := sock.recv(65536):
            chunks.append(data)
    return b"".join(chunks)
