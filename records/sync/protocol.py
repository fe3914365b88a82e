"""The sync protocol: one signed HTTP request, POST /sync/v1, that pushes a page of versions and
pulls the next page from the host's cursor.

Request headers (all required): X-Sync-Event (the event's UUID), X-Sync-Device (the device's
id), X-Sync-Key (the key id, codes.py), X-Sync-Time (ms since the epoch, on the host's clock as
the device best knows it), X-Sync-Nonce (32 hex digits, never reused), X-Sync-Signature
(HMAC-SHA256 with the key over method, path, those headers and the body's SHA-256).

Request body: {"judge": STR|null, "cursor": N, "push": [ITEM…]}; ITEM: {"kind", "id", "stamp",
"device", "judge", "saved_at", "body"} (items.py). Answer 200: {"items": [ITEM…], "cursor": N,
"more": BOOL, "accepted": N}, signed back (X-Sync-Time, X-Sync-Signature over the request's
nonce, the status, the time and the body) so that nobody else's answer is merged. A refusal:
{"error": CODE, "message": ONE LINE}, with CODE in `REFUSALS`.

The device's clock may be minutes or hours off: the host refuses a time outside `WINDOW_S` of
its own as "clock", signed with its time, and the device retries once on the host's clock.
Within the window a nonce is accepted once (the host remembers nonces for twice the window, in
memory); a request stamped before the host's server started is refused as "clock" too, so that
one captured before a restart cannot be replayed after it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from json.encoder import encode_basestring as _quoted  # a JSON string, as encode() writes it
from typing import Any

from regulation.model import Regulation

from .. import validate
from ..errors import InvalidInput
from .clock_items import check_item_id
from .codes import Secret
from .hlc import MAX_STAMP
from .items import EVENT, ItemVersion, check_body

PATH = "/sync/v1"
HELLO_PATH = "/sync/v1/hello"  # GET, unsigned: only the shared event's UUID, to derive the key
MAX_BODY = 4 * 1024 * 1024  # bytes; a page is far below it
PAGE_ITEMS = 1000  # versions per page, each way
PAGE_BYTES = 2 * 1024 * 1024  # …and at most about this much JSON
WINDOW_S = 120
REFUSALS = {
    "wrong_code": 401,
    "old_code": 401,
    "clock": 401,
    "replay": 401,
    "other_event": 404,
    "malformed": 400,
    "too_large": 413,
    "bad_item": 422,
    "rate_limited": 429,
    "busy": 503,
}
_DEVICE = re.compile(r"[0-9a-f]{8,64}")
_HEX = re.compile(r"[0-9a-f]{16,64}")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class Refusal(Exception):
    """A request refused: `code` (REFUSALS), `message` one line; nothing was changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = " ".join(message.split())

    @property
    def status(self) -> int:
        return REFUSALS[self.code]

    def body(self) -> bytes:
        return json.dumps({"error": self.code, "message": self.message}).encode()


def signing_text(method: str, path: str, headers: Mapping[str, str], body: bytes) -> bytes:
    parts = [
        method,
        path,
        headers.get("X-Sync-Event", ""),
        headers.get("X-Sync-Device", ""),
        headers.get("X-Sync-Key", ""),
        headers.get("X-Sync-Time", ""),
        headers.get("X-Sync-Nonce", ""),
        hashlib.sha256(body).hexdigest(),
    ]
    return "\n".join(parts).encode()


def sign(key: Secret, text: bytes) -> str:
    return hmac.new(bytes.fromhex(key.value), text, hashlib.sha256).hexdigest()


def answer_text(nonce: str, status: int, time_ms: str, body: bytes) -> bytes:
    return "\n".join(
        ["answer", nonce, str(status), time_ms, hashlib.sha256(body).hexdigest()]
    ).encode()


def signature_ok(key: Secret, text: bytes, signature: str) -> bool:
    return hmac.compare_digest(sign(key, text), signature)


# -- bodies --------------------------------------------------------------------------------------


def item_json(version: ItemVersion) -> dict[str, Any]:
    return {
        "kind": version.kind,
        "id": version.item_id,
        "stamp": version.stamp,
        "device": version.device,
        "judge": version.judge,
        "saved_at": version.saved_at.isoformat(timespec="microseconds"),
        "body": json.loads(version.body),
    }


