"""The sync protocol's pieces (records/sync/protocol.py), at the edges mutation testing found
untested: what a signature covers (each header, the body), the answer's signature, refusals as
a peer reads them, and every check of an ITEM a peer sends, at its limits."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from records_support import JST

from records.errors import InvalidInput
from records.model import Event, Player, Record
from records.sync import protocol
from records.sync.codes import Secret
from records.sync.hlc import MAX_STAMP
from records.sync.items import EVENT, RECORD, ItemVersion, event_body, record_body
from records.sync.protocol import Refusal
from regulation.model import Regulation

KEY = Secret("0f" * 32)
OTHER_KEY = Secret("f0" * 32)
EVENT_ID = "6f1d2a9c-0000-4000-8000-000000000001"
RECORD_ID = "6f1d2a9c-0000-4000-8000-000000000011"
HEADERS = {
    "X-Sync-Event": EVENT_ID,
    "X-Sync-Device": "a1" * 8,
    "X-Sync-Key": "k1",
    "X-Sync-Time": "1764300000000",
    "X-Sync-Nonce": "0123456789abcdef" * 2,
}
SAVED = datetime(2026, 11, 28, 13, 5, 30, 123456, tzinfo=JST)


def test_a_refusal_is_one_line_with_its_status_and_body() -> None:
    refused = Refusal("clock", "your clock\n is  off")
    assert (refused.code, refused.message, refused.status) == ("clock", "your clock is off", 401)
    assert json.loads(refused.body()) == {"error": "clock", "message": "your clock is off"}
    assert str(refused) == "your clock\n is  off"
    assert Refusal("too_large", "x").status == 413
    assert Refusal("bad_item", "x").status == 422
    assert Refusal("other_event", "x").status == 404


def test_the_signature_covers_method_path_each_header_and_the_body() -> None:
    text = protocol.signing_text("POST", protocol.PATH, HEADERS, b"{}")
    assert text.decode().split("\n") == [
        "POST",
        "/sync/v1",
        *HEADERS.values(),
        hashlib.sha256(b"{}").hexdigest(),
    ]
    signature = protocol.sign(KEY, text)
    assert len(signature) == 64 and protocol.hex_text(signature)
    assert protocol.signature_ok(KEY, text, signature)
    assert not protocol.signature_ok(OTHER_KEY, text, signature)
    changed = [
        protocol.signing_text("GET", protocol.PATH, HEADERS, b"{}"),
        protocol.signing_text("POST", "/sync/v2", HEADERS, b"{}"),
        protocol.signing_text("POST", protocol.PATH, HEADERS, b"{ }"),
    ]
    for name in HEADERS:
        changed.append(protocol.signing_text("POST", protocol.PATH, {**HEADERS, name: "0"}, b"{}"))
    for other in changed:
        assert not protocol.signature_ok(KEY, other, signature)
    missing = protocol.signing_text("POST", protocol.PATH, {}, b"")
    assert missing.decode().split("\n")[2:7] == [""] * 5


def test_the_answer_is_signed_over_the_nonce_status_time_and_body() -> None:
    text = protocol.answer_text("n1", 200, "1764300000000", b'{"items":[]}')
    assert text.decode().split("\n") == [
        "answer",
        "n1",
        "200",
        "1764300000000",
        hashlib.sha256(b'{"items":[]}').hexdigest(),
    ]
    assert protocol.answer_text("n1", 401, "1764300000000", b'{"items":[]}') != text


def test_json_both_ways() -> None:
    assert protocol.encode({"judge": "佐藤", "cursor": 3}) == '{"judge":"佐藤","cursor":3}'.encode()
    assert protocol.decode('{"judge":"佐藤"}'.encode()) == {"judge": "佐藤"}
    for data, kind in (
        (b"\xff\xfe", "not UTF-8 JSON"),
        (b"{", "not UTF-8 JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ):
        with pytest.raises(Refusal) as refused:
            protocol.decode(data)
        assert (refused.value.code, refused.value.message) == (
            "malformed",
            f"the request is {kind}",
        )


def a_record() -> Record:
    return Record(
        RECORD_ID,
        EVENT_ID,
        SAVED,
        SAVED,
        2,
        "12",
        Player("山田太郎", "A-1"),
        "bribery",
        "caution",
        None,
    )


def item(**changes: Any) -> dict[str, Any]:
    entry = {
        "kind": RECORD,
        "id": RECORD_ID,
        "stamp": 1 << 20,
        "device": "a1" * 8,
        "judge": "佐藤",
        "saved_at": SAVED.isoformat(timespec="microseconds"),
        "body": json.loads(record_body(a_record())),
    }
    entry.update(changes)
    return entry


def test_an_item_and_its_json_are_the_same_version(regulation: Regulation) -> None:
    version = protocol.parse_item(item(), "push[0]", EVENT_ID, regulation)
    assert version == ItemVersion(
        RECORD, RECORD_ID, EVENT_ID, 1 << 20, "a1" * 8, "佐藤", SAVED, record_body(a_record())
    )
    assert protocol.item_json(version) == item()
    assert protocol.parse_item(item(judge=None, device=""), "p", EVENT_ID, regulation).judge is None
    assert protocol.parse_item(item(judge="j" * 60), "p", EVENT_ID, regulation).judge == "j" * 60
    assert protocol.parse_item(item(stamp=1), "p", EVENT_ID, regulation).stamp == 1
    top = protocol.parse_item(item(stamp=MAX_STAMP), "p", EVENT_ID, regulation)
    assert top.stamp == MAX_STAMP
    assert protocol.parse_item(item(device="ab" * 32), "p", EVENT_ID, regulation).device


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"kind": 3}, "push[0].kind", "must be text"),
        ({"id": None}, "push[0].id", "must be a UUID"),
        ({"id": "nope"}, "push[0].id", "not a UUID"),
        ({"id": RECORD_ID.upper()}, "push[0].id", "lower-case canonical form"),
        ({"stamp": 0}, "push[0].stamp", "positive whole number"),
        ({"stamp": -1}, "push[0].stamp", "positive whole number"),
        ({"stamp": MAX_STAMP + 1}, "push[0].stamp", "positive whole number"),
        ({"stamp": True}, "push[0].stamp", "positive whole number"),
        ({"stamp": 1.0}, "push[0].stamp", "positive whole number"),
        ({"device": "a1" * 3 + "a"}, "push[0].device", "not a device id"),
        ({"device": "a1" * 32 + "a"}, "push[0].device", "not a device id"),
        ({"device": "A1" * 8}, "push[0].device", "not a device id"),
        ({"device": 12}, "push[0].device", "not a device id"),
        ({"judge": "j" * 61}, "push[0].judge", "must be text or null"),
        ({"judge": 5}, "push[0].judge", "must be text or null"),
        ({"saved_at": "yesterday"}, "push[0].saved_at", "not an ISO 8601"),
        ({"kind": "wat"}, "push[0].kind", "unknown kind"),
        ({"kind": EVENT}, "push[0].id", "the settings of another event"),
    ],
)
def test_each_field_of_an_item_is_checked(
    regulation: Regulation, change: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        protocol.parse_item(item(**change), "push[0]", EVENT_ID, regulation)
    assert refused.value.field == field
    assert str(refused.value).startswith(f"{field}: ")
    assert words in str(refused.value)


def test_an_item_that_is_not_an_object_is_refused(regulation: Regulation) -> None:
    with pytest.raises(InvalidInput) as refused:
        protocol.parse_item([], "push[3]", EVENT_ID, regulation)
    assert (refused.value.field, str(refused.value)) == ("push[3]", "push[3]: must be an object")


def test_an_events_own_settings_are_an_item(regulation: Regulation) -> None:
    body = json.loads(event_body(Event(EVENT_ID, "地区大会", None)))
    version = protocol.parse_item(
        item(kind=EVENT, id=EVENT_ID, body=body), "push[0]", EVENT_ID, regulation
    )
    assert (version.kind, version.item_id) == (EVENT, EVENT_ID)


def test_a_page_of_items(regulation: Regulation) -> None:
    page = protocol.parse_items([item(), item(stamp=5)], "items", EVENT_ID, regulation)
    assert [v.stamp for v in page] == [1 << 20, 5]
    assert protocol.parse_items([], "items", EVENT_ID, regulation) == []
    with pytest.raises(InvalidInput) as refused:
        protocol.parse_items([item(), item(stamp=0)], "items", EVENT_ID, regulation)
    assert refused.value.field == "items[1].stamp"
    with pytest.raises(InvalidInput) as refused:
        protocol.parse_items({"0": item()}, "push", EVENT_ID, regulation)
    assert (refused.value.field, str(refused.value)) == ("push", "push: must be a list")
    with pytest.raises(InvalidInput) as refused:
        protocol.parse_items([None] * (protocol.PAGE_ITEMS + 1), "push", EVENT_ID, regulation)
    assert (refused.value.field, str(refused.value)) == (
        "push",
        "push: more than 1000 items in one page",
    )
    with pytest.raises(InvalidInput) as refused:  # a full page is read, item by item
        protocol.parse_items([None] * protocol.PAGE_ITEMS, "push", EVENT_ID, regulation)
    assert refused.value.field == "push[0]"


def test_whole_numbers_uuids_device_ids_and_hex() -> None:
    assert protocol.whole(0, "cursor") == 0
    assert protocol.whole(MAX_STAMP, "cursor") == MAX_STAMP
    for bad in (-1, MAX_STAMP + 1, True, 1.0, "1", None):
        with pytest.raises(InvalidInput) as refused:
            protocol.whole(bad, "cursor")
        assert (refused.value.field, str(refused.value)) == (
            "cursor",
            "cursor: must be a whole number",
        )
    assert protocol.uuid_text(EVENT_ID, "event") == EVENT_ID
    assert protocol.device_id("a1" * 4) and protocol.device_id("f" * 64)
    assert not protocol.device_id("a1" * 3 + "a") and not protocol.device_id("f" * 65)
    assert not protocol.device_id("g" * 16) and not protocol.device_id("")
    assert protocol.hex_text("0" * 16) and protocol.hex_text("ab" * 32)
    assert not protocol.hex_text("0" * 15) and not protocol.hex_text("0" * 65)
    assert not protocol.hex_text("0" * 15 + "G")


def test_milliseconds_since_the_epoch() -> None:
    assert protocol.now_ms(datetime(1970, 1, 1, 0, 0, 1, 999, tzinfo=UTC)) == 1000
    later = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(days=20_000, microseconds=5_999)
    assert protocol.now_ms(later) == 20_000 * 86_400_000 + 5
