"""Records and their history (records/history.py), at the edges mutation testing found untested:
every field a judge wrote comes back as written, after closing and reopening the log and after
an edit; a refused change says in one line what is wrong and changes nothing; deleting or
restoring twice is one change, not two; and the versions a judge can look back on are exactly
the changes made."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST, Clock, open_store

from records.errors import InvalidInput
from records.model import Player, Record, RecordInput
from records.store import LogStore
from regulation.model import Regulation

UNKNOWN = "6f1d2a9c-0000-4000-8000-0000000000ff"


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path):
    with open_store(regulation, tmp_path, Clock()) as opened:
        yield opened


@pytest.fixture
def event_id(store: LogStore) -> str:
    return store.current_event().id


def refused(call, *args: object) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        call(*args)
    return caught.value


def late(name: str, **fields: object) -> RecordInput:
    """A tardiness with every field of the form filled in."""
    arrived = datetime(2026, 11, 28, 10, 8, 26, tzinfo=JST)
    values: dict[str, object] = {
        "player": Player(name),
        "infraction_id": "assembly-conditions-not-met",
        "tier_id": None,
        "round": 3,
        "table": "12",
        "note": "受付で確認",
        "arrived_at": arrived,
        "late_seconds": 506,
    }
    values.update(fields)
    return RecordInput(**values)  # type: ignore[arg-type]


def written(record: Record) -> tuple[object, ...]:
    return (
        record.player,
        record.infraction_id,
        record.round,
        record.table,
        record.note,
        record.arrived_at,
        record.late_seconds,
    )


def test_every_field_comes_back_as_written_after_reopening(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path, Clock()) as store:
        event_id = store.current_event().id
        saved = store.add_record(event_id, late("山田太郎", player=Player("山田太郎", "0001")))
    assert written(saved) == (
        Player("山田太郎", "0001"),
        "assembly-conditions-not-met",
        3,
        "12",
        "受付で確認",
        datetime(2026, 11, 28, 10, 8, 26, tzinfo=JST),
        506,
    )
    assert saved.tier_id == "warning"  # the infraction's own, none having been chosen
    assert saved.occurrence == 1 and saved.deleted is False
    assert saved.recorded_by is not None and saved.recorded_by.device
    with open_store(regulation, tmp_path, Clock()) as reopened:
        assert reopened.record(saved.id) == saved
        assert reopened.records(event_id) == (saved,)


def test_an_edited_deleted_record_is_refused_in_one_line_and_nothing_changes(
    store: LogStore, event_id: str
) -> None:
    saved = store.add_record(event_id, late("山田"))
    deleted = store.delete_record(saved.id)
    error = refused(store.edit_record, saved.id, late("鈴木"))
    assert (error.field, error.reason) == ("record", "format")
    assert str(error) == "this record was deleted; restore it first"
    assert store.record(saved.id) == deleted
    assert len(store.record_versions(saved.id)) == 2


def test_an_unknown_record_is_refused_with_its_id(store: LogStore, event_id: str) -> None:
    store.add_record(event_id, late("山田"))
    assert store.record(UNKNOWN) is None
    for call, args in (
        (store.edit_record, (UNKNOWN, late("山田"))),
        (store.delete_record, (UNKNOWN,)),
        (store.restore_record, (UNKNOWN,)),
    ):
        error = refused(call, *args)
        assert (error.field, error.reason) == ("record", "unknown_id"), call
        assert str(error) == f"no record with id {UNKNOWN!r}"
    assert len(store.records(event_id, include_deleted=True)) == 1


def test_deleting_or_restoring_twice_is_one_change(store: LogStore, event_id: str) -> None:
    saved = store.add_record(event_id, late("山田"))
    assert store.restore_record(saved.id) == saved  # live already: nothing to do
    deleted = store.delete_record(saved.id)
    assert store.delete_record(saved.id) == deleted
    assert [v.record.deleted for v in store.record_versions(saved.id)] == [False, True]
    assert deleted.updated_at > saved.updated_at  # a tombstone wins a merge


def test_an_edit_replaces_every_field_of_the_form_and_keeps_who_recorded_it(
    store: LogStore, event_id: str
) -> None:
    store.ledger().save({"judge": "田中ジャッジ"})
    saved = store.add_record(event_id, late("山田"))
    assert saved.recorded_by is not None and saved.recorded_by.judge == "田中ジャッジ"
    arrived = datetime(2026, 11, 28, 10, 12, 0, tzinfo=JST)
    change = late(
        "鈴木",
        player=Player("鈴木", "0002"),
        infraction_id="not-seated-10-minutes",
        tier_id="disqualification",
        round=4,
        table="B-3",
        note="二度目の確認",
        arrived_at=arrived,
        late_seconds=720,
    )
    edited = store.edit_record(saved.id, change)
    assert written(edited) == (
        Player("鈴木", "0002"),
        "not-seated-10-minutes",
        4,
        "B-3",
        "二度目の確認",
        arrived,
        720,
    )
    assert edited.tier_id == "disqualification"
    assert (edited.id, edited.event_id, edited.created_at) == (
        saved.id,
        saved.event_id,
        saved.created_at,
    )
    assert edited.recorded_by == saved.recorded_by  # the first recorder, not the editor
    assert edited.updated_at > saved.updated_at
    assert store.record(saved.id) == edited
    # Cleared fields are cleared, not kept from before.
    cleared = store.edit_record(
        saved.id,
        late("鈴木", round=None, table=None, note=None, arrived_at=None, late_seconds=None),
    )
    assert (cleared.round, cleared.table, cleared.note, cleared.arrived_at) == (None,) * 4
    assert cleared.late_seconds is None
    assert store.record(saved.id) == cleared
    assert [v.record for v in store.record_versions(saved.id)] == [saved, edited, cleared]


def test_the_repeat_count_is_kept_by_an_edit_and_counted_again_for_another_pair(
    store: LogStore, event_id: str
) -> None:
    first = store.add_record(event_id, late("山田"))
    second = store.add_record(event_id, late("山田", note="二度目"))
    assert (first.occurrence, second.occurrence) == (1, 2)
    store.delete_record(first.id)
    # The count is what the judge was told when saving: a note changed does not recount it.
    assert store.edit_record(second.id, late("山田", note="訂正")).occurrence == 2
    third = store.add_record(event_id, late("鈴木"))
    fourth = store.add_record(event_id, late("佐藤", infraction_id="drew-extra-cards"))
    # Another player, or another infraction: the count of the new pair, earlier records only.
    assert store.edit_record(fourth.id, late("鈴木")).occurrence == 2
    assert (
        store.edit_record(third.id, late("佐藤", infraction_id="drew-extra-cards")).occurrence == 1
    )
    moved = store.edit_record(second.id, late("山田", infraction_id="drew-extra-cards"))
    assert moved.occurrence == 1
    assert store.record(second.id) == moved


def test_a_log_from_before_venue_sync_gives_each_record_one_version_once(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path, Clock()) as store:
        event_id = store.current_event().id
        old = store.add_record(event_id, late("山田"))
        gone = store.delete_record(store.add_record(event_id, late("鈴木")).id)
        path = store.path
    with sqlite3.connect(path) as db:  # as a log saved before versions existed
        db.execute("DELETE FROM item_versions WHERE item_uuid = ?", (old.id,))
        db.execute("DELETE FROM settings WHERE key = 'sync.backfilled'")
    db.close()
    for _ in range(2):  # the second opening adds nothing
        with open_store(regulation, tmp_path, Clock()) as store:
            found = store.record_versions(old.id)
            assert [(v.record, v.recorded_by, v.current) for v in found] == [(old, None, True)]
            assert [v.record for v in store.record_versions(gone.id)] == [
                replace(gone, deleted=False, updated_at=gone.created_at),
                gone,
            ]


def test_every_change_is_later_than_the_last_even_when_the_clock_went_back(
    regulation: Regulation, tmp_path: Path
) -> None:
    """An edit, a deletion and a restore each win a merge against the version they replace,
    even on a device whose clock was set back an hour after the record was saved."""
    clock = Clock()
    with open_store(regulation, tmp_path, clock) as store:
        saved = store.add_record(store.current_event().id, late("山田"))
        clock.now -= timedelta(hours=1)
        edited = store.edit_record(saved.id, late("山田", note="後から"))
        deleted = store.delete_record(saved.id)
        restored = store.restore_record(saved.id)
        assert saved.updated_at < edited.updated_at < deleted.updated_at < restored.updated_at
        assert [v.record for v in store.record_versions(saved.id)] == [
            saved,
            edited,
            deleted,
            restored,
        ]
