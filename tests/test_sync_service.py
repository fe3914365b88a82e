"""SyncService, what the screens use: host, join, status, subscribe, background sync, new code,
leave, the event's settings shared, offline records moved into the shared event."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from records_support import JST, entry
from service_support import Device, hosted, wait_for
from service_support import devices as service_devices

from records.errors import InvalidInput
from records.model import Round
from records.sync.service import SyncStatus
from regulation.model import Regulation


@pytest.fixture
def devices(regulation: Regulation, tmp_path: Path) -> Iterator[list[Device]]:
    yield from service_devices(regulation, tmp_path, ("佐藤", "鈴木", "田中"))


def test_the_status_of_a_host_and_of_a_joined_device(devices: list[Device]) -> None:
    host, joiner, _ = devices
    assert host.sync.status().role == "off" and host.sync.status().device_id
    event_id, status = hosted(host)
    assert status.role == "host" and status.event_id == event_id and status.event_name == "県大会"
    assert status.addresses == (f"http://127.0.0.1:{status.port}",) and status.code
    assert status.judge == "佐藤" and status.devices == ()
    result = joiner.sync.join(status.addresses[0], status.code)
    assert result.ok and result.host == status.addresses[0]
    seen = host.sync.status().devices
    assert [(d.device_id, d.judge) for d in seen] == [(joiner.sync.status().device_id, "鈴木")]
    mine = joiner.sync.status()
    assert (mine.role, mine.event_id, mine.host_url, mine.code) == (
        "joined",
        event_id,
        status.addresses[0],
        None,  # only the host shows the code
    )
    assert mine.last_synced_at is not None and mine.waiting == 0 and mine.problem is None
    assert joiner.store.current_event().id == event_id  # records now go to the shared event


def test_changes_wait_while_the_host_is_away_and_go_when_it_is_back(devices: list[Device]) -> None:
    host, joiner, _ = devices
    event_id, status = hosted(host)
    assert status.code and joiner.sync.join(status.addresses[0], status.code).ok
    host.sync.close()
    record = joiner.store.add_record(event_id, entry("山田"))
    joiner.store.delete_record(record.id)
    result = joiner.sync.sync_now()
    assert not result.ok and result.problem and "cannot be reached" in result.problem
    assert joiner.sync.status().waiting == 2 and joiner.sync.status().problem == result.problem
    again = host.sync.host(event_id, bind="127.0.0.1")  # the same code and port, resumed
    assert (again.code, again.port) == (status.code, status.port)
    result = joiner.sync.sync_now()
    assert result.ok and result.pushed == 2 and joiner.sync.status().waiting == 0
    assert host.store.record(record.id) is not None and host.store.record(record.id).deleted  # type: ignore[union-attr]


def test_subscribers_hear_pulled_records_until_they_unsubscribe(devices: list[Device]) -> None:
    host, joiner, _ = devices
    event_id, status = hosted(host)
    assert status.code and joiner.sync.join(status.addresses[0], status.code).ok
    heard: list[SyncStatus] = []
    unsubscribe = joiner.sync.subscribe(heard.append)
    host.store.add_record(event_id, entry("山田"))
    assert joiner.sync.sync_now().pulled == 1
    assert heard and heard[-1].role == "joined"
    unsubscribe()
    count = len(heard)
    host.store.add_record(event_id, entry("鈴木"))
    assert joiner.sync.sync_now().pulled == 1
    assert len(heard) == count


def test_a_save_reaches_the_host_soon_in_the_background(devices: list[Device]) -> None:
    host, joiner, _ = devices
    event_id, status = hosted(host)
    assert status.code and joiner.sync.join(status.addresses[0], status.code).ok
    joiner.sync.start_background(interval_s=60.0)  # only a save can wake it this soon
    joiner.sync.start_background(interval_s=60.0)  # idempotent
    arrived = threading.Event()
    host.store.add_save_listener(arrived.set)
    record = joiner.store.add_record(event_id, entry("山田"))
    assert arrived.wait(5.0)
    assert wait_for(lambda: host.store.record(record.id) is not None, timeout=5.0)


def test_a_new_code_shuts_out_the_old_one_and_a_judge_rejoins(devices: list[Device]) -> None:
    host, joiner, other = devices
    event_id, status = hosted(host)
    assert status.code and joiner.sync.join(status.addresses[0], status.code).ok
    new = host.sync.new_code()
    assert new.code and new.code != status.code and new.port == status.port
    failed = other.sync.join(status.addresses[0], status.code)
    assert not failed.ok and "replaced" in (failed.problem or "")
    assert other.sync.status().role == "off"  # a refused code is not remembered
    assert other.sync.join(status.addresses[0], new.code).ok
    # Restarting with --new-code retires the current code too.
    host.sync.close()
    third = host.sync.host(event_id, bind="127.0.0.1", new_code=True)
    assert third.code not in (status.code, new.code)
    assert "replaced" in (other.sync.sync_now().problem or "")


def test_leaving_keeps_the_log_and_stops_syncing(devices: list[Device]) -> None:
    host, joiner, _ = devices
    event_id, status = hosted(host)
    host.store.add_record(event_id, entry("山田"))
    assert status.code and joiner.sync.join(status.addresses[0], status.code).ok
    joiner.sync.leave()
    assert joiner.sync.status().role == "off"
    assert len(joiner.store.records(event_id)) == 1
    result = joiner.sync.sync_now()
    assert not result.ok and result.problem == "this device has not joined a host"
    host.sync.stop_hosting()
    assert host.sync.status().role == "off"
    failed = joiner.sync.join(status.addresses[0], status.code)
    assert not failed.ok and "cannot be reached" in (failed.problem or "")


def test_the_events_settings_are_shared_both_ways(devices: list[Device]) -> None:
    host, joiner, _ = devices
    event_id, status = hosted(host)
    host.store.update_event(event_id, "県大会 決勝", datetime(2026, 12, 5).date())
    assert status.code and joiner.sync.join(status.addresses[0], status.code).ok
    shared = joiner.store.event(event_id)
    assert shared is not None and shared.name == "県大会 決勝"
    assembly = datetime(2026, 12, 5, 13, 0, tzinfo=JST)
    joiner.store.set_rounds(event_id, [Round(1, assembly), Round(2)])
    assert joiner.sync.sync_now().ok
    assert host.store.event(event_id) == joiner.store.event(event_id)
    assert host.store.event(event_id).round(1) == Round(1, assembly)  # type: ignore[union-attr]


def test_offline_records_move_into_the_shared_event_once(devices: list[Device]) -> None:
    host, joiner, _ = devices
    event_id, status = hosted(host)
    local = joiner.store.create_event("オフラインの記録")
    kept = joiner.store.add_record(local.id, entry("山田", note="休憩中に記録"))
    gone = joiner.store.add_record(local.id, entry("鈴木"))
    joiner.store.delete_record(gone.id)
    with pytest.raises(InvalidInput):
        joiner.sync.move_into_shared(local.id)  # not joined yet
    assert status.code and joiner.sync.join(status.addresses[0], status.code).ok
    report = joiner.sync.move_into_shared(local.id)
    assert (report.added, report.unchanged, report.event.id) == (1, 0, event_id)
    again = joiner.sync.move_into_shared(local.id)
    assert (again.added, again.unchanged) == (0, 0)  # the originals are deleted now: none left
    assert joiner.store.records(local.id) == ()
    assert joiner.store.restore_record(kept.id).deleted is False  # nothing lost
    assert joiner.sync.move_into_shared(local.id).unchanged == 1  # moved already: not doubled
    assert joiner.sync.sync_now().ok
    moved = host.store.records(event_id)
    assert [(r.player.name, r.note, r.recorded_by) for r in moved] == [
        ("山田", "休憩中に記録", kept.recorded_by)
    ]


def test_a_judge_name_is_required(devices: list[Device]) -> None:
    with pytest.raises(InvalidInput):
        devices[0].sync.set_judge("   ")
    assert devices[0].sync.status().judge == "佐藤"


def test_a_host_that_cannot_be_reached_is_one_line(devices: list[Device]) -> None:
    result = devices[1].sync.join("127.0.0.1:9", "ABCD-EFGH-JKLM")
    assert not result.ok and result.problem and "\n" not in result.problem
    assert "ABCD" not in result.problem and devices[1].sync.status().role == "off"
    with pytest.raises(InvalidInput):
        devices[1].sync.join("not an address/with/a/path", "ABCD-EFGH-JKLM")
    with pytest.raises(InvalidInput):
        devices[1].sync.join("127.0.0.1:9", "ABCD")
