"""A joiner's requests to the host (records/sync/client.py), against a scripted host on
127.0.0.1 (tests/sync_host.py): the address a judge types, the hello, and the signed exchange:
what is sent, what answer is taken (a page signed back by the key), and every other answer
refused in one line with its code, the clock retried once on the host's time."""

from __future__ import annotations

import hashlib
import json

import pytest
from sync_host import (
    DEVICE,
    EVENT_ID,
    HOST_TIME,
    KEY,
    KEY_ID,
    OTHER_KEY,
    WALL,
    Host,
    Reply,
    Script,
    answer_of,
    closed_port,
    fixed,
    host,
    not_http,
    page_body,
    problem_of,
    refusal,
    signed,
)

from records.errors import InvalidInput
from records.sync import client, protocol
from records.sync.client import Page, SyncClient, SyncProblem, host_url

__all__ = ["host"]  # the fixture


# -- the address a judge types -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "url"),
    [
        ("192.168.43.1", "http://192.168.43.1:8765"),
        (" 192.168.43.1:9000\n", "http://192.168.43.1:9000"),
        ("http://venue.local/", "http://venue.local:8765"),
        ("http://10.0.0.2:81", "http://10.0.0.2:81"),
        ("[::1]", "http://[::1]:8765"),
        ("[fe80::1]:9000", "http://[fe80::1]:9000"),
    ],
)
def test_the_host_address_as_a_judge_types_it(typed: str, url: str) -> None:
    assert host_url(typed) == url


