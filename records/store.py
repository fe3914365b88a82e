"""The penalty log on SQLite: one file, durable writes, nothing lost, nothing silently replaced.

`LogStore.open()` is the one way in. It finds the data directory (records/paths.py), sets a
damaged or foreign file aside (renamed with a timestamp, never deleted; `store.recovery` says
so in one line), turns on WAL, foreign keys and fully synchronous commits, and migrates the
schema (records/schema.py, with a backup copy first).

Every method is synchronous and thread-safe (one connection behind a lock; Flet runs handlers
in threads) and returns frozen dataclasses of records/model.py. A write either commits before
the method returns (then it survives a kill or a power cut) or raises `LogError` with one line
and changes nothing.
"""

from __future__ import annotations

import errno
import gc
import os
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from regulation.model import Regulation

from . import validate
from .clock_rows import ClockData
from .clock_store import ClockStore
from .errors import InvalidInput, LogError
from .identity import id_key, name_key, search_compact, search_words
from .model import (
    Event,
    MergeReport,
    Player,
    PlayerSummary,
    Record,
    RecordInput,
    Recovery,
    RepeatCheck,
    Round,
)
from .paths import database_path, unused_path
from .schema import MIGRATIONS, Migration, check_not_newer, is_foreign, migrate
from .tardiness import TardinessSuggestion, suggest_tardiness
from .tiers import next_tier_up

BUSY_TIMEOUT_S = 5.0  # another process (the command line, a second window) holding the lock
SQLITE_HEADER = b"SQLite format 3\x00"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_CURRENT_EVENT = "current_event"

# Primary result codes (the low byte of an extended code).
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26
_SQLITE_FULL, _SQLITE_IOERR = 13, 10
_SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_PERM = 8, 14, 3
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6

# A player's records, through the index that starts with the player. Left to itself, the planner
# prefers the event's time index because it saves the sort, and reads the whole event.
_BY_PLAYER = "records INDEXED BY records_by_player"
# Players and events are mapped from in-memory caches (their rows never change once written):
# joining them on every row cost as much again as reading the records.
_RECORD_COLUMNS = (
    "uuid, event_id, created_at, updated_at, round, table_label, player_ref, infraction, tier,"
    " note, deleted"
)


def now_local() -> datetime:
    """The current time with the device's UTC offset (what created_at / updated_at carry)."""
    return datetime.now().astimezone()


def to_us(moment: datetime) -> int:
    """Microseconds since the epoch, exactly (no float rounding)."""
    return (moment - _EPOCH) // _MICROSECOND


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


def _code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def _is_corruption(exc: sqlite3.Error) -> bool:
    return _code(exc) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def describe_fault(exc: BaseException, path: Path, doing: str) -> LogError:
    """One line for a failed database or file operation: what, where, why."""
    if isinstance(exc, sqlite3.Error):
        code = _code(exc)
        name = getattr(exc, "sqlite_errorname", None) or type(exc).__name__
        if code == _SQLITE_FULL:
            why = f"the disk is full ({name})"
        elif code == _SQLITE_IOERR:
            why = f"write error, probably a full disk ({name})"
        elif code in (_SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_PERM):
            why = f"the folder or the file is read-only or not accessible ({name})"
        elif code in (_SQLITE_BUSY, _SQLITE_LOCKED):
            why = f"another program kept the log busy for {BUSY_TIMEOUT_S:g} s ({name})"
        elif code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            why = f"the file is damaged ({name}); restart the app to set it aside"
        else:
            why = f"{exc} ({name})"
    elif isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", -1)):
            why = f"the disk is full ({exc.strerror})"
        elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            why = f"the folder is read-only or not accessible ({exc.strerror})"
        else:
            why = exc.strerror or str(exc)
    else:
        why = str(exc)
    return LogError(f"{doing}: {why} — {path}")


@dataclass(frozen=True, slots=True)
class ImportedEvent:
    """Another device's export, validated (records/exchange.py): its event and records, whose
    `event_id` is the exporting device's event UUID."""

    id: str
    name: str
    date: date | None
    rounds: tuple[Round, ...]
    records: tuple[Record, ...]
    clock: ClockData = field(default_factory=ClockData)  # the round clock (format version 2)


