"""Merging another device's round clock rows (an imported export; venue sync can call it too).

Per item the later update wins (records/clock_rows.py `newer`); a tombstone stays a tombstone
unless a later version beats it. Runs inside the caller's write transaction.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from .clock_rows import (
    ClockData,
    ExtensionRow,
    MarkRow,
    Stamp,
    event_row_id,
    newer,
    round_row_id,
)
from .clock_tables import (
    COLUMNS,
    EXTENSION_COLUMNS,
    MARK_COLUMNS,
    extension_row,
    iso_or_none,
    mark_row,
    stored_event_row,
    stored_round_row,
    us,
)


def merge_clock(db: sqlite3.Connection, event_id: str, data: ClockData) -> tuple[int, int, int]:
    """Merges another device's clock rows into event `event_id`, inside the caller's write
    transaction: per item, the later update wins. Returns (added, updated, unchanged).

    The per-event and per-round rows are matched by event and number (their UUIDs are
    derived from the event's, which may differ when the event was matched by name)."""
    counts = [0, 0, 0]

    def apply(table: str, found: tuple | None, content: tuple, insert: tuple) -> None:
        columns = COLUMNS[table]
        sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * len(insert))})"
        if found is None:
            db.execute(sql, insert)
            counts[0] += 1
            return
        local_stamp, local_content = found
        if newer(_stamp_from_insert(insert), local_stamp, content, local_content):
            db.execute(f"DELETE FROM {table} WHERE uuid = ?", (local_stamp.id,))
            db.execute(sql, insert)
            counts[1] += 1
        else:
            counts[2] += 1

    if data.event is not None:
        row = data.event
        local = stored_event_row(db, event_id)
        apply(
            "clock_events",
            None if local is None else (local.stamp, (local.round_minutes,)),
            (row.round_minutes,),
            (event_row_id(event_id), event_id, row.round_minutes, *_stamp_values(row.stamp)),
        )
    for entry in data.rounds:
        local_round = stored_round_row(db, event_id, entry.number)
        apply(
            "clock_rounds",
            None
            if local_round is None
            else (local_round.stamp, (local_round.minutes, iso_or_none(local_round.started_at))),
            (entry.minutes, iso_or_none(entry.started_at)),
            (
                round_row_id(event_id, entry.number),
                event_id,
                entry.number,
                entry.minutes,
                iso_or_none(entry.started_at),
                *_stamp_values(entry.stamp),
            ),
        )
    for mark in data.marks:
        found = db.execute(
            f"SELECT {MARK_COLUMNS} FROM clock_marks WHERE uuid = ?", (mark.stamp.id,)
        ).fetchall()
        local_mark = mark_row(found[0]) if found else None
        apply(
            "clock_marks",
            None
            if local_mark is None
            else (
                local_mark.stamp,
                (local_mark.round, local_mark.kind, iso_or_none(local_mark.at)),
            ),
            _mark_content(mark),
            (
                mark.stamp.id,
                event_id,
                mark.round,
                mark.kind,
                iso_or_none(mark.at),
                *_stamp_values(mark.stamp),
            ),
        )
    for extension in data.extensions:
        found = db.execute(
            f"SELECT {EXTENSION_COLUMNS} FROM clock_extensions WHERE uuid = ?",
            (extension.stamp.id,),
        ).fetchall()
        local_extension = extension_row(found[0]) if found else None
        apply(
            "clock_extensions",
            None
            if local_extension is None
            else (local_extension.stamp, _extension_content(local_extension)),
            _extension_content(extension),
            (
                extension.stamp.id,
                event_id,
                extension.round,
                extension.table,
                extension.minutes,
                extension.record_id,
                int(extension.finished),
                *_stamp_values(extension.stamp),
            ),
        )
    return counts[0], counts[1], counts[2]


def _stamp_values(stamp: Stamp) -> tuple[object, ...]:
    return (
        iso_or_none(stamp.created_at),
        iso_or_none(stamp.updated_at),
        us(stamp.updated_at),
        int(stamp.deleted),
    )


def _stamp_from_insert(insert: tuple) -> Stamp:
    created, updated, _updated_us, deleted = insert[-4:]
    return Stamp(
        str(insert[0]),
        datetime.fromisoformat(created),
        datetime.fromisoformat(updated),
        bool(deleted),
    )


def _extension_content(row: ExtensionRow) -> tuple:
    return (row.round, row.table, row.minutes, row.record_id or "", row.finished)


def _mark_content(row: MarkRow) -> tuple:
    return (row.round, row.kind, iso_or_none(row.at))
