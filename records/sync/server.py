"""The host's side of the protocol (protocol.py): the standard library's ThreadingHTTPServer on
the addresses chosen (one server per address, one port), only while hosting.

Order of checks, cheapest first, nothing changed until all pass: rate limit of failed
attempts → method and path → headers → event → key id (an old code is named as such) →
declared size (a body over `MAX_BODY` is never read) → the body read → signature → time window
(and not stamped before this server started: the nonces seen before a restart are forgotten)
→ nonce → JSON → every item. Then the pushed versions are stored in one transaction and the next
page is answered, signed.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

from regulation.model import Regulation

from ..errors import InvalidInput, LogError
from . import protocol
from .codes import Secret
from .items import ItemVersion
from .protocol import PATH, Refusal

MAX_NONCES = 100_000
MAX_THREADS = 32
SOCKET_TIMEOUT_S = 10.0
# How often a serving thread looks whether it should stop: "stop hosting" (and each test's
# teardown) waits up to this long; the stdlib's 0.5 s made every stop half a second.
STOP_POLL_S = 0.05
FAILURES_PER_ADDRESS = 10  # wrong codes allowed in a burst from one address…
REFILL_S = 6.0  # …then one more each 6 s (10 a minute)
FAILURES_OVERALL = 60  # and from all addresses together, then one a second


@dataclass(frozen=True, slots=True)
class HostKeys:
    key: Secret
    key_id: str
    retired_ids: frozenset[str]  # key ids of replaced codes: "the code was replaced"


class HostBackend(Protocol):
    regulation: Regulation

    def receive(
        self, event_id: str, versions: Sequence[ItemVersion], device: str, judge: str | None
    ) -> int: ...

    def page(self, event_id: str, cursor: int, device: str) -> tuple[list[str], int, bool]: ...


class _Bucket:
    def __init__(self, capacity: float, refill_s: float, now: float) -> None:
        self.tokens, self.capacity, self.refill_s, self.at = capacity, capacity, refill_s, now

    def level(self, now: float) -> float:
        self.tokens = min(self.capacity, self.tokens + (now - self.at) / self.refill_s)
        self.at = now
        return self.tokens


class Guard:
    """Rate limit of failed attempts, and the nonces seen within the window."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._overall = _Bucket(FAILURES_OVERALL, 1.0, clock())
        self._nonces: dict[str, float] = {}

    def allowed(self, address: str) -> bool:
        with self._lock:
            now = self._clock()
            bucket = self._buckets.get(address)
            mine = bucket.level(now) >= 1 if bucket else True
            return mine and self._overall.level(now) >= 1

    def failed(self, address: str) -> None:
        with self._lock:
            now = self._clock()
            bucket = self._buckets.pop(address, None) or _Bucket(
                FAILURES_PER_ADDRESS, REFILL_S, now
            )
            bucket.level(now)
            bucket.tokens -= 1
            self._buckets[address] = bucket
            while len(self._buckets) > 4096:
                self._buckets.popitem(last=False)
            self._overall.level(now)
            self._overall.tokens -= 1

    def fresh_nonce(self, nonce: str) -> bool:
        """True the first time within the window; Refusal("busy") when too many to remember."""
        with self._lock:
            now = self._clock()
            if len(self._nonces) >= MAX_NONCES:
                self._nonces = {n: t for n, t in self._nonces.items() if t > now}
                if len(self._nonces) >= MAX_NONCES:
                    raise Refusal("busy", "the host is busy; try again in a minute")
            if nonce in self._nonces and self._nonces[nonce] > now:
                return False
            self._nonces[nonce] = now + 2 * protocol.WINDOW_S
            return True


