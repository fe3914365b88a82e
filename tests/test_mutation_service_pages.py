"""Mutation tests for records/sync/service.py, a joiner's side: joining, syncing page by page, a
failure told once, leaving, the background loop, subscribers. Servers on 127.0.0.1 only."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from records_support import JST, entry
from service_support import Device, hosted, two_devices, wait_for
from sync_support import Proxy

from records.errors import InvalidInput, LogError
from records.store import LogStore
from records.sync import codes, protocol
from records.sync.service import SyncResult, SyncService, SyncStatus
from records.sync.state import SyncState
from regulation.model import Regulation

AT = datetime(2026, 11, 28, 10, 0, tzinfo=JST)


@pytest.fixture
def devices(regulation: Regulation, tmp_path: Path) -> Iterator[list[Device]]:
    yield from two_devices(regulation, tmp_path)


def names(store: LogStore, event_id: str) -> list[str]:
    return sorted(r.player.name for r in store.records(event_id))


def test_a_join_remembers_the_host_and_pulls_the_event(devices: list[Device]) -> None:
    host, joiner = devices
    event_id, status = hosted(host)
    host.store.add_record(event_id, entry("山田"))
    address = f"127.0.0.1:{status.port}"
    result = joiner.sync.join(address, status.code.lower())  # type: ignore[union-attr]
    url = f"http://127.0.0.1:{status.port}"
    assert result == SyncResult(True, 0, 2, url, None, None)  # the event's settings, a record
    state = joiner.state()
    assert (state.role, state.event_id, state.host_url) == ("joined", event_id, url)
    assert state.code is not None and state.code.value == status.code
    assert state.last_synced is not None
    shown = joiner.sync.status()
    assert (shown.role, shown.event_id, shown.event_name, shown.host_url) == (
        "joined", event_id, "県大会", url,
    )  # fmt: skip
    assert (shown.code, shown.addresses, shown.port, shown.devices) == (None, (), None, ())
    assert shown.last_synced_at == state.last_synced and shown.waiting == 0
    assert names(joiner.store, event_id) == ["山田"]
    assert joiner.store.current_event().id == event_id


def test_a_wrong_code_is_not_remembered_and_a_right_one_then_joins(devices: list[Device]) -> None:
    host, joiner = devices
    _, status = hosted(host)
    wrong = "ABCD-EFGH-JKMN" if status.code != "ABCD-EFGH-JKMN" else "ABCD-EFGH-JKMP"
    result = joiner.sync.join(status.addresses[0], wrong)
    assert (result.ok, result.pushed, result.pulled, result.host) == (
        False, 0, 0, status.addresses[0],
    )  # fmt: skip
    assert result.problem and "\n" not in result.problem and result.problem_code == "wrong_code"
    assert joiner.state() == SyncState()  # the judge types the code again
    shown = joiner.sync.status()
    assert (shown.role, shown.problem, shown.problem_code) == ("off", result.problem, "wrong_code")
    assert joiner.sync.join(status.addresses[0], status.code).ok  # type: ignore[arg-type]
    shown = joiner.sync.status()
    assert (shown.role, shown.problem, shown.problem_code) == ("joined", None, None)


def test_a_host_out_of_reach_at_join_is_one_line_and_nothing_saved(devices: list[Device]) -> None:
    joiner = devices[1]
    result = joiner.sync.join("127.0.0.1:9", "ABCD-EFGH-JKMN")
    assert result.problem and result == SyncResult(
        False, 0, 0, "http://127.0.0.1:9", result.problem, "unreachable"
    )
    assert result.problem.startswith("the host http://127.0.0.1:9 cannot be reached")
    assert joiner.state() == SyncState() and joiner.sync.status().problem_code == "unreachable"


def test_a_hosting_device_cannot_join(devices: list[Device]) -> None:
    host, joiner = devices
    _, status = hosted(host)
    _, other = hosted(joiner)
    before = joiner.state()
    with pytest.raises(InvalidInput) as refused:
        joiner.sync.join(status.addresses[0], status.code)  # type: ignore[arg-type]
    assert str(refused.value) == "this device is hosting: end hosting first"
    assert (refused.value.field, refused.value.reason) == ("sync", "format")
    assert joiner.state() == before and joiner.sync.status().code == other.code


def test_sync_now_on_a_host_and_on_a_device_that_has_not_joined(devices: list[Device]) -> None:
    host, joiner = devices
    assert joiner.sync.sync_now() == SyncResult(
        False, 0, 0, None, "this device has not joined a host", "not_joined"
    )
    hosted(host)
    assert host.sync.sync_now() == SyncResult(True, 0, 0, None, None, None)
    host.sync.close()  # still the host in its log, serving nowhere
    assert host.sync.sync_now() == SyncResult(False, 0, 0, None, None, None)


def test_a_device_whose_saved_state_lacks_a_part_does_not_sync(devices: list[Device]) -> None:
    device = devices[1]
    event = device.store.create_event("県大会")
    secret = codes.parse_code("ABCD-EFGH-JKMN")
    url = "http://127.0.0.1:9"
    for state in (
        SyncState("off", event.id, secret, host_url=url),
        SyncState("joined", None, secret, host_url=url),
        SyncState("joined", event.id, None, host_url=url),
        SyncState("joined", event.id, secret, host_url=None),
    ):
        device.sync.ledger.save_state(state)
        assert device.sync.sync_now() == SyncResult(
            False, 0, 0, None, "this device has not joined a host", "not_joined"
        )
        assert device.state() == state


def test_what_an_off_state_kept_of_a_host_is_not_shown(devices: list[Device]) -> None:
    device = devices[1]
    device.sync.ledger.save_state(SyncState("off", host_url="http://x:1", last_synced=AT))
    shown = device.sync.status()
    assert (shown.role, shown.host_url, shown.last_synced_at) == ("off", None, None)


def test_a_sync_goes_on_page_after_page_both_ways(
    devices: list[Device], monkeypatch: pytest.MonkeyPatch
) -> None:
    host, joiner = devices
    event_id, status = hosted(host)
    for name in ("山田", "田中", "高橋"):
        host.store.add_record(event_id, entry(name))
    monkeypatch.setattr(protocol, "PAGE_BYTES", 1)  # one version a page
    joined = joiner.sync.join(status.addresses[0], status.code)  # type: ignore[arg-type]
    assert (joined.ok, joined.pushed, joined.pulled) == (True, 0, 4)
    for name in ("伊藤", "渡辺"):
        joiner.store.add_record(event_id, entry(name))
    assert joiner.sync.status().waiting == 2
    host.store.add_record(event_id, entry("小林"))
    result = joiner.sync.sync_now()
    assert result == SyncResult(True, 2, 1, status.addresses[0], None, None)
    assert names(host.store, event_id) == names(joiner.store, event_id)
    assert len(names(host.store, event_id)) == 6 and joiner.sync.status().waiting == 0
    assert joiner.sync.sync_now() == SyncResult(True, 0, 0, status.addresses[0], None, None)


def test_the_time_of_the_last_sync_is_the_logs_clock(
    regulation: Regulation, tmp_path: Path, devices: list[Device]
) -> None:
    host = devices[0]
    event_id, status = hosted(host)
    # a joiner whose clock is a day behind: its first request is refused and retried on the
    # host's time, and it keeps that offset for the next syncs
    store = LogStore.open(regulation, tmp_path / "late" / "log.sqlite3", clock=lambda: AT)
    late = SyncService.for_store(store)
    proxy = Proxy(status.port or 0, capture=True)
    try:
        assert late.join(proxy.url, status.code).ok  # type: ignore[arg-type]
        assert late.status().last_synced_at == AT and late.ledger.state().last_synced == AT
        first = proxy.seen.count(b"POST ")
        assert first == 2  # refused once for the clock, then accepted
        store.add_record(event_id, entry("山田"))
        assert late.sync_now().pushed == 1
        # the push, then an empty exchange that ends the loop: no refusal for the clock
        assert proxy.seen.count(b"POST ") == first + 2
        assert host.store.record(store.records(event_id)[0].id) is not None
    finally:
        late.close()
        store.close()
        proxy.close()


def test_a_failure_is_told_once_and_its_end_too(devices: list[Device]) -> None:
    host, joiner = devices
    event_id, status = hosted(host)
    assert joiner.sync.join(status.addresses[0], status.code).ok  # type: ignore[arg-type]
    heard: list[SyncStatus] = []
    joiner.sync.subscribe(heard.append)
    host.sync.close()
    joiner.store.add_record(event_id, entry("山田"))
    failed = joiner.sync.sync_now()
    assert (failed.ok, failed.pushed, failed.pulled, failed.host, failed.problem_code) == (
        False, 0, 0, status.addresses[0], "unreachable",
    )  # fmt: skip
    assert [(s.problem, s.problem_code, s.waiting) for s in heard] == [
        (failed.problem, "unreachable", 1)
    ]
    assert joiner.sync.sync_now().problem == failed.problem and len(heard) == 1  # the same
    host.sync.host(event_id)
    assert joiner.sync.sync_now().pushed == 1
    assert [(s.problem, s.problem_code, s.waiting) for s in heard[1:]] == [(None, None, 0)]


def test_data_the_joiner_refuses_is_one_line_and_nothing_else_changes(
    devices: list[Device], monkeypatch: pytest.MonkeyPatch
) -> None:
    host, joiner = devices
    event_id, status = hosted(host)
    assert joiner.sync.join(status.addresses[0], status.code).ok  # type: ignore[arg-type]
    host.store.add_record(event_id, entry("山田"))
    for fault in (InvalidInput("items[0]: bad", "items[0]"), LogError("nothing synced: full")):

        def refuse(*_: object, fault: Exception = fault) -> int:
            raise fault

        monkeypatch.setattr(joiner.sync.ledger, "pull", refuse)
        result = joiner.sync.sync_now()
        assert result == SyncResult(
            False,
            0,
            0,
            status.addresses[0],
            f"the host's data was refused: {fault}",
            "bad_data",
        )
        assert joiner.sync.status().problem_code == "bad_data"
    monkeypatch.undo()
    assert joiner.sync.sync_now().pulled == 1 and names(joiner.store, event_id) == ["山田"]


@pytest.mark.parametrize("fault", ["out_of_reach", "refused"])
def test_a_sync_that_fails_midway_counts_what_went_through(
    devices: list[Device], monkeypatch: pytest.MonkeyPatch, fault: str
) -> None:
    host, joiner = devices
    event_id, status = hosted(host)
    proxy = Proxy(status.port or 0)
    try:
        assert joiner.sync.join(proxy.url, status.code).ok  # type: ignore[arg-type]
        monkeypatch.setattr(protocol, "PAGE_BYTES", 1)  # one version a page
        mine = [joiner.store.add_record(event_id, entry(name)) for name in ("伊藤", "渡辺", "林")]
        host.store.add_record(event_id, entry("小林"))
        ledger = joiner.sync.ledger
        outgoing, pull = ledger.outgoing, ledger.pull
        calls: list[str] = []

        def third_page_out_of_reach(*args: object) -> object:
            calls.append("out")
            if fault == "out_of_reach" and calls.count("out") == 3:
                proxy.cut()  # the judge walked out of reach
            return outgoing(*args)  # type: ignore[arg-type]

        def third_page_refused(*args: object) -> int:
            calls.append("pull")
            if fault == "refused" and calls.count("pull") == 3:
                raise InvalidInput("items[0]: bad", "items[0]")
            return pull(*args)  # type: ignore[arg-type]

        monkeypatch.setattr(ledger, "outgoing", third_page_out_of_reach)
        monkeypatch.setattr(ledger, "pull", third_page_refused)
        result = joiner.sync.sync_now()
        code = "unreachable" if fault == "out_of_reach" else "bad_data"
        # two of the three records pushed, the host's one pulled, before the fault
        assert (result.ok, result.pushed, result.pulled, result.host, result.problem_code) == (
            False, 2, 1, proxy.url, code,
        )  # fmt: skip
        # refused: the third record reached the host, but its page is not stored here, so it
        # is not counted and is pushed again next time
        third = fault == "refused"
        assert [host.store.record(r.id) is not None for r in mine] == [True, True, third]
        assert names(joiner.store, event_id) == ["伊藤", "小林", "林", "渡辺"]
    finally:
        proxy.close()


def test_leaving_forgets_the_host_and_its_problem_but_a_host_is_left_as_it_is(
    devices: list[Device],
) -> None:
    host, joiner = devices
    event_id, status = hosted(host)
    assert joiner.sync.join(status.addresses[0], status.code).ok  # type: ignore[arg-type]
    host.sync.close()
    assert not joiner.sync.sync_now().ok and joiner.sync.status().problem
    heard: list[SyncStatus] = []
    joiner.sync.subscribe(heard.append)
    joiner.sync.leave()
    assert joiner.state().role == "off" and joiner.state().code is None
    shown = joiner.sync.status()
    assert (shown.role, shown.problem, shown.problem_code) == ("off", None, None)
    assert [s.role for s in heard] == ["off"]
    before = host.state()
    host.sync.leave()
    assert host.state() == before and before.role == "host" and before.event_id == event_id


def test_joining_again_is_told_once(devices: list[Device]) -> None:
    host, joiner = devices
    event_id, status = hosted(host)
    host.store.add_record(event_id, entry("山田"))
    assert joiner.sync.join(status.addresses[0], status.code).ok  # type: ignore[arg-type]
    joiner.sync.leave()
    heard: list[SyncStatus] = []
    joiner.sync.subscribe(heard.append)
    again = joiner.sync.join(status.addresses[0], status.code)  # type: ignore[arg-type]
    assert (again.ok, again.pulled) == (True, 0)  # all here already
    assert [(s.role, s.problem) for s in heard] == [("joined", None)]


def test_subscribers_hear_each_change_even_when_one_of_them_fails(devices: list[Device]) -> None:
    host, joiner = devices
    heard: list[SyncStatus] = []

    def broken(status: SyncStatus) -> None:
        raise RuntimeError("a screen's fault")

    host.sync.subscribe(broken)
    host.sync.subscribe(heard.append)
    event_id, status = hosted(host)
    assert [s.role for s in heard] == ["host"] and heard[0].event_id == event_id
    assert joiner.sync.join(status.addresses[0], status.code).ok  # type: ignore[arg-type]
    # a new device is news on the host, with its judge
    assert [(d.judge) for d in heard[-1].devices] == ["鈴木"] and len(heard) == 2
    assert joiner.sync.sync_now().ok and len(heard) == 2  # the same device, nothing new
    joiner.store.add_record(event_id, entry("山田"))
    assert joiner.sync.sync_now().pushed == 1 and len(heard) == 3  # records came in
    seen = host.sync.status().devices
    assert [(d.device_id, d.judge) for d in seen] == [(joiner.sync.ledger.device_id, "鈴木")]
    assert abs((datetime.now(JST) - seen[0].last_seen).total_seconds()) < 600


def test_the_background_loop_pulls_survives_a_failure_and_stops_on_close(
    devices: list[Device], monkeypatch: pytest.MonkeyPatch
) -> None:
    host, joiner = devices
    event_id, status = hosted(host)
    assert joiner.sync.join(status.addresses[0], status.code).ok  # type: ignore[arg-type]
    real = joiner.sync.sync_now
    calls: list[int] = []

    def once_broken() -> SyncResult:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a fault the loop must outlive")
        return real()

    monkeypatch.setattr(joiner.sync, "sync_now", once_broken)
    joiner.sync.start_background(interval_s=0.05)
    record = host.store.add_record(event_id, entry("山田"))  # the joiner is not told
    assert wait_for(lambda: joiner.store.record(record.id) is not None)
    assert len(calls) >= 2
    background = joiner.sync._background
    assert background is not None and background.is_alive()
    assert background.daemon  # never keeps the app from quitting
    joiner.sync.close()
    background.join(5.0)
    assert not background.is_alive()
    joiner.sync.start_background(interval_s=0.05)  # after close: a restart syncs again
    record = host.store.add_record(event_id, entry("田中"))
    assert wait_for(lambda: joiner.store.record(record.id) is not None)


def test_a_host_loop_does_not_sync(devices: list[Device], monkeypatch: pytest.MonkeyPatch) -> None:
    host = devices[0]
    hosted(host)
    called = threading.Event()
    monkeypatch.setattr(host.sync, "sync_now", called.set)
    host.sync.start_background(interval_s=0.01)
    assert not called.wait(0.3)
