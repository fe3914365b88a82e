"""Venue sync's security: every request signed with a key from the join code (which never
travels), replays, other events, oversized, deeply nested or ill-typed bodies, old and wrong
codes — each refused with a clear answer, nothing changed, the host still serving the others."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from records_support import entry
from sync_support import Proxy, post, signed_headers

from records.errors import InvalidInput
from records.store import LogStore
from records.sync import codes, protocol
from records.sync.service import SyncService
from regulation.model import Regulation


@dataclass
class Venue:
    host: LogStore
    host_sync: SyncService
    joiner: LogStore
    joiner_sync: SyncService
    event_id: str
    port: int
    code: str

    def snapshot(self) -> tuple[Any, ...]:
        records = self.host.records(self.event_id, include_deleted=True, newest_first=False)
        return records, self.host.export_versions(self.event_id), self.host.event(self.event_id)

    def rejoin(self) -> None:
        self.joiner_sync.leave()
        assert self.joiner_sync.join(f"127.0.0.1:{self.port}", self.code).ok

    def still_serves(self) -> None:
        """The joined device saves a record and it reaches the host."""
        record = self.joiner.add_record(self.event_id, entry(f"確認{time.monotonic_ns()}"))
        result = self.joiner_sync.sync_now()
        assert result.ok and result.pushed >= 1, result
        assert self.host.record(record.id) == record


def now_ms() -> int:
    return int(time.time() * 1000)


@pytest.fixture
def venue(regulation: Regulation, tmp_path: Path) -> Iterator[Venue]:
    host = LogStore.open(regulation, tmp_path / "host" / "log.sqlite3")
    joiner = LogStore.open(regulation, tmp_path / "joiner" / "log.sqlite3")
    host_sync, joiner_sync = SyncService.for_store(host), SyncService.for_store(joiner)
    host_sync.set_judge("佐藤")
    joiner_sync.set_judge("鈴木")
    event = host.create_event("県大会")
    host.add_record(event.id, entry("山田太郎"))
    status = host_sync.host(event.id, bind="127.0.0.1", port=0)
    assert status.port and status.code
    assert joiner_sync.join(status.addresses[0], status.code).ok
    try:
        yield Venue(host, host_sync, joiner, joiner_sync, event.id, status.port, status.code)
    finally:
        host_sync.close()
        joiner_sync.close()
        host.close()
        joiner.close()


def push_body(items: list[dict[str, Any]] | None = None) -> bytes:
    return json.dumps({"judge": "x", "cursor": 0, "push": items or []}).encode()


def refusal(answer: Any) -> str:
    return str(json.loads(answer.body)["error"])


def a_valid_item(venue: Venue) -> dict[str, Any]:
    """A correct version of a new record, as a device would push it."""
    record = [v for v in venue.host.export_versions(venue.event_id) if v.kind == "record"][-1]
    item = protocol.item_json(record)
    item["id"] = "0c7a1d52-5b1e-4a43-9d8e-2f5d0e6b7a11"
    item["stamp"] += 1
    return item


def test_a_wrong_code_is_refused_and_changes_nothing(venue: Venue) -> None:
    before = venue.snapshot()
    wrong = codes.new_code().value
    body = push_body([a_valid_item(venue)])
    answer = post(venue.port, signed_headers(wrong, venue.event_id, body, time_ms=now_ms()), body)
    assert (answer.status, refusal(answer)) == (401, "wrong_code")
    # The right key id with a forged signature is refused the same way.
    headers = signed_headers(venue.code, venue.event_id, body, time_ms=now_ms())
    headers["X-Sync-Signature"] = "0" * 64
    answer = post(venue.port, headers, body)
    assert (answer.status, refusal(answer)) == (401, "wrong_code")
    assert venue.snapshot() == before
    venue.still_serves()


def test_wrong_codes_are_rate_limited_but_the_right_one_still_works(venue: Venue) -> None:
    body = push_body()
    statuses = [
        post(
            venue.port,
            signed_headers(codes.new_code().value, venue.event_id, body, time_ms=now_ms()),
            body,
        ).status
        for _ in range(15)
    ]
    assert statuses[:10] == [401] * 10 and statuses[-1] == 429
    venue.still_serves()  # the same address, with the right code


def test_an_old_code_stops_working_at_once_and_says_so(venue: Venue) -> None:
    old = venue.code
    status = venue.host_sync.new_code()
    assert status.code and status.code != old
    result = venue.joiner_sync.sync_now()
    assert not result.ok and result.problem and "replaced" in result.problem
    assert old not in result.problem and status.code not in result.problem
    assert "replaced" in (venue.joiner_sync.status().problem or "")
    body = push_body()
    answer = post(venue.port, signed_headers(old, venue.event_id, body, time_ms=now_ms()), body)
    assert (answer.status, refusal(answer)) == (401, "old_code")
    # Joining again with the new code works.
    assert venue.joiner_sync.join(f"127.0.0.1:{venue.port}", status.code).ok


def test_a_replayed_request_is_refused(venue: Venue) -> None:
    proxy = Proxy(venue.port, capture=True)
    try:
        venue.joiner_sync.leave()
        assert venue.joiner_sync.join(proxy.url, venue.code).ok
        proxy.seen.clear()
        record = venue.joiner.add_record(venue.event_id, entry("再送"))
        assert venue.joiner_sync.sync_now().pushed == 1
        captured = bytes(proxy.seen)
    finally:
        proxy.close()
    assert venue.host.record(record.id) is not None
    before = venue.snapshot()
    with socket.create_connection(("127.0.0.1", venue.port), 5) as sock:
        sock.sendall(captured)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.0 401") and b'"replay"' in answer
    assert venue.snapshot() == before
    venue.rejoin()
    venue.still_serves()


def test_a_request_captured_before_the_host_restarts_is_refused_after_it(
    venue: Venue, regulation: Regulation, tmp_path: Path
) -> None:
    """The host remembers the nonces it has seen in memory only: a request recorded off the
    network before a restart, sent again after it (well within the time window), is refused and
    changes nothing, and the joined device syncs on."""
    proxy = Proxy(venue.port, capture=True)
    try:
        venue.joiner_sync.leave()
        assert venue.joiner_sync.join(proxy.url, venue.code).ok
        proxy.seen.clear()
        venue.joiner.add_record(venue.event_id, entry("再送"))
        assert venue.joiner_sync.sync_now().pushed == 1
        captured = bytes(proxy.seen)
    finally:
        proxy.close()
    # The host restarts: a new process on the same log, the same event, code and port.
    venue.host_sync.close()
    venue.host.close()
    time.sleep(0.01)  # the restart takes at least this long (a stamp in the same ms is not before)
    host = LogStore.open(regulation, tmp_path / "host" / "log.sqlite3")
    host_sync = SyncService.for_store(host)
    try:
        status = host_sync.host(venue.event_id, bind="127.0.0.1", port=venue.port)
        assert status.code == venue.code
        venue.host, venue.host_sync = host, host_sync
        before = venue.snapshot()
        with socket.create_connection(("127.0.0.1", venue.port), 5) as sock:
            sock.sendall(captured)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.0 401"), answer[:200]
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"] in ("clock", "replay")
        assert venue.snapshot() == before
        venue.rejoin()
        venue.still_serves()
    finally:
        host_sync.close()
        host.close()


def test_the_code_and_the_key_never_travel(venue: Venue, regulation: Regulation) -> None:
    proxy = Proxy(venue.port, capture=True)
    try:
        venue.joiner_sync.leave()
        assert venue.joiner_sync.join(proxy.url, venue.code).ok
        venue.joiner.add_record(venue.event_id, entry("山田"))
        assert venue.joiner_sync.sync_now().ok
    finally:
        proxy.close()
    venue.rejoin()
    sent = bytes(proxy.seen)
    assert b"POST /sync/v1" in sent  # the capture did see the requests
    key = codes.derive_key(codes.parse_code(venue.code), venue.event_id).value
    for secret in (venue.code, venue.code.replace("-", ""), venue.code.lower(), key):
        assert secret.encode() not in sent
    assert venue.code not in repr(venue.joiner_sync.ledger.state())


def test_another_events_id_is_refused(venue: Venue) -> None:
    before = venue.snapshot()
    other = "0c7a1d52-0000-4000-8000-000000000000"
    body = push_body()
    answer = post(venue.port, signed_headers(venue.code, other, body, time_ms=now_ms()), body)
    assert (answer.status, refusal(answer)) == (404, "other_event")
    assert venue.snapshot() == before
    venue.still_serves()


def test_a_100_mb_body_is_refused_before_it_is_read(venue: Venue) -> None:
    before = venue.snapshot()
    size = 100 * 1024 * 1024
    headers = signed_headers(venue.code, venue.event_id, b"", time_ms=now_ms())
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    request = f"POST {protocol.PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: {size}\r\n{head}\r\n"
    with socket.create_connection(("127.0.0.1", venue.port), 5) as sock:
        sock.sendall(request.encode() + b"[" * 65536)  # a first slice; the rest never comes
        started = time.monotonic()
        answer = b""
        try:
            while b'"}' not in answer and (chunk := sock.recv(65536)):
                answer += chunk
        except ConnectionResetError:  # the host closed with the unread rest still coming
            pass
    assert answer.startswith(b"HTTP/1.0 413") and b'"too_large"' in answer
    assert time.monotonic() - started < 5  # answered without waiting for the 100 MB
    assert venue.snapshot() == before
    venue.still_serves()


def test_deeply_nested_json_is_refused(venue: Venue) -> None:
    before = venue.snapshot()
    body = b"[" * 100_000 + b"]" * 100_000
    answer = post(
        venue.port, signed_headers(venue.code, venue.event_id, body, time_ms=now_ms()), body
    )
    assert (answer.status, refusal(answer)) == (400, "malformed")
    assert "nested" in json.loads(answer.body)["message"]
    assert venue.snapshot() == before
    venue.still_serves()


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("stamp", "123", "push[0].stamp"),
        ("saved_at", 12, "push[0].saved_at"),
        ("judge", ["佐藤"], "push[0].judge"),
        ("kind", "clock-round", "push[0].kind"),
        ("body.round", "3", "push[0].body.round"),
        ("body.deleted", "no", "push[0].body.deleted"),
        ("body.player", "山田", "push[0].body.player"),
        ("body.table", " 3 ", "push[0].body"),  # not as every device would store it
    ],
)
def test_a_field_of_the_wrong_type_is_refused_and_named(
    venue: Venue, field: str, value: Any, named: str
) -> None:
    before = venue.snapshot()
    item = a_valid_item(venue)
    target = item
    *parents, last = field.split(".")
    for parent in parents:
        target = target[parent]
    target[last] = value
    body = push_body([a_valid_item(venue), item])
    answer = post(
        venue.port, signed_headers(venue.code, venue.event_id, body, time_ms=now_ms()), body
    )
    assert (answer.status, refusal(answer)) == (422, "bad_item")
    assert named.replace("push[0]", "push[1]") in json.loads(answer.body)["message"]
    assert venue.snapshot() == before  # the valid first item was not stored either
    venue.still_serves()


def test_malformed_requests_get_a_clear_answer(venue: Venue) -> None:
    before = venue.snapshot()
    assert refusal(post(venue.port, {}, b"{}")) == "malformed"  # no sync headers
    body = b"\xff\xfe not json"
    answer = post(
        venue.port, signed_headers(venue.code, venue.event_id, body, time_ms=now_ms()), body
    )
    assert (answer.status, refusal(answer)) == (400, "malformed")
    body = b'{"cursor": -1, "push": []}'
    answer = post(
        venue.port, signed_headers(venue.code, venue.event_id, body, time_ms=now_ms()), body
    )
    assert (answer.status, refusal(answer)) == (422, "bad_item")
    answer = post(venue.port, {}, b"", path="/")
    assert answer.status == 400 and b"only POST" in answer.body
    assert venue.snapshot() == before
    venue.still_serves()


def test_a_device_whose_clock_is_15_minutes_behind_still_syncs(venue: Venue) -> None:
    venue.joiner.clock = lambda: datetime.now().astimezone() - timedelta(minutes=15)
    venue.still_serves()
    # A request stamped 15 minutes off is refused (signed, with the host's time), not stored.
    body = push_body([a_valid_item(venue)])
    stale = now_ms() - 15 * 60 * 1000
    answer = post(venue.port, signed_headers(venue.code, venue.event_id, body, time_ms=stale), body)
    assert (answer.status, refusal(answer)) == (401, "clock")
    assert "X-Sync-Signature" in answer.headers and "X-Sync-Time" in answer.headers


def test_join_codes_have_60_bits_grouped_for_typing() -> None:
    drawn = {codes.new_code().value for _ in range(2000)}
    assert len(drawn) == 2000
    for code in drawn:
        assert re.fullmatch(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", code)
    assert len(codes.ALPHABET) ** codes.CODE_LENGTH >= 2**60
    assert not set("01IO") & set(codes.ALPHABET)
    code = next(iter(drawn))
    typed = " " + code.lower().replace("-", " ") + " "
    assert codes.parse_code(typed).value == code
    assert (
        codes.parse_code(code.translate(str.maketrans("ABCDEFGH", "ＡＢＣＤＥＦＧＨ"))).value
        == code
    )
    for bad in ("WXYZ-2345", "WXYZ-2345-678O", "WXYZ-2345-6789-Q", "WXYZ-2345-678I"):
        with pytest.raises(InvalidInput) as caught:
            codes.parse_code(bad)
        assert bad not in str(caught.value)  # a typed code is never repeated back
    parsed = codes.parse_code(code)
    assert code not in repr(parsed) and code not in str(parsed)
