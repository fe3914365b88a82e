"""The round clock's storage: lengths, starts, pauses and extensions of an event's rounds.

`store.round_clock` (a `ClockStore` over the log's one connection) writes them in the log's
durable transactions and reads them back as records/clock.py's values, which compute every time
shown. Every row is a version of an item (records/clock_rows.py): an edit updates `updated_at`,
a removal sets the tombstone, so exports and venue sync merge row by row.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from . import validate
from .clock import (
    DEFAULT_ROUND_MINUTES,
    Extension,
    PauseMark,
    RoundClock,
    extension_minutes,
    round_minutes,
)
from .clock_rows import (
    ClockData,
    EventClockRow,
    RoundRow,
    event_row_id,
    round_row_id,
)
from .clock_tables import (
    EXTENSION_COLUMNS,
    MARK_COLUMNS,
    ROUND_COLUMNS,
    event_clock_row,
    event_row_sql,
    extension_row,
    iso_or_none,
    mark_row,
    round_row,
    round_row_of,
    round_row_sql,
    stored_row,
    us,
)
from .errors import InvalidInput
from .sync import local

if TYPE_CHECKING:
    from .database import Database
    from .events import Events


class ClockStore:
    """The clock rows of the log (`database` owns the connection, lock and transactions)."""

    def __init__(self, database: Database, events: Events, saved: Callable[[], None]) -> None:
        self.database = database
        self.events = events
        self.saved = saved  # wakes venue sync (whose thread waits for this write's lock)

    # -- reading --------------------------------------------------------------------------

    def default_minutes(self, event_id: str) -> int:
        """The event's round length (50 minutes until a judge sets another)."""
        found = self._event_row(None, event_id)
        return found.round_minutes if found and not found.stamp.deleted else DEFAULT_ROUND_MINUTES

    def round(self, event_id: str, number: int) -> RoundClock:
        """Round `number`'s clock (not started when nothing was stored about it)."""
        number = _round_number(number)
        default = self.default_minutes(event_id)
        row = self._round_row(None, event_id, number)
        live = row is not None and not row.stamp.deleted
        marks = self.database.read(
            f"SELECT {MARK_COLUMNS} FROM clock_marks"
            " WHERE event_uuid = ? AND round = ? AND deleted = 0 ORDER BY at, uuid",
            (event_id, number),
        )
        extensions = self.database.read(
            f"SELECT {EXTENSION_COLUMNS} FROM clock_extensions"
            " WHERE event_uuid = ? AND round = ? AND deleted = 0 ORDER BY created_at, uuid",
            (event_id, number),
        )
        return RoundClock(
            number=number,
            minutes=(row.minutes if live and row and row.minutes else None) or default,
            started_at=row.started_at if live and row else None,
            marks=tuple(
                PauseMark(m.stamp.id, "pause" if m.kind == "pause" else "resume", m.at)
                for m in map(mark_row, marks)
            ),
            extensions=tuple(
                Extension(
                    e.stamp.id, e.table, e.minutes, e.record_id, e.finished, e.stamp.created_at
                )
                for e in map(extension_row, extensions)
            ),
        )

    def rounds(self, event_id: str) -> tuple[RoundClock, ...]:
        """Every round with something stored (a length or a start), by number."""
        numbers = self.database.read(
            "SELECT number FROM clock_rounds WHERE event_uuid = ? AND deleted = 0 ORDER BY number",
            (event_id,),
        )
        return tuple(self.round(event_id, n) for (n,) in numbers)

    def current(self, event_id: str) -> RoundClock | None:
        """The round being played: the highest-numbered started round."""
        found = self.database.read(
            "SELECT max(number) FROM clock_rounds"
            " WHERE event_uuid = ? AND deleted = 0 AND started_at IS NOT NULL",
            (event_id,),
        )
        number = found[0][0] if found else None
        return None if number is None else self.round(event_id, int(number))

    def extensions_of_record(self, record_id: str) -> tuple[tuple[int, Extension], ...]:
        """Extensions linked to a record, with their round (the record page says them)."""
        rows = self.database.read(
            f"SELECT {EXTENSION_COLUMNS} FROM clock_extensions"
            " WHERE record_uuid = ? AND deleted = 0 ORDER BY created_at",
            (record_id,),
        )
        return tuple(
            (
                e.round,
                Extension(
                    e.stamp.id, e.table, e.minutes, e.record_id, e.finished, e.stamp.created_at
                ),
            )
            for e in map(extension_row, rows)
        )

    # -- writing --------------------------------------------------------------------------

    def set_default_minutes(self, event_id: str, minutes: int) -> int:
        minutes = round_minutes(minutes, "round_minutes")
        with self.database.write() as db:
            self.events.rowid(db, event_id)
            found = self._event_row(db, event_id)
            now = self.database.next_time(found.stamp.updated_at if found else None)
            db.execute(
                "INSERT INTO clock_events (uuid, event_uuid, round_minutes, created_at,"
                " updated_at, updated_us, deleted) VALUES (?, ?, ?, ?, ?, ?, 0)"
                " ON CONFLICT (uuid) DO UPDATE SET round_minutes = excluded.round_minutes,"
                " updated_at = excluded.updated_at, updated_us = excluded.updated_us, deleted = 0",
                (
                    event_row_id(event_id),
                    event_id,
                    minutes,
                    iso_or_none(now),
                    iso_or_none(now),
                    us(now),
                ),
            )
            self._versioned(db, "clock_events", event_row_id(event_id))
        return minutes

    def set_round_minutes(self, event_id: str, number: int, minutes: int | None) -> RoundClock:
        """Round `number`'s own length (None: the event's)."""
        if minutes is not None:
            minutes = round_minutes(minutes)
        self._upsert_round(event_id, number, minutes=(minutes,))
        return self.round(event_id, number)

    def start(
        self, event_id: str, number: int, at: datetime | None = None, minutes: int | None = None
    ) -> RoundClock:
        """Starts round `number` at `at` (default: now), or corrects its start."""
        if minutes is not None:
            minutes = round_minutes(minutes)
        at = validate.aware(at, "at") if at is not None else self.database.clock()
        self._upsert_round(
            event_id, number, started_at=at, minutes=(minutes,) if minutes is not None else None
        )
        return self.round(event_id, number)

    def clear_start(self, event_id: str, number: int) -> RoundClock:
        """Un-starts a round started by mistake (its pauses and extensions stay stored)."""
        self._upsert_round(event_id, number, started_at=None, clear_start=True)
        return self.round(event_id, number)

    def pause(self, event_id: str, number: int, at: datetime | None = None) -> RoundClock:
        return self._mark(event_id, number, "pause", at)

    def resume(self, event_id: str, number: int, at: datetime | None = None) -> RoundClock:
        return self._mark(event_id, number, "resume", at)

    def extend(
        self,
        event_id: str,
        number: int,
        table: str,
        minutes: int,
        record_id: str | None = None,
    ) -> Extension:
        """Gives `table` `minutes` more in round `number` (two extensions add up)."""
        label = validate.table_label(table)
        if label is None:
            raise InvalidInput("table: required", "table", "required")
        minutes = extension_minutes(minutes)
        if record_id is not None:
            record_id = _uuid(record_id, "record")
        clock = self.round(event_id, number)
        if not clock.started:
            raise InvalidInput(
                f"round {number} has not started: start it before giving extra time",
                "round",
                "not_started",
            )
        extension_id = str(uuid.uuid4())
        with self.database.write() as db:
            now = self.database.next_time()
            db.execute(
                "INSERT INTO clock_extensions (uuid, event_uuid, round, table_label, minutes,"
                " record_uuid, finished, created_at, updated_at, updated_us, deleted)"
                " VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 0)",
                (
                    extension_id,
                    event_id,
                    number,
                    label,
                    minutes,
                    record_id,
                    iso_or_none(now),
                    iso_or_none(now),
                    us(now),
                ),
            )
            self._versioned(db, "clock_extensions", extension_id)
        return Extension(extension_id, label, minutes, record_id, False, now)

    def set_finished(self, event_id: str, number: int, table: str, finished: bool = True) -> None:
        """Marks a table of the end-of-round list finished (or playing again)."""
        label = validate.table_label(table)
        with self.database.write() as db:
            rows = db.execute(
                f"SELECT {EXTENSION_COLUMNS} FROM clock_extensions WHERE event_uuid = ?"
                " AND round = ? AND table_label = ? AND deleted = 0 AND finished != ?",
                (event_id, number, label, int(finished)),
            ).fetchall()
            for row in map(extension_row, rows):
                now = self.database.next_time(row.stamp.updated_at)
                db.execute(
                    "UPDATE clock_extensions SET finished = ?, updated_at = ?, updated_us = ?"
                    " WHERE uuid = ?",
                    (int(finished), iso_or_none(now), us(now), row.stamp.id),
                )
                self._versioned(db, "clock_extensions", row.stamp.id)

    def remove_extension(self, extension_id: str) -> None:
        """An extension given by mistake: kept as a tombstone, so a merge never brings it back."""
        with self.database.write() as db:
            rows = db.execute(
                f"SELECT {EXTENSION_COLUMNS} FROM clock_extensions WHERE uuid = ?",
                (extension_id,),
            ).fetchall()
            if not rows:
                raise InvalidInput(f"no extension {extension_id!r}", "extension", "unknown_id")
            now = self.database.next_time(extension_row(rows[0]).stamp.updated_at)
            db.execute(
                "UPDATE clock_extensions SET deleted = 1, updated_at = ?, updated_us = ?"
                " WHERE uuid = ?",
                (iso_or_none(now), us(now), extension_id),
            )
            self._versioned(db, "clock_extensions", extension_id)

    def _mark(self, event_id: str, number: int, kind: str, at: datetime | None) -> RoundClock:
        at = validate.aware(at, "at") if at is not None else self.database.clock()
        clock = self.round(event_id, number)
        if clock.started_at is None:
            raise InvalidInput(f"round {number} has not started", "round", "not_started")
        if at < clock.started_at:
            raise InvalidInput(
                f"at: {iso_or_none(at)} is before round {number} started", "at", "out_of_range"
            )
        paused = clock.paused_at(at)
        if kind == "pause" and paused:
            raise InvalidInput(f"round {number} is already paused", "round", "paused")
        if kind == "resume" and not paused:
            raise InvalidInput(f"round {number} is not paused", "round", "not_paused")
        mark_id = str(uuid.uuid4())
        with self.database.write() as db:
            now = self.database.next_time()
            db.execute(
                "INSERT INTO clock_marks (uuid, event_uuid, round, kind, at, created_at,"
                " updated_at, updated_us, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (
                    mark_id,
                    event_id,
                    number,
                    kind,
                    iso_or_none(at),
                    iso_or_none(now),
                    iso_or_none(now),
                    us(now),
                ),
            )
            self._versioned(db, "clock_marks", mark_id)
        return self.round(event_id, number)

    def _upsert_round(
        self,
        event_id: str,
        number: int,
        *,
        started_at: datetime | None = None,
        minutes: tuple[int | None] | None = None,
        clear_start: bool = False,
    ) -> None:
        number = _round_number(number)
        with self.database.write() as db:
            self.events.rowid(db, event_id)
            found = self._round_row(db, event_id, number)
            now = self.database.next_time(found.stamp.updated_at if found else None)
            live = found is not None and not found.stamp.deleted
            start = found.started_at if live and found else None
            length = found.minutes if live and found else None
            if started_at is not None or clear_start:
                start = started_at
            if minutes is not None:
                length = minutes[0]
            db.execute(
                "INSERT INTO clock_rounds (uuid, event_uuid, number, minutes, started_at,"
                " created_at, updated_at, updated_us, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)"
                " ON CONFLICT (uuid) DO UPDATE SET minutes = excluded.minutes,"
                " started_at = excluded.started_at, updated_at = excluded.updated_at,"
                " updated_us = excluded.updated_us, deleted = 0",
                (
                    round_row_id(event_id, number),
                    event_id,
                    number,
                    length,
                    iso_or_none(start),
                    iso_or_none(now),
                    iso_or_none(now),
                    us(now),
                ),
            )
            self._versioned(db, "clock_rounds", round_row_id(event_id, number))

    def _versioned(self, db: sqlite3.Connection, table: str, row_id: str) -> None:
        """The version of a row just written, beside it (venue sync and exports carry it)."""
        found = stored_row(db, table, row_id)
        if found is not None:
            local.save_clock(self.database, db, *found)
            self.saved()

    # -- rows (export, import, sync) --------------------------------------------------------

    def rows(self, event_id: str) -> ClockData:
        """Every clock row of the event, tombstones included (for exports)."""
        event = self._event_row(None, event_id)
        rounds = self.database.read(
            f"SELECT {ROUND_COLUMNS} FROM clock_rounds WHERE event_uuid = ? ORDER BY number",
            (event_id,),
        )
        marks = self.database.read(
            f"SELECT {MARK_COLUMNS} FROM clock_marks WHERE event_uuid = ? ORDER BY round, at, uuid",
            (event_id,),
        )
        extensions = self.database.read(
            f"SELECT {EXTENSION_COLUMNS} FROM clock_extensions WHERE event_uuid = ?"
            " ORDER BY round, created_at, uuid",
            (event_id,),
        )
        return ClockData(
            event,
            tuple(map(round_row_of, rounds)),
            tuple(map(mark_row, marks)),
            tuple(map(extension_row, extensions)),
        )

    def _event_row(self, db: sqlite3.Connection | None, event_id: str) -> EventClockRow | None:
        return event_clock_row(self.database.read_in(db, *event_row_sql(event_id)))

    def _round_row(
        self, db: sqlite3.Connection | None, event_id: str, number: int
    ) -> RoundRow | None:
        return round_row(self.database.read_in(db, *round_row_sql(event_id, number)))


def _round_number(number: object) -> int:
    found = validate.round_number(number)
    if found is None:
        raise InvalidInput("round: required", "round", "required")
    return found


def _uuid(value: str, field: str) -> str:
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise InvalidInput(f"{field}: not a record id (UUID): {value!r}", field) from None