def item_text(version: ItemVersion) -> str:
    """ITEM as JSON text (what `encode` makes of `item_json`), with the body spliced in as
    stored (canonical JSON already): a page of a thousand goes out without parsing and encoding
    each body again."""
    judge = "null" if version.judge is None else _quoted(version.judge)
    saved_at = version.saved_at.isoformat(timespec="microseconds")
    return (
        f'{{"kind":{_quoted(version.kind)},"id":{_quoted(version.item_id)},'
        f'"stamp":{version.stamp},"device":{_quoted(version.device)},"judge":{judge},'
        f'"saved_at":{_quoted(saved_at)},"body":{version.body}}}'
    )


def encode(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def encode_with_items(key: str, texts: Sequence[str], payload: Mapping[str, Any]) -> bytes:
    """`payload` with `key` added first: a list of ITEMs given as JSON texts (`item_text`)."""
    rest = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))[1:]
    tail = "}" if rest == "}" else "," + rest
    return (f'{{"{key}":[' + ",".join(texts) + "]" + tail).encode("utf-8")


def decode(data: bytes) -> Any:
    """JSON from a peer; Refusal("malformed") for anything that is not (deep nesting included)."""
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as exc:
        kind = "nested too deeply" if isinstance(exc, RecursionError) else "not UTF-8 JSON"
        raise Refusal("malformed", f"the request is {kind}") from None


def parse_item(entry: Any, where: str, event_id: str, regulation: Regulation) -> ItemVersion:
    """One ITEM, every field checked for type and form; InvalidInput names what is wrong."""
    if not isinstance(entry, dict):
        raise InvalidInput(f"{where}: must be an object", where)
    kind = entry.get("kind")
    if not isinstance(kind, str):
        raise InvalidInput(f"{where}.kind: must be text", f"{where}.kind")
    item_id = uuid_text(entry.get("id"), f"{where}.id")
    stamp = entry.get("stamp")
    if isinstance(stamp, bool) or not isinstance(stamp, int) or not 0 < stamp <= MAX_STAMP:
        raise InvalidInput(f"{where}.stamp: must be a positive whole number", f"{where}.stamp")
    device = entry.get("device")
    if not isinstance(device, str) or not (device == "" or _DEVICE.fullmatch(device)):
        raise InvalidInput(f"{where}.device: not a device id", f"{where}.device")
    judge = entry.get("judge")
    if judge is not None and (not isinstance(judge, str) or len(judge) > 60):
        raise InvalidInput(f"{where}.judge: must be text or null", f"{where}.judge")
    saved_at = validate.iso_datetime(entry.get("saved_at"), f"{where}.saved_at")
    if kind == EVENT and item_id != event_id:
        raise InvalidInput(f"{where}.id: the settings of another event", f"{where}.id")
    given = entry.get("body")
    body = check_body(kind, given, where, regulation)
    check_item_id(kind, item_id, event_id, given, where)  # `given` equals `body` once checked
    return ItemVersion(kind, item_id, event_id, stamp, device, judge, saved_at, body, given)


def parse_items(value: Any, where: str, event_id: str, regulation: Regulation) -> list[ItemVersion]:
    if not isinstance(value, list):
        raise InvalidInput(f"{where}: must be a list", where)
    if len(value) > PAGE_ITEMS:
        raise InvalidInput(f"{where}: more than {PAGE_ITEMS} items in one page", where)
    return [parse_item(e, f"{where}[{i}]", event_id, regulation) for i, e in enumerate(value)]


def whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_STAMP:
        raise InvalidInput(f"{where}: must be a whole number", where)
    return value


def uuid_text(value: Any, where: str) -> str:
    if isinstance(value, str) and _UUID.fullmatch(value):
        return value  # what str(uuid.UUID(value)) gives back: the canonical form
    if not isinstance(value, str):
        raise InvalidInput(f"{where}: must be a UUID", where)
    try:
        parsed = str(uuid.UUID(value))
    except ValueError:
        raise InvalidInput(f"{where}: not a UUID", where) from None
    if parsed != value:
        raise InvalidInput(f"{where}: not a UUID in lower-case canonical form", where)
    return parsed


def device_id(value: str) -> bool:
    return bool(_DEVICE.fullmatch(value))


def hex_text(value: str) -> bool:
    return bool(_HEX.fullmatch(value))


def now_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)
