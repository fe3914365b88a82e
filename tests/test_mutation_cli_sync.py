"""Mutation tests for records/cli_sync.py (venue sync's command line), in-process through
`sync_command` with each device's log in a temporary folder and hosts on 127.0.0.1 only:
what a join, a sync, the status and leaving print (JSON and text), a failure as one line on
stderr with exit 1, and `sync host`, which serves until Ctrl+C (its signal handlers are
called here by a thread instead of the terminal)."""

from __future__ import annotations

import io
import json
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from records_support import entry
from service_support import another_host

import records.cli_sync
from main import parse_args
from records.cli_sync import sync_command
from records.store import LogStore
from records.sync.service import DeviceSeen, SyncService, SyncStatus
from regulation.model import Regulation

LOG = "penalty-log.sqlite3"


class Device:
    """A device whose log the command line opens (PENALTY_GUIDE_DATA_DIR)."""

    def __init__(self, folder: Path, regulation: Regulation) -> None:
        self.folder = folder
        self.regulation = regulation

    def run(self, *argv: str, out: io.StringIO | None = None) -> tuple[int, str, str]:
        out = out or io.StringIO()
        err = io.StringIO()
        code = sync_command(parse_args(["sync", *argv]), self.regulation, out, err)
        return code, out.getvalue(), err.getvalue()

    def json(self, *argv: str) -> Any:
        code, out, err = self.run(*argv, "--json")
        assert (code, err) == (0, ""), err
        assert out.endswith("}\n") and out.count("\n") == 1
        return json.loads(out)

    def open(self) -> LogStore:
        return LogStore.open(self.regulation, self.folder / LOG)


@pytest.fixture
def device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, regulation: Regulation) -> Device:
    folder = tmp_path / "device"
    monkeypatch.setenv("PENALTY_GUIDE_DATA_DIR", str(folder))
    return Device(folder, regulation)


@pytest.fixture
def host(regulation: Regulation, tmp_path: Path) -> Iterator[tuple[LogStore, SyncStatus]]:
    """Another device hosting 県大会 on 127.0.0.1, in this process."""
    with another_host(regulation, tmp_path / "host") as host_device:
        yield host_device


def test_a_join_and_each_sync_say_what_was_sent_and_received(
    device: Device, host: tuple[LogStore, SyncStatus]
) -> None:
    host_log, hosting = host
    assert hosting.code and hosting.event_id
    host_log.add_record(hosting.event_id, entry("田中"))
    url = hosting.addresses[0]
    code, out, err = device.run("join", url, "--code", hosting.code, "--judge", "鈴木")
    assert (code, out, err) == (0, f"synced with {url}: sent 0, received 2\n", "")
    with device.open() as store:
        event = store.current_event()
        assert event.name == "県大会"
        assert [r.player.name for r in store.records(event.id)] == ["田中"]  # checked, stored
        store.add_record(event.id, entry("山田"))
        store.add_record(event.id, entry("佐藤"))
    assert device.run("now") == (0, f"synced with {url}: sent 2, received 0\n", "")
    assert device.json("now") == {"ok": True, "pushed": 0, "pulled": 0, "host": url}


