"""The database schema, as numbered migrations, and the runner that applies them.

The schema version is SQLite's `PRAGMA user_version`; `PRAGMA application_id` marks the file as
a penalty log, so that a foreign SQLite file is never mistaken for one. Migrations only ever
get appended: a released migration is never edited (tests/test_records_schema.py migrates a
frozen copy of every released version and compares it with a fresh database). Before a file
at version ≥ 1 is migrated, a copy is taken with SQLite's backup API and kept beside it; the
migration itself runs in one transaction, so a failure leaves the file as it was.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .errors import LogError
from .paths import unused_path

APPLICATION_ID = 0x4F434750  # "OCGP"


@dataclass(frozen=True, slots=True)
class Migration:
    version: int  # the user_version after it
    summary: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "events, rounds, players, records (with tombstones), settings",
        (
            """CREATE TABLE events (
                id INTEGER PRIMARY KEY,
                uuid TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL UNIQUE,
                date TEXT,                      -- YYYY-MM-DD
                created_at TEXT NOT NULL        -- ISO 8601 with offset
            )""",
            """CREATE TABLE rounds (
                event_id INTEGER NOT NULL REFERENCES events(id) ON DELETE CASCADE,
                number INTEGER NOT NULL CHECK (number >= 1),
                assembly_at TEXT,               -- ISO 8601 with offset
                PRIMARY KEY (event_id, number)
            ) WITHOUT ROWID""",
            # A player as written (name + optional ID); identity keys per records/identity.py.
            """CREATE TABLE players (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                player_id TEXT,
                name_key TEXT NOT NULL,
                id_key TEXT,
                search_words TEXT NOT NULL,
                search_compact TEXT NOT NULL,
                last_used_us INTEGER NOT NULL
            )""",
            "CREATE UNIQUE INDEX players_as_written ON players(name, ifnull(player_id, ''))",
            "CREATE INDEX players_by_name_key ON players(name_key)",
            "CREATE INDEX players_by_id_key ON players(id_key)",
            # created_us / updated_us: the same instants as created_at / updated_at, in
            # microseconds since the epoch, for ordering and comparing across UTC offsets.
            """CREATE TABLE records (
                id INTEGER PRIMARY KEY,
                uuid TEXT NOT NULL UNIQUE,
                event_id INTEGER NOT NULL REFERENCES events(id),
                player_ref INTEGER NOT NULL REFERENCES players(id),
                round INTEGER CHECK (round IS NULL OR round >= 1),
                table_label TEXT,
                infraction TEXT NOT NULL,
                tier TEXT NOT NULL,
                note TEXT,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                created_us INTEGER NOT NULL,
                updated_us INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )""",
            "CREATE INDEX records_by_event_time ON records(event_id, created_us)",
            "CREATE INDEX records_by_player ON records(player_ref, event_id, infraction)",
            "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        ),
    ),
    Migration(
        2,
        "record evidence: arrival time, seconds late, repeat count when recorded",
        (
            "ALTER TABLE records ADD COLUMN arrived_at TEXT",  # ISO 8601 with offset
            "ALTER TABLE records ADD COLUMN late_seconds INTEGER"
            " CHECK (late_seconds IS NULL OR late_seconds >= 0)",
            "ALTER TABLE records ADD COLUMN occurrence INTEGER"
            " CHECK (occurrence IS NULL OR occurrence >= 1)",
        ),
    ),
    Migration(
        3,
        "the round clock: per-event and per-round lengths, starts, pauses, extensions",
        (
            # Every clock row is event data that travels (export, venue sync) as it is: its own
            # UUID, the event's UUID, created/updated instants (updated_us orders versions
            # across UTC offsets) and a tombstone, so that "the later update wins" row by row.
            # One row per event and per round: their UUIDs are derived from the event's UUID
            # (records/clock_rows.py), so two devices that set one round make one row.
            """CREATE TABLE clock_events (
                uuid TEXT PRIMARY KEY,
                event_uuid TEXT NOT NULL UNIQUE REFERENCES events(uuid),
                round_minutes INTEGER NOT NULL CHECK (round_minutes BETWEEN 1 AND 1440),
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                updated_us INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )""",
            """CREATE TABLE clock_rounds (
                uuid TEXT PRIMARY KEY,
                event_uuid TEXT NOT NULL REFERENCES events(uuid),
                number INTEGER NOT NULL CHECK (number >= 1),
                minutes INTEGER CHECK (minutes IS NULL OR minutes BETWEEN 1 AND 1440),
                started_at TEXT,                -- NULL: not started
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                updated_us INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
                UNIQUE (event_uuid, number)
            )""",
            """CREATE TABLE clock_marks (
                uuid TEXT PRIMARY KEY,
                event_uuid TEXT NOT NULL REFERENCES events(uuid),
                round INTEGER NOT NULL CHECK (round >= 1),
                kind TEXT NOT NULL CHECK (kind IN ('pause', 'resume')),
                at TEXT NOT NULL,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                updated_us INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )""",
            "CREATE INDEX clock_marks_by_round ON clock_marks(event_uuid, round)",
            # record_uuid has no foreign key: sync may bring an extension before its record.
            """CREATE TABLE clock_extensions (
                uuid TEXT PRIMARY KEY,
                event_uuid TEXT NOT NULL REFERENCES events(uuid),
                round INTEGER NOT NULL CHECK (round >= 1),
                table_label TEXT NOT NULL,
                minutes INTEGER NOT NULL CHECK (minutes BETWEEN 1 AND 1440),
                record_uuid TEXT,
                finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                updated_us INTEGER NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
            )""",
            "CREATE INDEX clock_extensions_by_round ON clock_extensions(event_uuid, round)",
            "CREATE INDEX clock_extensions_by_record ON clock_extensions(record_uuid)",
        ),
    ),
    Migration(
        4,
        "venue sync: every saved version of records and event settings, who recorded a record,"
        " this device's id, the devices a host has seen",
        (
            # Every version of every shared thing (records/sync/items.py); the current one is
            # chosen by records/sync/hlc.py. seq: this device's order of arrival, the cursor a
            # host pages by. from_host: a joiner received it from its host (not sent back).
            """CREATE TABLE item_versions (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                event_uuid TEXT NOT NULL,
                kind TEXT NOT NULL,
                item_uuid TEXT NOT NULL,
                stamp INTEGER NOT NULL,
                device TEXT NOT NULL,
                judge TEXT,
                saved_at TEXT NOT NULL,         -- ISO 8601 with offset, the saving device's clock
                body TEXT NOT NULL,             -- canonical JSON
                from_host INTEGER NOT NULL DEFAULT 0 CHECK (from_host IN (0, 1)),
                UNIQUE (kind, item_uuid, stamp, device)
            )""",
            "CREATE INDEX item_versions_by_event ON item_versions(event_uuid, seq)",
            "CREATE INDEX item_versions_by_stamp ON item_versions(stamp)",
            "ALTER TABLE records ADD COLUMN recorded_judge TEXT",
            "ALTER TABLE records ADD COLUMN recorded_device TEXT",
            """CREATE TABLE sync_devices (
                device TEXT PRIMARY KEY,
                event_uuid TEXT NOT NULL,
                judge TEXT NOT NULL,
                last_seen TEXT NOT NULL         -- ISO 8601 with offset, the host's clock
            ) WITHOUT ROWID""",
            "INSERT OR IGNORE INTO settings (key, value)"
            " VALUES ('device_id', lower(hex(randomblob(16))))",
        ),
    ),
)

SCHEMA_VERSION = MIGRATIONS[-1].version


def user_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def application_id(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA application_id").fetchone()[0])


def is_foreign(connection: sqlite3.Connection) -> bool:
    """A SQLite file that is not (and is not about to become) a penalty log.

    One statement, so one snapshot: read in two, another process's first migration could
    commit in between (no application id yet, then tables), and a log being made would look
    like another program's file."""
    app_id, version, has_tables = connection.execute(
        "SELECT (SELECT application_id FROM pragma_application_id),"
        " (SELECT user_version FROM pragma_user_version),"
        " EXISTS (SELECT 1 FROM sqlite_master)"
    ).fetchone()
    if app_id == APPLICATION_ID:
        return False
    return bool(has_tables) or version != 0


