"""The joining device's side of the protocol (protocol.py), on the standard library's
http.client: one signed request per page, the host's answer checked before it is used."""

from __future__ import annotations

import http.client
import json
import secrets
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInput
from . import protocol
from .codes import Secret

DEFAULT_PORT = 8765
TIMEOUT_S = 5.0


class SyncProblem(Exception):
    """The host could not be reached or refused: `code` (protocol.REFUSALS, or "unreachable",
    "bad_answer"), `message` one line for the judge (never a code or a key)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = " ".join(message.split())


@dataclass(frozen=True, slots=True)
class Page:
    items: list[Any]
    cursor: int
    more: bool
    accepted: int


def host_url(address: str) -> str:
    """http://HOST:PORT from what a judge typed: 192.168.43.1, 192.168.43.1:8765, a URL, [::1]."""
    text = address.strip() if isinstance(address, str) else ""
    if not text:
        raise InvalidInput("the host's address is required", "address", "required")
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port or DEFAULT_PORT
    except ValueError:
        raise InvalidInput(f"not an address: {address!r}", "address") from None
    if parts.scheme != "http" or not parts.hostname or parts.path not in ("", "/"):
        raise InvalidInput(f"not an address: {address!r} (type it as the host shows it)", "address")
    host = parts.hostname
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class SyncClient:
    def __init__(
        self,
        url: str,
        event_id: str,
        device: str,
        key: Secret,
        key_id: str,
        wall_ms: Callable[[], int],
    ) -> None:
        parts = urllib.parse.urlsplit(url)
        self.url = url
        self._host = parts.hostname or ""
        self._port = parts.port or DEFAULT_PORT
        self.event_id = event_id
        self.device = device
        self._key = key
        self._key_id = key_id
        self._wall_ms = wall_ms
        self.offset_ms = 0  # the host's clock minus ours, learnt from a signed answer

    @staticmethod
    def hello(url: str) -> str:
        """The UUID of the event the host at `url` shares. Raises SyncProblem."""
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(
            parts.hostname or "", parts.port or DEFAULT_PORT, timeout=TIMEOUT_S
        )
        try:
            connection.request("GET", protocol.HELLO_PATH)
            response = connection.getresponse()
            answer = response.read(4096)
        except (OSError, http.client.HTTPException) as exc:
            why = getattr(exc, "strerror", None) or type(exc).__name__
            message = f"the host {url} cannot be reached ({why})"
            raise SyncProblem("unreachable", message) from None
        finally:
            connection.close()
        try:
            found = json.loads(answer.decode("utf-8"))
            return protocol.uuid_text(found["event"], "event")
        except (ValueError, KeyError, TypeError, InvalidInput):
            raise SyncProblem("bad_answer", f"{url} is not a penalty guide host") from None

    def exchange(self, judge: str | None, cursor: int, push: list[str]) -> Page:
        """Pushes `push` (ITEM texts), pulls the page after `cursor`. Raises SyncProblem."""
        body = protocol.encode_with_items("push", push, {"judge": judge, "cursor": cursor})
        for attempt in range(2):
            status, answer, headers, nonce = self._post(body)
            signed = self._signed(nonce, status, answer, headers)
            if status == 200 and signed:
                return _page(answer)
            refusal = _refusal(answer)
            if refusal[0] == "clock" and signed and attempt == 0:
                self.offset_ms = int(headers["X-Sync-Time"]) - self._wall_ms()
                continue
            code, message = refusal
            if code not in protocol.REFUSALS:
                code, message = "bad_answer", f"the host answered {status}"
            raise SyncProblem(code, message)
        raise SyncProblem("clock", "the host refused this device's clock twice")

    def _post(self, body: bytes) -> tuple[int, bytes, dict[str, str], str]:
        nonce = secrets.token_hex(16)
        headers = {
            "X-Sync-Event": self.event_id,
            "X-Sync-Device": self.device,
            "X-Sync-Key": self._key_id,
            "X-Sync-Time": str(self._wall_ms() + self.offset_ms),
            "X-Sync-Nonce": nonce,
        }
        text = protocol.signing_text("POST", protocol.PATH, headers, body)
        headers["X-Sync-Signature"] = protocol.sign(self._key, text)
        headers["Content-Type"] = "application/json"
        connection = http.client.HTTPConnection(self._host, self._port, timeout=TIMEOUT_S)
        try:
            connection.request("POST", protocol.PATH, body=body, headers=headers)
            response = connection.getresponse()
            answer = response.read(protocol.MAX_BODY + 1)
            found = {k: v for k, v in response.getheaders()}
            return response.status, answer, found, nonce
        except (OSError, http.client.HTTPException) as exc:
            why = getattr(exc, "strerror", None) or type(exc).__name__
            raise SyncProblem(
                "unreachable", f"the host {self.url} cannot be reached ({why})"
            ) from None
        finally:
            connection.close()

    def _signed(self, nonce: str, status: int, answer: bytes, headers: dict[str, str]) -> bool:
        time_ms, signature = headers.get("X-Sync-Time", ""), headers.get("X-Sync-Signature", "")
        if not time_ms or not signature or len(answer) > protocol.MAX_BODY:
            return False
        text = protocol.answer_text(nonce, status, time_ms, answer)
        return protocol.signature_ok(self._key, text, signature)


def _refusal(answer: bytes) -> tuple[str, str]:
    try:
        found = json.loads(answer.decode("utf-8"))
        code, message = found["error"], found["message"]
        if isinstance(code, str) and isinstance(message, str):
            return code, message[:200]
    except (ValueError, KeyError, TypeError, RecursionError):
        pass
    return "bad_answer", "the host's answer could not be read"


def _page(answer: bytes) -> Page:
    try:
        found = json.loads(answer.decode("utf-8"))
        items, cursor, more = found["items"], found["cursor"], found["more"]
        accepted = found["accepted"]
        if isinstance(items, list) and isinstance(more, bool):
            return Page(items, protocol.whole(cursor, "cursor"), more, int(accepted))
    except (ValueError, KeyError, TypeError, RecursionError, InvalidInput):
        pass
    raise SyncProblem("bad_answer", "the host's answer could not be read")
