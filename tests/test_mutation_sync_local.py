"""This device's own versions (records/sync/local.py), at the edges mutation testing found
untested: every save here writes a version naming this device and its judge, stamped later
than every version seen, with the saved row as its body; a record or clock row saved before
sync gets the same legacy version on every device (no device, stamped from its updated_at)."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST, Clock, entry, open_store

from records.database import to_us
from records.model import RecordedBy, Round
from records.store import LogStore
from records.sync import local, versions
from records.sync.clock_items import fields_of
from records.sync.hlc import legacy_stamp, stamp_of
from records.sync.items import EVENT, RECORD, event_body, record_body
from regulation.model import Regulation

UNKNOWN = "6f1d2a9c-0000-4000-8000-0000000000ff"


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path):
    with open_store(regulation, tmp_path, Clock()) as opened:
        yield opened


def _history(store: LogStore, kind: str, item_id: str) -> list[versions.ItemVersion]:
    with store._database.lock:
        return versions.history(store._database.connection, kind, item_id)


def test_a_record_saved_here_is_a_version_by_this_device_and_judge(store: LogStore) -> None:
    store.ledger().save({local.JUDGE_KEY: "田中"})
    event = store.create_event("秋の大会")
    record = store.add_record(event.id, entry("山田"))
    (version,) = _history(store, RECORD, record.id)
    me = store.ledger().device_id
    assert me  # made by schema 4
    assert (version.device, version.judge) == (me, "田中")
    assert (version.item_id, version.event_id) == (record.id, event.id)
    assert version.saved_at == record.updated_at
    assert version.body == record_body(record)


def test_a_version_made_before_sync_is_the_same_on_every_device(store: LogStore) -> None:
    event = store.create_event("秋の大会")
    record = store.add_record(event.id, entry("山田"))
    legacy = local.legacy_version(record)
    assert (legacy.kind, legacy.item_id, legacy.event_id) == (RECORD, record.id, event.id)
    assert (legacy.device, legacy.judge) == ("", None)
    assert legacy.stamp == legacy_stamp(to_us(record.updated_at))
    assert legacy.saved_at == record.updated_at
    assert legacy.body == record_body(record)


def test_without_a_judge_name_a_version_names_the_device_alone(store: LogStore) -> None:
    event = store.create_event("秋の大会")
    record = store.add_record(event.id, entry("山田"))
    assert local.who(store._database.connection) == RecordedBy("", store.ledger().device_id)
    (version,) = _history(store, RECORD, record.id)
    assert version.judge is None  # not "", not the device id
    assert version.device == store.ledger().device_id
    assert record.recorded_by == RecordedBy("", version.device)


def test_each_save_is_stamped_later_than_every_version_seen(
    regulation: Regulation, tmp_path: Path
) -> None:
    clock = Clock()
    with open_store(regulation, tmp_path, clock) as store:
        event = store.create_event("秋の大会")
        first = store.add_record(event.id, entry("山田"))
        (one,) = _history(store, RECORD, first.id)
        assert one.stamp >= stamp_of(first.updated_at)  # the wall clock when it is ahead
        clock.now -= timedelta(days=1)  # the device's clock set back a day
        edited = store.edit_record(first.id, entry("山田", note="訂正"))
        older, newer = _history(store, RECORD, first.id)
        assert older == one
        assert newer.stamp == one.stamp + 1  # later than the highest seen, not the wall clock
        assert newer.body == record_body(edited)
        assert newer.saved_at == edited.updated_at
        assert store.record(first.id) == edited


def test_an_event_saved_here_is_a_version_of_its_settings(store: LogStore) -> None:
    event = store.create_event("秋の大会", date(2026, 11, 28))
    at = datetime(2026, 11, 28, 13, 5, tzinfo=JST)
    updated = store.set_rounds(event.id, [Round(2, at), Round(1)])
    found = local.event_in(store._database.connection, event.id)
    assert found == updated
    assert found is not None
    assert found.date == date(2026, 11, 28)
    assert found.rounds == (Round(1, None), Round(2, at))  # in number order
    newest = _history(store, EVENT, event.id)[-1]
    assert (newest.kind, newest.item_id, newest.event_id) == (EVENT, event.id, event.id)
    assert newest.body == event_body(updated)
    assert newest.device == store.ledger().device_id
    renamed = store.update_event(event.id, "冬の大会", None)
    assert renamed.date is None
    assert local.event_in(store._database.connection, event.id) == renamed
    last = _history(store, EVENT, event.id)[-1]
    assert last.body == event_body(renamed)
    assert last.stamp > newest.stamp
    assert local.event_in(store._database.connection, UNKNOWN) is None


def test_a_clock_row_saved_here_is_a_version_of_that_row(store: LogStore) -> None:
    store.ledger().save({local.JUDGE_KEY: "田中"})
    event = store.create_event("秋の大会")
    start = datetime(2026, 11, 28, 13, 0, tzinfo=JST)
    store.round_clock.start(event.id, 1, start)
    rows = store.round_clock.rows(event.id)
    (row,) = rows.rounds
    kind, fields = fields_of(row)
    (version,) = _history(store, kind, row.stamp.id)
    assert (version.kind, version.item_id, version.event_id) == (kind, row.stamp.id, event.id)
    assert (version.device, version.judge) == (store.ledger().device_id, "田中")
    assert version.saved_at == row.stamp.updated_at
    assert json.loads(version.body) == fields
    assert fields["started_at"] == start.isoformat(timespec="microseconds")


def test_a_clock_row_saved_before_its_versions_is_the_same_on_every_device(
    store: LogStore,
) -> None:
    event = store.create_event("秋の大会")
    store.round_clock.start(event.id, 1, datetime(2026, 11, 28, 13, 0, tzinfo=JST))
    (row,) = store.round_clock.rows(event.id).rounds
    kind, fields = fields_of(row)
    legacy = local.legacy_clock_version(event.id, row)
    assert (legacy.kind, legacy.item_id, legacy.event_id) == (kind, row.stamp.id, event.id)
    assert (legacy.device, legacy.judge) == ("", None)
    assert legacy.stamp == legacy_stamp(to_us(row.stamp.updated_at))
    assert legacy.saved_at == row.stamp.updated_at
    assert json.loads(legacy.body) == fields
    assert legacy == local.legacy_clock_version(event.id, row)


def test_records_saved_before_sync_get_their_versions_once(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path, Clock()) as store:
        database = store._database
        assert not local.needs_backfill(database)  # done when the log was opened
        event = store.create_event("秋の大会")
        record = store.add_record(event.id, entry("山田"))
        with database.write() as db:  # as a log made before schema 4 holds it
            db.execute("DELETE FROM item_versions")
            db.execute("DELETE FROM settings WHERE key = 'sync.backfilled'")
        assert local.needs_backfill(database)
    with open_store(regulation, tmp_path, Clock()) as store:
        assert not local.needs_backfill(store._database)
        assert _history(store, RECORD, record.id) == [local.legacy_version(record)]
        rows = store._database.read("SELECT value FROM settings WHERE key = 'sync.backfilled'")
        assert rows == [("1",)]


def test_a_log_without_a_device_id_names_no_device_never_a_made_up_one(store: LogStore) -> None:
    # schema 4 gives every log one; a file edited by hand may have lost it
    with store._database.write() as db:
        db.execute("DELETE FROM settings WHERE key = ?", (local.DEVICE_KEY,))
        assert local.setting(db, local.DEVICE_KEY) is None
        assert local.who(db) == RecordedBy("", "")
