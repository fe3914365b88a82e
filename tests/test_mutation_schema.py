"""The schema's runner (records/schema.py), at the edges mutation testing found untested: what
makes a file foreign, a file at exactly this app's version, an upgrade another process finished
while this one took its backup, and a backup that cannot be written."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST

from records import schema
from records.errors import LogError
from records.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, migrate

NOW = datetime(2026, 11, 30, 13, 5, 1, tzinfo=JST)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "penalty-log.sqlite3"


@pytest.fixture
def connection(path: Path) -> Iterator[sqlite3.Connection]:
    opened = sqlite3.connect(path, isolation_level=None)
    yield opened
    opened.close()


def tables(connection: sqlite3.Connection) -> list[tuple[str, str]]:
    rows = connection.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()
    return [(name, " ".join((sql or "").split())) for name, sql in rows]


def test_what_makes_a_file_foreign(connection: sqlite3.Connection) -> None:
    assert not schema.is_foreign(connection)  # empty: about to become a log
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute("CREATE TABLE t (x)")
    assert not schema.is_foreign(connection)  # a log
    connection.execute("PRAGMA application_id = 0")
    assert schema.is_foreign(connection)  # tables, but not ours
    connection.execute("DROP TABLE t")
    assert not schema.is_foreign(connection)
    connection.execute("PRAGMA user_version = 3")
    assert schema.is_foreign(connection)  # another program's version, no tables
    connection.execute("PRAGMA application_id = 1")
    assert schema.is_foreign(connection)


def test_a_new_file_gets_every_migration_and_the_mark(
    connection: sqlite3.Connection, path: Path
) -> None:
    assert migrate(connection, path, NOW) is None  # nothing to back up
    assert schema.user_version(connection) == SCHEMA_VERSION
    assert schema.application_id(connection) == APPLICATION_ID
    assert not connection.in_transaction
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert migrate(connection, path, NOW) is None  # at the newest already: nothing done


def test_a_file_at_this_apps_version_is_not_refused(
    connection: sqlite3.Connection, path: Path
) -> None:
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    schema.check_not_newer(connection, path, SCHEMA_VERSION)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(LogError) as refused:
        schema.check_not_newer(connection, path, SCHEMA_VERSION)
    assert str(refused.value) == (
        f"the penalty log {path} was written by a newer version of the app"
        f" (schema {SCHEMA_VERSION + 1}, this app knows {SCHEMA_VERSION}): update the app;"
        " the file was not changed"
    )


def test_an_upgrade_runs_only_the_migrations_after_the_files_version(
    connection: sqlite3.Connection, path: Path, tmp_path: Path
) -> None:
    migrate(connection, path, NOW, MIGRATIONS[:2])
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID + 1}")  # left alone from now
    backup = migrate(connection, path, NOW)
    assert backup == path.with_name("penalty-log.v2-backup-20261130T130501.sqlite3")
    assert backup.exists()
    assert schema.user_version(connection) == SCHEMA_VERSION
    assert schema.application_id(connection) == APPLICATION_ID + 1
    fresh = sqlite3.connect(tmp_path / "fresh.sqlite3", isolation_level=None)
    migrate(fresh, tmp_path / "fresh.sqlite3", NOW)
    assert tables(connection) == tables(fresh)
    fresh.close()


def test_an_upgrade_another_process_finished_meanwhile_is_not_run_twice(
    connection: sqlite3.Connection, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    migrate(connection, path, NOW, MIGRATIONS[:2])
    take_backup = schema.take_backup

    def backup_while_another_upgrades(source: sqlite3.Connection, target: Path) -> None:
        take_backup(source, target)
        monkeypatch.setattr(schema, "take_backup", take_backup)  # the other's own backup
        other = sqlite3.connect(path, isolation_level=None)
        migrate(other, path, NOW + timedelta(seconds=1))
        other.close()

    monkeypatch.setattr(schema, "take_backup", backup_while_another_upgrades)
    migrate(connection, path, NOW)  # would fail: "table clock_events already exists"
    assert schema.user_version(connection) == SCHEMA_VERSION


@pytest.mark.parametrize("fault", [sqlite3.OperationalError("disk I/O error"), OSError(28, "full")])
def test_a_backup_that_cannot_be_written_stops_the_upgrade(
    connection: sqlite3.Connection, path: Path, monkeypatch: pytest.MonkeyPatch, fault: Exception
) -> None:
    migrate(connection, path, NOW, MIGRATIONS[:1])
    before = tables(connection)

    def failing(source: sqlite3.Connection, target: Path) -> None:
        raise fault

    monkeypatch.setattr(schema, "take_backup", failing)
    with pytest.raises(LogError) as refused:
        migrate(connection, path, NOW)
    backup = path.with_name("penalty-log.v1-backup-20261130T130501.sqlite3")
    assert str(refused.value) == (
        f"the penalty log {path} needs an upgrade, but its backup copy {backup} could not be"
        f" written ({fault}); the file was not changed"
    )
    assert schema.user_version(connection) == 1
    assert tables(connection) == before
    assert not connection.in_transaction


def test_a_failing_migration_is_rolled_back_and_raised(
    connection: sqlite3.Connection, path: Path
) -> None:
    broken = schema.Migration(1, "test", ("CREATE TABLE a (x)", "CREATE TABLE a (y)"))
    with pytest.raises(sqlite3.OperationalError, match="already exists"):
        migrate(connection, path, NOW, (broken,))
    assert not connection.in_transaction
    assert tables(connection) == []
    assert schema.user_version(connection) == schema.application_id(connection) == 0


def test_an_upgrade_refuses_a_newer_file_by_its_name(
    connection: sqlite3.Connection, path: Path
) -> None:
    # The line a judge reads names the file to update the app for (migrate's own check).
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(LogError) as refused:
        migrate(connection, path, NOW)
    assert str(refused.value).startswith(f"the penalty log {path} was written by a newer version")
    assert schema.user_version(connection) == SCHEMA_VERSION + 1
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
