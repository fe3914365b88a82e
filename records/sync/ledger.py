"""What venue sync reads and writes in the log (made by `LogStore.ledger()`): the saved state,
pages of versions to send, versions received (through the shared merge, records/merge.py),
the devices a host has seen, and moving offline records into the shared event."""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from regulation.model import Regulation

from ..database import Database
from ..errors import InvalidInput
from ..events import Events
from ..history import History
from ..merge import apply
from ..model import MergeReport
from . import local, protocol, versions
from .clock_items import CLOCK_EXTENSION, CLOCK_MARK
from .items import EVENT, RECORD, ItemVersion
from .state import KEYS, SyncState, from_settings

SEEN_WRITE_S = 30.0  # a host writes a device's "last seen" at most this often
_MOVED = uuid.UUID("5f0c2b1e-8a39-4c55-9f00-6f1d2a9c7e41")  # names moved copies (uuid5)


class Ledger:
    def __init__(
        self,
        database: Database,
        events: Events,
        history: History,
        regulation: Regulation,
        saved: Callable[[], None],
    ) -> None:
        self._database = database
        self._events = events
        self._history = history
        self.regulation = regulation
        self._saved = saved
        self._seen: dict[str, tuple[str, str, datetime, datetime | None]] = {}
        self._seen_lock = threading.Lock()
        rows = database.read("SELECT value FROM settings WHERE key = ?", (local.DEVICE_KEY,))
        self.device_id = str(rows[0][0]) if rows else ""

    # -- settings ------------------------------------------------------------------------------

    def judge(self) -> str | None:
        rows = self._database.read("SELECT value FROM settings WHERE key = ?", (local.JUDGE_KEY,))
        return str(rows[0][0]) if rows and rows[0][0] else None

    def state(self) -> SyncState:
        marks = ",".join("?" * len(KEYS))
        rows = self._database.read(f"SELECT key, value FROM settings WHERE key IN ({marks})", KEYS)
        return from_settings(dict(rows))

    def save(self, values: dict[str, str | None]) -> None:
        with self._database.write() as db:
            for key, value in values.items():
                if value is None:
                    db.execute("DELETE FROM settings WHERE key = ?", (key,))
                else:
                    db.execute(
                        "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, value)
                    )

    def save_state(self, state: SyncState) -> None:
        self.save(state.to_settings())

    def first_sync_done(self, event_id: str) -> bool:
        """True once after joining `event_id` and syncing it here (then it becomes the event
        records go to by default); False after that, and while it is not here yet."""
        with self._database.write() as db:
            if db.execute("SELECT 1 FROM events WHERE uuid = ?", (event_id,)).fetchone() is None:
                return False
            done = db.execute(
                "SELECT 1 FROM settings WHERE key = 'sync.joined' AND value = ?", (event_id,)
            ).fetchone()
            if done:
                return False
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES ('sync.joined', ?)",
                (event_id,),
            )
            return True

    # -- what is sent --------------------------------------------------------------------------

    def ensure_event_version(self, event_id: str) -> None:
        """The event's settings as a version, so that joining devices get them."""
        with self._database.write() as db:
            if versions.current(db, EVENT, event_id) is None:
                local.save_event(self._database, db, event_id)

    def _page(
        self,
        event_id: str,
        after_seq: int,
        *,
        skip_from_host: bool,
        skip_device: str = "",
        room: int = protocol.PAGE_ITEMS,
    ) -> tuple[list[str], int, bool]:
        """Up to `room` versions after `after_seq` (and about PAGE_BYTES at most), as ITEM
        texts (protocol.item_text)."""
        with self._database.lock:
            rows = versions.page(
                self._database.connection,
                event_id,
                after_seq,
                room + 1,
                skip_from_host=skip_from_host,
            )
        found: list[str] = []
        size, last = 0, after_seq
        for index, (seq, version) in enumerate(rows):
            if index == room or (found and size > protocol.PAGE_BYTES):
                return found, last, True
            if version.device != skip_device or not skip_device:
                size += len(version.body) * 3 + 300  # a bound on its UTF-8 JSON size
                found.append(protocol.item_text(version))
            last = seq
        return found, last, False

    def outgoing(self, event_id: str, after_seq: int) -> tuple[list[str], int]:
        """A joiner's next page to push: its own and imported versions (not the host's)."""
        found, last, _more = self._page(event_id, after_seq, skip_from_host=True)
        return found, last

    def waiting(self, event_id: str, after_seq: int) -> int:
        with self._database.lock:
            return versions.count_after(
                self._database.connection, event_id, after_seq, skip_from_host=True
            )

    def page(self, event_id: str, cursor: int, device: str) -> tuple[list[str], int, bool]:
        """The host's answer: versions after `cursor` but the asking device's own; the first
        page starts with the event's settings, so that records never arrive before them."""
        first = cursor == 0
        found, last, more = self._page(
            event_id,
            cursor,
            skip_from_host=False,
            skip_device=device,
            room=protocol.PAGE_ITEMS - first,
        )
        if first:
            with self._database.lock:
                settings = versions.current(self._database.connection, EVENT, event_id)
            if settings is not None:
                found.insert(0, protocol.item_text(settings))
        return found, last, more

    # -- what is received ----------------------------------------------------------------------

    def receive(
        self, event_id: str, given: Sequence[ItemVersion], device: str, judge: str | None
    ) -> int:
        """A host stores a device's pushed versions (one transaction); the number new."""
        if not given:
            return 0
        with self._database.write("nothing synced") as db:
            _same_event(db, event_id, given)
            applied = apply(db, self._events, self._history, given)
        if applied.new_versions:
            self._saved()
        return applied.new_versions

    def pull(self, event_id: str, entries: list[Any], cursor: int, pushed: int) -> int:
        """A joiner stores a page from its host and moves its cursors, in one transaction.
        Raises InvalidInput (nothing stored) when an item is not valid."""
        given = protocol.parse_items(entries, "items", event_id, self.regulation)
        with self._database.write("nothing synced") as db:
            _same_event(db, event_id, given)
            applied = apply(db, self._events, self._history, given, from_host=True)
            for key, value in (("sync.cursor", cursor), ("sync.pushed", pushed)):
                db.execute(
                    "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, str(value))
                )
        return applied.new_versions

    # -- devices -------------------------------------------------------------------------------

    def seen(self, event_id: str, device: str, judge: str | None) -> bool:
        """Notes a device's request; True when it is new here or its judge's name changed."""
        now = self._database.clock()
        with self._seen_lock:
            before = self._seen.get(device)
            news = before is None or before[1] != (judge or "")
            written = None if news or before is None else before[3]
            self._seen[device] = (event_id, judge or "", now, written)
            if written is not None and (now - written).total_seconds() < SEEN_WRITE_S:
                return news
            self._seen[device] = (event_id, judge or "", now, now)
        with self._database.write() as db:
            db.execute(
                "INSERT OR REPLACE INTO sync_devices (device, event_uuid, judge, last_seen)"
                " VALUES (?, ?, ?, ?)",
                (device, event_id, judge or "", now.isoformat()),
            )
        return news

    def devices(self, event_id: str) -> list[tuple[str, str, datetime]]:
        """(device, judge, last seen) of the devices that synced this event, newest first."""
        rows = self._database.read(
            "SELECT device, judge, last_seen FROM sync_devices WHERE event_uuid = ?", (event_id,)
        )
        found = {d: (j, datetime.fromisoformat(at)) for d, j, at in rows}
        with self._seen_lock:
            for device, (event, judge, at, _written) in self._seen.items():
                if event == event_id:
                    found[device] = (judge, at)
        listed = [(d, j, at) for d, (j, at) in found.items()]
        return sorted(listed, key=lambda entry: entry[2], reverse=True)

    # -- offline records -----------------------------------------------------------------------

    def move_records(self, local_event_id: str, shared_event_id: str) -> MergeReport:
        """Copies the live records of a local event into the shared one (each copy's id made
        from the original's, so moving twice doubles nothing) and marks the originals deleted
        (their versions stay: nothing is lost, and a restore brings one back)."""
        if local_event_id == shared_event_id:
            raise InvalidInput("these records are in the shared event already", "event")
        originals = self._history.of_event(local_event_id, newest_first=False)
        database = self._database
        added = unchanged = 0
        with database.write() as db:
            shared_rowid = self._events.rowid(db, shared_event_id)
            for record in originals:
                copy_id = str(uuid.uuid5(_MOVED, f"{shared_event_id}/{record.id}"))
                if db.execute("SELECT 1 FROM records WHERE uuid = ?", (copy_id,)).fetchone():
                    unchanged += 1
                else:
                    copy = replace(record, id=copy_id, event_id=shared_event_id)
                    self._history.insert(db, shared_rowid, copy)
                    local.save_record(database, db, copy)
                    added += 1
                gone = replace(
                    record, deleted=True, updated_at=database.next_time(record.updated_at)
                )
                self._history.update(db, gone)
                local.save_record(database, db, gone)
        self._saved()
        return MergeReport(self._events.or_fail(shared_event_id), added, 0, unchanged)


def _same_event(db: sqlite3.Connection, event_id: str, given: Sequence[ItemVersion]) -> None:
    """Refuses versions of records (or clock rows) that belong to another event here (a
    record never moves)."""
    ids = sorted({v.item_id for v in given if v.kind == RECORD})
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        row = db.execute(
            "SELECT r.uuid FROM records r JOIN events e ON e.id = r.event_id"
            f" WHERE r.uuid IN ({','.join('?' * len(chunk))}) AND e.uuid != ? LIMIT 1",
            (*chunk, event_id),
        ).fetchone()
        if row:
            raise InvalidInput(f"record {row[0]} belongs to another event", "items", "format")
    for kind, table in ((CLOCK_MARK, "clock_marks"), (CLOCK_EXTENSION, "clock_extensions")):
        for version in given:
            if (
                version.kind == kind
                and db.execute(
                    f"SELECT 1 FROM {table} WHERE uuid = ? AND event_uuid != ?",
                    (version.item_id, event_id),
                ).fetchone()
            ):
                raise InvalidInput(
                    f"clock row {version.item_id} belongs to another event", "items", "format"
                )
