"""Reading records (records/history.py), at the edges mutation testing found untested: an
event's records by round, table and player, the deleted ones apart, a page at a time; the
earlier records of a repeat; and the tardiness entry of a round."""

from __future__ import annotations

from pathlib import Path

import pytest
from records_support import Clock, entry, open_store

from records.store import LogStore
from regulation.model import Regulation


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path):
    with open_store(regulation, tmp_path, Clock()) as opened:
        yield opened


@pytest.fixture
def event_id(store: LogStore) -> str:
    return store.current_event().id


def test_the_deleted_list_holds_only_the_deleted_and_a_table_only_its_own(
    store: LogStore, event_id: str
) -> None:
    kept = store.add_record(event_id, entry("山田", table="12"))
    gone = store.add_record(event_id, entry("鈴木", table="7"))
    other = store.add_record(event_id, entry("佐藤", table="7"))
    gone = store.delete_record(gone.id)
    assert store.records(event_id, only_deleted=True) == (gone,)
    assert store.records(event_id) == (other, kept)
    assert store.records(event_id, include_deleted=True) == (other, gone, kept)
    assert store.records(event_id, table="7") == (other,)
    assert store.records(event_id, table="7", include_deleted=True) == (other, gone)
    assert store.records(event_id, table="12") == (kept,)
