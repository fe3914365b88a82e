"""Opening the log file: the connection and its durable settings, a damaged or foreign file set
aside (renamed with a timestamp, never deleted), a newer app's file refused, the schema migrated
(records/schema.py, with a backup copy first).

Processes opening one log at once take turns, and a file someone else has open is never set
aside (records/locks.py): several judges' first saves into a new log all land in it.

Where the log cannot be written (a read-only folder or file, a full disk) but can be read, it is
opened read-only (`Opened.read_only` says why), so that the judge can still list and export it:
SQLite's `mode=ro`, or, when that needs a -shm file that cannot be made and there is no -wal
file (the database file then holds every commit), `immutable=1`."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .errors import LogError, Unwritable
from .faults import BUSY_TIMEOUT_S, describe_fault, is_corruption
from .locks import Lock, lock_path
from .model import Recovery
from .paths import unused_path
from .schema import Migration, check_not_newer, is_foreign, migrate, user_version

SQLITE_HEADER = b"SQLite format 3\x00"


@dataclass(frozen=True, slots=True)
class Opened:
    connection: sqlite3.Connection
    recovery: Recovery | None  # set when a damaged or foreign file was moved aside
    migration_backup: Path | None  # the copy taken before a schema upgrade
    users_lock: Lock  # held (shared) while the connection is open; release after closing it
    read_only: str | None = None  # why the log could only be opened read-only (one line)


def open_connection(
    path: Path, clock: Callable[[], datetime], migrations: Sequence[Migration]
) -> Opened:
    """Opens (creating if needed) the log at `path`. Raises LogError with one line when the
    folder is unusable or the file is from a newer app; a damaged file is set aside instead."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise describe_fault(exc, path.parent, "cannot create the penalty log's folder") from None
    opening, users = Lock(path.parent, folder=True), Lock(lock_path(path))
    try:
        opening.wait(exclusive=True, doing="cannot open the penalty log")
        alone = users.take_alone()
        if not alone:
            users.share()
        try:
            connection, recovery, backup = _open_checked(path, clock, migrations, alone)
            read_only = None
        except Unwritable as cause:
            connection = _open_read_only(path, migrations[-1].version, cause)
            recovery, backup, read_only = None, None, str(cause)
        users.share()
    except BaseException:
        users.release()
        raise
    finally:
        opening.release()
    return Opened(connection, recovery, backup, users, read_only)


def _open_read_only(path: Path, version: int, cause: Unwritable) -> sqlite3.Connection:
    """The log opened for reading only, when it is a sound penalty log at this app's schema
    version; else `cause` is raised (the one line that says why it cannot be written)."""
    try:
        if path.stat().st_size == 0 or _header_fault(path):
            raise cause
        wal = path.with_name(path.name + "-wal")
        complete = not wal.exists() or wal.stat().st_size == 0
    except OSError:
        raise cause from None
    uri = path.absolute().as_uri()
    for query in ("mode=ro", "immutable=1") if complete else ("mode=ro",):
        connection = None
        try:
            connection = sqlite3.connect(
                f"{uri}?{query}",
                uri=True,
                timeout=BUSY_TIMEOUT_S,
                isolation_level=None,
                check_same_thread=False,
            )
            connection.execute("PRAGMA query_only = ON")
            sound = not is_foreign(connection) and user_version(connection) == version
            if sound and connection.execute("PRAGMA quick_check").fetchall() == [("ok",)]:
                return connection
        except sqlite3.Error:
            pass
        if connection is not None:
            connection.close()
    raise cause


def _open_checked(
    path: Path, clock: Callable[[], datetime], migrations: Sequence[Migration], alone: bool
) -> tuple[sqlite3.Connection, Recovery | None, Path | None]:
    """The opening itself, while no other process is opening the log; `alone`: nobody else
    has it open either, so a damaged or foreign file may be set aside."""

    def set_aside(fault: str) -> Recovery:
        if not alone:
            raise LogError(
                f"the penalty log {path} could not be read ({fault}), and another window or "
                "command has it open, so it was left as it is: close them and open the log again"
            )
        return _move_aside(path, fault, clock())

    recovery = None
    fault = _header_fault(path)
    if fault:
        recovery = set_aside(fault)
    # Checked before anything is written (even the switch to WAL rewrites the header): a
    # damaged or foreign file is set aside as it was, a newer app's file left untouched.
    try:
        connection = _connect(path)
    except sqlite3.Error as exc:
        if not is_corruption(exc) or recovery:
            raise describe_fault(exc, path, "cannot open the penalty log") from None
        recovery = set_aside(f"damaged: {exc}")
        connection = _connect_or_fail(path)
    if recovery is None:
        fault = _content_fault(connection, path)
        if fault:
            connection.close()
            recovery = set_aside(fault)
            connection = _connect_or_fail(path)
    try:
        check_not_newer(connection, path, migrations[-1].version)
        _configure(connection)
        backup = migrate(connection, path, clock(), migrations)
    except sqlite3.Error as exc:
        connection.close()
        raise describe_fault(exc, path, "cannot prepare the penalty log") from None
    except BaseException:
        connection.close()
        raise
    return connection, recovery, backup


def _connect(path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode that has written nothing yet. Raises sqlite3.Error."""
    connection = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    try:
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    except BaseException:
        connection.close()
        raise
    return connection


def _configure(connection: sqlite3.Connection) -> None:
    """The durable settings. Raises sqlite3.Error."""
    connection.execute("PRAGMA journal_mode = WAL")
    # FULL: each commit is synced to the WAL before it returns, so a confirmed save
    # survives a power cut too (NORMAL would only survive a crash of the app).
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute("PRAGMA fullfsync = ON")  # macOS: F_FULLFSYNC, a real flush


def _connect_or_fail(path: Path) -> sqlite3.Connection:
    try:
        return _connect(path)
    except sqlite3.Error as exc:
        raise describe_fault(exc, path, "cannot open the penalty log") from None


def _header_fault(path: Path) -> str | None:
    """Why the file at `path` cannot be a SQLite database, or None (absent or empty is fine)."""
    try:
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise describe_fault(exc, path, "cannot read the penalty log") from None
    if not header:
        return None
    if header != SQLITE_HEADER:
        return "not a SQLite database"
    return None


def _content_fault(connection: sqlite3.Connection, path: Path) -> str | None:
    """Why an open SQLite file cannot serve as the log (damaged, foreign), or None."""
    try:
        if is_foreign(connection):
            return "a SQLite file of another program"
        rows = connection.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as exc:
        if is_corruption(exc):
            return f"damaged: {exc}"
        connection.close()
        raise describe_fault(exc, path, "cannot open the penalty log") from None
    if rows != [("ok",)]:
        # SQLite's first complaint may span lines ("*** in database main ***\nPage 27: …").
        return "damaged: " + " ".join(str(rows[0][0]).split())
    return None


def _move_aside(path: Path, fault: str, now: datetime) -> Recovery:
    """Renames the file (and its -wal / -shm) to …damaged-<timestamp>; never deletes."""
    target = unused_path(now, lambda stamp: path.with_name(f"{path.name}.damaged-{stamp}"))
    try:
        for suffix in ("-wal", "-shm"):
            companion = path.with_name(path.name + suffix)
            if companion.exists():
                os.replace(companion, target.with_name(target.name + suffix))
        os.replace(path, target)
    except OSError as exc:
        raise describe_fault(
            exc, path, f"the penalty log is unreadable ({fault}) and could not be set aside"
        ) from None
    return Recovery(original=path, moved_to=target, fault=fault)