class LogStore:
    """The penalty log. Open with `LogStore.open(regulation)`; close when done."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path,
        regulation: Regulation,
        clock: Callable[[], datetime],
        recovery: Recovery | None,
        migration_backup: Path | None,
    ) -> None:
        self._db = connection
        self._lock = threading.RLock()
        self._event_rowids: dict[str, int] = {}  # caches of rows that never change
        self._event_uuids: dict[int, str] = {}
        self._players: dict[int, Player] = {}
        self.path = path
        self.regulation = regulation
        self.clock = clock
        self.recovery = recovery  # set when a damaged or foreign file was moved aside
        self.migration_backup = migration_backup  # the copy taken before a schema upgrade
        self.round_clock = ClockStore(self)  # the round clock's rows (records/clock_store.py)

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        regulation: Regulation,
        path: Path | None = None,
        *,
        clock: Callable[[], datetime] = now_local,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> LogStore:
        """Opens (creating if needed) the log at `path` (default: records.paths). Raises
        LogError with one line when the data directory is unusable or the file is from a newer
        app; a damaged file is set aside instead (see `recovery`)."""
        path = path or database_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise describe_fault(
                exc, path.parent, "cannot create the penalty log's folder"
            ) from None
        recovery = None
        fault = _header_fault(path)
        if fault:
            recovery = _move_aside(path, fault, clock())
        # Checked before anything is written (even the switch to WAL rewrites the header): a
        # damaged or foreign file is set aside as it was, a newer app's file left untouched.
        try:
            connection = _connect(path)
        except sqlite3.Error as exc:
            if not _is_corruption(exc) or recovery:
                raise describe_fault(exc, path, "cannot open the penalty log") from None
            recovery = _move_aside(path, f"damaged: {exc}", clock())
            connection = _connect_or_fail(path)
        if recovery is None:
            fault = _content_fault(connection, path)
            if fault:
                connection.close()
                recovery = _move_aside(path, fault, clock())
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
        return cls(connection, path, regulation, clock, recovery, backup)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> LogStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions ------------------------------------------------------------------------

    @contextmanager
    def _write(self, doing: str = "not saved") -> Iterator[sqlite3.Connection]:
        """One write transaction; committed (durably) when the block ends, else rolled back."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise describe_fault(exc, self.path, doing) from None
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as exc:
                if self._db.in_transaction:
                    # SQLite may have rolled back already (e.g. after SQLITE_FULL).
                    with suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                self._forget_cached_rows()  # rows made in the transaction are gone
                if isinstance(exc, sqlite3.Error):
                    raise describe_fault(exc, self.path, doing) from None
                raise

    def _forget_cached_rows(self) -> None:
        self._event_rowids.clear()
        self._event_uuids.clear()
        self._players.clear()

    def _read(self, sql: str, parameters: Sequence[object] = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, parameters).fetchall()
            except sqlite3.Error as exc:
                raise describe_fault(exc, self.path, "cannot read the penalty log") from None

    def _next_time(self, after: datetime | None = None) -> datetime:
        """Now; strictly later than `after` even if the device clock went back (an edit must
        win a merge against the version it replaced)."""
        moment = self.clock()
        if after is not None and moment <= after:
            moment = (after + _MICROSECOND).astimezone(moment.tzinfo)
        return moment

    # -- events -------------------------------------------------------------------------------

    def events(self) -> tuple[Event, ...]:
        """Every event, newest first."""
        rows = self._read("SELECT id, uuid, name, date FROM events ORDER BY id DESC")
        return tuple(self._event_from(row) for row in rows)

    def event(self, event_id: str) -> Event | None:
        rows = self._read("SELECT id, uuid, name, date FROM events WHERE uuid = ?", (event_id,))
        return self._event_from(rows[0]) if rows else None

    def event_by_name(self, name: str) -> Event | None:
        rows = self._read("SELECT id, uuid, name, date FROM events WHERE name = ?", (name.strip(),))
        return self._event_from(rows[0]) if rows else None

    def _event_from(self, row: tuple) -> Event:
        rowid, event_uuid, name, day = row
        rounds = self._read(
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

    def create_event(self, name: str, day: date | None = None) -> Event:
        name = validate.event_name(name)
        with self._write() as db:
            self._insert_event(db, str(uuid.uuid4()), name, day)
        event = self.event_by_name(name)
        assert event is not None
        return event

    def _insert_event(
        self, db: sqlite3.Connection, event_uuid: str, name: str, day: date | None
    ) -> int:
        if db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone():
            raise InvalidInput(f"an event named {name!r} already exists", "event.name", "duplicate")
        cursor = db.execute(
            "INSERT INTO events (uuid, name, date, created_at) VALUES (?, ?, ?, ?)",
            (event_uuid, name, day.isoformat() if day else None, iso(self.clock())),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def update_event(self, event_id: str, name: str, day: date | None) -> Event:
        """Renames an event and sets its date (None: no date)."""
        name = validate.event_name(name)
        with self._write() as db:
            rowid = self._event_rowid(db, event_id)
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
        return self._event_or_fail(event_id)

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
        with self._write() as db:
            rowid = self._event_rowid(db, event_id)
            db.execute("DELETE FROM rounds WHERE event_id = ?", (rowid,))
            db.executemany(
                "INSERT INTO rounds (event_id, number, assembly_at) VALUES (?, ?, ?)",
                [(rowid, r.number, iso(r.assembly_at) if r.assembly_at else None) for r in rounds],
            )
        return self._event_or_fail(event_id)

    def set_round(self, event_id: str, number: int, assembly_at: datetime | None) -> Event:
        """Adds a round or changes its assembly time, leaving the others as they are."""
        event = self._event_or_fail(event_id)
        others = [r for r in event.rounds if r.number != number]
        rounds = sorted([*others, Round(number, assembly_at)], key=lambda r: r.number)
        return self.set_rounds(event_id, rounds)

    def current_event(self) -> Event:
        """The event records go to by default; created on first use, named by today's date."""
        rows = self._read("SELECT value FROM settings WHERE key = ?", (_CURRENT_EVENT,))
        if rows:
            event = self.event(rows[0][0])
            if event:
                return event
        today = self.clock().date()
        with self._write() as db:
            name = today.isoformat()
            found = db.execute("SELECT uuid FROM events WHERE name = ?", (name,)).fetchone()
            event_uuid = found[0] if found else str(uuid.uuid4())
            if not found:
                self._insert_event(db, event_uuid, name, today)
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                (_CURRENT_EVENT, event_uuid),
            )
        return self._event_or_fail(event_uuid)

    def set_current_event(self, event_id: str) -> Event:
        with self._write() as db:
            self._event_rowid(db, event_id)
            db.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                (_CURRENT_EVENT, event_id),
            )
        return self._event_or_fail(event_id)

    def _event_or_fail(self, event_id: str) -> Event:
        event = self.event(event_id)
        if event is None:
            raise InvalidInput(f"no event with id {event_id!r}", "event", "unknown_id")
        return event

    def _event_rowid(self, db: sqlite3.Connection | None, event_id: str) -> int:
        """The event's row (in a write: through `db`; else a read of its own)."""
        rowid = self._event_rowids.get(event_id)
        if rowid is None:
            sql = "SELECT id FROM events WHERE uuid = ?"
            found = db.execute(sql, (event_id,)).fetchall() if db else self._read(sql, (event_id,))
            if not found:
                raise InvalidInput(f"no event with id {event_id!r}", "event", "unknown_id")
            rowid = self._event_rowids[event_id] = int(found[0][0])
            self._event_uuids[rowid] = event_id
        return rowid

    # -- players ------------------------------------------------------------------------------

    def _player_ref(self, db: sqlite3.Connection, player: Player, used_us: int) -> int:
        """The row of the player exactly as written, created on first use."""
        found = db.execute(
            "SELECT id, last_used_us FROM players WHERE name = ? AND ifnull(player_id, '') = ?",
            (player.name, player.player_id or ""),
        ).fetchone()
        if found:
            if used_us > found[1]:
                db.execute("UPDATE players SET last_used_us = ? WHERE id = ?", (used_us, found[0]))
            return int(found[0])
        cursor = db.execute(
            "INSERT INTO players (name, player_id, name_key, id_key, search_words,"
            " search_compact, last_used_us) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                player.name,
                player.player_id,
                name_key(player.name),
                id_key(player.player_id),
                search_words(player.name),
                search_compact(player.name),
                used_us,
            ),
        )
        assert cursor.lastrowid is not None
        self._players[cursor.lastrowid] = player
        return cursor.lastrowid

    def _matching_players(self, name: str | None, player_id: str | None) -> list[int]:
        """Rows of every written form of this player (identity rule in records/identity.py).

        With only a name: every form with that name; with only an ID: every form with that ID;
        with both: that ID, plus forms of that name written without any ID.
        """
        idk = id_key(player_id)
        nk = name_key(name) if name and name.strip() else None
        if idk and nk:
            sql = "SELECT id FROM players WHERE id_key = ? OR (id_key IS NULL AND name_key = ?)"
            parameters: tuple[str, ...] = (idk, nk)
        elif idk:
            sql, parameters = "SELECT id FROM players WHERE id_key = ?", (idk,)
        elif nk:
            sql, parameters = "SELECT id FROM players WHERE name_key = ?", (nk,)
        else:
            return []
        return [row[0] for row in self._read(sql, parameters)]

    def recent_players(
        self, prefix: str = "", *, event_id: str | None = None, limit: int = 8
    ) -> tuple[Player, ...]:
        """Names for type-ahead: players whose name (any word of it, or the whole name typed
        without spaces) or player ID starts with `prefix`, folded like search (width, case,
        kana: ゆき offers ユキ). Players of `event_id` first, then the most recently used."""
        words = search_words(prefix)
        compact = search_compact(prefix)
        if prefix.strip() and not compact:
            return ()  # only punctuation typed: nothing can match
        event_rowid = -1
        if event_id:
            found = self._read("SELECT id FROM events WHERE uuid = ?", (event_id,))
            event_rowid = found[0][0] if found else -1
        rows = self._read(
            "SELECT p.name, p.player_id FROM players p"
            " WHERE ? = '' OR instr(p.search_words, ?) > 0"
            " OR substr(p.search_compact, 1, length(?)) = ?"
            " OR substr(p.id_key, 1, length(?)) = ?"
            " ORDER BY EXISTS (SELECT 1 FROM records r WHERE r.player_ref = p.id"
            " AND r.event_id = ? AND r.deleted = 0) DESC, p.last_used_us DESC, p.id DESC"
            " LIMIT ?",
            (compact, words, compact, compact, compact, compact, event_rowid, max(0, limit)),
        )
        return tuple(Player(name, player_id) for name, player_id in rows)

    def player_summaries(self, event_id: str) -> tuple[PlayerSummary, ...]:
        """The players of an event with their number of (live) records and highest tier, most
        recently penalised first. Forms of one player (identity rule) are one line, shown as
        most recently written."""
        records = self.records(event_id)  # newest first
        severity = {t.id: t.severity for t in self.regulation.tiers}
        # Group keys: a player ID; or a name, joined to the one ID group with that name if any.
        names_with_ids: dict[str, set[str]] = {}
        for record in records:
            idk = record.player.id_key
            if idk:
                names_with_ids.setdefault(record.player.name_key, set()).add(idk)
        groups: dict[tuple[str, str], list[Record]] = {}
        for record in records:
            idk = record.player.id_key
            nk = record.player.name_key
            if idk:
                key = ("id", idk)
            elif len(names_with_ids.get(nk, ())) == 1:
                key = ("id", next(iter(names_with_ids[nk])))
            else:
                key = ("name", nk)
            groups.setdefault(key, []).append(record)
        summaries = [
            PlayerSummary(
                player=group[0].player,
                records=len(group),
                highest_tier_id=max(group, key=lambda r: severity.get(r.tier_id, -1)).tier_id,
                last_at=group[0].created_at,
            )
            for group in groups.values()
        ]
        return tuple(summaries)

    # -- records ------------------------------------------------------------------------------

    def add_record(self, event_id: str, entry: RecordInput) -> Record:
        """Saves a new record; when this returns, the record is on disk."""
        entry = validate.record_input(self.regulation, entry)
        created = self.clock()
        record = Record(
            id=str(uuid.uuid4()),
            event_id=event_id,
            created_at=created,
            updated_at=created,
            round=entry.round,
            table=entry.table,
            player=entry.player,
            infraction_id=entry.infraction_id,
            tier_id=entry.tier_id or "",
            note=entry.note,
        )
        with self._write() as db:
            self._insert_record(db, self._event_rowid(db, event_id), record)
        return record

    def _insert_record(self, db: sqlite3.Connection, event_rowid: int, record: Record) -> None:
        player_ref = self._player_ref(db, record.player, to_us(record.updated_at))
        db.execute(
            "INSERT INTO records (uuid, event_id, player_ref, round, table_label, infraction,"
            " tier, note, created_at, updated_at, created_us, updated_us, deleted)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.id,
                event_rowid,
                player_ref,
                record.round,
                record.table,
                record.infraction_id,
                record.tier_id,
                record.note,
                iso(record.created_at),
                iso(record.updated_at),
                to_us(record.created_at),
                to_us(record.updated_at),
                int(record.deleted),
            ),
        )

    def _update_record(self, db: sqlite3.Connection, record: Record) -> None:
        player_ref = self._player_ref(db, record.player, to_us(record.updated_at))
        db.execute(
            "UPDATE records SET player_ref = ?, round = ?, table_label = ?, infraction = ?,"
            " tier = ?, note = ?, updated_at = ?, updated_us = ?, deleted = ? WHERE uuid = ?",
            (
                player_ref,
                record.round,
                record.table,
                record.infraction_id,
                record.tier_id,
                record.note,
                iso(record.updated_at),
                to_us(record.updated_at),
                int(record.deleted),
                record.id,
            ),
        )

    def record(self, record_id: str) -> Record | None:
        """A record by id, a tombstone included."""
        rows = self._read(f"SELECT {_RECORD_COLUMNS} FROM records WHERE uuid = ?", (record_id,))
        return self._build(rows)[0] if rows else None

    def _record_or_fail(self, record_id: str) -> Record:
        found = self.record(record_id)
        if found is None:
            raise InvalidInput(f"no record with id {record_id!r}", "record", "unknown_id")
        return found

    def edit_record(self, record_id: str, entry: RecordInput) -> Record:
        """Replaces a live record's fields with `entry` (the whole form)."""
        entry = validate.record_input(self.regulation, entry)
        with self._lock:
            old = self._record_or_fail(record_id)
            if old.deleted:
                raise InvalidInput("this record was deleted; restore it first", "record", "format")
            new = replace(
                old,
                updated_at=self._next_time(old.updated_at),
                round=entry.round,
                table=entry.table,
                player=entry.player,
                infraction_id=entry.infraction_id,
                tier_id=entry.tier_id or "",
                note=entry.note,
            )
            with self._write() as db:
                self._update_record(db, new)
        return new

    def delete_record(self, record_id: str) -> Record:
        """Marks a record deleted (a tombstone: kept, so that a merge never revives it)."""
        return self._set_deleted(record_id, True)

    def restore_record(self, record_id: str) -> Record:
        """Undoes a deletion (newer than the tombstone, so it wins a merge too)."""
        return self._set_deleted(record_id, False)

    def _set_deleted(self, record_id: str, deleted: bool) -> Record:
        with self._lock:
            old = self._record_or_fail(record_id)
            if old.deleted == deleted:
                return old
            new = replace(old, deleted=deleted, updated_at=self._next_time(old.updated_at))
            with self._write() as db:
                self._update_record(db, new)
        return new

    def records(
        self,
        event_id: str,
        *,
        round_number: int | None = None,
        player: Player | None = None,
        player_id: str | None = None,
        newest_first: bool = True,
        include_deleted: bool = False,
        limit: int | None = None,
        after: Record | None = None,
    ) -> tuple[Record, ...]:
        """An event's records, newest first (the log screen) or oldest first; optionally of one
        round and/or one player (`player` by the identity rule; `player_id` alone: by ID).

        Paging: `limit` records that come after `after` in this order; a screen shows the first
        page at once (`limit=100`) and asks for the next with `after=page[-1]`."""
        where = ["event_id = ?"]
        parameters: list[object] = [self._event_rowid(None, event_id)]
        table = "records"
        if round_number is not None:
            where.append("round = ?")
            parameters.append(round_number)
        if player is not None or player_id is not None:
            refs = self._matching_players(
                player.name if player else None, player.player_id if player else player_id
            )
            if not refs:
                return ()
            where.append(f"player_ref IN ({','.join('?' * len(refs))})")
            parameters.extend(refs)
            table = _BY_PLAYER
        if not include_deleted:
            where.append("deleted = 0")
        order = "DESC" if newest_first else "ASC"
        if after is not None:
            beyond = "<" if newest_first else ">"
            # A row-value range: the index on (event_id, created_us, id) starts right there.
            where.append(f"(created_us, id) {beyond} (?, (SELECT id FROM records WHERE uuid = ?))")
            parameters.extend((to_us(after.created_at), after.id))
        sql = (
            f"SELECT {_RECORD_COLUMNS} FROM {table} WHERE {' AND '.join(where)}"
            f" ORDER BY created_us {order}, id {order}"
        )
        if limit is not None:
            sql += " LIMIT ?"
            parameters.append(max(0, limit))
        return self._build(self._read(sql, parameters))

    def player_history(self, event_id: str, player: Player) -> tuple[Record, ...]:
        """Everything recorded about one player in an event, oldest first."""
        return self.records(event_id, player=player, newest_first=False)

    # -- repeats --------------------------------------------------------------------------------

    def check_repeat(
        self, event_id: str, player: Player, infraction_id: str, tier_id: str | None = None
    ) -> RepeatCheck:
        """Before saving: the player's live records of this infraction in this event, and the
        tier one above `tier_id` (default: the infraction's). Never changes anything."""
        infraction = self.regulation.infraction(
            validate.infraction_id(self.regulation, infraction_id)
        )
        assert infraction is not None
        tier = validate.tier_id(self.regulation, tier_id or infraction.penalty.id)
        previous = self._same_infraction(event_id, player, infraction_id, None)
        found = next_tier_up(self.regulation, tier)
        return RepeatCheck(previous, found.id if found else None)

    def repeats_of(self, record: Record) -> RepeatCheck:
        """For a saved record: the live records of the same player and infraction in its event
        created before it, and the tier one above its own."""
        previous = self._same_infraction(
            record.event_id, record.player, record.infraction_id, record
        )
        found = next_tier_up(self.regulation, record.tier_id)
        return RepeatCheck(previous, found.id if found else None)

    def _same_infraction(
        self, event_id: str, player: Player, infraction_id: str, before: Record | None
    ) -> tuple[Record, ...]:
        refs = self._matching_players(player.name, player.player_id)
        if not refs:
            return ()
        sql = (
            f"SELECT {_RECORD_COLUMNS} FROM {_BY_PLAYER}"
            f" WHERE player_ref IN ({','.join('?' * len(refs))}) AND event_id = ?"
            " AND infraction = ? AND deleted = 0"
        )
        parameters: list[object] = [*refs, self._event_rowid(None, event_id), infraction_id]
        if before is not None:
            sql += " AND uuid != ? AND created_us <= ?"
            parameters += [before.id, to_us(before.created_at)]
        sql += " ORDER BY created_us, id"
        return self._build(self._read(sql, parameters))

    # -- tardiness ------------------------------------------------------------------------------

    def suggest_tardiness(
        self, event_id: str, round_number: int, arrived_at: datetime | None = None
    ) -> TardinessSuggestion:
        """The tardiness entry for a player arriving at `arrived_at` (default: now) in a round
        with an assembly time. Raises InvalidInput when the round has none."""
        event = self._event_or_fail(event_id)
        found = event.round(round_number)
        if found is None or found.assembly_at is None:
            raise InvalidInput(
                f"round {round_number} of {event.name!r} has no assembly time",
                "round",
                "required",
            )
        return suggest_tardiness(found.assembly_at, arrived_at or self.clock())

    # -- merge ----------------------------------------------------------------------------------

    def merge(self, incoming: ImportedEvent) -> MergeReport:
        """Merges another device's export in one transaction: a record (by UUID) counts once;
        the later `updated_at` wins; a tombstone stays a tombstone unless a later edit or
        restore beats it. The event is matched by its UUID, else by name, else created."""
        with self._write("nothing imported") as db:
            found = db.execute(
                "SELECT id, uuid FROM events WHERE uuid = ?", (incoming.id,)
            ).fetchone()
            if found is None:
                found = db.execute(
                    "SELECT id, uuid FROM events WHERE name = ?", (incoming.name,)
                ).fetchone()
            created = found is None
            if found is None:
                rowid = self._insert_event(db, incoming.id, incoming.name, incoming.date)
                local_uuid = incoming.id
            else:
                rowid, local_uuid = int(found[0]), str(found[1])
                if incoming.date:
                    db.execute(
                        "UPDATE events SET date = ? WHERE id = ? AND date IS NULL",
                        (incoming.date.isoformat(), rowid),
                    )
            for entry in incoming.rounds:
                at = iso(entry.assembly_at) if entry.assembly_at else None
                db.execute(
                    "INSERT INTO rounds (event_id, number, assembly_at) VALUES (?, ?, ?)"
                    " ON CONFLICT (event_id, number) DO UPDATE"
                    " SET assembly_at = excluded.assembly_at WHERE rounds.assembly_at IS NULL",
                    (rowid, entry.number, at),
                )
            added = updated = unchanged = 0
            for record in incoming.records:
                record = replace(record, event_id=local_uuid)
                rows = db.execute(
                    f"SELECT {_RECORD_COLUMNS} FROM records WHERE uuid = ?", (record.id,)
                ).fetchall()
                if not rows:
                    self._insert_record(db, rowid, record)
                    added += 1
                    continue
                local = self._build(rows, db)[0]
                if _incoming_wins(local, replace(record, event_id=local.event_id)):
                    self._update_record(db, record)
                    updated += 1
                else:
                    unchanged += 1
            clock = self.round_clock.merge(db, local_uuid, incoming.clock)
        event = self._event_or_fail(local_uuid)
        return MergeReport(event, added, updated, unchanged, created, clock)

    def export_records(self, event_id: str) -> tuple[Event, tuple[Record, ...]]:
        """An event and all its records, tombstones included, oldest first (for exports)."""
        event = self._event_or_fail(event_id)
        return event, self.records(event_id, newest_first=False, include_deleted=True)

    def _build(self, rows: list[tuple], db: sqlite3.Connection | None = None) -> tuple[Record, ...]:
        """Records from rows of `_RECORD_COLUMNS` (inside a write, pass its `db`)."""
        players, events = self._players, self._event_uuids
        if any(row[6] not in players for row in rows):
            sql = "SELECT id, name, player_id FROM players"
            found = db.execute(sql).fetchall() if db else self._read(sql)
            players.update((ref, Player(name, player_id)) for ref, name, player_id in found)
        if any(row[1] not in events for row in rows):
            sql = "SELECT id, uuid FROM events"
            found = db.execute(sql).fetchall() if db else self._read(sql)
            events.update(found)
            self._event_rowids.update((event_uuid, rowid) for rowid, event_uuid in found)
        parse = datetime.fromisoformat
        # Thousands of new objects (a whole event) would set off the cyclic garbage collector
        # over and over, doubling the time; records hold no cycles, so it waits till the end.
        pause_gc = len(rows) > 1000 and gc.isenabled()
        if pause_gc:
            gc.disable()
        try:
            return self._records(rows, players, events, parse)
        finally:
            if pause_gc:
                gc.enable()

    @staticmethod
    def _records(
        rows: list[tuple],
        players: dict[int, Player],
        events: dict[int, str],
        parse: Callable[[str], datetime],
    ) -> tuple[Record, ...]:
        return tuple(
            [
                Record(
                    record_uuid,
                    events[event_rowid],
                    parse(created_at),
                    parse(updated_at),
                    round_number,
                    table,
                    players[player_ref],
                    infraction,
                    tier,
                    note,
                    bool(deleted),
                )
                for (
                    record_uuid,
                    event_rowid,
                    created_at,
                    updated_at,
                    round_number,
                    table,
                    player_ref,
                    infraction,
                    tier,
                    note,
                    deleted,
                ) in rows
            ]
        )

    # -- maintenance ----------------------------------------------------------------------------

    def integrity_check(self) -> str:
        """'ok', or SQLite's first complaint."""
        rows = self._read("PRAGMA integrity_check")
        return str(rows[0][0]) if rows else "no answer"


def _incoming_wins(local: Record, incoming: Record) -> bool:
    """The later updated_at wins. At the same instant with different contents (two devices'
    clocks colliding), a tombstone wins, then the larger content: every device converges."""
    if incoming == local:
        return False
    local_us, incoming_us = to_us(local.updated_at), to_us(incoming.updated_at)
    if incoming_us != local_us:
        return incoming_us > local_us
    if incoming.deleted != local.deleted:
        return incoming.deleted
    return _content(incoming) > _content(local)


def _content(record: Record) -> tuple[str, ...]:
    return (
        record.player.name,
        record.player.player_id or "",
        str(record.round or 0),
        record.table or "",
        record.infraction_id,
        record.tier_id,
        record.note or "",
        iso(record.updated_at),
    )


# -- opening helpers ---------------------------------------------------------------------------


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
        if _is_corruption(exc):
            return f"damaged: {exc}"
        connection.close()
        raise describe_fault(exc, path, "cannot open the penalty log") from None
    if rows != [("ok",)]:
        return f"damaged: {rows[0][0]}"
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
