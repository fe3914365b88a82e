"""This device's own versions (records/sync/local.py), at the edges mutation testing found
untested: every save here writes a version naming this device and its judge, stamped later
than every version seen, with the saved row as its body; a record or clock row saved before
sync gets the same legacy version on every device (no device, stamped from its updated_at)."""

from __future__ import annotations

from pathlib import Path

import pytest
from records_support import Clock, entry, open_store

from records.database import to_us
from records.store import LogStore
from records.sync import local, versions
from records.sync.hlc import legacy_stamp
from records.sync.items import RECORD, record_body
from regulation.model import Regulation


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
