"""The log's connection (records/database.py), what mutation testing found unasserted: a read
that fails says so in one line naming the file and why; a read inside a write that fails is
reported as the write not saved; a new version's time is strictly later than the one it
replaces, in the clock's own offset; the test-only clock offset moves the clock forward."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from records import database as database_module
from records.database import Database, now_local
from records.errors import LogError

NEPAL = timezone(timedelta(hours=5, minutes=45))  # an offset no test machine's zone has
NOON = datetime(2026, 11, 28, 12, 0, tzinfo=NEPAL)


def _database(path: Path, clock: Callable[[], datetime] = lambda: NOON) -> Database:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    return Database(connection, path, clock)


@pytest.fixture
def log(tmp_path: Path) -> Iterator[Database]:
    database = _database(tmp_path / "log.sqlite3")
    yield database
    database.close()


def test_a_damaged_file_is_reported_in_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    path.write_bytes(b"this is no SQLite file, only some bytes " * 200)
    database = _database(path)
    try:
        with pytest.raises(LogError) as refused:
            database.read("SELECT count(*) FROM sqlite_master")
    finally:
        database.close()
    message = str(refused.value)
    assert message.startswith("cannot read the penalty log: the file is damaged"), message
    assert message.endswith(f" — {path}")
    assert "\n" not in message


def test_a_read_that_fails_inside_a_write_reports_the_write_as_not_saved(log: Database) -> None:
    with pytest.raises(LogError) as refused, log.write("the record was not saved") as db:
        db.execute("CREATE TABLE records (id INTEGER PRIMARY KEY)")
        log.read_in(db, "SELECT name FROM players")
    assert str(refused.value).startswith("the record was not saved: no such table: players")
    # and nothing of the failed write stayed
    assert log.read("SELECT name FROM sqlite_master WHERE name = 'records'") == []


def test_an_edit_in_the_same_microsecond_is_still_later(log: Database) -> None:
    """A version replaced within one tick of the clock: the new one must still win a merge."""
    assert log.next_time(after=NOON) == NOON + timedelta(microseconds=1)
    assert log.next_time(after=NOON - timedelta(microseconds=1)) == NOON


def test_after_the_clock_went_back_the_time_keeps_the_clocks_offset(tmp_path: Path) -> None:
    later = datetime(2026, 11, 28, 7, 0, tzinfo=UTC)  # 12:45 in Nepal: after NOON
    database = _database(tmp_path / "log.sqlite3")
    try:
        moment = database.next_time(after=later)
    finally:
        database.close()
    assert moment == later + timedelta(microseconds=1)
    assert moment.utcoffset() == timedelta(hours=5, minutes=45)


def test_the_test_clock_offset_moves_the_clock_forward(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sync simulation's device with a wrong clock: an offset of +3 h is 3 h ahead."""
    monkeypatch.setattr(database_module, "_TEST_OFFSET", timedelta(hours=3))
    before = datetime.now().astimezone()
    moment = now_local()
    after = datetime.now().astimezone()
    assert before + timedelta(hours=3) <= moment <= after + timedelta(hours=3)


def test_an_integrity_check_without_an_answer_is_not_ok(log: Database) -> None:
    """SQLite answers nothing when an authorizer ignores the pragma: that is no clean bill."""

    def ignore_pragmas(action: int, *_: object) -> int:
        return sqlite3.SQLITE_IGNORE if action == sqlite3.SQLITE_PRAGMA else sqlite3.SQLITE_OK

    log.connection.set_authorizer(ignore_pragmas)
    assert log.integrity_check() != "ok"
    log.connection.set_authorizer(None)
    assert log.integrity_check() == "ok"
