"""Opening the log (records/opening.py), at the edges mutation testing found untested: where
the log cannot be written, a sound log of this version is still opened to be read (and
nothing else is: an empty, garbage, foreign or older file, or none, gives the one line that
says why); the durable settings of every connection; a folder that cannot be made; a file set
aside with its -wal and -shm, or refused in one line when it cannot be; and a damaged file
another window has open is left as it is.

The read-only cases are provoked by making the writable opening fail as a read-only folder
does (the process tests of test_records_read_only.py do it for real, as a user who cannot
write; mutmut runs no process test)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from records_support import entry, open_store

from records import opening
from records.errors import LogError, Unwritable
from records.faults import BUSY_TIMEOUT_S
from records.locks import Lock, lock_path
from records.paths import DATABASE_NAME
from records.schema import MIGRATIONS, Migration
from records.store import LogStore
from regulation.model import Regulation

READ_ONLY = "cannot open the penalty log: the folder or the file is read-only or not accessible"


def refuse_writes(monkeypatch: pytest.MonkeyPatch) -> Unwritable:
    """From now on the writable opening fails as in a read-only folder; the cause it raises."""
    cause = Unwritable(f"{READ_ONLY} (SQLITE_READONLY)")

    def refuse(*args: object) -> None:
        raise cause

    monkeypatch.setattr(opening, "_open_checked", refuse)
    return cause


def open_files(path: Path) -> list[str]:
    """This process's open files that are the log or its -wal / -shm (Linux's /proc)."""
    folder = Path("/proc/self/fd")
    if not folder.is_dir():
        return []
    found = []
    for fd in os.listdir(folder):
        try:
            target = os.readlink(folder / fd)
        except OSError:
            continue  # closed meanwhile
        if target.startswith(str(path)) and not target.endswith(".lock"):
            found.append(target)
    return found


def a_log(regulation: Regulation, folder: Path) -> tuple[Path, str]:
    """A closed log of one record; the record's id."""
    with open_store(regulation, folder) as store:
        record = store.add_record(store.current_event().id, entry("山田太郎"))
    return folder / DATABASE_NAME, record.id