@pytest.mark.parametrize("typed", ["", "   ", None, 192])
def test_no_host_address_is_required(typed: object) -> None:
    with pytest.raises(InvalidInput) as refused:
        host_url(typed)  # type: ignore[arg-type]
    assert (str(refused.value), refused.value.field, refused.value.reason) == (
        "the host's address is required",
        "address",
        "required",
    )


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("10.0.0.2:99999", "not an address: '10.0.0.2:99999'"),
        ("10.0.0.2:port", "not an address: '10.0.0.2:port'"),
        ("https://10.0.0.2", "not an address: 'https://10.0.0.2' (type it as the host shows it)"),
        ("http://:8765", "not an address: 'http://:8765' (type it as the host shows it)"),
        ("10.0.0.2/sync", "not an address: '10.0.0.2/sync' (type it as the host shows it)"),
    ],
)
def test_an_address_that_is_none_is_refused_in_one_line(typed: str, message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        host_url(typed)
    assert (str(refused.value), refused.value.field, refused.value.reason) == (
        message,
        "address",
        "format",
    )


def test_a_problem_is_one_line_with_its_code() -> None:
    problem = SyncProblem("busy", "the host\n is   busy ")
    assert (problem.code, problem.message, str(problem)) == (
        "busy",
        "the host is busy",
        "the host\n is   busy ",
    )


# -- hello ---------------------------------------------------------------------------------------


def test_hello_asks_the_host_which_event_it_shares(host: Host) -> None:
    host.replies.append(fixed(200, json.dumps({"event": EVENT_ID}).encode()))
    assert SyncClient.hello(host.url) == EVENT_ID
    (request,) = host.requests
    assert (request.method, request.path, request.body) == ("GET", "/sync/v1/hello", b"")
    assert request.headers["Host"] == f"127.0.0.1:{host.port}"


@pytest.mark.parametrize(
    "answer",
    [
        b"<html>router</html>",
        b"\xff\xfe",
        b"[]",
        b'{"event": 5}',
        b'{"name": "x"}',
        json.dumps({"event": EVENT_ID.upper()}).encode(),
        answer_of(4097),  # read no further than 4 KiB
    ],
)
def test_a_hello_answer_that_is_not_a_hosts_is_refused(host: Host, answer: bytes) -> None:
    host.replies.append(fixed(200, answer))
    with pytest.raises(SyncProblem) as refused:
        SyncClient.hello(host.url)
    assert (refused.value.code, refused.value.message) == (
        "bad_answer",
        f"{host.url} is not a penalty guide host",
    )


def test_a_hello_answer_of_four_kib_is_read_whole(host: Host) -> None:
    assert len(answer_of(4096)) == 4096 and len(answer_of(4097)) == 4097
    host.replies.append(fixed(200, answer_of(4096)))
    assert SyncClient.hello(host.url) == EVENT_ID


def test_a_host_that_cannot_be_reached_is_one_line() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    with pytest.raises(SyncProblem) as refused:
        SyncClient.hello(url)
    assert (refused.value.code, refused.value.message) == (
        "unreachable",
        f"the host {url} cannot be reached (Connection refused)",
    )


def test_a_host_that_does_not_answer_is_given_up(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client, "TIMEOUT_S", 0.2)
    host.replies.append(fixed(200, json.dumps({"event": EVENT_ID}).encode(), delay_s=2.0))
    with pytest.raises(SyncProblem) as refused:
        SyncClient.hello(host.url)
    assert (refused.value.code, refused.value.message) == (
        "unreachable",
        f"the host {host.url} cannot be reached (TimeoutError)",
    )


# -- the exchange --------------------------------------------------------------------------------


def test_a_push_and_pull_is_one_signed_request(host: Host) -> None:
    host.replies.append(signed(200, page_body()))
    joiner = host.client()
    pushed = ['{"kind":"record","n":1}', '{"kind":"record","n":2}']
    page = joiner.exchange("佐藤", 5, pushed)
    assert page == Page([{"kind": "record"}], 7, True, 2)
    (request,) = host.requests
    assert (request.method, request.path) == ("POST", "/sync/v1")
    assert json.loads(request.body) == {
        "push": [{"kind": "record", "n": 1}, {"kind": "record", "n": 2}],
        "judge": "佐藤",
        "cursor": 5,
    }
    sent = request.headers
    assert (sent["X-Sync-Event"], sent["X-Sync-Device"], sent["X-Sync-Key"]) == (
        EVENT_ID,
        DEVICE,
        KEY_ID,
    )
    assert (sent["X-Sync-Time"], sent["Content-Type"]) == (str(WALL), "application/json")
    assert sent["Host"] == f"127.0.0.1:{host.port}"
    assert protocol.hex_text(sent["X-Sync-Nonce"]) and len(sent["X-Sync-Nonce"]) == 32
    text = protocol.signing_text("POST", protocol.PATH, sent, request.body)
    assert protocol.signature_ok(KEY, text, sent["X-Sync-Signature"])
    assert text.decode().endswith(hashlib.sha256(request.body).hexdigest())


def test_each_request_has_a_nonce_of_its_own(host: Host) -> None:
    host.replies += [signed(200, page_body()), signed(200, page_body())]
    joiner = host.client()
    joiner.exchange(None, 0, [])
    joiner.exchange(None, 0, [])
    first, second = (r.headers["X-Sync-Nonce"] for r in host.requests)
    assert first != second
    assert json.loads(host.requests[0].body) == {"push": [], "judge": None, "cursor": 0}


def test_the_client_talks_to_the_host_and_port_of_its_url(host: Host) -> None:
    joiner = SyncClient(f"http://127.0.0.1:{host.port}/", EVENT_ID, DEVICE, KEY, KEY_ID, lambda: 1)
    host.replies.append(signed(200, page_body()))
    assert joiner.exchange(None, 0, []).cursor == 7
    assert joiner.url == f"http://127.0.0.1:{host.port}/"
    assert (joiner.event_id, joiner.device, joiner.offset_ms) == (EVENT_ID, DEVICE, 0)


def test_a_refusal_is_raised_with_its_code_and_one_line(host: Host) -> None:
    host.replies.append(fixed(401, refusal("wrong_code", "the join code\n is wrong")))
    assert problem_of(host.client()) == ("wrong_code", "the join code is wrong")
    assert len(host.requests) == 1


def test_a_refusals_message_is_cut_to_200_characters(host: Host) -> None:
    host.replies.append(signed(503, refusal("busy", "x" * 500)))
    assert problem_of(host.client()) == ("busy", "x" * 200)


@pytest.mark.parametrize(
    ("status", "answer"),
    [
        (500, b"Internal Server Error"),
        (502, b"\xff"),
        (400, b"[" * 100_000 + b"]" * 100_000),
        (401, json.dumps({"error": "teapot", "message": "no"}).encode()),
        (401, json.dumps({"error": 3, "message": "no"}).encode()),
        (401, json.dumps({"error": "busy", "message": None}).encode()),
        (401, json.dumps({"error": "busy", "message": ["no"]}).encode()),
        (401, json.dumps({"error": ["busy"], "message": "no"}).encode()),
        (401, json.dumps({"error": "busy"}).encode()),
        (401, json.dumps(["busy", "no"]).encode()),
    ],
)
def test_an_answer_that_is_no_refusal_is_named_by_its_status(
    host: Host, status: int, answer: bytes
) -> None:
    host.replies.append(signed(status, answer))
    assert problem_of(host.client()) == (
        "bad_answer",
        f"the host answered {status}",
    )


@pytest.mark.parametrize(
    "reply",
    [
        fixed(200, page_body()),  # not signed
        signed(200, page_body(), key=OTHER_KEY),  # by another key
        signed(200, page_body(), nonce="0" * 32),  # for another request
        signed(200, page_body(), send_time=False),  # the signature without its time
        lambda request: Reply(200, page_body(), {"X-Sync-Time": str(HOST_TIME)}),
    ],
)
def test_a_page_not_signed_by_the_key_for_this_request_is_not_taken(
    host: Host, reply: Script
) -> None:
    host.replies.append(reply)
    with pytest.raises(SyncProblem) as refused:
        host.client().exchange(None, 0, ['{"kind":"record"}'])
    assert (refused.value.code, refused.value.message) == ("bad_answer", "the host answered 200")


@pytest.mark.parametrize(
    "answer",
    [
        b"not json",
        b"[" * 100_000 + b"]" * 100_000,
        page_body(items={"0": 1}),
        page_body(more=1),
        page_body(more="yes"),
        page_body(cursor=-1),
        page_body(cursor="7"),
        page_body(cursor=True),
        page_body(accepted="two"),
        page_body(accepted=None),
        json.dumps({"items": [], "cursor": 7, "more": False}).encode(),
        json.dumps({"items": [], "cursor": 7, "accepted": 0}).encode(),
        json.dumps({"items": [], "more": False, "accepted": 0}).encode(),
        json.dumps({"cursor": 7, "more": False, "accepted": 0}).encode(),
        json.dumps([]).encode(),
    ],
)
def test_a_signed_page_that_cannot_be_read_is_refused(host: Host, answer: bytes) -> None:
    host.replies.append(signed(200, answer))
    assert problem_of(host.client()) == (
        "bad_answer",
        "the host's answer could not be read",
    )


def test_a_page_counts_as_given(host: Host) -> None:
    host.replies.append(signed(200, page_body(items=[], cursor=0, more=False, accepted="3")))
    assert host.client().exchange(None, 0, []) == Page([], 0, False, 3)


def test_a_clock_refused_is_retried_once_on_the_hosts_clock(host: Host) -> None:
    host.replies += [
        signed(401, refusal("clock", "your clock is off")),
        signed(200, page_body()),
    ]
    walls = iter([WALL, WALL + 10, WALL + 20])
    joiner = host.client(lambda: next(walls))
    assert joiner.exchange("佐藤", 3, ['{"a":1}']).cursor == 7
    first, second = host.requests
    assert first.headers["X-Sync-Time"] == str(WALL)
    assert joiner.offset_ms == HOST_TIME - (WALL + 10)
    assert second.headers["X-Sync-Time"] == str(WALL + 20 + HOST_TIME - (WALL + 10))
    assert second.body == first.body
    assert first.headers["X-Sync-Nonce"] != second.headers["X-Sync-Nonce"]


def test_a_clock_refused_twice_is_raised(host: Host) -> None:
    host.replies += [
        signed(401, refusal("clock", "your clock is off")),
        signed(401, refusal("clock", "still off"), time_ms=HOST_TIME + 5),
    ]
    joiner = host.client()
    assert problem_of(joiner) == ("clock", "still off")
    assert len(host.requests) == 2
    assert joiner.offset_ms == HOST_TIME - WALL


def test_a_clock_refusal_not_signed_moves_no_clock(host: Host) -> None:
    host.replies.append(
        fixed(401, refusal("clock", "your clock is off"), headers={"X-Sync-Time": "1"})
    )
    joiner = host.client()
    assert problem_of(joiner) == ("clock", "your clock is off")
    assert (len(host.requests), joiner.offset_ms) == (1, 0)


def test_an_exchange_with_a_host_out_of_reach_is_one_line() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    joiner = SyncClient(url, EVENT_ID, DEVICE, KEY, KEY_ID, lambda: WALL)
    assert problem_of(joiner) == (
        "unreachable",
        f"the host {url} cannot be reached (Connection refused)",
    )


def test_an_exchange_that_is_not_answered_is_given_up(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client, "TIMEOUT_S", 0.2)
    host.replies.append(signed(200, page_body(), delay_s=2.0))
    assert problem_of(host.client()) == (
        "unreachable",
        f"the host {host.url} cannot be reached (TimeoutError)",
    )


def test_a_signed_page_of_the_largest_size_is_taken_and_one_byte_more_is_not(host: Host) -> None:
    body = page_body()
    largest = body[:-1] + b" " * (protocol.MAX_BODY - len(body)) + b"}"
    assert len(largest) == protocol.MAX_BODY
    host.replies += [signed(200, largest), signed(200, largest + b" ")]
    joiner = host.client()
    assert joiner.exchange(None, 0, []).cursor == 7
    assert problem_of(joiner) == ("bad_answer", "the host answered 200")


def test_an_answer_past_the_largest_size_is_not_read_further(host: Host) -> None:
    answer = refusal("busy", "")
    answer = answer[:-2] + b" " * (protocol.MAX_BODY + 2 - len(answer)) + b'"}'
    host.replies.append(fixed(503, answer))
    assert problem_of(host.client()) == ("bad_answer", "the host answered 503")


def test_an_answer_signed_without_its_time_is_not_taken(host: Host) -> None:
    body = refusal("clock", "your clock is off")
    host.replies.append(signed(401, body, time_ms="", send_time=False))
    joiner = host.client()
    assert problem_of(joiner) == ("clock", "your clock is off")
    assert (len(host.requests), joiner.offset_ms) == (1, 0)


def test_something_that_is_no_web_server_is_one_line() -> None:
    with not_http() as url:
        with pytest.raises(SyncProblem) as refused:
            SyncClient.hello(url)
        assert (refused.value.code, refused.value.message) == (
            "unreachable",
            f"the host {url} cannot be reached (BadStatusLine)",
        )
        joiner = SyncClient(url, EVENT_ID, DEVICE, KEY, KEY_ID, lambda: WALL)
        assert problem_of(joiner) == (
            "unreachable",
            f"the host {url} cannot be reached (BadStatusLine)",
        )
