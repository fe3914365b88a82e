"""Who else has the log open (records/locks.py), what mutation testing found unasserted: an
exclusive holder keeps every other opener out, and one who waits too long is told so in one line
naming the log; shared users see one another but do not block one another; an opener alone can
step down to shared; the folder lock; where no lock can be had (no lock file, no flock) nobody
is kept out and nothing fails; the lock file is plain (rw-r--r--)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from records import locks as locks_module
from records.errors import LogError
from records.locks import Lock, lock_path

SHORT_S = 0.05  # how long a test waits for a busy lock (the app waits BUSY_TIMEOUT_S)


@pytest.fixture(autouse=True)
def _short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(locks_module, "BUSY_TIMEOUT_S", SHORT_S)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return lock_path(tmp_path / "penalties.sqlite3")


def test_an_exclusive_holder_keeps_every_other_opener_out(path: Path) -> None:
    holder, other = Lock(path), Lock(path)
    try:
        holder.wait(exclusive=True, doing="opening the log")
        assert holder.held
        assert not other.take_alone()
        with pytest.raises(LogError) as refused:
            other.wait(exclusive=False, doing="cannot open the log")
        assert str(refused.value) == (
            f"cannot open the log: another program kept the log busy for {SHORT_S:g} s — {path}"
        )
    finally:
        holder.release()
        other.release()


def test_the_lock_is_free_once_released(path: Path) -> None:
    holder, other = Lock(path), Lock(path)
    holder.wait(exclusive=True, doing="opening the log")
    holder.release()
    assert not holder.held
    try:
        assert other.take_alone()
    finally:
        other.release()


def test_shared_users_see_each_other_without_blocking(path: Path) -> None:
    first, second, opener = Lock(path), Lock(path), Lock(path)
    try:
        first.wait(exclusive=False, doing="opening the log")
        second.wait(exclusive=False, doing="opening the log")  # does not wait for the first
        assert not opener.take_alone()  # a file in use is never set aside
    finally:
        for lock in (first, second, opener):
            lock.release()


def test_an_opener_alone_steps_down_to_shared(path: Path) -> None:
    opener, user, third = Lock(path), Lock(path), Lock(path)
    try:
        assert opener.take_alone()
        opener.share()
        user.wait(exclusive=False, doing="opening the log")  # now another store may open it
        assert not third.take_alone()  # but nobody is alone with it
    finally:
        for lock in (opener, user, third):
            lock.release()


def test_the_opening_lock_on_the_folder_takes_turns(tmp_path: Path) -> None:
    first, second = Lock(tmp_path, folder=True), Lock(tmp_path, folder=True)
    try:
        assert first.held
        first.wait(exclusive=True, doing="opening the log")
        assert not second.take_alone()
    finally:
        first.release()
        second.release()


def test_where_no_lock_file_can_be_made_nobody_is_kept_out(tmp_path: Path) -> None:
    lock = Lock(tmp_path / "no such folder" / "penalties.sqlite3.lock")
    assert not lock.held
    lock.wait(exclusive=True, doing="opening the log")  # returns at once, no error
    assert lock.take_alone()
    lock.share()
    lock.release()
    assert not lock.held


def test_without_flock_there_are_no_locks_and_nothing_fails(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows: no fcntl. No lock file is made, and a lock is never in anyone's way."""
    monkeypatch.setattr(locks_module, "fcntl", None)
    lock = Lock(path)
    assert not lock.held
    assert not path.exists()
    lock.wait(exclusive=True, doing="opening the log")
    assert lock.take_alone()
    lock.share()
    lock.release()


def test_the_lock_file_is_plain_rw_r__r__(path: Path) -> None:
    """Beside the judge's log: readable, writable by its owner only, executable by nobody."""
    umask = os.umask(0)
    try:
        lock = Lock(path)
    finally:
        os.umask(umask)
    try:
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
    finally:
        lock.release()
