"""The database file: its settings, its schema version, and migrations from every released
version (a frozen copy of each in tests/data), with the backup taken first and all-or-nothing
upgrades."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from records_support import Clock, open_store

from records.errors import LogError
from records.model import Player, RecordInput
from records.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Migration, backup_path
from records.store import LogStore
from regulation.model import Regulation

DATA = Path(__file__).resolve().parent / "data"
RELEASED = {1: DATA / "penalty_log_v1.sql"}  # every released schema version, frozen
V1_EVENT = "第1版の大会"
LAST_RELEASED = 1  # the schema of the last release


def make_released(version: int, path: Path) -> Path:
    """A database file exactly as the release with schema `version` left it."""
    connection = sqlite3.connect(path)
    connection.executescript(RELEASED[version].read_text(encoding="utf-8"))
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute(f"PRAGMA user_version = {version}")
    connection.commit()
    connection.close()
    return path


def schema_of(path: Path) -> list[tuple[str, str, str]]:
    connection = sqlite3.connect(path)
    try:
        rows = connection.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall()
    finally:
        connection.close()
    return sorted((kind, name, " ".join((sql or "").split())) for kind, name, sql in rows)


def pragma(path: Path, name: str) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(connection.execute(f"PRAGMA {name}").fetchone()[0])
    finally:
        connection.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_released_version_has_a_frozen_copy() -> None:
    versions = [m.version for m in MIGRATIONS]
    # Appended in order. This round's branches hold numbers 2, 3 and 4 (a branch may have a gap
    # below its own until the lead merges them all); none of them is released yet.
    assert versions == sorted(set(versions)) and versions[-1] == SCHEMA_VERSION
    assert set(RELEASED) == {v for v in versions if v <= LAST_RELEASED}


def test_a_new_file_gets_the_newest_schema_and_durable_settings(
    regulation: Regulation, tmp_path: Path
) -> None:
    with open_store(regulation, tmp_path) as store:
        assert store.migration_backup is None  # nothing to back up in a new file
        db = store._db  # the store's own connection: the settings it writes with
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
        with pytest.raises(sqlite3.IntegrityError):  # foreign keys are enforced
            db.execute("INSERT INTO rounds (event_id, number) VALUES (12345, 1)")
    path = tmp_path / "penalty-log.sqlite3"
    assert pragma(path, "user_version") == SCHEMA_VERSION
    assert pragma(path, "application_id") == APPLICATION_ID


@pytest.mark.parametrize("version", sorted(RELEASED))
def test_each_released_version_migrates_to_the_fresh_schema_keeping_every_record(
    regulation: Regulation, tmp_path: Path, version: int
) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    LogStore.open(regulation, fresh).close()
    old = make_released(version, tmp_path / "old.sqlite3")
    with LogStore.open(regulation, old, clock=Clock()) as store:
        event = store.current_event()
        assert event.name == V1_EVENT
        assert [r.number for r in event.rounds] == [1, 2]
        records = store.records(event.id, include_deleted=True, newest_first=False)
        assert [(r.player.name, r.deleted) for r in records] == [
            ('山田, "太郎"\n二行目', False),
            ("鈴木", True),
            ("鈴木", False),
        ]
        assert len(store.player_history(event.id, Player("鈴木"))) == 1
    # A released migration edited in place (instead of a new one appended) shows up here.
    assert schema_of(old) == schema_of(fresh)
    assert pragma(old, "user_version") == SCHEMA_VERSION


def test_records_from_version_1_have_no_evidence_and_new_ones_keep_theirs(
    regulation: Regulation, tmp_path: Path
) -> None:
    """Schema 2 (issue 20, item 5): arrival, seconds late, repeat count when saved."""
    path = make_released(1, tmp_path / "v1.sqlite3")
    arrived = datetime.fromisoformat("2026-11-01T10:08:26+09:00")
    with LogStore.open(regulation, path, clock=Clock()) as store:
        event = store.current_event()
        old = store.records(event.id, include_deleted=True, newest_first=False)
        assert [(r.arrived_at, r.late_seconds, r.occurrence) for r in old] == [
            (None, None, None)
        ] * 3
        late = RecordInput(
            Player("遅刻"), "not-seated-5-minutes", round=1, arrived_at=arrived, late_seconds=506
        )
        saved = store.add_record(event.id, late)
    with LogStore.open(regulation, path, clock=Clock()) as store:
        again = store.record(saved.id)
    assert again is not None
    assert (again.arrived_at, again.late_seconds, again.occurrence) == (arrived, 506, 1)


NEXT = Migration(
    SCHEMA_VERSION + 1,
    "test: a column added in a future version",
    ("ALTER TABLE records ADD COLUMN witness TEXT",),
)


def test_an_upgrade_takes_a_backup_first_then_migrates(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = make_released(1, tmp_path / "penalty-log.sqlite3")
    before = digest(path)
    with LogStore.open(regulation, path, migrations=(*MIGRATIONS, NEXT)) as store:
        backup = store.migration_backup
        assert backup is not None and backup.parent == tmp_path
        assert backup.name.startswith("penalty-log.v1-backup-")
        assert len(store.records(store.current_event().id, include_deleted=True)) == 3
    assert pragma(path, "user_version") == NEXT.version
    assert "witness" in str(schema_of(path))
    # The backup is the old file's content at the old version.
    assert pragma(backup, "user_version") == 1
    assert schema_of(backup) == schema_of(make_released(1, tmp_path / "again.sqlite3"))
    copy = sqlite3.connect(backup)
    assert copy.execute("SELECT count(*) FROM records").fetchone()[0] == 3
    copy.close()
    assert before != digest(path)


def test_a_failed_upgrade_changes_nothing(regulation: Regulation, tmp_path: Path) -> None:
    path = make_released(1, tmp_path / "penalty-log.sqlite3")
    schema_before = schema_of(path)
    broken = Migration(
        SCHEMA_VERSION + 1,
        "test: a first step that works, then one that fails",
        ("CREATE TABLE half_done (x)", "ALTER TABLE no_such_table ADD COLUMN y"),
    )
    with pytest.raises(LogError) as caught:
        LogStore.open(regulation, path, migrations=(*MIGRATIONS, broken))
    assert "\n" not in str(caught.value)
    assert pragma(path, "user_version") == 1
    assert schema_of(path) == schema_before  # half_done rolled back
    with LogStore.open(regulation, path) as store:  # the old app still opens it
        assert len(store.records(store.current_event().id)) == 2


def test_a_file_from_a_newer_app_is_refused_and_left_alone(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = make_released(1, tmp_path / "penalty-log.sqlite3")
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    connection.commit()
    connection.close()
    before = digest(path)
    with pytest.raises(LogError, match="newer version of the app"):
        LogStore.open(regulation, path)
    assert digest(path) == before
    # Nothing beside it but the lock file every opening uses (records/locks.py).
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "penalty-log.sqlite3",
        "penalty-log.sqlite3.lock",
    ]


def test_two_processes_creating_the_file_at_once_both_succeed(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = tmp_path / "penalty-log.sqlite3"
    start = threading.Barrier(3)
    errors: list[BaseException] = []

    def open_it() -> None:
        start.wait()
        try:
            LogStore.open(regulation, path).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert pragma(path, "user_version") == SCHEMA_VERSION


def test_a_backup_never_takes_an_existing_file_s_name(tmp_path: Path) -> None:
    """Two backups in the same second (or a file left there) get -2, -3 … after the stamp."""
    log = tmp_path / "penalty-log.sqlite3"
    now = datetime(2026, 11, 30, 13, 5, 1, tzinfo=UTC)
    names = []
    for _ in range(3):
        backup = backup_path(log, 1, now)
        backup.write_bytes(b"")
        names.append(backup.name)
    assert names == [
        "penalty-log.v1-backup-20261130T130501.sqlite3",
        "penalty-log.v1-backup-20261130T130501-2.sqlite3",
        "penalty-log.v1-backup-20261130T130501-3.sqlite3",
    ]
