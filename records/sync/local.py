"""This device's own versions: who it is (device id, judge name), and the version each local
save writes beside its row, in the same transaction (records/history.py, records/events.py)."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime

from ..database import Database, to_us
from ..model import Event, Record, RecordedBy, Round
from . import versions
from .clock_items import ClockRow, fields_of
from .hlc import legacy_stamp, next_stamp
from .items import EVENT, RECORD, ItemVersion, canonical, event_body, record_body

DEVICE_KEY = "device_id"
JUDGE_KEY = "judge"
_BACKFILLED = "sync.backfilled"


def setting(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
    return str(row[0]) if row else None


def who(db: sqlite3.Connection) -> RecordedBy:
    """This device: its id (made by schema 4) and its judge's name ("" until asked)."""
    return RecordedBy(setting(db, JUDGE_KEY) or "", setting(db, DEVICE_KEY) or "")


def _save(
    database: Database,
    db: sqlite3.Connection,
    kind: str,
    item: str,
    event: str,
    saved_at: datetime,
    body: str,
) -> None:
    me = who(db)
    stamp = next_stamp(saved_at, versions.highest_stamp(db))
    version = ItemVersion(kind, item, event, stamp, me.device, me.judge or None, saved_at, body)
    versions.add(db, [version])


def save_record(database: Database, db: sqlite3.Connection, record: Record) -> None:
    """The version of a record just written here (inside the caller's write)."""
    _save(database, db, RECORD, record.id, record.event_id, record.updated_at, record_body(record))


def event_in(db: sqlite3.Connection, event_id: str) -> Event | None:
    row = db.execute("SELECT id, name, date FROM events WHERE uuid = ?", (event_id,)).fetchone()
    if row is None:
        return None
    rounds = db.execute(
        "SELECT number, assembly_at FROM rounds WHERE event_id = ? ORDER BY number", (row[0],)
    ).fetchall()
    return Event(
        event_id,
        row[1],
        date.fromisoformat(row[2]) if row[2] else None,
        tuple(Round(n, datetime.fromisoformat(at) if at else None) for n, at in rounds),
    )


def save_event(database: Database, db: sqlite3.Connection, event_id: str) -> None:
    """The version of an event's settings just written here (inside the caller's write)."""
    event = event_in(db, event_id)
    if event is not None:
        _save(database, db, EVENT, event_id, event_id, database.clock(), event_body(event))


def save_clock(database: Database, db: sqlite3.Connection, event_id: str, row: ClockRow) -> None:
    """The version of a round clock row just written here (inside the caller's write)."""
    kind, fields = fields_of(row)
    _save(database, db, kind, row.stamp.id, event_id, row.stamp.updated_at, canonical(fields))


def legacy_clock_version(event_id: str, row: ClockRow) -> ItemVersion:
    """The version of a clock row saved before its versions were (an older log or export):
    stamped from its updated_at, with no device, so every device makes the same one."""
    kind, fields = fields_of(row)
    saved_at = row.stamp.updated_at
    stamp = legacy_stamp(to_us(saved_at))
    return ItemVersion(kind, row.stamp.id, event_id, stamp, "", None, saved_at, canonical(fields))


def legacy_version(record: Record) -> ItemVersion:
    """The version of a record saved before sync (an old log, a version-1 export): stamped
    from its updated_at, with no device, so every device makes the same one."""
    return ItemVersion(
        RECORD,
        record.id,
        record.event_id,
        legacy_stamp(to_us(record.updated_at)),
        "",
        None,
        record.updated_at,
        record_body(record),
    )


def backfill(database: Database, records: list[Record]) -> None:
    """Versions for the records of a log made before schema 4 (once, inside a write)."""
    with database.write() as db:
        versions.add(db, (legacy_version(r) for r in records))
        db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, '1')", (_BACKFILLED,))


def needs_backfill(database: Database) -> bool:
    return not database.read("SELECT 1 FROM settings WHERE key = ?", (_BACKFILLED,))
