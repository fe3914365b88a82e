"""Several processes making a new log at the same moment (issue 21, item 1): every save that was
confirmed is in the log, nothing is set aside, and none is refused.

Four judges' first saves (`main.py log add`, as records/cli.py does it) start together in a
fresh data folder, round after round. Before the fix, about one round in twenty lost a
confirmed record (a half-made log taken for another program's file and renamed, its live WAL
with it), and some were refused: "an event named 'E' already exists" (about one round in three
with --event), or SQLITE_BUSY at once. The rounds below would have caught either with
probability above 99 %."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from records_support import WORKER, child_env, entry

from records import opening
from records.errors import LogError
from records.paths import DATABASE_NAME
from records.store import LogStore
from regulation.model import Regulation

JUDGES = 4


def first_saves_at_once(base: Path, rounds: int, event: str | None) -> list[str]:
    """Runs the rounds; returns every fault found (empty: none)."""
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), "first", str(base), f"P{n}", str(rounds)]
            + ([event] if event else []),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(base),
        )
        for n in range(JUDGES)
    ]
    faults = []
    try:
        for index in range(rounds):
            for worker in workers:
                assert worker.stdout is not None
                line = worker.stdout.readline()
                assert line == f"ready {index}\n", (
                    line,
                    worker.stderr.read() if worker.stderr else "",
                )
            (base / f"go-{index}").touch()
            results = [worker.stdout.readline().strip() for worker in workers if worker.stdout]
            saved = [line.split()[2] for line in results if line.startswith("saved ")]
            folder = base / str(index)
            with closing(sqlite3.connect(folder / DATABASE_NAME)) as log:
                kept = {row[0] for row in log.execute("SELECT uuid FROM records")}
                events = log.execute("SELECT count(*) FROM events").fetchone()[0]
            set_aside = sorted(p.name for p in folder.iterdir() if ".damaged-" in p.name)
            if len(saved) != JUDGES:
                faults.append(f"round {index}: refused: {results}")
            if not set(saved) <= kept:
                faults.append(f"round {index}: lost {set(saved) - kept}; set aside: {set_aside}")
            if set_aside or events != 1 or any(" warning: " in line for line in results):
                faults.append(f"round {index}: {events} events, set aside {set_aside}: {results}")
    finally:
        for worker in workers:
            worker.kill()
            worker.wait(timeout=30)
    return faults


@pytest.mark.process
@pytest.mark.parametrize(
    ("rounds", "event"), [(80, None), (15, "E")], ids=["current-event", "named-event"]
)
def test_judges_first_saves_into_a_new_log_at_once_all_land(
    tmp_path: Path, rounds: int, event: str | None
) -> None:
    assert first_saves_at_once(tmp_path, rounds, event) == []


def test_a_log_another_store_has_open_is_never_set_aside(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever an opener takes the file for, it does not rename a file in use: here every
    file looks foreign to it (as a half-made log did), and another store has the log open."""
    path = tmp_path / DATABASE_NAME
    with LogStore.open(regulation, path) as first:
        saved = first.add_record(first.current_event().id, entry("山田太郎"))
        monkeypatch.setattr(opening, "is_foreign", lambda connection: True)
        with pytest.raises(LogError) as refused:
            LogStore.open(regulation, path)
        assert "another window or command has it open" in str(refused.value)
        assert "\n" not in str(refused.value)
        assert [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name] == []
        assert first.record(saved.id) == saved
    # Alone, the same file is set aside (the rule is about files in use, not a blanket no).
    with LogStore.open(regulation, path) as alone:
        assert alone.recovery is not None


def test_a_file_system_without_flock_still_opens_the_log(
    regulation: Regulation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some network shares answer flock with ENOLCK: the log opens without the locks (as on
    Windows) rather than not at all."""
    import errno

    from records import locks

    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(locks.fcntl, "flock", no_locks)
    with LogStore.open(regulation, tmp_path / DATABASE_NAME) as store:
        saved = store.add_record(store.current_event().id, entry("山田太郎"))
        assert store.record(saved.id) == saved
