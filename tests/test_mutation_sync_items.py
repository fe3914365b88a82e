"""What sync and file exchange carry (records/sync/items.py), at the edges mutation testing
found untested: a record or an event's settings read back from its version exactly, every
field; a body refused unless it is exactly the canonical form every device would store, in one
line naming the place and the fault; and the conflict order, the same on every device."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from records.model import Player, Record, RecordedBy
from records.sync.items import RECORD, ItemVersion, record_body, record_from

JST = timezone(timedelta(hours=9))
BASE = datetime(2026, 11, 28, 10, 0, 0, 123456, tzinfo=JST)
DEVICE = "a1" * 16
RECORD_ID = "6f1d2a9c-0000-4000-8000-000000000040"
EVENT_ID = "6f1d2a9c-0000-4000-8000-000000000030"


def a_record(**changes: object) -> Record:
    fields: dict[str, object] = {
        "id": RECORD_ID,
        "event_id": EVENT_ID,
        "created_at": BASE,
        "updated_at": BASE + timedelta(minutes=5),
        "round": 2,
        "table": "7",
        "player": Player("山田太郎", "0001"),
        "infraction_id": "drew-extra-cards",
        "tier_id": "warning",
        "note": "メモ",
        "deleted": False,
        "recorded_by": RecordedBy("佐藤", DEVICE),
        "arrived_at": BASE - timedelta(minutes=3),
        "late_seconds": 180,
        "occurrence": 2,
    }
    fields.update(changes)
    return Record(**fields)  # type: ignore[arg-type]


def version_of(record: Record) -> ItemVersion:
    return ItemVersion(
        RECORD,
        record.id,
        record.event_id,
        1,
        DEVICE,
        "佐藤",
        record.updated_at,
        record_body(record),
    )


def test_a_record_reads_back_from_its_version_exactly() -> None:
    for record in (
        a_record(),
        a_record(
            round=None,
            table=None,
            note=None,
            deleted=True,
            recorded_by=None,
            arrived_at=None,
            late_seconds=None,
            occurrence=None,
            player=Player("鈴木", None),
        ),
    ):
        assert record_from(version_of(record)) == record
