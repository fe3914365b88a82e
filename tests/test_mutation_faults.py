"""The one line a failed database or file operation is told in (records/faults.py), at the
edges mutation testing found untested: a file that cannot be written says so in one line naming
what, why and where; any other fault is one line that does not call the log unwritable; only a
damaged file counts as damaged."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

import pytest

from records.errors import LogError, Unwritable
from records.faults import describe_fault, is_corruption

LOG = Path("/data/penalty-log.sqlite3")


def os_error(number: int) -> OSError:
    return OSError(number, os.strerror(number))


def sqlite_error(code: int | None, name: str | None, text: str = "it failed") -> sqlite3.Error:
    """An error as sqlite3 raises it: its extended result code and that code's name."""
    error = sqlite3.OperationalError(text)
    if code is not None:
        error.sqlite_errorcode = code
    if name is not None:
        error.sqlite_errorname = name
    return error


READ_ONLY = "the folder or the file is read-only or not accessible"
FOLDER = "the folder is read-only or not accessible"
BUSY = "another program kept the log busy for 5 s"
DAMAGED = "the file is damaged ({}); restart the app to set it aside"


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        # OSError's: a full disk, a file too big for the file system or over the user's quota
        (os_error(errno.ENOSPC), "the disk is full (No space left on device)"),
        (os_error(errno.EFBIG), "the disk is full (File too large)"),
        (os_error(errno.EDQUOT), "the disk is full (Disk quota exceeded)"),
        (os_error(errno.EROFS), f"{FOLDER} (Read-only file system)"),
        (os_error(errno.EACCES), f"{FOLDER} (Permission denied)"),
        (os_error(errno.EPERM), f"{FOLDER} (Operation not permitted)"),
        # SQLite's, by the primary code of an extended one (the low byte)
        (sqlite_error(13, "SQLITE_FULL"), "the disk is full (SQLITE_FULL)"),
        (
            sqlite_error(778, "SQLITE_IOERR_WRITE"),
            "write error, probably a full disk (SQLITE_IOERR_WRITE)",
        ),
        (sqlite_error(8, "SQLITE_READONLY"), f"{READ_ONLY} (SQLITE_READONLY)"),
        (sqlite_error(1032, "SQLITE_READONLY_DBMOVED"), f"{READ_ONLY} (SQLITE_READONLY_DBMOVED)"),
        (sqlite_error(14, "SQLITE_CANTOPEN"), f"{READ_ONLY} (SQLITE_CANTOPEN)"),
        (sqlite_error(3, "SQLITE_PERM"), f"{READ_ONLY} (SQLITE_PERM)"),
    ],
)
def test_a_file_that_cannot_be_written_is_told_in_one_line(fault: Exception, why: str) -> None:
    told = describe_fault(fault, LOG, "saving")
    assert type(told) is Unwritable
    assert str(told) == f"saving: {why} — {LOG}"


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        (sqlite_error(5, "SQLITE_BUSY"), f"{BUSY} (SQLITE_BUSY)"),
        (sqlite_error(517, "SQLITE_BUSY_SNAPSHOT"), f"{BUSY} (SQLITE_BUSY_SNAPSHOT)"),
        (sqlite_error(6, "SQLITE_LOCKED"), f"{BUSY} (SQLITE_LOCKED)"),
        (sqlite_error(11, "SQLITE_CORRUPT"), DAMAGED.format("SQLITE_CORRUPT")),
        (sqlite_error(26, "SQLITE_NOTADB"), DAMAGED.format("SQLITE_NOTADB")),
        (sqlite_error(1, "SQLITE_ERROR", "no such table: x"), "no such table: x (SQLITE_ERROR)"),
        (sqlite_error(1, None, "no such table: x"), "no such table: x (OperationalError)"),
        # raised by the sqlite3 module itself, with no result code at all
        (
            sqlite3.ProgrammingError("Cannot operate on a closed database."),
            "Cannot operate on a closed database. (ProgrammingError)",
        ),
        (OSError(errno.EIO, "Input/output error"), "Input/output error"),
        (OSError("no such device"), "no such device"),
        (RuntimeError("the log went away"), "the log went away"),
    ],
)
def test_any_other_fault_is_told_in_one_line_without_calling_the_log_unwritable(
    fault: Exception, why: str
) -> None:
    told = describe_fault(fault, LOG, "opening")
    assert type(told) is LogError
    assert str(told) == f"opening: {why} — {LOG}"


def test_only_a_damaged_file_counts_as_damaged() -> None:
    assert is_corruption(sqlite_error(11, "SQLITE_CORRUPT"))
    assert is_corruption(sqlite_error(267, "SQLITE_CORRUPT_VTAB"))
    assert is_corruption(sqlite_error(26, "SQLITE_NOTADB"))
    for code in (None, 1, 5, 13, 10, 8, 14, 522):
        assert not is_corruption(sqlite_error(code, None)), code