def check_not_newer(connection: sqlite3.Connection, path: Path, known: int) -> None:
    """Refuses a file written by a newer app (its schema is unknown here), before any write."""
    found = user_version(connection)
    if found > known:
        raise LogError(
            f"the penalty log {path} was written by a newer version of the app "
            f"(schema {found}, this app knows {known}): update the app; the file was not changed"
        )


def backup_path(path: Path, version: int, now: datetime) -> Path:
    """penalty-log.v1-backup-20261130T130501.sqlite3, never an existing file's name."""
    return unused_path(
        now, lambda stamp: path.with_name(f"{path.stem}.v{version}-backup-{stamp}{path.suffix}")
    )


def take_backup(connection: sqlite3.Connection, target: Path) -> None:
    """A consistent copy of the open database, with SQLite's online backup API."""
    copy = sqlite3.connect(target)
    try:
        connection.backup(copy)
    finally:
        copy.close()


def migrate(
    connection: sqlite3.Connection,
    path: Path,
    now: datetime,
    migrations: Sequence[Migration] = MIGRATIONS,
) -> Path | None:
    """Brings the database to the newest version; returns the backup taken, if any.

    `connection` must be in autocommit mode (isolation_level None).
    """
    target = migrations[-1].version
    check_not_newer(connection, path, target)
    found = user_version(connection)
    if found == target:
        return None
    backup = None
    if found > 0:
        backup = backup_path(path, found, now)
        try:
            take_backup(connection, backup)
        except (sqlite3.Error, OSError) as exc:
            raise LogError(
                f"the penalty log {path} needs an upgrade, but its backup copy {backup} could "
                f"not be written ({exc}); the file was not changed"
            ) from None
    connection.execute("BEGIN IMMEDIATE")
    try:
        found = user_version(connection)  # another process may have migrated meanwhile
        for migration in migrations:
            if migration.version > found:
                for statement in migration.statements:
                    connection.execute(statement)
        if found == 0:
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        connection.execute(f"PRAGMA user_version = {target}")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return backup
