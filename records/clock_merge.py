"""The round clock's rows from versions (records/sync/clock_items.py): what venue sync and file
import (records/merge.py `apply`) do with clock versions, so that a file and sync never disagree.

Every version of a clock row is kept (item_versions); the row in the clock tables is the version
with the largest (stamp, device), as for records (records/sync/hlc.py). Rows that have no version
(an export or a log from before clock versions) count as one version each, stamped from their
updated_at with no device (`legacy_versions`, `backfill`), the same on every device.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable

from .clock_rows import ClockData, EventClockRow, MarkRow, RoundRow
from .clock_tables import COLUMNS, ClockRow, every_row, iso_or_none, stored_row, us
from .database import Database
from .sync import versions
from .sync.clock_items import (
    CLOCK_EVENT,
    CLOCK_EXTENSION,
    CLOCK_KINDS,
    CLOCK_MARK,
    CLOCK_ROUND,
    row_of,
)
from .sync.items import ItemVersion
from .sync.local import legacy_clock_version

TABLES = {
    CLOCK_EVENT: "clock_events",
    CLOCK_ROUND: "clock_rounds",
    CLOCK_MARK: "clock_marks",
    CLOCK_EXTENSION: "clock_extensions",
}
_BACKFILLED = "sync.clock_backfilled"


def legacy_versions(event_id: str, data: ClockData) -> list[ItemVersion]:
    """A version for each row of an export's `"clock"` rows (used where it has no versions)."""
    rows: list[ClockRow] = [*data.rounds, *data.marks, *data.extensions]
    if data.event is not None:
        rows.insert(0, data.event)
    return [legacy_clock_version(event_id, row) for row in rows]


def apply_clock(
    db: sqlite3.Connection,
    given: Iterable[ItemVersion],
    touched: set[tuple[str, str, str]],
    ensure_event: Callable[[str], object],
) -> tuple[int, int, int]:
    """Makes each touched clock row's current version the row here (inside the caller's
    write, after `versions.add`); returns the given clock rows (added, updated, unchanged)."""
    counts = [0, 0, 0]
    items = sorted({(v.kind, v.item_id) for v in given if v.kind in CLOCK_KINDS})
    changed = {(kind, item) for kind, _event, item in touched if kind in CLOCK_KINDS}
    for kind, item in sorted(changed | set(items)):
        if (kind, item) not in changed:
            counts[2] += 1
            continue
        table = TABLES[kind]
        before = stored_row(db, table, item)
        winner = versions.current(db, kind, item)
        assert winner is not None
        row = row_of(kind, item, winner.saved_at, json.loads(winner.body))
        event_id = before[0] if before else winner.event_id  # a row never changes event
        if before is None:
            ensure_event(event_id)
        elif before[1] == row:
            counts[2] += 1
            continue
        values = _values(event_id, row)
        db.execute(
            f"INSERT OR REPLACE INTO {table} ({COLUMNS[table]})"
            f" VALUES ({', '.join('?' * len(values))})",
            values,
        )
        counts[0 if before is None else 1] += 1
    return counts[0], counts[1], counts[2]


def _values(event_id: str, row: ClockRow) -> tuple[object, ...]:
    stamp = row.stamp
    written: tuple[object, ...] = (
        iso_or_none(stamp.created_at),
        iso_or_none(stamp.updated_at),
        us(stamp.updated_at),
        int(stamp.deleted),
    )
    if isinstance(row, EventClockRow):
        return (stamp.id, event_id, row.round_minutes, *written)
    if isinstance(row, RoundRow):
        return (stamp.id, event_id, row.number, row.minutes, iso_or_none(row.started_at), *written)
    if isinstance(row, MarkRow):
        return (stamp.id, event_id, row.round, row.kind, iso_or_none(row.at), *written)
    return (
        stamp.id,
        event_id,
        row.round,
        row.table,
        row.minutes,
        row.record_id,
        int(row.finished),
        *written,
    )


def needs_backfill(database: Database) -> bool:
    return not database.read("SELECT 1 FROM settings WHERE key = ?", (_BACKFILLED,))


def backfill(database: Database) -> None:
    """Versions for the clock rows of a log made before clock versions (once, in a write)."""
    with database.write() as db:
        for event_id, row in every_row(db):
            version = legacy_clock_version(event_id, row)
            if versions.current(db, version.kind, version.item_id) is None:
                versions.add(db, [version])
        db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, '1')", (_BACKFILLED,))
