"""The SQL shape of the round clock's tables (migration 3): the columns read and written, and
rows turned into records/clock_rows.py's values. Shared by the store (records/clock_store.py)
and the merge (records/clock_merge.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from .clock_rows import EventClockRow, ExtensionRow, MarkRow, RoundRow, Stamp
from .database import to_us

STAMP = "uuid, created_at, updated_at, deleted"
EVENT_COLUMNS = f"{STAMP}, round_minutes"
ROUND_COLUMNS = f"{STAMP}, number, minutes, started_at"
MARK_COLUMNS = f"{STAMP}, round, kind, at"
EXTENSION_COLUMNS = f"{STAMP}, round, table_label, minutes, record_uuid, finished"
# The columns a merged row is written with, in the order `ClockStore.merge` gives the values.
WRITTEN = "created_at, updated_at, updated_us, deleted"
COLUMNS = {
    "clock_events": f"uuid, event_uuid, round_minutes, {WRITTEN}",
    "clock_rounds": f"uuid, event_uuid, number, minutes, started_at, {WRITTEN}",
    "clock_marks": f"uuid, event_uuid, round, kind, at, {WRITTEN}",
    "clock_extensions": (
        f"uuid, event_uuid, round, table_label, minutes, record_uuid, finished, {WRITTEN}"
    ),
}


def iso_or_none(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="microseconds")


def us(moment: datetime) -> int:
    return to_us(moment)


def parse_or_none(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def stamp_of(row: Sequence) -> Stamp:
    return Stamp(
        str(row[0]), datetime.fromisoformat(row[1]), datetime.fromisoformat(row[2]), bool(row[3])
    )


def event_row_sql(event_id: str) -> tuple[str, tuple[object, ...]]:
    return f"SELECT {EVENT_COLUMNS} FROM clock_events WHERE event_uuid = ?", (event_id,)


def round_row_sql(event_id: str, number: int) -> tuple[str, tuple[object, ...]]:
    sql = f"SELECT {ROUND_COLUMNS} FROM clock_rounds WHERE event_uuid = ? AND number = ?"
    return sql, (event_id, number)


def event_clock_row(rows: list[tuple]) -> EventClockRow | None:
    """The event's clock row from the rows of `event_row_sql` (None: not stored)."""
    return EventClockRow(stamp_of(rows[0]), int(rows[0][4])) if rows else None


def round_row(rows: list[tuple]) -> RoundRow | None:
    return round_row_of(rows[0]) if rows else None


def round_row_of(row: Sequence) -> RoundRow:
    return RoundRow(stamp_of(row), int(row[4]), row[5], parse_or_none(row[6]))


def mark_row(row: Sequence) -> MarkRow:
    return MarkRow(stamp_of(row), int(row[4]), str(row[5]), datetime.fromisoformat(row[6]))


def extension_row(row: Sequence) -> ExtensionRow:
    return ExtensionRow(stamp_of(row), int(row[4]), str(row[5]), int(row[6]), row[7], bool(row[8]))


ClockRow = EventClockRow | RoundRow | MarkRow | ExtensionRow
_SELECTED = {
    "clock_events": EVENT_COLUMNS,
    "clock_rounds": ROUND_COLUMNS,
    "clock_marks": MARK_COLUMNS,
    "clock_extensions": EXTENSION_COLUMNS,
}


def _row(table: str, row: Sequence) -> ClockRow:
    if table == "clock_events":
        return EventClockRow(stamp_of(row), int(row[4]))
    if table == "clock_rounds":
        return round_row_of(row)
    return mark_row(row) if table == "clock_marks" else extension_row(row)


def stored_row(db: sqlite3.Connection, table: str, row_id: str) -> tuple[str, ClockRow] | None:
    """(event UUID, row) of the row `row_id` of `table`, tombstone or not (None: not here)."""
    found = db.execute(
        f"SELECT event_uuid, {_SELECTED[table]} FROM {table} WHERE uuid = ?", (row_id,)
    ).fetchone()
    return None if found is None else (str(found[0]), _row(table, found[1:]))


def every_row(db: sqlite3.Connection) -> list[tuple[str, ClockRow]]:
    """(event UUID, row) of every clock row of the log (the versions' backfill)."""
    return [
        (str(found[0]), _row(table, found[1:]))
        for table, columns in _SELECTED.items()
        for found in db.execute(f"SELECT event_uuid, {columns} FROM {table} ORDER BY uuid")
    ]
