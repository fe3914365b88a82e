"""A scripted sync host on 127.0.0.1 for the client's tests (tests/test_mutation_client.py):
each request is kept, each answer is a script (fixed, or signed over the request's nonce as a
host signs it), on a free port."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from records.sync import protocol
from records.sync.client import SyncClient, SyncProblem
from records.sync.codes import Secret

KEY = Secret("0f" * 32)
OTHER_KEY = Secret("f0" * 32)
EVENT_ID = "6f1d2a9c-0000-4000-8000-000000000001"
DEVICE = "a1" * 16
KEY_ID = "k" * 16
WALL = 1_764_300_000_000
HOST_TIME = WALL + 3_600_000  # the host's clock, an hour ahead


@dataclass
class Request:
    method: str
    path: str
    headers: Message  # read as a host reads them: names in any case
    body: bytes


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


# What the host answers a request: a fixed reply, or one made from the request (signed).
Script = Callable[[Request], Reply]


@dataclass
class Host:
    port: int
    requests: list[Request]
    replies: list[Script]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self, wall: Callable[[], int] = lambda: WALL) -> SyncClient:
        return SyncClient(self.url, EVENT_ID, DEVICE, KEY, KEY_ID, wall)


@pytest.fixture
def host() -> Iterator[Host]:
    found = Host(0, [], [])

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = Request(self.command, self.path, self.headers, self.rfile.read(length))
            found.requests.append(request)
            reply = found.replies.pop(0)(request)
            time.sleep(reply.delay_s)
            with contextlib.suppress(OSError):
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    found.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield found
    finally:
        server.shutdown()
        server.server_close()


def fixed(status: int, body: bytes, **options: object) -> Script:
    return lambda request: Reply(status, body, **options)  # type: ignore[arg-type]


def signed(
    status: int,
    body: bytes,
    *,
    key: Secret = KEY,
    time_ms: int | str = HOST_TIME,
    nonce: str = "",
    send_time: bool = True,
    delay_s: float = 0.0,
) -> Script:
    """The host's answer, signed over the request's nonce (or `nonce`) and `time_ms` as a host
    signs it; `send_time=False` leaves the time out of the headers."""

    def reply(request: Request) -> Reply:
        text = protocol.answer_text(
            nonce or request.headers["X-Sync-Nonce"], status, str(time_ms), body
        )
        headers = {"X-Sync-Time": str(time_ms), "X-Sync-Signature": protocol.sign(key, text)}
        if not send_time:
            del headers["X-Sync-Time"]
        return Reply(status, body, headers, delay_s)

    return reply


def page_body(**changes: object) -> bytes:
    answer = {"items": [{"kind": "record"}], "cursor": 7, "more": True, "accepted": 2}
    answer.update(changes)
    return json.dumps(answer).encode()


def answer_of(size: int) -> bytes:
    """A hello answer of `size` bytes."""
    answer = json.dumps({"event": EVENT_ID, "pad": ""}).encode()
    return answer[:-2] + b"x" * (size - len(answer)) + b'"}'


def refusal(code: str, message: str) -> bytes:
    return json.dumps({"error": code, "message": message}).encode()


def problem_of(joiner: SyncClient) -> tuple[str, str]:
    """The code and message of the SyncProblem an exchange with nothing to push raises."""
    with pytest.raises(SyncProblem) as refused:
        joiner.exchange(None, 0, [])
    return refused.value.code, refused.value.message


@contextlib.contextmanager
def not_http() -> Iterator[str]:
    """The URL of something on 127.0.0.1 that answers each connection in another protocol."""
    listener = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = listener.accept()
                with connection:
                    connection.recv(65536)
                    connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")

    threading.Thread(target=answer, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
