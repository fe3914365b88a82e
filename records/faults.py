"""One line for a failed database or file operation: what, where, why (a full disk, a read-only
folder, a busy or damaged file), never a traceback."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from .errors import LogError, Unwritable

BUSY_TIMEOUT_S = 5.0  # another process (the command line, a second window) holding the lock

# Primary result codes (the low byte of an extended code).
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26
_SQLITE_FULL, _SQLITE_IOERR = 13, 10
_SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_PERM = 8, 14, 3
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6


def _code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def is_corruption(exc: sqlite3.Error) -> bool:
    return _code(exc) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def describe_fault(exc: BaseException, path: Path, doing: str) -> LogError:
    """One line for a failed database or file operation: what, where, why. An `Unwritable`
    when the cause is that nothing can be written there (read-only, full, a write error)."""
    unwritable = False
    if isinstance(exc, sqlite3.Error):
        code = _code(exc)
        name = getattr(exc, "sqlite_errorname", None) or type(exc).__name__
        unwritable = code in (_SQLITE_FULL, _SQLITE_IOERR, _SQLITE_READONLY, _SQLITE_PERM)
        unwritable = unwritable or code == _SQLITE_CANTOPEN
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
            unwritable = True
        elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            why = f"the folder is read-only or not accessible ({exc.strerror})"
            unwritable = True
        else:
            why = exc.strerror or str(exc)
    else:
        why = str(exc)
    return (Unwritable if unwritable else LogError)(f"{doing}: {why} — {path}")
