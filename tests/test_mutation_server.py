"""Mutation tests for records/sync/server.py (the host's listener): the rate limit of wrong codes
and the nonces remembered (`Guard`, on a clock the test moves), and the listener as a device on
the venue's Wi-Fi meets it, over HTTP on 127.0.0.1: what every answer carries (JSON, its length,
one request a connection, no Python version), a signed refusal of a clock that is off, a busy
host, a body that ends early, a device that never finishes, and starting and stopping cleanly."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from server_support import (
    DEVICE,
    KEY,
    START_MS,
    WRONG_KEY,
    HostLog,
    Wall,
    answer_signed,
    body_of,
    headers,
    host,
    payload,
    raw_request,
    send,
    within,
)

from records.sync import protocol, server
from records.sync.protocol import Refusal
from regulation.model import Regulation


class Moment:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def moment() -> Moment:
    return Moment()


def limited_after(guard: server.Guard, address: str) -> int:
    """How many failures in a row `address` may make before it is limited (at most 100)."""
    for count in range(100):
        if not guard.allowed(address):
            return count
        guard.failed(address)
    return 100


def test_ten_wrong_codes_from_one_address_then_one_each_six_seconds(moment: Moment) -> None:
    guard = server.Guard(moment)
    assert guard.allowed("10.0.0.1")
    assert limited_after(guard, "10.0.0.1") == 10
    assert guard.allowed("10.0.0.2")  # another device is not held back
    moment.now += 5.9
    assert not guard.allowed("10.0.0.1")
    moment.now += 0.1
    assert guard.allowed("10.0.0.1")
    guard.failed("10.0.0.1")
    assert not guard.allowed("10.0.0.1")
    moment.now += 60.0  # a minute refills the burst, never more than it
    assert limited_after(guard, "10.0.0.1") == 10


def test_sixty_wrong_codes_from_anywhere_then_one_a_second(moment: Moment) -> None:
    guard = server.Guard(moment)
    for n in range(6):
        assert limited_after(guard, f"10.0.1.{n}") == 10
    assert not guard.allowed("10.0.2.1")  # a fresh address too
    moment.now += 0.9
    assert not guard.allowed("10.0.2.1")
    moment.now += 0.1
    assert guard.allowed("10.0.2.1")
    guard.failed("10.0.2.1")
    assert not guard.allowed("10.0.2.2")
    moment.now += 3600.0
    assert limited_after(guard, "10.0.2.3") == 10


def test_the_guard_forgets_the_least_recent_of_4096_addresses(
    moment: Moment, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "FAILURES_OVERALL", 10**6)
    guard = server.Guard(moment)
    assert limited_after(guard, "first") == 10
    assert limited_after(guard, "second") == 10
    guard.failed("first")  # the most recent again
    for n in range(4094):
        guard.failed(f"other {n}")
    assert not guard.allowed("first") and not guard.allowed("second")
    guard.failed("one more")  # 4097 addresses: the least recent is forgotten
    assert guard.allowed("second") and not guard.allowed("first")
    assert limited_after(guard, "one more") == 9  # its failure is remembered


def test_a_nonce_is_fresh_once_within_twice_the_window(moment: Moment) -> None:
    guard = server.Guard(moment)
    assert guard.fresh_nonce("a1")
    assert not guard.fresh_nonce("a1")
    assert guard.fresh_nonce("b2")
    moment.now += 2 * protocol.WINDOW_S - 1
    assert not guard.fresh_nonce("a1")
    moment.now += 1  # exactly twice the window after it was seen
    assert guard.fresh_nonce("a1")
    assert not guard.fresh_nonce("a1")


def test_too_many_nonces_to_remember_is_busy_until_old_ones_expire(
    moment: Moment, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "MAX_NONCES", 3)
    guard = server.Guard(moment)
    assert all(guard.fresh_nonce(n) for n in ("n1", "n2"))
    moment.now += 2 * protocol.WINDOW_S - 1
    assert guard.fresh_nonce("n3")
    with pytest.raises(Refusal) as caught:
        guard.fresh_nonce("n4")
    refusal = caught.value
    message = "the host is busy; try again in a minute"
    assert (refusal.code, refusal.status, refusal.message) == ("busy", 503, message)
    moment.now += 1  # n1 and n2 expire exactly now; n3 is still remembered
    assert guard.fresh_nonce("n4")
    assert not guard.fresh_nonce("n3")
    assert guard.fresh_nonce("n1")


# -- over HTTP --------------------------------------------------------------------------------


@pytest.fixture
def hosting(regulation: Regulation) -> Iterator[tuple[server.SyncServer, HostLog, Wall]]:
    sync, log, wall, _ = host(regulation)
    port = sync.start(["127.0.0.1"], 0)
    assert port and sync.port == port
    try:
        yield sync, log, wall
    finally:
        within(sync.stop)


def check_framing(response: http.client.HTTPResponse) -> None:
    raw: bytes = response.body  # type: ignore[attr-defined]
    assert response.getheader("Content-Type") == "application/json"
    assert response.getheader("Content-Length") == str(len(raw))
    assert response.getheader("Connection") == "close"
    assert response.getheader("Server").strip() == "ocg-penalty-guide-sync"  # no Python version


def test_a_push_over_http_is_answered_signed(hosting: Any) -> None:
    sync, log, wall = hosting
    body = payload(cursor=3)
    sent = headers(body)
    wall.ms = START_MS + 5
    response = send(sync, "POST", protocol.PATH, sent, body)
    assert response.status == 200
    assert body_of(response) == {
        "items": [{"page_of": 3}],
        "cursor": 8,
        "more": True,
        "accepted": 3,
    }
    check_framing(response)
    assert response.getheader("X-Sync-Time") == str(START_MS + 5)
    assert response.getheader("X-Sync-Signature") == answer_signed(
        KEY, sent["X-Sync-Nonce"], 200, response.body, str(START_MS + 5)
    )
    assert log.received == [(sync.event_id, [], DEVICE, "鈴木")]


def test_the_hello_over_http(hosting: Any) -> None:
    sync, _, _ = hosting
    response = send(sync, "GET", protocol.HELLO_PATH, {}, b"")
    assert (response.status, body_of(response)) == (200, {"event": sync.event_id, "protocol": 1})
    check_framing(response)
    assert response.getheader("X-Sync-Signature") is None


@pytest.mark.parametrize("method", ["PUT", "GET", "POST"])
def test_any_other_request_is_refused_unsigned(hosting: Any, method: str) -> None:
    sync, log, _ = hosting
    response = send(sync, method, "/", {}, b"")
    assert (response.status, body_of(response)) == (
        400,
        {"error": "malformed", "message": "only POST /sync/v1 is served here"},
    )
    check_framing(response)
    assert response.getheader("X-Sync-Signature") is None
    assert log.received == []


def test_a_wrong_code_over_http_is_refused_unsigned_then_limited(hosting: Any) -> None:
    sync, log, _ = hosting
    body = payload()
    answers = [
        send(sync, "POST", protocol.PATH, headers(body, key=WRONG_KEY), body) for _ in range(11)
    ]
    assert [a.status for a in answers] == [401] * 10 + [429]
    assert body_of(answers[0]) == {"error": "wrong_code", "message": "wrong join code"}
    assert answers[0].getheader("X-Sync-Signature") is None
    assert send(sync, "POST", protocol.PATH, headers(body), body).status == 200
    assert len(log.received) == 1


def test_a_clock_that_is_off_is_refused_with_the_hosts_signed_time(hosting: Any) -> None:
    sync, log, wall = hosting
    wall.ms = START_MS + 10 * protocol.WINDOW_S * 1000
    body = payload()
    sent = headers(body, time_ms=START_MS)
    response = send(sync, "POST", protocol.PATH, sent, body)
    assert response.status == 401
    message = "the device's clock is off; retry on the host's"
    assert body_of(response) == {"error": "clock", "message": message}
    check_framing(response)
    assert response.getheader("X-Sync-Time") == str(wall.ms)
    assert response.getheader("X-Sync-Signature") == answer_signed(
        KEY, sent["X-Sync-Nonce"], 401, response.body, str(wall.ms)
    )
    assert log.received == []


def test_a_host_that_fails_answers_500_in_one_line_and_keeps_serving(hosting: Any) -> None:
    sync, log, _ = hosting
    log.failure = RuntimeError("a bug")
    body = payload()
    response = send(sync, "POST", protocol.PATH, headers(body), body)
    assert (response.status, body_of(response)) == (
        500,
        {"error": "busy", "message": "the host failed"},
    )
    check_framing(response)
    log.failure = None
    assert send(sync, "POST", protocol.PATH, headers(body), body).status == 200


def test_a_host_with_every_thread_busy_answers_503_at_once(hosting: Any) -> None:
    sync, log, _ = hosting
    for _ in range(server.MAX_THREADS):
        assert sync.slots.acquire(blocking=False)
    body = payload()
    try:
        response = send(sync, "POST", protocol.PATH, headers(body), body)
    finally:
        for _ in range(server.MAX_THREADS):
            sync.slots.release()
    assert (response.status, body_of(response)) == (
        503,
        {"error": "busy", "message": "the host is busy"},
    )
    check_framing(response)
    assert log.received == []
    # Each request gives its thread back: more requests than threads are all served.
    for _ in range(server.MAX_THREADS + 2):
        assert send(sync, "GET", protocol.HELLO_PATH, {}, b"").status == 200


def test_a_body_that_ends_early_is_refused_and_nothing_stored(hosting: Any) -> None:
    sync, log, _ = hosting
    body = payload()
    sent = headers(body)
    sent["Content-Length"] = str(len(body) + 10)
    head = f"POST {protocol.PATH} HTTP/1.1\r\nHost: x\r\n".encode() + b"".join(
        f"{k}: {v}\r\n".encode() for k, v in sent.items()
    )
    answer = raw_request(sync.port, head + b"\r\n", body, finish=True)
    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line.startswith(b"HTTP/1.0 400")
    assert json.loads(rest.partition(b"\r\n\r\n")[2]) == {
        "error": "malformed",
        "message": "the request ended early",
    }
    assert log.received == []


def test_a_device_that_never_finishes_its_request_is_let_go(
    regulation: Regulation, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "SOCKET_TIMEOUT_S", 0.2)
    sync, log, _, _ = host(regulation)
    port = sync.start(["127.0.0.1"], 0)
    try:
        answer = raw_request(port, b"POST /sync/v1 HTTP/1.1\r\nHost: x\r\n", b"", finish=False)
        assert answer == b""  # the connection closed by the host, nothing answered
        assert log.received == []
    finally:
        within(sync.stop)


def serving_threads() -> int:
    return sum(t.name == "sync-host" and t.daemon for t in threading.enumerate())


def test_stop_closes_the_port_and_ends_its_threads_at_once(regulation: Regulation) -> None:
    before = serving_threads()
    sync, _, _, _ = host(regulation)
    assert sync.port is None
    port = sync.start(["127.0.0.1"], 0)
    assert serving_threads() == before + 1
    assert within(sync.stop) == []
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    for thread in threading.enumerate():
        if thread.name == "sync-host":
            thread.join(2)
    assert serving_threads() == before
    assert within(sync.stop) == []  # stopping again does nothing


def test_an_address_that_cannot_be_bound_leaves_nothing_listening(regulation: Regulation) -> None:
    # A new server whose second address cannot take the port its first one took (port 0: a
    # free one, the same for all): the first is closed at once, never having served.
    sync, _, _, _ = host(regulation)
    assert len(within(lambda: sync.start(["127.0.0.1", "127.0.0.1"], 0))) == 1
    sync, _, _, _ = host(regulation)
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert len(within(lambda: sync.start(["127.0.0.1"], port))) == 1  # one OSError
    # A server started and stopped, then started again on one port for two servers: the
    # second cannot take the first one's port, and the failed start stops the first at once.
    port = sync.start(["127.0.0.1"], 0)
    assert within(sync.stop) == []
    assert len(within(lambda: sync.start(["127.0.0.1", "127.0.0.1"], port))) == 1
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def from_address(sync: server.SyncServer, address: str, body: bytes, sent: dict[str, str]) -> int:
    """The status the listener's handler answers to one request from `address`: the handler
    serves a socket pair in this thread, as the server would a device at that address."""
    head = f"POST {protocol.PATH} HTTP/1.1\r\nHost: x\r\n" + "".join(
        f"{k}: {v}\r\n" for k, v in sent.items()
    )
    ours, theirs = socket.socketpair()
    with ours, theirs:
        ours.sendall(head.encode() + b"\r\n" + body)
        server._handler_for(sync)(theirs, (address, 40_000), None)
        theirs.shutdown(socket.SHUT_WR)
        answer = b"".join(iter(lambda: ours.recv(65536), b""))
    return int(answer.split(b" ", 2)[1])


def test_wrong_codes_are_counted_per_device_address(regulation: Regulation) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    wrong = [from_address(sync, "10.0.0.5", body, headers(body, key=WRONG_KEY)) for _ in range(10)]
    assert wrong == [401] * 10
    assert from_address(sync, "10.0.0.6", body, headers(body, key=WRONG_KEY)) == 401
    assert from_address(sync, "10.0.0.5", body, headers(body, key=WRONG_KEY)) == 429
    assert from_address(sync, "10.0.0.5", body, headers(body)) == 200
    assert len(log.received) == 1
