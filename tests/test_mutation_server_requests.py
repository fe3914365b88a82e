"""Mutation tests for records/sync/server.py (the host's listener), request by request: each
check of `SyncServer.handle` refuses with its code and its one line, reads no body it should not,
and stores nothing; a request that passes them all is stored, paged and answered, signed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from records_support import entry
from server_support import (
    DEVICE,
    EVENT,
    KEY,
    OLD_KEY,
    SAVE_FAILED,
    START_MS,
    WRONG_KEY,
    Reader,
    answer_signed,
    headers,
    host,
    payload,
)

from records.store import LogStore
from records.sync import protocol, server
from records.sync.protocol import Refusal
from regulation.model import Regulation


def ask(sync: server.SyncServer, body: bytes, sent: dict[str, str], **kw: Any) -> Any:
    reader = Reader(body)
    method, path = kw.get("method", "POST"), kw.get("path", protocol.PATH)
    status, answer, signed = sync.handle(kw.get("address", "10.0.0.9"), method, path, sent, reader)
    return status, json.loads(answer), signed, reader


def refused(sync: server.SyncServer, body: bytes, sent: dict[str, str], **kw: Any) -> Refusal:
    reader = Reader(body)
    method, path = kw.get("method", "POST"), kw.get("path", protocol.PATH)
    with pytest.raises(Refusal) as caught:
        sync.handle(kw.get("address", "10.0.0.9"), method, path, sent, reader)
    kw.get("asked", []).extend(reader.asked)
    return caught.value


def line(refusal: Refusal) -> tuple[str, int, str]:
    return refusal.code, refusal.status, refusal.message


def test_a_signed_push_is_stored_paged_and_answered_signed(regulation: Regulation) -> None:
    sync, log, wall, seen = host(regulation)
    wall.ms = START_MS + 60_000
    body = payload(cursor=40, judge="鈴木")
    sent = headers(body, time_ms=START_MS + 1_000)
    status, answer, signed, reader = ask(sync, body, sent)
    assert status == 200
    assert answer == {"items": [{"page_of": 40}], "cursor": 45, "more": True, "accepted": 3}
    assert log.received == [(EVENT, [], DEVICE, "鈴木")]
    assert log.pages == [(EVENT, 40, DEVICE)]
    assert seen.calls == [(DEVICE, "鈴木", 3)]
    assert reader.asked == [len(body)]
    raw = sync.handle("10.0.0.9", "POST", protocol.PATH, headers(body), Reader(body))[1]
    assert signed == {
        "X-Sync-Time": str(START_MS + 60_000),
        "X-Sync-Signature": answer_signed(
            KEY, sent["X-Sync-Nonce"], 200, raw, str(START_MS + 60_000)
        ),
    }


def test_the_versions_pushed_reach_the_log_as_parsed(
    regulation: Regulation, tmp_path: Path
) -> None:
    store = LogStore.open(regulation, tmp_path / "log.sqlite3")
    try:
        event = store.create_event("県大会")
        store.update_event(event.id, "県大会", None)
        store.add_record(event.id, entry("山田太郎"))
        versions = store.export_versions(event.id)
    finally:
        store.close()
    sync, log, _, seen = host(regulation, event.id)
    items = [protocol.item_json(v) for v in versions]
    assert {item["kind"] for item in items} >= {"event", "record"}
    body = payload(cursor=0, push=items, judge=None)
    status, answer, _, _ = ask(sync, body, headers(body, event_id=event.id))
    assert status == 200 and answer["accepted"] == len(items) + 3
    [(event_id, stored, device, judge)] = log.received
    assert (event_id, device, judge) == (event.id, DEVICE, None)
    assert [(v.kind, v.item_id, v.stamp, v.body) for v in stored] == [
        (v.kind, v.item_id, v.stamp, v.body) for v in versions
    ]
    assert seen.calls == [(DEVICE, None, len(items) + 3)]


def test_the_hello_names_the_event_and_nothing_else(regulation: Regulation) -> None:
    sync, log, _, _ = host(regulation)
    for _ in range(server.FAILURES_PER_ADDRESS + 1):  # even for an address that is limited
        sync.guard.failed("10.0.0.9")
    status, answer, signed, reader = ask(sync, b"", {}, method="GET", path=protocol.HELLO_PATH)
    assert (status, answer, signed, reader.asked) == (200, {"event": EVENT, "protocol": 1}, {}, [])
    assert log.received == log.pages == []


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", protocol.HELLO_PATH), ("GET", protocol.PATH), ("PUT", protocol.PATH), ("GET", "/")],
)
def test_only_post_to_the_sync_path_is_served(
    regulation: Regulation, method: str, path: str
) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    refusal = refused(sync, body, headers(body, method=method, path=path), method=method, path=path)
    assert line(refusal) == ("malformed", 400, "only POST /sync/v1 is served here")
    assert log.received == []


@pytest.mark.parametrize("name", ["Event", "Device", "Key", "Time", "Nonce", "Signature"])
@pytest.mark.parametrize("value", [None, ""])
def test_a_request_without_a_sync_header_is_refused_unread(
    regulation: Regulation, name: str, value: str | None
) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    sent = headers(body)
    if value is None:
        del sent[f"X-Sync-{name}"]
    else:
        sent[f"X-Sync-{name}"] = value
    asked: list[int] = []
    refusal = refused(sync, body, sent, asked=asked)
    assert line(refusal) == ("malformed", 400, "the request lacks the sync headers")
    assert (asked, log.received) == ([], [])


def test_another_events_request_is_told_to_check_the_address(regulation: Regulation) -> None:
    sync, log, _, _ = host(regulation)
    other = "1f8e6d4c-2b1a-4c3d-8e9f-0a1b2c3d4e5f"
    body = payload()
    refusal = refused(sync, body, headers(body, event_id=other))
    message = "this host shares another event; check the address"
    assert line(refusal) == ("other_event", 404, message)
    assert log.received == []


def test_a_wrong_code_and_a_replaced_one_are_told_apart_and_counted(
    regulation: Regulation,
) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    asked: list[int] = []
    old = refused(sync, body, headers(body, key=OLD_KEY), asked=asked)
    message = "the join code was replaced: ask the host for the new code"
    assert line(old) == ("old_code", 401, message)
    wrong = refused(sync, body, headers(body, key=WRONG_KEY), asked=asked)
    assert line(wrong) == ("wrong_code", 401, "wrong join code")
    assert (asked, log.received) == ([], [])
    # Both count against the address: ten in a burst, then it is limited.
    for _ in range(server.FAILURES_PER_ADDRESS - 2):
        refused(sync, body, headers(body, key=OLD_KEY))
    limited = refused(sync, body, headers(body, key=OLD_KEY))
    assert line(limited) == ("rate_limited", 429, "too many wrong join codes; wait a minute")
    # Another address is not limited, and the right code is served at the limited one.
    other = refused(sync, body, headers(body, key=OLD_KEY), address="10.0.0.8")
    assert other.code == "old_code"
    assert ask(sync, body, headers(body))[0] == 200


def test_a_forged_signature_is_a_wrong_code_counted_against_its_address(
    regulation: Regulation,
) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    for _ in range(server.FAILURES_PER_ADDRESS):
        sent = headers(body)
        sent["X-Sync-Signature"] = "0" * 64
        assert line(refused(sync, body, sent)) == ("wrong_code", 401, "wrong join code")
    sent = headers(body)
    sent["X-Sync-Signature"] = "0" * 64
    limited = refused(sync, body, sent)
    assert line(limited) == ("rate_limited", 429, "too many wrong join codes; wait a minute")
    # A body changed after signing is as forged as a made-up signature.
    sent = headers(body)
    assert refused(sync, payload(cursor=1), sent, address="10.0.0.7").code == "wrong_code"
    assert log.received == []
    assert ask(sync, body, headers(body))[0] == 200


@pytest.mark.parametrize(
    ("device", "nonce"),
    [("D" * 32, "a" * 32), ("d" * 7, "a" * 32), ("d" * 32, "A" * 32), ("d" * 32, "a" * 15)],
)
def test_a_device_id_or_nonce_out_of_form_is_refused_unread(
    regulation: Regulation, device: str, nonce: str
) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    asked: list[int] = []
    refusal = refused(sync, body, headers(body, device=device, nonce=nonce), asked=asked)
    assert line(refusal) == ("malformed", 400, "a sync header is not in its form")
    assert (asked, log.received) == ([], [])


@pytest.mark.parametrize("length", [None, "", "12a", "1.5"])
def test_a_request_without_a_length_is_refused_unread(
    regulation: Regulation, length: str | None
) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    sent = headers(body)
    if length is None:
        del sent["Content-Length"]
    else:
        sent["Content-Length"] = length
    asked: list[int] = []
    refusal = refused(sync, body, sent, asked=asked)
    assert line(refusal) == ("malformed", 400, "the request has no length")
    assert (asked, log.received) == ([], [])


@pytest.mark.parametrize("length", [-1, protocol.MAX_BODY + 1])
def test_a_declared_size_out_of_bounds_is_refused_unread(
    regulation: Regulation, length: int
) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    sent = headers(body)
    sent["Content-Length"] = str(length)
    asked: list[int] = []
    refusal = refused(sync, body, sent, asked=asked)
    message = "the request is larger than 4194304 bytes"
    assert line(refusal) == ("too_large", 413, message)
    assert (asked, log.received) == ([], [])


def test_a_body_of_the_largest_size_is_read_and_served(regulation: Regulation) -> None:
    sync, log, _, _ = host(regulation)
    body = payload(cursor=7)
    body += b" " * (protocol.MAX_BODY - len(body))  # JSON may end in white space
    status, answer, _, reader = ask(sync, body, headers(body))
    assert (status, answer["cursor"], reader.asked) == (200, 12, [protocol.MAX_BODY])
    assert len(log.received) == 1


def test_an_empty_body_is_read_and_refused_as_not_json(regulation: Regulation) -> None:
    sync, log, _, _ = host(regulation)
    asked: list[int] = []
    refusal = refused(sync, b"", headers(b""), asked=asked)
    assert line(refusal) == ("malformed", 400, "the request is not UTF-8 JSON")
    assert (asked, log.received) == ([0], [])


def test_a_time_that_is_no_number_is_refused_after_the_signature(regulation: Regulation) -> None:
    sync, log, _, _ = host(regulation)
    body = payload()
    sent = headers(body)
    sent["X-Sync-Time"] = "soon"
    assert refused(sync, body, sent).code == "wrong_code"  # the time is signed too
    sent = headers(body, time_ms=0)
    sent["X-Sync-Time"] = "soon"
    values = {k: v for k, v in sent.items() if k.startswith("X-Sync-")}
    sent["X-Sync-Signature"] = protocol.sign(
        KEY, protocol.signing_text("POST", protocol.PATH, values, body)
    )
    refusal = refused(sync, body, sent)
    assert line(refusal) == ("malformed", 400, "X-Sync-Time is not a number")
    assert log.received == []


def clock_refusal(sync: server.SyncServer, time_ms: int) -> Refusal | None:
    body = payload()
    try:
        sync.handle("10.0.0.9", "POST", protocol.PATH, headers(body, time_ms=time_ms), Reader(body))
    except server._Signed as signed:  # answered with the host's signature: the device has the key
        return signed.refusal
    return None


def test_a_clock_off_by_more_than_the_window_is_refused_signed(regulation: Regulation) -> None:
    sync, log, wall, _ = host(regulation)
    window = protocol.WINDOW_S * 1000
    wall.ms = START_MS + 10 * window
    assert clock_refusal(sync, wall.ms - window) is None
    assert clock_refusal(sync, wall.ms + window) is None
    for off in (wall.ms - window - 1, wall.ms + window + 1, wall.ms - 3 * window):
        refusal = clock_refusal(sync, off)
        assert refusal is not None
        message = "the device's clock is off; retry on the host's"
        assert line(refusal) == ("clock", 401, message)
    assert len(log.received) == 2


def test_a_request_stamped_before_the_server_started_is_refused(regulation: Regulation) -> None:
    sync, log, wall, _ = host(regulation)
    wall.ms = START_MS + 1_000
    refusal = clock_refusal(sync, START_MS - 1)
    assert refusal is not None and refusal.code == "clock"
    assert clock_refusal(sync, START_MS) is None
    assert len(log.received) == 1


def test_a_nonce_is_accepted_once(regulation: Regulation) -> None:
    sync, log, _, seen = host(regulation)
    body = payload()
    sent = headers(body, nonce="ab" * 16)
    assert ask(sync, body, sent)[0] == 200
    refusal = refused(sync, body, dict(sent))
    assert line(refusal) == ("replay", 401, "this request was already received")
    assert len(log.received) == len(seen.calls) == 1
    assert ask(sync, body, headers(body, nonce="cd" * 16))[0] == 200


@pytest.mark.parametrize(
    ("request_body", "message"),
    [
        ([], "the request must be an object"),
        ({"cursor": -1, "push": []}, "cursor: must be a whole number"),
        ({"cursor": True, "push": []}, "cursor: must be a whole number"),
        ({"push": []}, "cursor: must be a whole number"),
        ({"cursor": 0, "push": [], "judge": 7}, "judge: must be text or null"),
        ({"cursor": 0, "push": [], "judge": "審" * 61}, "judge: must be text or null"),
        ({"cursor": 0}, "push: must be a list"),
        ({"cursor": 0, "push": {}}, "push: must be a list"),
        ({"cursor": 0, "push": [{"kind": 1}]}, "push[0]: must be an object"),
    ],
)
def test_a_body_out_of_form_is_refused_naming_the_fault(
    regulation: Regulation, request_body: Any, message: str
) -> None:
    sync, log, _, seen = host(regulation)
    body = json.dumps(request_body).encode()
    if message.startswith("push[0]"):
        body = body.replace(b'{"kind": 1}', b"[]")
    refusal = refused(sync, body, headers(body))
    assert line(refusal) == ("bad_item", 422, message)
    assert (log.received, log.pages, seen.calls) == ([], [], [])


def test_a_judge_of_sixty_characters_is_served(regulation: Regulation) -> None:
    sync, log, _, _ = host(regulation)
    body = payload(judge="審" * 60)
    assert ask(sync, body, headers(body))[0] == 200
    assert log.received[0][3] == "審" * 60


def test_a_version_of_another_event_is_refused(regulation: Regulation, tmp_path: Path) -> None:
    store = LogStore.open(regulation, tmp_path / "log.sqlite3")
    try:
        event = store.create_event("県大会")
        store.update_event(event.id, "県大会", None)
        [settings] = [v for v in store.export_versions(event.id) if v.kind == "event"]
    finally:
        store.close()
    sync, log, _, _ = host(regulation)  # serves EVENT, not this one
    body = payload(push=[protocol.item_json(settings)])
    refusal = refused(sync, body, headers(body))
    assert line(refusal) == ("bad_item", 422, "push[0].id: the settings of another event")
    assert log.received == []


def test_a_log_that_cannot_save_answers_busy_and_sees_nobody(regulation: Regulation) -> None:
    sync, log, _, seen = host(regulation)
    log.failure = SAVE_FAILED
    body = payload()
    refusal = refused(sync, body, headers(body))
    assert line(refusal) == ("busy", 503, "the host could not save: the disk is full")
    assert (log.pages, seen.calls) == ([], [])
