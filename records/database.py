"""The log's one SQLite connection: transactions, reads, the row caches and how times are kept.

Every module of the log (records/events.py, players.py, history.py, merge.py) reads and writes
through one `Database`: a connection behind a re-entrant lock (Flet runs handlers in threads),
a write either committed durably when its block ends or rolled back and reported as a
`LogError` with one line (records/faults.py).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .errors import LogError, Unwritable
from .faults import describe_fault
from .locks import Lock
from .model import Player
from .sync.hlc import clock_offset

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_TEST_OFFSET = clock_offset()
MICROSECOND = timedelta(microseconds=1)


def now_local() -> datetime:
    """The current time with the device's UTC offset (what created_at / updated_at carry);
    plus the test-only offset of records/sync/hlc.py (the sync simulation's wrong clock)."""
    return (datetime.now() + _TEST_OFFSET).astimezone()


def to_us(moment: datetime) -> int:
    """Microseconds since the epoch, exactly (no float rounding)."""
    return (moment - _EPOCH) // MICROSECOND


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


class Database:
    """The open connection (autocommit mode; `write` opens each transaction) and caches of rows
    that never change once written: events (UUID ↔ row id) and players (row id → Player)."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        clock: Callable[[], datetime],
        users_lock: Lock | None = None,
    ) -> None:
        self.connection = connection
        self.users_lock = users_lock  # records/locks.py: dropped when the connection closes
        self.read_only: str | None = None  # why, when the log could only be opened to read
        self.path = path
        self.clock = clock
        self.lock = threading.RLock()
        self.event_rowids: dict[str, int] = {}
        self.event_uuids: dict[int, str] = {}
        self.players: dict[int, Player] = {}

    def close(self) -> None:
        with self.lock:
            self.connection.close()
            if self.users_lock is not None:
                self.users_lock.release()

    @contextmanager
    def write(self, doing: str = "not saved") -> Iterator[sqlite3.Connection]:
        """One write transaction; committed (durably) when the block ends, else rolled back."""
        db = self.connection
        if self.read_only:
            raise Unwritable(f"{doing}: the penalty log is read-only here ({self.read_only})")
        with self.lock:
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise describe_fault(exc, self.path, doing) from None
            try:
                yield db
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    # SQLite may have rolled back already (e.g. after SQLITE_FULL).
                    with suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                self.forget_cached_rows()  # rows made in the transaction are gone
                if isinstance(exc, sqlite3.Error):
                    raise describe_fault(exc, self.path, doing) from None
                raise

    def forget_cached_rows(self) -> None:
        self.event_rowids.clear()
        self.event_uuids.clear()
        self.players.clear()

    def read(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple]:
        with self.lock:
            try:
                return self.connection.execute(sql, parameters).fetchall()
            except sqlite3.Error as exc:
                raise describe_fault(exc, self.path, "cannot read the penalty log") from None

    def read_in(
        self, db: sqlite3.Connection | None, sql: str, parameters: Sequence[object] = ()
    ) -> list[tuple]:
        """Inside a write, through its `db`; else a read of its own."""
        return db.execute(sql, parameters).fetchall() if db else self.read(sql, parameters)

    def next_time(self, after: datetime | None = None) -> datetime:
        """Now; strictly later than `after` even if the device clock went back (an edit must
        win a merge against the version it replaced)."""
        moment = self.clock()
        if after is not None and moment <= after:
            try:
                moment = (after + MICROSECOND).astimezone(moment.tzinfo)
            except OverflowError:  # a time from before times were bounded (validate.aware)
                raise LogError(
                    f"this record's time {iso(after)} is out of range: it cannot be changed"
                ) from None
        return moment

    def integrity_check(self) -> str:
        """'ok', or SQLite's first complaint."""
        rows = self.read("PRAGMA integrity_check")
        return str(rows[0][0]) if rows else "no answer"
