"""Events and their rounds (tables `events`, `rounds`, and the `settings` row naming the
current event): created, renamed, dated, given rounds with optional assembly times."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Sequence
from datetime import date, datetime

from . import validate
from .database import Database, iso
from .errors import InvalidInput
from .model import Event, Round
from .sync import local

_CURRENT_EVENT = "current_event"


class Events:
    def __init__(self, database: Database) -> None:
        self._database = database

    def all(self) -> tuple[Event, ...]:
        """Every event, newest first."""
        rows = self._database.read("SELECT id, uuid, name, date FROM events ORDER BY id DESC")
        return tuple(self._event_from(row) for row in rows)

    def get(self, event_id: str) -> Event | None:
        rows = self._database.read(
            "SELECT id, uuid, name, date FROM events WHERE uuid = ?", (event_id,)
        )
        return self._event_from(rows[0]) if rows else None

    def by_name(self, name: str) -> Event | None:
        rows = self._database.read(
            "SELECT id, uuid, name, date FROM events WHERE name = ?", (name.strip(),)
        )
        return self._event_from(rows[0]) if rows else None

    def _event_from(self, row: tuple) -> Event:
        rowid, event_uuid, name, day = row
        rounds = self._database.read(
            "SELECT number, assembly_at FROM rounds WHERE event_id = ? ORDER BY number", (rowid,)
        )
        return Event(
            id=event_uuid,
            name=name,
            date=date.fromisoformat(day) if day else None,
            rounds=tuple(
                Round(number, datetime.fromisoformat(at) if at else None) for number, at in rounds
            ),
        )

    def or_fail(self, event_id: str) -> Event:
        event = self.get(event_id)
        if event is None:
            raise InvalidInput(f"no event with id {event_id!r}", "event", "unknown_id")
        return event

    def rowid(self, db: sqlite3.Connection | None, event_id: str) -> int:
        """The event's row (in a write: through `db`; else a read of its own)."""
        database = self._database
        rowid = database.event_rowids.get(event_id)
        if rowid is None:
            found = database.read_in(db, "SELECT id FROM events WHERE uuid = ?", (event_id,))
            if not found:
                raise InvalidInput(f"no event with id {event_id!r}", "event", "unknown_id")
            rowid = database.event_rowids[event_id] = int(found[0][0])
            database.event_uuids[rowid] = event_id
        return rowid

    def create(self, name: str, day: date | None = None, *, existing_ok: bool = False) -> Event:
        """A new event; with `existing_ok`, the event of that name if there is one, decided in
        the same transaction (two processes adding to a new event both find one event)."""
        name = validate.event_name(name)
        with self._database.write() as db:
            taken = db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone()
            if not (taken and existing_ok):
                self.insert(db, str(uuid.uuid4()), name, day)
        event = self.by_name(name)
        assert event is not None
        return event

    def insert(self, db: sqlite3.Connection, event_uuid: str, name: str, day: date | None) -> int:
        """A new event's row, inside the caller's write; refused if the name is taken."""
        if db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone():
            raise InvalidInput(f"an event named {name!r} already exists", "event.name", "duplicate")
        cursor = db.execute(
            "INSERT INTO events (uuid, name, date, created_at) VALUES (?, ?, ?, ?)",
            (event_uuid, name, day.isoformat() if day else None, iso(self._database.clock())),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def update(self, event_id: str, name: str, day: date | None) -> Event:
        """Renames an event and sets its date (None: no date)."""
        name = validate.event_name(name)
        with self._database.write() as db:
            rowid = self.rowid(db, event_id)
            clash = db.execute(
                "SELECT 1 FROM events WHERE name = ? AND id != ?", (name, rowid)
            ).fetchone()
            if clash:
                raise InvalidInput(
                    f"an event named {name!r} already exists", "event.name", "duplicate"
                )
            db.execute(
                "UPDATE events SET name = ?, date = ? WHERE id = ?",
                (name, day.isoformat() if day else None, rowid),
            )
            local.save_event(self._database, db, event_id)
        return self.or_fail(event_id)

    def set_rounds(self, event_id: str, rounds: Sequence[Round]) -> Event:
        """Replaces the event's rounds (numbers and optional assembly times)."""
        numbers: set[int] = set()
        for index, entry in enumerate(rounds):
            where = f"rounds[{index}]"
            number = validate.round_number(entry.number, f"{where}.number")
            if number is None:
                raise InvalidInput(f"{where}.number: required", f"{where}.number", "required")
            if number in numbers:
                raise InvalidInput(f"{where}: round {number} given twice", where, "duplicate")
            numbers.add(number)
            if entry.assembly_at is not None:
                validate.aware(entry.assembly_at, f"{where}.assembly_at")
        with self._database.write() as db:
            rowid = self.rowid(db, event_id)
            db.execute("DELETE FROM rounds WHERE event_id = ?", (rowid,))
            db.executemany(
                "INSERT INTO rounds (event_id, number, assembly_at) VALUES (?, ?, ?)",
                [(rowid, r.number, iso(r.assembly_at) if r.assembly_at else None) for r in rounds],
            )
            local.save_event(self._database, db, event_id)
        return self.or_fail(event_id)

    def set_round(self, event_id: str, number: int, assembly_at: datetime | None) -> Event:
        """Adds a round or changes its assembly time, leaving the others as they are."""
        event = self.or_fail(event_id)
        others = [r for r in event.rounds if r.number != number]
        rounds = sorted([*others, Round(number, assembly_at)], key=lambda r: r.number)
        return self.set_rounds(event_id, rounds)

    def current(self) -> Event:
        """The event records go to by default; created on first use, named by today's date."""
        rows = self._database.read("SELECT value FROM settings WHERE key = ?", (_CURRENT_EVENT,))
        if rows:
            event = self.get(rows[0][0])
            if event:
                return event
        if self._database.read_only:  # nothing can be created: the newest event, if any
            newest = self.all()
            if newest:
                return newest[0]
        today = self._database.clock().date()
        with self._database.write() as db:
            name = today.isoformat()
            found = db.execute("SELECT uuid FROM events WHERE name = ?", (name,)).fetchone()
            event_uuid = found[0] if found else str(uuid.uuid4())
            if not found:
                self.insert(db, event_uuid, name, today)
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                (_CURRENT_EVENT, event_uuid),
            )
        return self.or_fail(event_uuid)

    def set_current(self, event_id: str) -> Event:
        with self._database.write() as db:
            self.rowid(db, event_id)
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                (_CURRENT_EVENT, event_id),
            )
        return self.or_fail(event_id)
