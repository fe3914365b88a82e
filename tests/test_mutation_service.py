"""Mutation tests for records/sync/service.py: hosting (the status a screen shows, the code, the
port and addresses kept across a restart, the refusals). Servers on 127.0.0.1 only."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from records_support import entry
from service_support import Device, two_devices

from records.errors import InvalidInput, LogError
from records.store import LogStore
from records.sync import codes
from records.sync import service as service_module
from records.sync.service import SyncService, SyncStatus
from records.sync.state import SyncState
from regulation.model import Regulation


@pytest.fixture
def devices(regulation: Regulation, tmp_path: Path) -> Iterator[list[Device]]:
    yield from two_devices(regulation, tmp_path)


def host(device: Device, name: str = "県大会", **options: object) -> tuple[str, SyncStatus]:
    event = device.store.create_event(name)
    options = {"bind": "127.0.0.1", "port": 0, **options}
    return event.id, device.sync.host(event.id, **options)  # type: ignore[arg-type]


def names(store: LogStore, event_id: str) -> list[str]:
    return sorted(r.player.name for r in store.records(event_id))


def key_id(code: str, event_id: str) -> str:
    return codes.key_id(codes.derive_key(codes.parse_code(code), event_id))


def test_a_device_that_neither_hosts_nor_joined_shows_nothing_but_itself(
    devices: list[Device],
) -> None:
    device = devices[0]
    status = device.sync.status()
    assert status == SyncStatus(
        "off", None, None, "佐藤", device.sync.ledger.device_id, (), None, None, None, (), None,
        0, None, None,
    )  # fmt: skip
    assert status.device_id and device.sync.status(stored=True) == status


def test_a_host_shows_its_event_addresses_port_and_code(devices: list[Device]) -> None:
    device = devices[0]
    event = device.store.create_event("県大会")
    device.store.add_record(event.id, entry("山田"))  # the host's own: nothing "waiting"
    status = device.sync.host(event.id, bind="127.0.0.1", port=0)
    event_id = event.id
    assert status.port and status.port > 0
    assert status.role == "host" and status.event_id == event_id and status.event_name == "県大会"
    assert status.addresses == (f"http://127.0.0.1:{status.port}",)
    assert status.code and codes.parse_code(status.code).value == status.code
    assert (status.host_url, status.last_synced_at, status.waiting) == (None, None, 0)
    assert (status.problem, status.problem_code, status.devices) == (None, None, ())
    assert device.store.current_event().id == event_id  # records made here go to it
    saved = device.state()
    assert (saved.role, saved.event_id, saved.port, saved.bind) == (
        "host",
        event_id,
        status.port,
        ("127.0.0.1",),
    )
    assert saved.code is not None and saved.code.value == status.code and saved.retired == ()


def test_a_host_stopped_in_this_process_shows_off_but_its_saved_state_when_asked(
    devices: list[Device],
) -> None:
    device = devices[0]
    event_id, status = host(device)
    device.sync.close()
    now = device.sync.status()
    assert (now.role, now.event_id, now.event_name, now.addresses, now.port, now.code) == (
        "off", None, None, (), None, None,
    )  # fmt: skip
    stored = device.sync.status(stored=True)  # the command line's `sync status`
    assert (stored.role, stored.event_id, stored.event_name) == ("host", event_id, "県大会")
    assert (stored.port, stored.code, stored.addresses) == (status.port, status.code, ())


def test_hosting_an_unknown_event_is_refused_with_nothing_saved(devices: list[Device]) -> None:
    device = devices[0]
    with pytest.raises(InvalidInput) as refused:
        device.sync.host("no-such-event", bind="127.0.0.1", port=0)
    assert str(refused.value) == "no event with id 'no-such-event'"
    assert (refused.value.field, refused.value.reason) == ("event", "unknown_id")
    assert device.state() == SyncState() and device.sync.status().role == "off"


def test_a_host_given_a_code_serves_with_it_and_a_bad_one_is_refused(
    devices: list[Device],
) -> None:
    device = devices[0]
    event = device.store.create_event("県大会")
    with pytest.raises(InvalidInput):
        device.sync.host(event.id, bind="127.0.0.1", port=0, code="ABCD")
    assert device.state() == SyncState()
    status = device.sync.host(event.id, bind="127.0.0.1", port=0, code="abcd efgh jkmn")
    assert status.code == "ABCD-EFGH-JKMN"
    # hosting again with no code resumes the one given
    assert device.sync.host(event.id, bind="127.0.0.1", port=0).code == "ABCD-EFGH-JKMN"


def test_a_restarted_host_resumes_its_code_port_and_addresses(devices: list[Device]) -> None:
    device = devices[0]
    event_id, first = host(device, bind=" 127.0.0.1 , ,")
    assert first.addresses == (f"http://127.0.0.1:{first.port}",)
    assert device.state().bind == ("127.0.0.1",)
    device.sync.close()
    again = device.sync.host(event_id)  # nothing given: what was saved
    assert (again.code, again.port, again.addresses) == (first.code, first.port, first.addresses)
    assert device.state().retired == ()
    # hosting while already hosting restarts the server in place
    assert device.sync.host(event_id).port == first.port


def test_a_new_code_at_restart_retires_the_old_one(devices: list[Device]) -> None:
    device = devices[0]
    event_id, first = host(device)
    assert first.code
    again = device.sync.host(event_id, bind="127.0.0.1", port=0, new_code=True)
    assert again.code and again.code != first.code
    assert device.state().retired == (key_id(first.code, event_id),)
    given = device.sync.host(event_id, bind="127.0.0.1", port=0, code="ABCD-EFGH-JKMN")
    assert given.code == "ABCD-EFGH-JKMN"
    assert device.state().retired == (key_id(first.code, event_id), key_id(again.code, event_id))


def test_hosting_another_event_starts_afresh(
    devices: list[Device], monkeypatch: pytest.MonkeyPatch
) -> None:
    device = devices[0]
    first_id, first = host(device, "県大会")
    device.sync.new_code()
    with socket.create_server(("127.0.0.1", 0)) as probe:
        default = int(probe.getsockname()[1])  # free
    monkeypatch.setattr(service_module, "DEFAULT_PORT", default)
    second_id, second = host(device, "市大会", port=None)  # not the first event's port
    assert second.event_id == second_id and second.event_name == "市大会"
    assert second.port == default != first.port
    assert second.code != first.code and device.state().retired == ()
    assert device.store.current_event().id == second_id != first_id


def test_a_host_without_a_network_says_so_in_one_line(
    devices: list[Device], monkeypatch: pytest.MonkeyPatch
) -> None:
    device = devices[0]
    event = device.store.create_event("県大会")
    monkeypatch.setattr(service_module, "local_addresses", lambda: ())
    with pytest.raises(LogError) as refused:
        device.sync.host(event.id, port=0)
    assert str(refused.value) == (
        "no local network found: join the hotspot or Wi-Fi first (or give --bind)"
    )
    assert device.state() == SyncState()
    monkeypatch.setattr(service_module, "local_addresses", lambda: ("127.0.0.1",))
    status = device.sync.host(event.id, port=0)
    assert status.addresses == (f"http://127.0.0.1:{status.port}",)
    assert device.state().bind == ()  # the network's addresses, found again at each start
    # another event does not take the first one's --bind
    device.sync.host(event.id, bind="127.0.0.1", port=0)
    other = device.store.create_event("市大会")
    monkeypatch.setattr(service_module, "local_addresses", lambda: ())
    with pytest.raises(LogError):
        device.sync.host(other.id, port=0)


def test_a_port_in_use_is_one_line_naming_it(
    devices: list[Device], monkeypatch: pytest.MonkeyPatch
) -> None:
    device = devices[0]
    event = device.store.create_event("県大会")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(LogError) as refused:
            device.sync.host(event.id, bind="127.0.0.1", port=port)
        assert str(refused.value) == f"cannot host on port {port}: Address already in use"
        monkeypatch.setattr(service_module, "DEFAULT_PORT", port)
        with pytest.raises(LogError) as default:
            device.sync.host(event.id, bind="127.0.0.1")
        assert str(default.value) == f"cannot host on port {port}: Address already in use"
    assert device.state() == SyncState() and device.sync.status(stored=True).role == "off"


def test_new_codes_retire_the_old_ones_eight_kept(devices: list[Device]) -> None:
    device = devices[0]
    event_id, status = host(device)
    made = [status.code]
    for _ in range(10):
        made.append(device.sync.new_code().code)
    assert len(set(made)) == 11
    state = device.state()
    assert state.code is not None and state.code.value == made[-1]
    # the key ids from the service's own keys (each derivation takes a while)
    kept = tuple(codes.key_id(device.sync._key(codes.parse_code(c), event_id)) for c in made[-9:-1])  # type: ignore[arg-type]
    assert state.retired == kept
    assert device.sync.status().code == made[-1]


def test_a_new_code_is_refused_on_a_device_that_does_not_host(devices: list[Device]) -> None:
    device = devices[0]
    event = device.store.create_event("県大会")
    secret = codes.parse_code("ABCD-EFGH-JKMN")
    for state in (
        SyncState(),
        SyncState(role="joined", event_id=event.id, code=secret, host_url="http://127.0.0.1:9"),
        SyncState(role="host", event_id=None, code=secret),
        SyncState(role="host", event_id=event.id, code=None),
    ):
        device.sync.ledger.save_state(state)
        with pytest.raises(InvalidInput) as refused:
            device.sync.new_code()
        assert str(refused.value) == "this device is not hosting"
        assert (refused.value.field, refused.value.reason) == ("sync", "format")
        assert device.state() == state


def test_a_new_code_while_the_host_is_stopped_is_saved_for_its_restart(
    devices: list[Device],
) -> None:
    device = devices[0]
    event_id, status = host(device)
    device.sync.close()
    new = device.sync.new_code()
    assert new.role == "off" and new.code is None  # not serving in this process
    state = device.state()
    assert state.code is not None and state.code.value != status.code
    assert device.sync.host(event_id).code == state.code.value


def test_stop_hosting_saves_off_and_a_joined_device_keeps_its_host(devices: list[Device]) -> None:
    hosting, joined = devices
    event_id, status = host(hosting)
    assert status.code and joined.sync.join(status.addresses[0], status.code).ok
    before = joined.state()
    joined.sync.stop_hosting()
    assert joined.state() == before and joined.sync.status().role == "joined"
    hosting.sync.stop_hosting()
    assert hosting.state().role == "off" and hosting.sync.status(stored=True).role == "off"
    assert hosting.sync.status().addresses == ()
    assert not joined.sync.sync_now().ok  # nobody serves any more
    shown = hosting.sync.status()
    assert (shown.role, shown.port, shown.devices, shown.code) == ("off", None, (), None)
    # another process hosts this log now: asked for what is saved, no addresses of this one
    hosting.sync.ledger.save_state(hosting.state().replaced(role="host"))
    assert hosting.sync.status(stored=True).addresses == ()
    again = hosting.sync.host(event_id)  # and it can host again
    assert again.role == "host" and again.code == status.code
    assert joined.sync.sync_now().ok


def test_close_stops_serving_but_keeps_the_state(devices: list[Device]) -> None:
    hosting, joined = devices
    _, status = host(hosting)
    assert status.code and joined.sync.join(status.addresses[0], status.code).ok
    saved = hosting.state()
    hosting.sync.close()
    assert hosting.state() == saved
    result = joined.sync.sync_now()
    assert not result.ok and result.problem_code == "unreachable"
    hosting.sync.close()  # twice: nothing to stop


def test_one_service_per_store_and_it_hears_the_stores_saves(devices: list[Device]) -> None:
    device = devices[0]
    assert SyncService.for_store(device.store) is device.sync
    assert device.sync.store is device.store
    event = device.store.create_event("県大会")
    device.sync._wake.clear()
    device.store.add_record(event.id, entry("山田"))
    assert device.sync._wake.is_set()  # a save wakes the background sync


def test_a_judge_name_is_saved_trimmed_and_an_empty_one_refused(devices: list[Device]) -> None:
    device = devices[0]
    heard: list[SyncStatus] = []
    device.sync.subscribe(heard.append)
    device.sync.set_judge("  高橋  ")
    assert device.sync.status().judge == "高橋" and [s.judge for s in heard] == ["高橋"]
    with pytest.raises(InvalidInput) as refused:
        device.sync.set_judge(" ")
    assert refused.value.field == "judge" and refused.value.reason == "required"
    with pytest.raises(InvalidInput) as long:
        device.sync.set_judge("長" * 200)
    assert long.value.field == "judge" and long.value.reason == "too_long"
    assert device.sync.status().judge == "高橋" and len(heard) == 1


def test_a_host_shows_its_own_port_and_not_hosting_once_stopped_elsewhere(
    devices: list[Device],
) -> None:
    device = devices[0]
    _, status = host(device)
    device.sync.ledger.save_state(device.state().replaced(port=1))  # saved by another process
    assert device.sync.status().port == status.port
    device.sync.ledger.save_state(device.state().replaced(role="off"))  # `sync stop` elsewhere
    shown = device.sync.status()
    assert (shown.role, shown.event_id, shown.addresses, shown.port, shown.code) == (
        "off", None, (), None, None,
    )  # fmt: skip
    # `sync status` beside a host in another process: no addresses of this process
    devices[1].sync.ledger.save_state(SyncState("host", None, codes.parse_code("ABCDEFGHJKMN")))
    stored = devices[1].sync.status(stored=True)
    assert (stored.role, stored.addresses, stored.code) == ("host", (), "ABCD-EFGH-JKMN")


def test_offline_records_move_only_into_an_event_joined_or_hosted(devices: list[Device]) -> None:
    hosting, joiner = devices
    local = joiner.store.create_event("オフライン")
    joiner.store.add_record(local.id, entry("山田"))
    for state in (SyncState(), SyncState(role="joined")):
        joiner.sync.ledger.save_state(state)
        with pytest.raises(InvalidInput) as refused:
            joiner.sync.move_into_shared(local.id)
        assert str(refused.value) == "join or host an event first"
        assert (refused.value.field, refused.value.reason) == ("sync", "format")
    secret = codes.parse_code("ABCD-EFGH-JKMN")
    elsewhere = "6f1d2a9c-0000-4000-8000-000000000042"
    joiner.sync.ledger.save_state(SyncState("joined", elsewhere, secret, host_url="http://x:1"))
    with pytest.raises(InvalidInput) as early:
        joiner.sync.move_into_shared(local.id)
    assert str(early.value) == "sync once first: the shared event is not here yet"
    assert (early.value.field, early.value.reason) == ("sync", "format")
    assert names(joiner.store, local.id) == ["山田"]
    shown = joiner.sync.status()  # joined, the shared event not here yet
    assert (shown.role, shown.event_id, shown.event_name) == ("joined", elsewhere, None)
    # a host brings its own offline records in; after it stops hosting, no more
    event_id, _ = host(hosting)
    offline = hosting.store.create_event("オフライン")
    hosting.store.add_record(offline.id, entry("田中"))
    hosting.sync._wake.clear()
    report = hosting.sync.move_into_shared(offline.id)
    assert (report.added, report.event.id) == (1, event_id) and hosting.sync._wake.is_set()
    assert names(hosting.store, event_id) == ["田中"] and names(hosting.store, offline.id) == []
    hosting.sync.stop_hosting()
    with pytest.raises(InvalidInput):
        hosting.sync.move_into_shared(offline.id)


def test_a_joined_device_keeps_its_own_current_event_after_the_first_sync(
    devices: list[Device],
) -> None:
    hosting, joiner = devices
    event_id, status = host(hosting)
    assert joiner.sync.join(status.addresses[0], status.code).ok  # type: ignore[arg-type]
    assert joiner.store.current_event().id == event_id
    local = joiner.store.create_event("練習会")
    joiner.store.set_current_event(local.id)
    hosting.store.add_record(event_id, entry("山田"))
    assert joiner.sync.sync_now().pulled == 1
    assert joiner.store.current_event().id == local.id  # the judge's choice stays


def test_a_join_whose_first_sync_fails_otherwise_is_remembered(
    devices: list[Device], monkeypatch: pytest.MonkeyPatch
) -> None:
    hosting, joiner = devices
    event_id, status = host(hosting)

    def refuse(*_: object) -> int:
        raise InvalidInput("items[0]: bad", "items[0]")

    monkeypatch.setattr(joiner.sync.ledger, "pull", refuse)
    result = joiner.sync.join(status.addresses[0], status.code)  # type: ignore[arg-type]
    assert (result.ok, result.problem_code) == (False, "bad_data")
    assert (joiner.state().role, joiner.state().event_id) == ("joined", event_id)  # retried
