"""Faults the penalty log must survive, each provoked for real:

- kill -9 in the middle of writes: every save that was confirmed is there, the file is sound;
- kill -9 in the middle of an import: all of it or none of it;
- a garbage, truncated, damaged or foreign database file: set aside (kept, timestamped), one
  line said, a fresh log started;
- a read-only data folder or file: one clear line, nothing changed (also as root: the child
  drops the capability to override file permissions);
- a full disk (RLIMIT_FSIZE in a child, which works unprivileged and in CI): one clear line,
  every confirmed save kept, an import all-or-nothing;
- two processes writing at once: nothing lost.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from records_support import (
    WORKER,
    child_env,
    entry,
    file_size_limit,
    open_store,
    run_main,
    synthetic_export,
    without_dac_override,
)

from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation


def start_worker(*args: str, data_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), args[0], str(data_dir), *args[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(data_dir),
    )


def lines(process: subprocess.Popen[str]) -> Iterator[str]:
    assert process.stdout is not None
    for line in process.stdout:
        yield line.rstrip("\n")


def sound(path: Path) -> str:
    connection = sqlite3.connect(path)
    try:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        connection.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- kill -9 -------------------------------------------------------------------------------------


@pytest.mark.process
def test_kill_9_during_writes_loses_no_confirmed_save(
    regulation: Regulation, tmp_path: Path
) -> None:
    chance = random.Random()
    added: set[str] = set()
    deleted: set[str] = set()
    last_edit: dict[str, int] = {}
    for round_number in range(3):
        process = start_worker("write", str(chance.randrange(10**6)), data_dir=tmp_path)
        output = lines(process)
        assert next(output) == "ready", process.stderr.read() if process.stderr else ""
        kill_after = chance.randrange(5, 60)
        confirmed = []
        for line in output:
            confirmed.append(line)
            if len(confirmed) >= kill_after:
                time.sleep(chance.random() * 0.004)  # land anywhere in the next write
                os.kill(process.pid, signal.SIGKILL)
                break
        confirmed.extend(output)  # lines printed before it died were confirmed too
        assert process.wait(timeout=10) == -signal.SIGKILL, f"round {round_number}"
        for line in confirmed:
            action, record_id, *rest = line.split()
            if action == "add":
                added.add(record_id)
            elif action == "delete":
                deleted.add(record_id)
            else:
                last_edit[record_id] = int(rest[0])
    path = tmp_path / DATABASE_NAME
    assert sound(path) == "ok"
    with LogStore.open(regulation, path) as store:
        assert store.recovery is None
        assert store.integrity_check() == "ok"
        unconfirmed_deletions = 0
        for record_id in added:
            record = store.record(record_id)
            assert record is not None, f"confirmed save {record_id} lost"
            if record_id in deleted:
                assert record.deleted, f"confirmed deletion of {record_id} lost"
            elif record.deleted:
                unconfirmed_deletions += 1  # committed, killed before it could say so
            if record_id in last_edit:
                # An edit confirmed is there; a later one may have committed unconfirmed.
                assert record.note is not None
                assert int(record.note.removeprefix("n=")) >= last_edit[record_id]
        # Only the write in flight at each kill may have committed unconfirmed.
        assert unconfirmed_deletions <= 3
    assert len(added) >= 15


@pytest.mark.process
def test_kill_9_during_an_import_leaves_all_or_nothing(
    regulation: Regulation, tmp_path: Path
) -> None:
    export = tmp_path / "other-device.json"
    export.write_text(json.dumps(synthetic_export(3000), ensure_ascii=False), encoding="utf-8")
    timing = start_worker("import", str(export), data_dir=tmp_path / "timing")
    out = lines(timing)
    assert next(out) == "ready"
    assert next(out) == "merging"
    started = time.perf_counter()
    assert next(out).startswith("done 3000")
    merge_time = time.perf_counter() - started
    timing.wait(timeout=30)
    outcomes = set()
    for attempt in range(3):
        data_dir = tmp_path / f"kill-{attempt}"
        process = start_worker("import", str(export), data_dir=data_dir)
        out = lines(process)
        assert next(out) == "ready" and next(out) == "merging"
        time.sleep(merge_time * (0.1, 0.3, 0.6)[attempt])  # while the merge runs
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        path = data_dir / DATABASE_NAME
        assert sound(path) == "ok"
        connection = sqlite3.connect(path)
        count = connection.execute("SELECT count(*) FROM records").fetchone()[0]
        connection.close()
        assert count in (0, 3000), count
        outcomes.add(count)
    assert 0 in outcomes  # a kill came before the end (else this proved nothing)


# -- damaged files -------------------------------------------------------------------------------


def filled_log(regulation: Regulation, folder: Path, count: int = 400) -> Path:
    """A closed log of `count` records spread over many pages."""
    from records.exchange import json_bytes, parse_export

    with open_store(regulation, folder) as store:
        store.merge(parse_export(json_bytes(synthetic_export(count)), regulation))
    return folder / DATABASE_NAME


def assert_set_aside(store: LogStore, original: Path, content: bytes) -> None:
    recovery = store.recovery
    assert recovery is not None
    assert recovery.moved_to.read_bytes() == content  # kept, byte for byte
    assert recovery.moved_to.parent == original.parent
    assert recovery.moved_to.name.startswith(f"{original.name}.damaged-20")
    message = recovery.message
    assert "\n" not in message and str(original) in message and recovery.moved_to.name in message
    # And the log starts fresh and works.
    event = store.current_event()
    store.add_record(event.id, entry("山田"))
    assert len(store.records(event.id)) == 1
    assert store.integrity_check() == "ok"


def test_a_garbage_file_is_set_aside_and_a_fresh_log_started(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = tmp_path / DATABASE_NAME
    garbage = random.Random(7).randbytes(20_000)
    path.write_bytes(garbage)
    with open_store(regulation, tmp_path) as store:
        assert_set_aside(store, path, garbage)
        assert store.recovery is not None and "not a SQLite database" in store.recovery.fault


@pytest.mark.parametrize("keep", ["header-only", "half", "all-but-last-page", "50-bytes"])
def test_a_truncated_file_is_set_aside(regulation: Regulation, tmp_path: Path, keep: str) -> None:
    path = filled_log(regulation, tmp_path)
    whole = path.read_bytes()
    size = {
        "header-only": 100,
        "half": len(whole) // 2,
        "all-but-last-page": len(whole) - 4096,
        "50-bytes": 50,
    }[keep]
    path.write_bytes(whole[:size])
    with open_store(regulation, tmp_path) as store:
        assert_set_aside(store, path, whole[:size])


def test_a_damaged_page_inside_is_set_aside(regulation: Regulation, tmp_path: Path) -> None:
    path = filled_log(regulation, tmp_path)
    damaged = bytearray(path.read_bytes())
    page = len(damaged) // 4096 // 2 * 4096
    damaged[page : page + 4096] = random.Random(3).randbytes(4096)
    path.write_bytes(bytes(damaged))
    with open_store(regulation, tmp_path) as store:
        assert_set_aside(store, path, bytes(damaged))


def test_a_damaged_table_page_is_said_in_one_line(regulation: Regulation, tmp_path: Path) -> None:
    """SQLite's complaint about a table's page spans two lines ("*** in database main ***",
    then "Page 3: …"); the notice stays one line (page 3: a table's first page, always)."""
    path = filled_log(regulation, tmp_path)
    damaged = bytearray(path.read_bytes())
    damaged[2 * 4096 : 3 * 4096] = random.Random(3).randbytes(4096)
    path.write_bytes(bytes(damaged))
    with open_store(regulation, tmp_path) as store:
        assert store.recovery is not None and "Page 3" in store.recovery.fault
        assert_set_aside(store, path, bytes(damaged))


def test_another_programs_database_is_set_aside_untouched(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = tmp_path / DATABASE_NAME
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE contacts (name TEXT)")
    connection.execute("INSERT INTO contacts VALUES ('大事なデータ')")
    connection.commit()
    connection.close()
    original = path.read_bytes()
    with open_store(regulation, tmp_path) as store:
        assert_set_aside(store, path, original)
        assert store.recovery is not None and "another program" in store.recovery.fault


def test_each_damaged_file_is_kept_under_its_own_name(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = tmp_path / DATABASE_NAME
    for content in (b"first garbage" * 10, b"second garbage" * 10):
        path.write_bytes(content)
        LogStore.open(regulation, path).close()
    kept = sorted(p for p in tmp_path.iterdir() if ".damaged-" in p.name)
    assert {p.read_bytes() for p in kept} == {b"first garbage" * 10, b"second garbage" * 10}


def test_a_healthy_log_is_never_set_aside(regulation: Regulation, tmp_path: Path) -> None:
    path = filled_log(regulation, tmp_path)
    for _ in range(2):
        with LogStore.open(regulation, path) as store:
            assert store.recovery is None
            assert len(store.records(store.events()[0].id)) == 400
    # The log, and the lock file beside it (records/locks.py), nothing set aside.
    assert sorted(p.name for p in tmp_path.iterdir()) == [DATABASE_NAME, f"{DATABASE_NAME}.lock"]


@pytest.mark.process
def test_the_command_line_reports_a_damaged_file_in_one_line_and_goes_on(
    tmp_path: Path,
) -> None:
    (tmp_path / DATABASE_NAME).write_bytes(b"this is not a database" * 100)
    result = run_main(["log", "add", "--player", "山田", "--infraction", "bribery"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("warning: the penalty log ")
    assert "a new log was started" in result.stderr
    assert "saved in" in result.stdout
    assert any(".damaged-" in p.name for p in tmp_path.iterdir())


# -- read-only and full ----------------------------------------------------------------------------


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder outside pytest's private tmp (which only its owner may enter)."""
    folder = Path(tempfile.mkdtemp(prefix="penalty-log-faults-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in (folder, *folder.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(folder, ignore_errors=True)


def run_confined(args: list[str], data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = child_env(data_dir, HOME=str(data_dir.parent))
    return run_main(args, data_dir, preexec_fn=without_dac_override, env=env)


def assert_one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, (word, result.stderr)


ADD = ["log", "add", "--player", "山田", "--infraction", "bribery"]


@pytest.mark.process
def test_a_read_only_empty_data_folder_gives_one_clear_line(shared_folder: Path) -> None:
    data_dir = shared_folder / "data"
    data_dir.mkdir()
    data_dir.chmod(0o555)
    result = run_confined(ADD, data_dir)
    assert_one_clear_line(result, "read-only", str(data_dir))
    assert list(data_dir.iterdir()) == []


@pytest.mark.process
def test_a_read_only_data_folder_with_a_log_gives_one_clear_line_and_keeps_it(
    regulation: Regulation, shared_folder: Path
) -> None:
    data_dir = shared_folder / "data"
    path = filled_log(regulation, data_dir, 20)
    before = digest(path)
    data_dir.chmod(0o555)
    # Listing and exporting it still work: tests/test_records_read_only.py.
    assert_one_clear_line(run_confined(ADD, data_dir), "read-only", str(path))
    assert digest(path) == before
    assert sorted(p.name for p in data_dir.iterdir()) == [DATABASE_NAME, f"{DATABASE_NAME}.lock"]


@pytest.mark.process
def test_a_read_only_log_file_gives_one_clear_line(
    regulation: Regulation, shared_folder: Path
) -> None:
    data_dir = shared_folder / "data"
    path = filled_log(regulation, data_dir, 20)
    before = digest(path)
    data_dir.chmod(0o777)
    path.chmod(0o444)
    assert_one_clear_line(run_confined(ADD, data_dir), "read-only", str(path))
    assert digest(path) == before


@pytest.mark.process
def test_a_full_disk_while_saving_keeps_every_confirmed_save(
    regulation: Regulation, tmp_path: Path
) -> None:
    # each save: a row and a version. The empty log is about 140 KB of the budget (52 KB of it the
    # round clock's tables and indexes, schema 3), and the record evidence (schema 2) adds to each
    process = start_worker("fill", "900000", data_dir=tmp_path)
    output = list(lines(process))
    assert process.wait(timeout=60) == 3, (output[-3:], process.stderr)
    assert output[0] == "ready"
    confirmed = [line.split()[1] for line in output[1:-1]]
    error = output[-1]
    assert error.startswith("error not saved: ")
    assert "full" in error and str(tmp_path / DATABASE_NAME) in error
    assert len(confirmed) >= 10
    assert sound(tmp_path / DATABASE_NAME) == "ok"
    with LogStore.open(regulation, tmp_path / DATABASE_NAME) as store:
        assert store.recovery is None
        for record_id in confirmed:
            assert store.record(record_id) is not None
        saved = store.records(store.current_event().id)
        assert len(saved) == len(confirmed)  # the failed save left nothing half-written


@pytest.mark.process
def test_a_full_disk_during_an_import_imports_nothing(
    regulation: Regulation, tmp_path: Path
) -> None:
    export = tmp_path / "other-device.json"
    export.write_text(json.dumps(synthetic_export(3000), ensure_ascii=False), encoding="utf-8")
    data_dir = tmp_path / "data"
    process = start_worker("import", str(export), "300000", data_dir=data_dir)
    output = list(lines(process))
    assert process.wait(timeout=60) == 3, output
    assert output[-1].startswith("error nothing imported: ") and "full" in output[-1]
    with LogStore.open(regulation, data_dir / DATABASE_NAME) as store:
        assert store.events() == () or all(store.records(e.id) == () for e in store.events())
        assert store.integrity_check() == "ok"


@pytest.mark.process
def test_the_command_line_on_a_full_disk_says_so_in_one_line(
    regulation: Regulation, tmp_path: Path
) -> None:
    path = filled_log(regulation, tmp_path, 20)
    # A reader holding an old snapshot keeps the write-ahead log from starting over, so the
    # next save must grow it: past the limit, as on a full disk.
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM records").fetchone()
    try:
        for _ in range(3):
            assert run_main(ADD, tmp_path).returncode == 0
        wal = path.with_name(path.name + "-wal")
        limit = max(wal.stat().st_size, 32768)
        result = run_main(ADD, tmp_path, preexec_fn=file_size_limit(limit))
        assert_one_clear_line(result, "not saved", "full", str(path))
    finally:
        reader.execute("ROLLBACK")
        reader.close()
    with LogStore.open(regulation, path) as store:
        counts = [len(store.records(event.id)) for event in store.events()]
        assert sorted(counts) == [3, 20]  # the three saves before the disk filled, no more


# -- two writers -----------------------------------------------------------------------------------


@pytest.mark.process
def test_two_processes_writing_at_once_lose_nothing(regulation: Regulation, tmp_path: Path) -> None:
    go = tmp_path / "go"
    LogStore.open(regulation, tmp_path / DATABASE_NAME).close()
    workers = [start_worker("race", tag, "120", str(go), data_dir=tmp_path) for tag in ("A", "B")]
    outputs = [lines(worker) for worker in workers]
    for output in outputs:
        assert next(output) == "ready"
    go.touch()
    confirmed = [line.split()[1] for output in outputs for line in output]
    for worker in workers:
        assert worker.wait(timeout=60) == 0, worker.stderr.read() if worker.stderr else ""
    assert len(confirmed) == 240
    with LogStore.open(regulation, tmp_path / DATABASE_NAME) as store:
        (event,) = store.events()  # both found the same current event
        assert sorted(r.id for r in store.records(event.id)) == sorted(confirmed)
