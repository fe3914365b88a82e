"""This device's own versions (records/sync/local.py), at the edges mutation testing found
untested: every save here writes a version naming this device and its judge, stamped later
than every version seen, with the saved row as its body; a record or clock row saved before
sync gets the same legacy version on every device (no device, stamped from its updated_at)."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from records_support import JST, Clock, entry, open_store

from records.clock_rows import (
    EventClockRow,
    ExtensionRow,
    MarkRow,
    RoundRow,
    Stamp,
    event_row_id,
    round_row_id,
)
from records.database import to_us
from records.errors import InvalidInput
from records.model import RecordedBy, Round
from records.store import LogStore
from records.sync import local, versions
from records.sync.clock_items import (
    CLOCK_CHECKS,
    CLOCK_EVENT,
    CLOCK_EXTENSION,
    CLOCK_KINDS,
    CLOCK_MARK,
    CLOCK_ROUND,
    ClockRow,
    check_extension,
    check_item_id,
    check_mark,
    check_round,
    derived_id,
    fields_of,
    row_of,
)
from records.sync.hlc import legacy_stamp, stamp_of
from records.sync.items import EVENT, RECORD, canonical, event_body, record_body
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


# -- the round clock's rows as versions (records/sync/clock_items.py) ---------------------------

EVENT_ID = "5b0c7e2a-1111-4000-8000-000000000001"
RECORD_ID = "9e8d7c6b-2222-4000-8000-000000000002"
CREATED = datetime(2026, 11, 28, 12, 59, 30, 250, tzinfo=JST)
SAVED = datetime(2026, 11, 28, 13, 2, tzinfo=JST)
AT = datetime(2026, 11, 28, 13, 20, 5, tzinfo=JST)


def _stamp(item_id: str, deleted: bool = False) -> Stamp:
    return Stamp(item_id, CREATED, SAVED, deleted)


CLOCK_ROWS = [
    (EventClockRow(_stamp(event_row_id(EVENT_ID)), 45), {"round_minutes": 45}),
    (
        RoundRow(_stamp(round_row_id(EVENT_ID, 3)), 3, 50, AT),
        {"number": 3, "minutes": 50, "started_at": "2026-11-28T13:20:05.000000+09:00"},
    ),
    (
        RoundRow(_stamp(round_row_id(EVENT_ID, 2), deleted=True), 2, None, None),
        {"number": 2, "minutes": None, "started_at": None},
    ),
    (
        MarkRow(_stamp(UNKNOWN), 3, "pause", AT),
        {"round": 3, "kind": "pause", "at": "2026-11-28T13:20:05.000000+09:00"},
    ),
    (
        ExtensionRow(_stamp(UNKNOWN), 3, "12", 5, RECORD_ID, True),
        {"round": 3, "table": "12", "minutes": 5, "record": RECORD_ID, "finished": True},
    ),
    (
        ExtensionRow(_stamp(UNKNOWN, deleted=True), 1, "A-7", 3, None, False),
        {"round": 1, "table": "A-7", "minutes": 3, "record": None, "finished": False},
    ),
]


@pytest.mark.parametrize(("row", "fields"), CLOCK_ROWS)
def test_a_clock_row_travels_as_its_body_and_comes_back_unchanged(
    regulation: Regulation, row: ClockRow, fields: dict[str, Any]
) -> None:
    kind, body = fields_of(row)
    expected = {
        "created_at": "2026-11-28T12:59:30.000250+09:00",  # to the microsecond, always 6 digits
        "deleted": row.stamp.deleted,
        **fields,
    }
    assert body == expected
    assert kind == {EventClockRow: CLOCK_EVENT, RoundRow: CLOCK_ROUND}.get(
        type(row), {MarkRow: CLOCK_MARK, ExtensionRow: CLOCK_EXTENSION}.get(type(row))
    )
    text = canonical(body)
    assert CLOCK_CHECKS[kind](json.loads(text), "push[0].body", regulation) == body  # canonical
    back = row_of(kind, row.stamp.id, SAVED, json.loads(text))
    assert back == row  # updated_at is the version's saved_at
    assert check_item_id(kind, row.stamp.id, EVENT_ID, body, "push[0]") is None


def test_a_clock_body_written_another_way_is_read_in_the_one_canonical_form(
    regulation: Regulation,
) -> None:
    created = {"created_at": "2026-11-28T12:59:30+09:00", "deleted": False}
    canonical_created = {"created_at": "2026-11-28T12:59:30.000000+09:00", "deleted": False}
    moved = {**created, "number": 4, "minutes": 40, "started_at": "2026-11-28T04:00:00Z"}
    started = "2026-11-28T04:00:00.000000+00:00"
    assert check_round(moved, "b", regulation) == {
        **canonical_created,
        "number": 4,
        "minutes": 40,
        "started_at": started,
    }
    upper = RECORD_ID.upper()
    assert check_extension(
        {**created, "round": 2, "table": "１２", "minutes": 3, "record": upper, "finished": False},
        "b",
        regulation,
    ) == {
        **canonical_created,
        "round": 2,
        "table": "12",  # width-folded: one table, one spelling
        "minutes": 3,
        "record": RECORD_ID,
        "finished": False,
    }
    mark = {**created, "round": 999, "kind": "resume", "at": "2026-11-28T04:00:00Z"}
    assert check_mark(mark, "b", regulation)["at"] == started


_GOOD = {
    CLOCK_EVENT: {"round_minutes": 40},
    CLOCK_ROUND: {"number": 1, "minutes": None, "started_at": None},
    CLOCK_MARK: {"round": 1, "kind": "resume", "at": "2026-11-28T13:00:00+09:00"},
    CLOCK_EXTENSION: {"round": 1, "table": "7", "minutes": 3, "record": None, "finished": False},
}
_BASE = {"created_at": "2026-11-28T12:59:30+09:00", "deleted": False}
_DROP = object()  # the key left out


@pytest.mark.parametrize(
    ("kind", "change", "field"),
    [
        (kind, change, field)
        for kind in CLOCK_KINDS
        for change, field in [
            ({"deleted": None}, "deleted"),
            ({"deleted": 0}, "deleted"),
            ({"deleted": _DROP}, "deleted"),
            ({"created_at": _DROP}, "created_at"),
            ({"created_at": "13時"}, "created_at"),
        ]
    ]
    + [
        (CLOCK_EVENT, {"round_minutes": 0}, "round_minutes"),
        (CLOCK_EVENT, {"round_minutes": _DROP}, "round_minutes"),
        (CLOCK_ROUND, {"minutes": _DROP}, "minutes"),
        (CLOCK_ROUND, {"started_at": _DROP}, "started_at"),
        (CLOCK_ROUND, {"number": _DROP}, "number"),
        (CLOCK_ROUND, {"number": None}, "number"),
        (CLOCK_ROUND, {"number": 0}, "number"),
        (CLOCK_ROUND, {"minutes": 24 * 60 + 1}, "minutes"),
        (CLOCK_ROUND, {"minutes": True}, "minutes"),
        (CLOCK_ROUND, {"started_at": "2026-11-28T13:00:00"}, "started_at"),  # no offset
        (CLOCK_MARK, {"kind": "stop"}, "kind"),
        (CLOCK_MARK, {"kind": _DROP}, "kind"),
        (CLOCK_MARK, {"round": _DROP}, "round"),
        (CLOCK_MARK, {"round": 1000}, "round"),
        (CLOCK_MARK, {"at": _DROP}, "at"),
        (CLOCK_MARK, {"at": "yesterday"}, "at"),
        (CLOCK_EXTENSION, {"table": _DROP}, "table"),
        (CLOCK_EXTENSION, {"table": ""}, "table"),
        (CLOCK_EXTENSION, {"table": "x" * 33}, "table"),
        (CLOCK_EXTENSION, {"record": _DROP}, "record"),
        (CLOCK_EXTENSION, {"record": "not-a-uuid"}, "record"),
        (CLOCK_EXTENSION, {"record": 7}, "record"),
        (CLOCK_EXTENSION, {"finished": _DROP}, "finished"),
        (CLOCK_EXTENSION, {"finished": 1}, "finished"),
        (CLOCK_EXTENSION, {"round": None}, "round"),
        (CLOCK_EXTENSION, {"minutes": 0}, "minutes"),
        (CLOCK_EXTENSION, {"minutes": _DROP}, "minutes"),
    ],
)
def test_a_malformed_clock_body_is_refused_naming_its_field_in_one_line(
    regulation: Regulation, kind: str, change: dict[str, Any], field: str
) -> None:
    body = {**_BASE, **_GOOD[kind], **change}
    body = {key: value for key, value in body.items() if value is not _DROP}
    given = json.loads(json.dumps(body))
    with pytest.raises(InvalidInput) as refused:
        CLOCK_CHECKS[kind](body, "push[2].body", regulation)
    assert refused.value.field == f"push[2].body.{field}"
    assert str(refused.value).startswith(f"push[2].body.{field}: ")  # the field first
    assert body == given  # nothing changed


@pytest.mark.parametrize("kind", CLOCK_KINDS)
def test_a_clock_body_that_is_no_object_is_refused(regulation: Regulation, kind: str) -> None:
    with pytest.raises(InvalidInput, match=r"^push\[0\]\.body: must be an object$") as refused:
        CLOCK_CHECKS[kind](["created_at"], "push[0].body", regulation)
    assert refused.value.field == "push[0].body"


def test_only_this_events_id_is_taken_for_its_clock_and_round_rows() -> None:
    other = "5b0c7e2a-3333-4000-8000-000000000003"
    assert derived_id(CLOCK_EVENT, EVENT_ID, {}) == event_row_id(EVENT_ID)
    assert derived_id(CLOCK_ROUND, EVENT_ID, {"number": 3}) == round_row_id(EVENT_ID, 3)
    refusals = [
        (CLOCK_EVENT, event_row_id(other), {}),
        (CLOCK_ROUND, round_row_id(EVENT_ID, 2), {"number": 3}),  # round 2's id for round 3
        (CLOCK_ROUND, round_row_id(other, 3), {"number": 3}),
    ]
    for kind, item_id, body in refusals:
        with pytest.raises(InvalidInput) as refused:
            check_item_id(kind, item_id, EVENT_ID, body, "push[4]")
        assert refused.value.field == "push[4].id"
        assert str(refused.value).startswith("push[4].id: ")
    check_item_id(CLOCK_MARK, UNKNOWN, EVENT_ID, {"round": 3}, "push[4]")  # any UUID
    check_item_id(CLOCK_EXTENSION, UNKNOWN, EVENT_ID, {"round": 3}, "push[4]")
    check_item_id(CLOCK_ROUND, UNKNOWN, EVENT_ID, "no object", "push[4]")  # the body check's job


@pytest.mark.parametrize(
    ("kind", "change", "field", "reason"),
    [
        (CLOCK_ROUND, {"number": None}, "number", "required"),
        (CLOCK_MARK, {"round": _DROP}, "round", "required"),
        (CLOCK_EXTENSION, {"round": None}, "round", "required"),
        (CLOCK_EXTENSION, {"table": _DROP}, "table", "required"),
        (CLOCK_EXTENSION, {"table": "  "}, "table", "required"),
        (CLOCK_EXTENSION, {"round": 0}, "round", "out_of_range"),
        (CLOCK_EXTENSION, {"record": "7"}, "record", "format"),
        (CLOCK_MARK, {"kind": "Pause"}, "kind", "format"),
    ],
)
def test_a_refused_clock_field_says_why_as_a_code_a_screen_can_translate(
    regulation: Regulation, kind: str, change: dict[str, Any], field: str, reason: str
) -> None:
    body = {**_BASE, **_GOOD[kind], **change}
    body = {key: value for key, value in body.items() if value is not _DROP}
    with pytest.raises(InvalidInput) as refused:
        CLOCK_CHECKS[kind](body, "b", regulation)
    assert (refused.value.field, refused.value.reason) == (f"b.{field}", reason)
