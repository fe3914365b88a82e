"""Venue sync's ledger (records/sync/ledger.py), at the edges mutation testing found untested,
on a device: offline records moved into the shared event are copied once and never lost (the
originals deleted but kept, a second move doubling nothing, a copy's id the same on every
device); the saved sync state and judge read back; a read-only log says nothing was synced; and
the devices a host has seen, newest first, written at most every 30 seconds. What is sent and
received between devices: test_mutation_ledger_pages.py."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from ledger_support import (
    BASE,
    EVENT_IDS,
    MOVED_COPY,
    OTHER,
    THIRD,
    foreign,
    kinds_and_ids,
    refused,
)
from records_support import Clock, entry, open_store

from records.errors import Unwritable
from records.store import LogStore
from records.sync import ledger as ledger_module
from records.sync.hlc import stamp_of
from records.sync.items import EVENT, RECORD, ItemVersion, canonical
from records.sync.state import KEYS, SyncState
from regulation.model import Regulation


@pytest.fixture
def clock() -> Clock:
    return Clock(BASE, timedelta(0))  # moved by hand


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path, clock: Clock) -> Iterator[LogStore]:
    with open_store(regulation, tmp_path, clock) as opened:
        yield opened


# -- offline records -------------------------------------------------------------------------


def test_moving_offline_records_copies_each_once_and_keeps_the_originals(
    store: LogStore,
) -> None:
    offline = store.create_event("オフライン")
    shared = store.create_event("県大会")
    kept = store.add_record(offline.id, entry("山田", note="n"))
    other = store.add_record(offline.id, entry("鈴木", table="4"))
    saves: list[None] = []
    store.add_save_listener(lambda: saves.append(None))
    ledger = store.ledger()

    report = ledger.move_records(offline.id, shared.id)

    assert (report.event.id, report.added, report.updated, report.unchanged) == (shared.id, 2, 0, 0)
    assert saves == [None]
    moved = store.records(shared.id, newest_first=False)
    assert [(r.player.name, r.note, r.table) for r in moved] == [
        ("山田", "n", None),
        ("鈴木", None, "4"),
    ]
    assert {r.id for r in moved}.isdisjoint({kept.id, other.id})
    assert store.records(offline.id) == ()
    originals = store.records(offline.id, include_deleted=True, newest_first=False)
    assert [(r.id, r.deleted) for r in originals] == [(kept.id, True), (other.id, True)]
    # both sides are versions another device hears of: the copy, and the original's deletion
    assert [len(store.record_versions(r.id)) for r in moved] == [1, 1]
    assert [len(store.record_versions(r.id)) for r in originals] == [2, 2]
    assert originals[0].updated_at > kept.updated_at

    # the copies are versions of the shared event: what its sync sends
    sent = kinds_and_ids(ledger.page(shared.id, 0, OTHER)[0])
    assert sent == [(RECORD, r.id) for r in moved]
    assert {v.event_id for v in store.export_versions(shared.id)} == {shared.id}

    again = ledger.move_records(offline.id, shared.id)
    assert (again.added, again.unchanged) == (0, 0)  # the deleted originals are not moved
    assert store.records(shared.id, newest_first=False) == moved


def test_a_restored_original_moved_again_is_not_copied_twice(store: LogStore) -> None:
    offline = store.create_event("オフライン")
    shared = store.create_event("県大会")
    original = store.add_record(offline.id, entry("山田"))
    ledger = store.ledger()
    ledger.move_records(offline.id, shared.id)
    store.restore_record(original.id)

    report = ledger.move_records(offline.id, shared.id)

    assert (report.added, report.unchanged) == (0, 1)
    assert len(store.records(shared.id)) == 1
    second = store.add_record(offline.id, entry("鈴木"))
    ledger.move_records(offline.id, shared.id)
    store.restore_record(original.id)
    store.restore_record(second.id)
    report = ledger.move_records(offline.id, shared.id)
    assert (report.added, report.unchanged) == (0, 2)
    assert len(store.records(shared.id)) == 2
    assert store.records(offline.id) == ()  # deleted again, still kept
    assert store.record(original.id) is not None


def test_records_already_in_the_shared_event_are_not_moved(store: LogStore) -> None:
    shared = store.create_event("県大会")
    record = store.add_record(shared.id, entry("山田"))
    problem = refused(store.ledger().move_records, shared.id, shared.id)
    assert str(problem) == "these records are in the shared event already"
    assert problem.field == "event"
    assert store.records(shared.id) == (record,)


# -- settings ----------------------------------------------------------------------------------


def test_the_device_id_and_the_judge_are_read_from_the_log(store: LogStore) -> None:
    ledger = store.ledger()
    assert len(ledger.device_id) == 32 and int(ledger.device_id, 16) >= 0
    assert store.ledger().device_id == ledger.device_id  # kept, not made again
    assert ledger.judge() is None
    ledger.save({"judge": "佐藤"})
    assert (ledger.judge(), store.ledger().judge()) == ("佐藤", "佐藤")
    ledger.save({"judge": ""})
    assert ledger.judge() is None
    ledger.save({"judge": "佐藤"})
    ledger.save({"judge": None})
    assert ledger.judge() is None
    with store._database.write() as db:  # a log that has no device id yet
        db.execute("DELETE FROM settings WHERE key = 'device_id'")
    assert store.ledger().device_id == ""


def test_the_sync_state_reads_back_and_unset_fields_are_removed(store: LogStore) -> None:
    ledger = store.ledger()
    event = store.current_event()
    joined = SyncState(
        role="joined",
        event_id=event.id,
        host_url="http://127.0.0.1:8765",
        cursor=12,
        pushed=7,
        last_synced=BASE,
    )
    ledger.save_state(joined)
    assert ledger.state() == joined
    assert store.ledger().state() == joined
    ledger.save_state(SyncState())
    assert ledger.state() == SyncState()
    rows = store._database.read("SELECT key FROM settings")
    kept = sorted(key for (key,) in rows if key in KEYS)
    assert kept == ["sync.cursor", "sync.pushed", "sync.role"]


def test_the_first_sync_of_a_joined_event_is_told_once(store: LogStore) -> None:
    ledger = store.ledger()
    missing = "6f1d2a9c-0000-4000-8000-0000000000ff"
    assert ledger.first_sync_done(missing) is False  # not here yet
    event = store.create_event("県大会")
    assert ledger.first_sync_done(event.id) is True
    assert ledger.first_sync_done(event.id) is False
    assert store.ledger().first_sync_done(event.id) is False  # kept in the log
    later = store.create_event("次の大会")
    assert ledger.first_sync_done(later.id) is True


# -- devices -----------------------------------------------------------------------------------


def test_devices_seen_are_listed_newest_first_and_written_every_30_seconds(
    store: LogStore, clock: Clock
) -> None:
    event = store.create_event("県大会")
    other_event = store.create_event("市民大会")
    ledger = store.ledger()

    def written() -> list[tuple[str, str, str]]:
        rows = store._database.read("SELECT device, judge, last_seen FROM sync_devices")
        return sorted((d, j, at) for d, j, at in rows)

    assert ledger.seen(event.id, OTHER, "高橋") is True
    assert written() == [(OTHER, "高橋", BASE.isoformat())]
    clock.now = BASE + timedelta(seconds=10)
    assert ledger.seen(event.id, OTHER, "高橋") is False
    assert written() == [(OTHER, "高橋", BASE.isoformat())]  # not yet
    assert ledger.devices(event.id) == [(OTHER, "高橋", BASE + timedelta(seconds=10))]
    clock.now = BASE + timedelta(seconds=29)
    assert ledger.seen(event.id, OTHER, "高橋") is False
    assert written() == [(OTHER, "高橋", BASE.isoformat())]
    clock.now = BASE + timedelta(seconds=30)
    assert ledger.seen(event.id, OTHER, "高橋") is False
    assert written() == [(OTHER, "高橋", clock.now.isoformat())]
    clock.now = BASE + timedelta(seconds=31)
    assert ledger.seen(event.id, OTHER, None) is True  # the judge's name changed: written
    assert written() == [(OTHER, "", clock.now.isoformat())]
    clock.now = BASE + timedelta(seconds=32)
    assert ledger.seen(event.id, OTHER, "") is False
    clock.now = BASE + timedelta(seconds=40)
    assert ledger.seen(event.id, THIRD, "佐藤") is True
    assert ledger.seen(other_event.id, "d4" * 16, "伊藤") is True
    assert ledger.devices(event.id) == [
        (THIRD, "佐藤", BASE + timedelta(seconds=40)),
        (OTHER, "", BASE + timedelta(seconds=32)),
    ]
    clock.now = BASE + timedelta(seconds=50)
    assert ledger.seen(event.id, "a0" * 16, "渡辺") is True  # newest, though its id sorts first
    assert [d for d, _j, _at in ledger.devices(event.id)] == ["a0" * 16, THIRD, OTHER]
    # another ledger (a restarted host) knows what was written
    assert store.ledger().devices(event.id) == [
        ("a0" * 16, "渡辺", BASE + timedelta(seconds=50)),
        (THIRD, "佐藤", BASE + timedelta(seconds=40)),
        (OTHER, "", BASE + timedelta(seconds=31)),
    ]
    assert [d for d, _j, _at in store.ledger().devices(other_event.id)] == ["d4" * 16]
    assert ledger_module.SEEN_WRITE_S == 30.0


def test_a_read_only_log_says_nothing_was_synced(store: LogStore) -> None:
    event = store.create_event("県大会")
    ledger = store.ledger()
    store._database.read_only = "the folder is read-only"  # what LogStore.open sets then
    expected = "nothing synced: the penalty log is read-only here (the folder is read-only)"
    with pytest.raises(Unwritable) as pushed:
        ledger.receive(event.id, [foreign(event.id, 1)], OTHER, None)
    with pytest.raises(Unwritable) as pulled:
        ledger.pull(event.id, [], 5, 0)
    assert str(pushed.value) == str(pulled.value) == expected


def test_a_moved_copy_has_the_same_id_on_every_device_and_every_version(
    store: LogStore,
) -> None:
    """Two devices that move the same offline record into the same shared event make one copy:
    its id comes from the two ids alone, the same as in earlier versions of the app."""
    ledger = store.ledger()
    offline, shared = EVENT_IDS
    for event_id, name in ((offline, "オフライン"), (shared, "県大会")):
        settings = canonical({"name": name, "date": None, "rounds": []})
        version = ItemVersion(
            EVENT, event_id, event_id, stamp_of(BASE), OTHER, None, BASE, settings
        )
        assert ledger.receive(event_id, [version], OTHER, None) == 1
    assert ledger.receive(offline, [foreign(offline, 1)], OTHER, None) == 1
    ledger.move_records(offline, shared)
    (copy,) = store.records(shared)
    assert copy.id == MOVED_COPY
    assert copy.player.name == "田中"
