"""Venue sync's ledger (records/sync/ledger.py), at the edges mutation testing found untested:
offline records moved into the shared event are copied once and never lost (the originals
deleted but kept, a second move doubling nothing), a host's pages carry every version but the
asking device's own, a joiner pushes only what the host does not have, and versions of a
record or clock row that lives in another event here are refused, nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from records_support import Clock, entry, open_store

from records.store import LogStore
from regulation.model import Regulation


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path) -> Iterator[LogStore]:
    with open_store(regulation, tmp_path, Clock()) as opened:
        yield opened


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

    again = ledger.move_records(offline.id, shared.id)
    assert (again.added, again.unchanged) == (0, 0)  # the deleted originals are not moved
    assert store.records(shared.id, newest_first=False) == moved