class SyncServer:
    """Serves one event until `stop()`. `keys` can be replaced at any time (a new code)."""

    def __init__(
        self,
        backend: HostBackend,
        event_id: str,
        keys: HostKeys,
        wall_ms: Callable[[], int],
        on_seen: Callable[[str, str | None, int], None],
    ) -> None:
        self.backend = backend
        self.event_id = event_id
        self.keys = keys
        self.wall_ms = wall_ms
        self.on_seen = on_seen
        self.guard = Guard()
        # The nonces seen are kept in memory only: a request stamped before this server
        # started could have been seen by an earlier one (before a restart), so it is refused
        # like a clock that is off, and a device retries at once on the host's clock.
        self.started_ms = wall_ms()
        self.slots = threading.BoundedSemaphore(MAX_THREADS)
        self._servers: list[_Server] = []
        self._serving = False
        self.port: int | None = None

    def start(self, addresses: Sequence[str], port: int) -> int:
        """Binds every address on one port (0: a free one, the same for all); returns it.
        Raises OSError (the address or port unavailable) with nothing left listening."""
        try:
            for address in addresses:
                server = _Server((address, port), _handler_for(self))
                self._servers.append(server)
                port = server.server_address[1]
        except OSError:
            self.stop()
            raise
        for server in self._servers:
            threading.Thread(
                target=server.serve_forever, args=(STOP_POLL_S,), name="sync-host", daemon=True
            ).start()
        self._serving = True
        self.port = port
        return port

    def stop(self) -> None:
        for server in self._servers:
            if self._serving:
                server.shutdown()
            server.server_close()
        self._servers.clear()
        self._serving = False

    # -- one request ---------------------------------------------------------------------------

    def handle(
        self, address: str, method: str, path: str, headers: Any, body_of: Any
    ) -> tuple[int, bytes, dict[str, str]]:
        """(status, body, headers) for one request; `body_of(n)` reads n bytes."""
        guard = self.guard
        # An address that sent too many wrong codes gets no more checks of a code until its
        # allowance refills; a device there with the right code is still served.
        limited = not guard.allowed(address)
        if method == "GET" and path == protocol.HELLO_PATH:
            return 200, protocol.encode({"event": self.event_id, "protocol": 1}), {}
        if method != "POST" or path != PATH:
            raise Refusal("malformed", f"only POST {PATH} is served here")
        names = ("Event", "Device", "Key", "Time", "Nonce", "Signature")
        values = {f"X-Sync-{n}": str(headers.get(f"X-Sync-{n}") or "") for n in names}
        if not all(values.values()):
            raise Refusal("malformed", "the request lacks the sync headers")
        if values["X-Sync-Event"] != self.event_id:
            raise Refusal("other_event", "this host shares another event; check the address")
        keys = self.keys
        if values["X-Sync-Key"] != keys.key_id:
            _refuse_wrong(guard, address, limited)
            if values["X-Sync-Key"] in keys.retired_ids:
                raise Refusal(
                    "old_code", "the join code was replaced: ask the host for the new code"
                )
            raise Refusal("wrong_code", "wrong join code")
        if not protocol.device_id(values["X-Sync-Device"]) or not protocol.hex_text(
            values["X-Sync-Nonce"]
        ):
            raise Refusal("malformed", "a sync header is not in its form")
        try:
            length = int(headers.get("Content-Length") or "")
        except ValueError:
            raise Refusal("malformed", "the request has no length") from None
        if length < 0 or length > protocol.MAX_BODY:
            raise Refusal("too_large", f"the request is larger than {protocol.MAX_BODY} bytes")
        body = body_of(length)
        text = protocol.signing_text(method, path, values, body)
        if not protocol.signature_ok(keys.key, text, values["X-Sync-Signature"]):
            _refuse_wrong(guard, address, limited)
            raise Refusal("wrong_code", "wrong join code")
        now = self.wall_ms()
        try:
            sent = int(values["X-Sync-Time"])
        except ValueError:
            raise Refusal("malformed", "X-Sync-Time is not a number") from None
        if abs(now - sent) > protocol.WINDOW_S * 1000 or sent < self.started_ms:
            raise _Signed(Refusal("clock", "the device's clock is off; retry on the host's"))
        if not guard.fresh_nonce(values["X-Sync-Nonce"]):
            raise Refusal("replay", "this request was already received")
        payload = protocol.decode(body)
        try:
            if not isinstance(payload, dict):
                raise InvalidInput("the request must be an object", "request")
            cursor = protocol.whole(payload.get("cursor"), "cursor")
            judge = payload.get("judge")
            if judge is not None and (not isinstance(judge, str) or len(judge) > 60):
                raise InvalidInput("judge: must be text or null", "judge")
            pushed = protocol.parse_items(
                payload.get("push"), "push", self.event_id, self.backend.regulation
            )
        except InvalidInput as exc:
            raise Refusal("bad_item", str(exc)) from None
        device = values["X-Sync-Device"]
        try:
            accepted = self.backend.receive(self.event_id, pushed, device, judge)
            items, next_cursor, more = self.backend.page(self.event_id, cursor, device)
        except LogError as exc:
            raise Refusal("busy", f"the host could not save: {exc}") from None
        self.on_seen(device, judge, accepted)
        answer = protocol.encode_with_items(
            "items", items, {"cursor": next_cursor, "more": more, "accepted": accepted}
        )
        return 200, answer, self.signed(values["X-Sync-Nonce"], 200, answer)

    def signed(self, nonce: str, status: int, body: bytes) -> dict[str, str]:
        time_ms = str(self.wall_ms())
        text = protocol.answer_text(nonce, status, time_ms, body)
        return {"X-Sync-Time": time_ms, "X-Sync-Signature": protocol.sign(self.keys.key, text)}


def _refuse_wrong(guard: Guard, address: str, limited: bool) -> None:
    if limited:
        raise Refusal("rate_limited", "too many wrong join codes; wait a minute")
    guard.failed(address)


class _Signed(Exception):
    """A refusal answered with the host's signature (the device proved it has the key)."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def _handler_for(host: SyncServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "ocg-penalty-guide-sync"
        sys_version = ""
        timeout = SOCKET_TIMEOUT_S

        def do_POST(self) -> None:
            self._serve("POST")

        def do_GET(self) -> None:
            self._serve("GET")

        def do_PUT(self) -> None:
            self._serve("PUT")

        def _serve(self, method: str) -> None:
            self.close_connection = True
            if not host.slots.acquire(blocking=False):
                self._send(503, Refusal("busy", "the host is busy").body(), {})
                return
            try:
                status, body, headers = host.handle(
                    self.client_address[0], method, self.path, self.headers, self._read
                )
            except _Signed as signed:
                refusal = signed.refusal
                body = refusal.body()
                nonce = str(self.headers.get("X-Sync-Nonce") or "")
                status, headers = refusal.status, host.signed(nonce, refusal.status, body)
            except Refusal as refusal:
                status, body, headers = refusal.status, refusal.body(), {}
            except Exception:  # never a traceback to a peer, never the server down
                status, body, headers = 500, Refusal("busy", "the host failed").body(), {}
            finally:
                host.slots.release()
            self._send(status, body, headers)

        def _read(self, length: int) -> bytes:
            data = self.rfile.read(length)
            if len(data) != length:
                raise Refusal("malformed", "the request ended early")
            return data

        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                pass  # the device went away; nothing to tell

        def log_message(self, format: str, *args: Any) -> None:
            pass  # no request lines on stderr (they would name devices; never codes)

    return Handler