def test_a_log_that_cannot_be_written_is_opened_to_be_read(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, record_id = a_log(regulation, tmp_path)
    unwritable = refuse_writes(monkeypatch)
    before = path.read_bytes()
    with LogStore.open(regulation, path) as store:
        assert store.read_only == str(unwritable)
        assert store.record(record_id) is not None
        assert store._db.execute("PRAGMA query_only").fetchone() == (1,)
        with pytest.raises(Unwritable):
            store.add_record(store.current_event().id, entry("佐藤花子"))
    assert path.read_bytes() == before
    # And again: the lock beside it was let go when the store closed.
    with LogStore.open(regulation, path) as store:
        assert store.record(record_id) is not None


def test_a_read_only_log_is_read_from_another_thread(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flet runs each handler in a thread of its own."""
    import threading

    path, record_id = a_log(regulation, tmp_path)
    refuse_writes(monkeypatch)
    with LogStore.open(regulation, path) as store:
        found: list[object] = []
        reader = threading.Thread(target=lambda: found.append(store.record(record_id)))
        reader.start()
        reader.join()
        assert found and found[0] is not None


def test_a_read_only_log_whose_writer_died_is_read_with_its_last_commits(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commits still in the -wal file (its writer was killed) are read too."""
    path = tmp_path / DATABASE_NAME
    store = LogStore.open(regulation, path)
    saved = store.add_record(store.current_event().id, entry("山田太郎"))
    wal = path.with_name(f"{DATABASE_NAME}-wal")
    kept = {p: p.read_bytes() for p in (path, wal)}  # as a kill -9 leaves them
    store.close()
    for file, content in kept.items():
        file.write_bytes(content)
    assert wal.stat().st_size > 0
    refuse_writes(monkeypatch)
    with LogStore.open(regulation, path) as reader:
        assert reader.record(saved.id) == saved


@pytest.mark.parametrize("content", ["none", "empty", "garbage", "foreign", "older"])
def test_what_is_not_a_sound_log_of_this_version_is_not_opened_to_be_read(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str
) -> None:
    path = tmp_path / DATABASE_NAME
    if content == "empty":
        path.write_bytes(b"")
    elif content == "garbage":
        path.write_bytes(b"not a database at all " * 100)
    elif content == "foreign":
        with sqlite3.connect(path) as other:
            other.execute("CREATE TABLE contacts (name TEXT)")
        other.close()
    elif content == "older":
        a_log(regulation, tmp_path)
        with sqlite3.connect(path) as older:
            older.execute(f"PRAGMA user_version = {MIGRATIONS[-1].version - 1}")
        older.close()
    unwritable = refuse_writes(monkeypatch)
    with pytest.raises(Unwritable) as refused:
        LogStore.open(regulation, path)
    assert refused.value is unwritable  # the line that says why it cannot be written
    assert open_files(path) == []  # a connection tried and found unsound was closed
    # Nothing is left holding the log: another opener finds it alone.
    lock = Lock(lock_path(path))
    try:
        assert lock.take_alone()
    finally:
        lock.release()


def test_every_connection_has_the_durable_settings(regulation: Regulation, tmp_path: Path) -> None:
    with open_store(regulation, tmp_path) as store:
        pragma = lambda name: store._db.execute(f"PRAGMA {name}").fetchone()[0]  # noqa: E731
        assert pragma("foreign_keys") == 1
        assert pragma("busy_timeout") == int(BUSY_TIMEOUT_S * 1000)
        assert pragma("journal_mode") == "wal"
        assert pragma("synchronous") == 2  # FULL
        assert pragma("fullfsync") == 1
        assert store._db.isolation_level is None  # autocommit: Database.write() begins


def test_a_log_is_used_from_the_threads_flet_runs_handlers_in(
    regulation: Regulation, tmp_path: Path
) -> None:
    import threading

    with open_store(regulation, tmp_path) as store:
        event = store.current_event().id
        errors: list[BaseException] = []

        def save() -> None:
            try:
                store.add_record(event, entry("山田太郎"))
            except BaseException as exc:  # reported below
                errors.append(exc)

        writer = threading.Thread(target=save)
        writer.start()
        writer.join()
        assert errors == []
        assert len(store.records(event)) == 1


def test_the_folders_of_a_new_log_are_made(regulation: Regulation, tmp_path: Path) -> None:
    path = tmp_path / "data" / "logs" / DATABASE_NAME
    with LogStore.open(regulation, path) as store:
        store.add_record(store.current_event().id, entry("山田太郎"))
    with LogStore.open(regulation, path) as store:  # and opened again where they are
        assert len(store.records(store.current_event().id)) == 1


def test_a_folder_that_cannot_be_made_is_said_in_one_line(
    regulation: Regulation, tmp_path: Path
) -> None:
    (tmp_path / "data").write_text("a file where the folder should be")
    with pytest.raises(LogError) as refused:
        LogStore.open(regulation, tmp_path / "data" / "logs" / DATABASE_NAME)
    message = str(refused.value)
    assert message.startswith("cannot create the penalty log's folder: Not a directory")
    assert str(tmp_path / "data" / "logs") in message and "\n" not in message


def test_a_file_set_aside_takes_its_wal_and_shm_along(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = tmp_path / DATABASE_NAME
    path.write_bytes(b"garbage " * 600)
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).write_bytes(f"old {suffix}".encode())
    with LogStore.open(regulation, path) as store:
        recovery = store.recovery
        assert recovery is not None
        assert (recovery.original, recovery.fault) == (path, "not a SQLite database")
        assert recovery.moved_to.read_bytes() == b"garbage " * 600
        for suffix in ("-wal", "-shm"):
            moved = recovery.moved_to.with_name(recovery.moved_to.name + suffix)
            assert moved.read_bytes() == f"old {suffix}".encode()
        assert store.integrity_check() == "ok"


def test_a_file_that_cannot_be_set_aside_is_said_in_one_line_and_kept(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / DATABASE_NAME
    path.write_bytes(b"garbage " * 600)

    def cannot(source: object, target: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", cannot)
    with pytest.raises(LogError) as refused:
        LogStore.open(regulation, path)
    message = str(refused.value)
    assert message.startswith(
        "the penalty log is unreadable (not a SQLite database) and could not be set aside: "
    )
    assert "read-only or not accessible (Permission denied)" in message  # the OS's reason
    assert str(path) in message and "\n" not in message
    assert path.read_bytes() == b"garbage " * 600


def test_a_damaged_file_another_window_has_open_is_left_as_it_is(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = tmp_path / DATABASE_NAME
    path.write_bytes(b"garbage " * 600)
    other = Lock(lock_path(path))  # another window's hold on the log
    other.share()
    try:
        with pytest.raises(LogError) as refused:
            LogStore.open(regulation, path)
    finally:
        other.release()
    message = str(refused.value)
    assert message.startswith(f"the penalty log {path} could not be read (not a SQLite database)")
    assert "another window or command has it open" in message and "\n" not in message
    assert path.read_bytes() == b"garbage " * 600
    assert [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name] == []


def test_a_fresh_log_that_cannot_be_started_after_setting_aside_is_said_in_one_line(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program's database is set aside; the new file cannot be made (the disk went
    away in between): one line with the path, the other program's file kept."""
    path = tmp_path / DATABASE_NAME
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE contacts (name TEXT)")
    other.close()
    original = path.read_bytes()
    connect = opening._connect
    calls: list[Path] = []

    def once(target: Path) -> sqlite3.Connection:
        calls.append(target)
        if len(calls) > 1:
            raise sqlite3.OperationalError("unable to open database file")
        return connect(target)

    monkeypatch.setattr(opening, "_connect", once)
    with pytest.raises(LogError) as refused:
        LogStore.open(regulation, path)
    message = str(refused.value)
    assert message.startswith("cannot open the penalty log: unable to open database file")
    assert message.endswith(f"— {path}") and "\n" not in message
    (kept,) = (p for p in tmp_path.iterdir() if ".damaged-" in p.name and p.suffix != ".lock")
    assert kept.read_bytes() == original


def test_a_folder_where_the_log_should_be_is_said_in_one_line(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = tmp_path / DATABASE_NAME
    path.mkdir()
    (path / "keep.txt").write_text("someone's file")
    with pytest.raises(LogError) as refused:
        LogStore.open(regulation, path)
    message = str(refused.value)
    assert message.startswith("cannot read the penalty log: Is a directory")
    assert message.endswith(f"— {path}") and "\n" not in message
    assert (path / "keep.txt").read_text() == "someone's file"


def test_an_upgrade_that_fails_is_said_in_one_line(regulation: Regulation, tmp_path: Path) -> None:
    path, record_id = a_log(regulation, tmp_path)
    broken = Migration(
        MIGRATIONS[-1].version + 1,
        "test: a step that fails",
        ("ALTER TABLE no_such_table ADD COLUMN y",),
    )
    with pytest.raises(LogError) as refused:
        LogStore.open(regulation, path, migrations=(*MIGRATIONS, broken))
    message = str(refused.value)
    assert message.startswith("cannot prepare the penalty log: no such table: no_such_table")
    assert message.endswith(f"— {path}") and "\n" not in message
    with LogStore.open(regulation, path) as store:  # unchanged: this app still opens it
        assert store.record(record_id) is not None


def test_another_programs_file_is_set_aside_as_such(regulation: Regulation, tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE contacts (name TEXT)")
    other.close()
    with LogStore.open(regulation, path) as store:
        assert store.recovery is not None
        assert store.recovery.fault == "a SQLite file of another program"


def test_a_log_that_cannot_be_checked_for_another_reason_is_left_as_it_is(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not damage (a lock held too long, say): the file is not set aside, and the judge is
    told in one line."""
    path, record_id = a_log(regulation, tmp_path)

    def busy(connection: sqlite3.Connection) -> bool:
        raise sqlite3.OperationalError("database is locked")

    with monkeypatch.context() as patched:
        patched.setattr(opening, "is_foreign", busy)
        with pytest.raises(LogError) as refused:
            LogStore.open(regulation, path)
    message = str(refused.value)
    assert message.startswith("cannot open the penalty log: database is locked")
    assert message.endswith(f"— {path}") and "\n" not in message
    assert [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name] == []
    with LogStore.open(regulation, path) as store:
        assert store.record(record_id) is not None


@pytest.mark.parametrize("exclusive", [True, False], ids=["opening", "holding-a-shared-turn"])
def test_an_opener_waits_for_another_then_says_so_in_one_line(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exclusive: bool
) -> None:
    """Openers of one folder take turns: while another holds the turn, this one waits (here
    50 ms instead of BUSY_TIMEOUT_S), then gives up in one line, the log untouched."""
    from records import locks

    path, record_id = a_log(regulation, tmp_path)
    monkeypatch.setattr(locks, "BUSY_TIMEOUT_S", 0.05)
    other = Lock(tmp_path, folder=True)  # another process in the middle of opening
    other.wait(exclusive=exclusive, doing="test")  # a turn is had alone: shared ones wait too
    try:
        with pytest.raises(LogError) as refused:
            LogStore.open(regulation, path)
    finally:
        other.release()
    message = str(refused.value)
    assert message.startswith("cannot open the penalty log: another program kept the log busy")
    assert message.endswith(f"— {tmp_path}") and "\n" not in message
    with LogStore.open(regulation, path) as store:  # its turn now
        assert store.record(record_id) is not None


def test_a_damaged_log_is_set_aside_as_damaged_in_one_line(
    regulation: Regulation, tmp_path: Path
) -> None:
    path, _record_id = a_log(regulation, tmp_path)
    damaged = bytearray(path.read_bytes())
    damaged[2 * 4096 : 3 * 4096] = bytes(range(256)) * 16  # a table's first page
    path.write_bytes(bytes(damaged))
    with LogStore.open(regulation, path) as store:
        assert store.recovery is not None
        fault = store.recovery.fault
        assert fault.startswith("damaged: ") and "\n" not in fault
        assert len(fault) > len("damaged: ") + 5  # SQLite's own words follow


def failing_first_connect(monkeypatch: pytest.MonkeyPatch, error: sqlite3.Error) -> None:
    """The first connection to the log fails with `error` (SQLite's own, as the file gave it);
    later ones, to a fresh file, work."""
    connect = opening._connect
    calls: list[Path] = []

    def first_fails(target: Path) -> sqlite3.Connection:
        calls.append(target)
        if len(calls) == 1:
            raise error
        return connect(target)

    monkeypatch.setattr(opening, "_connect", first_fails)


def test_a_file_sqlite_finds_damaged_on_connecting_is_set_aside(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _record_id = a_log(regulation, tmp_path)
    original = path.read_bytes()
    damaged = sqlite3.DatabaseError("database disk image is malformed")
    damaged.sqlite_errorcode = 11  # type: ignore[attr-defined]  # SQLITE_CORRUPT
    failing_first_connect(monkeypatch, damaged)
    with LogStore.open(regulation, path) as store:
        assert store.recovery is not None
        assert store.recovery.fault == "damaged: database disk image is malformed"
        assert store.recovery.moved_to.read_bytes() == original
        assert store.integrity_check() == "ok"


def test_a_file_that_cannot_be_connected_to_for_another_reason_is_left_as_it_is(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, record_id = a_log(regulation, tmp_path)
    failing_first_connect(monkeypatch, sqlite3.OperationalError("unable to open database file"))
    with pytest.raises(LogError) as refused:
        LogStore.open(regulation, path)
    message = str(refused.value)
    assert message.startswith("cannot open the penalty log: unable to open database file")
    assert message.endswith(f"— {path}") and "\n" not in message
    assert [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name] == []
    monkeypatch.undo()
    with LogStore.open(regulation, path) as store:
        assert store.record(record_id) is not None


def test_a_log_from_a_newer_app_is_refused_by_its_path(
    regulation: Regulation, tmp_path: Path
) -> None:
    path, _record_id = a_log(regulation, tmp_path)
    with sqlite3.connect(path) as newer:
        newer.execute(f"PRAGMA user_version = {MIGRATIONS[-1].version + 1}")
    newer.close()
    with pytest.raises(LogError) as refused:
        LogStore.open(regulation, path)
    assert str(refused.value).startswith(f"the penalty log {path} was written by a newer version")