def test_a_failed_sync_is_one_line_on_stderr_and_exit_1(
    device: Device,
    host: tuple[LogStore, SyncStatus],
    regulation: Regulation,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, hosting = host
    # Without streams given, the process's own.
    assert sync_command(parse_args(["sync", "now"]), regulation) == 1
    assert capsys.readouterr() == ("", "error: this device has not joined a host\n")
    assert device.run("now") == (1, "", "error: this device has not joined a host\n")
    code, out, err = device.run("now", "--json")
    assert json.loads(out) == {"ok": False, "pushed": 0, "pulled": 0, "host": None}
    assert (code, err) == (1, "error: this device has not joined a host\n")
    url = hosting.addresses[0]
    wrong = device.run("join", url, "--code", "WXYZ-2345-6789")
    assert wrong == (1, "", "error: wrong join code\n")
    assert device.json("status")["role"] == "off"  # a wrong code is not remembered


def test_the_status_of_a_joined_device(device: Device, host: tuple[LogStore, SyncStatus]) -> None:
    _, hosting = host
    url, key = hosting.addresses[0], str(hosting.code)
    code, out, err = device.run("join", url, "--code", key, "--judge", " ")
    assert (code, out) == (2, "")
    assert err.startswith("error: judge") and err.count("\n") == 1
    assert device.json("status")["role"] == "off"  # refused before joining
    device.json("join", url, "--code", key, "--judge", "鈴木")
    device.json("join", url, "--code", key)  # no --judge: the name stays
    with device.open() as log:
        log.add_record(log.current_event().id, entry("山田"))
        device_id = log.ledger().device_id
    shown = device.json("status")
    synced = shown.pop("last_synced_at")
    assert isinstance(synced, str) and synced.startswith("20")
    assert shown == {
        "role": "joined",
        "event": hosting.event_id,
        "event_name": "県大会",
        "judge": "鈴木",
        "device": device_id,
        "addresses": [],
        "port": None,
        "code": None,
        "host": url,
        "devices": [],
        "waiting": 1,
        "problem": None,
    }
    assert device.run("status") == (
        0,
        f"joined to the host at {url} ('県大会'); last synced {synced}; "
        "1 change(s) waiting to be sent\n",
        "",
    )
    left = (0, "left the host; this device's log stays as it is\n", "")
    assert device.run("leave") == left and device.run("status") == (0, "sync is off\n", "")
    assert device.run("leave") == left  # not joined: the same


class Terminal:
    """records.cli_sync's signal module: once `sync host` has set both handlers, `while_hosting`
    runs in a thread (the server up), then, `hold` seconds later, the judge's Ctrl+C comes."""

    SIGINT = signal.SIGINT
    SIGTERM = signal.SIGTERM

    def __init__(self, while_hosting: Callable[[], None], hold: float) -> None:
        self.handlers: dict[int, Callable[..., Any]] = {}
        self.while_hosting = while_hosting
        self.hold = hold
        self.failure: BaseException | None = None
        self.thread: threading.Thread | None = None
        self.returned = threading.Event()  # set by the test when `sync host` has returned
        self.returned_early = False  # hosting ended before Ctrl+C
        self.pressed = threading.Event()  # Ctrl+C

    def signal(self, number: int, handler: Callable[..., Any]) -> None:
        if number not in (signal.SIGINT, signal.SIGTERM) or not callable(handler):
            raise TypeError(f"signal.signal({number!r}, {handler!r})")  # as the real one
        self.handlers[number] = handler
        if set(self.handlers) == {signal.SIGINT, signal.SIGTERM}:
            self.thread = threading.Thread(target=self._then_stop)
            self.thread.start()

    def _then_stop(self) -> None:
        try:
            self.while_hosting()
        except BaseException as exc:  # raised again by finish(), in the test's thread
            self.failure = exc
        finally:
            self.returned_early = self.returned.wait(self.hold)
            self.pressed.set()
            self.handlers[signal.SIGINT](signal.SIGINT, None)

    def finish(self) -> None:
        self.returned.set()
        assert self.thread is not None, "no handler for Ctrl+C and SIGTERM"
        self.thread.join(10)
        if self.failure is not None:
            raise self.failure
        assert not self.returned_early


class Watched(threading.Event):
    """A host still waiting 20 s after Ctrl+C fails the test instead of hanging it."""

    pressed = threading.Event()  # the Ctrl+C of the host being run (Terminal.pressed)

    def __init__(self) -> None:
        super().__init__()
        self.waited = 0.0

    def wait(self, timeout: float | None = None) -> bool:
        if Watched.pressed.is_set():
            self.waited += timeout or 0.0
            if self.waited > 20:
                raise AssertionError("still hosting 20 s after Ctrl+C")
        return super().wait(timeout)


class Flushed(io.StringIO):
    """Standard output that remembers what had been flushed (what a pipe would show)."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed = ""

    def flush(self) -> None:
        self.flushed = self.getvalue()


def hosting(
    device: Device,
    monkeypatch: pytest.MonkeyPatch,
    *argv: str,
    while_hosting: Callable[[Flushed], None] = lambda out: None,
    hold: float = 0.0,
    port: int = 0,
) -> tuple[int, str, str]:
    out = Flushed()
    terminal = Terminal(lambda: while_hosting(out), hold)
    monkeypatch.setattr(records.cli_sync, "signal", terminal)
    monkeypatch.setattr(records.cli_sync, "threading", SimpleNamespace(Event=Watched))
    monkeypatch.setattr(Watched, "pressed", terminal.pressed)
    argv = ("host", "--bind", "127.0.0.1", "--port", str(port), *argv)
    try:
        return device.run(*argv, out=out)
    finally:
        terminal.finish()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_host_prints_its_code_and_address_then_serves_until_ctrl_c(
    device: Device, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, regulation: Regulation
) -> None:
    seen: dict[str, Any] = {}

    def join_while_hosting(out: Flushed) -> None:
        head, address, tail = out.flushed.splitlines()
        seen["head"], seen["url"], seen["tail"] = head, address.strip(), tail
        seen["code"] = head.split("the code ")[1].removesuffix(" at:")
        with LogStore.open(regulation, tmp_path / "joiner" / LOG) as other:
            service = SyncService.for_store(other)
            service.set_judge("鈴木")
            seen["joined"] = service.join(seen["url"], seen["code"]).ok
            seen["device"] = other.ledger().device_id
            service.close()

    named = ("--event", "県大会", "--judge", "本部")
    port = free_port()
    code, out, err = hosting(
        device, monkeypatch, *named, while_hosting=join_while_hosting, hold=1.0, port=port
    )
    assert (code, err) == (0, "")
    assert seen["joined"] is True  # the code and the address printed are the ones that work
    assert seen["head"] == f"hosting '県大会'; join with the code {seen['code']} at:"
    assert seen["url"] == f"http://127.0.0.1:{port}"  # the address and port given
    assert out == f"{seen['head']}\n  {seen['url']}\n{seen['tail']}\n"
    assert seen["tail"] == "Ctrl+C ends hosting."
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=2):
        pass  # hosting ended with the command
    shown = device.json("status")
    assert (shown["role"], shown["code"], shown["port"]) == ("host", seen["code"], port)
    assert shown["judge"] == "本部"
    assert [(d["device"], d["judge"]) for d in shown["devices"]] == [(seen["device"], "鈴木")]
    code, text, _ = device.run("status")
    assert text == (
        "hosting '県大会' (1 device(s) joined)\n"
        f"  鈴木  {seen['device']}  {shown['devices'][0]['last_seen'].replace('T', ' ')}\n"
    )
    ended = "hosting ended; the join code no longer works until hosting again\n"
    assert device.run("leave") == (0, ended, "")
    assert device.json("status")["role"] == "off"


def test_host_json_and_which_event_is_hosted(
    device: Device, monkeypatch: pytest.MonkeyPatch
) -> None:
    printed: list[dict[str, Any]] = []

    def keep(out: Flushed) -> None:
        printed.append(json.loads(out.flushed))

    assert hosting(device, monkeypatch, "--json", while_hosting=keep)[0] == 0
    with device.open() as store:
        first = store.current_event()  # none named: the current event
        assert [e.name for e in store.events()] == [first.name]
    assert printed[0]["event"] == first.id
    url = f"http://127.0.0.1:{printed[0]['port']}"
    assert printed[0]["addresses"] == [url] and len(printed[0]) == 4
    code, out, _ = hosting(device, monkeypatch, "--event", "県大会", "--json", while_hosting=keep)
    assert code == 0 and json.loads(out) == printed[1]
    with device.open() as store:
        shared = store.event_by_name("県大会")
        assert shared is not None and printed[1]["event"] == shared.id
        store.set_current_event(first.id)
    # Again without --event: the event hosted last, with the same code; --event finds it.
    hosting(device, monkeypatch, "--json", while_hosting=keep)
    hosting(device, monkeypatch, "--event", "県大会", "--json", while_hosting=keep)
    assert [p["event"] for p in printed[2:]] == [shared.id, shared.id]
    assert printed[2]["code"] == printed[1]["code"] == printed[3]["code"]
    with device.open() as store:
        assert sorted(e.name for e in store.events()) == sorted([first.name, "県大会"])
    hosting(device, monkeypatch, "--new-code", "--json", while_hosting=keep)
    assert printed[4]["code"] != printed[3]["code"]
    typed = printed[3]["code"].lower().replace("-", " ")
    hosting(device, monkeypatch, "--code", typed, "--json", while_hosting=keep)
    assert printed[5]["code"] == printed[3]["code"]  # the code given, as a code


# Sync off, as a service reports it; the tests below change what they need.
OFF = SyncStatus("off", None, None, None, "d-1", (), None, None, None, (), None, 0, None)


def _printed(status: SyncStatus, *argv: str) -> tuple[int, str]:
    """`sync status` of a device whose service reports `status` (what a screen's process sees
    as well: a problem, a sync not made yet, devices without a judge's name)."""
    service = SimpleNamespace(status=lambda stored: status if stored else None)
    out = io.StringIO()
    args = parse_args(["sync", "status", *argv])
    code = records.cli_sync._status(cast(SyncService, service), args, out, out)
    return code, out.getvalue()


def test_the_status_names_every_field_and_says_what_is_not_known_yet() -> None:
    seen = datetime(2026, 11, 28, 13, 5, 7, 120000, tzinfo=UTC)
    hosting = replace(
        OFF,
        role="host",
        event_id="e-1",
        event_name="県大会",
        judge="本部",
        addresses=("http://192.168.43.1:8765",),
        port=8765,
        code="K7QF-2MXD-9PLA",
        devices=(DeviceSeen("d-2", "", seen), DeviceSeen("d-3", "鈴木", seen)),
        problem="the port is in use",
    )
    code, out = _printed(hosting, "--json")
    assert code == 0 and out.count("\n") == 1 and "県大会" in out
    assert json.loads(out) == {
        "role": "host",
        "event": "e-1",
        "event_name": "県大会",
        "judge": "本部",
        "device": "d-1",
        "addresses": ["http://192.168.43.1:8765"],
        "port": 8765,
        "code": "K7QF-2MXD-9PLA",
        "host": None,
        "devices": [
            {"device": "d-2", "judge": "", "last_seen": "2026-11-28T13:05:07.120000+00:00"},
            {"device": "d-3", "judge": "鈴木", "last_seen": "2026-11-28T13:05:07.120000+00:00"},
        ],
        "last_synced_at": None,
        "waiting": 0,
        "problem": "the port is in use",
    }
    assert _printed(hosting) == (
        0,
        "hosting '県大会' (2 device(s) joined)\n"
        "  ?  d-2  2026-11-28 13:05:07.120000+00:00\n"
        "  鈴木  d-3  2026-11-28 13:05:07.120000+00:00\n"
        "problem: the port is in use\n",
    )
    joined = replace(OFF, role="joined", event_name="県大会", host_url="http://192.168.43.1:8765")
    joined = replace(joined, waiting=3, problem="the host cannot be reached")
    assert _printed(joined) == (
        0,
        "joined to the host at http://192.168.43.1:8765 ('県大会'); last synced never; "
        "3 change(s) waiting to be sent\nproblem: the host cannot be reached\n",
    )
    synced = replace(OFF, role="joined", event_name="県大会", host_url="http://h:1")
    synced = replace(synced, last_synced_at=seen)
    assert json.loads(_printed(synced, "--json")[1])["last_synced_at"] == seen.isoformat()
    assert _printed(synced)[1].startswith(
        "joined to the host at http://h:1 ('県大会'); last synced 2026-11-28T13:05:07.120000+00:00;"
    )
    assert _printed(OFF) == (0, "sync is off\n")
