"""Who else has the log open: two advisory locks that keep processes opening one log at the same
moment from taking each other's half-made file for a foreign one (issue 21, item 1).

- The opening lock (exclusive, on the log's folder) is held while a process checks, sets aside,
  sets up and migrates the file: openers take turns, for milliseconds each. Waiting for it is
  bounded by BUSY_TIMEOUT_S, like waiting for SQLite's own lock.
- The users lock (`<log>.lock` beside the log) is held shared for as long as a store is open.
  An opener that can take it exclusively is the only one with the file open, and only then may
  a damaged or foreign file be renamed: a file another process (or another store of this one)
  has open is never moved away under it.

These are flock(2) locks: they belong to an open file, so two stores in one process see each
other too, and the system drops them when a process dies (kill -9 leaves no stale lock). Where
there is no flock (Windows), there are no locks here; Windows refuses to rename an open file,
which is then reported in one line instead.
"""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path

from .errors import LogError
from .faults import BUSY_TIMEOUT_S

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

_POLL_S = 0.005
_TIMEOUT_ERRNOS = (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


class Lock:
    """An open file (or folder) to take flock(2) locks on; a no-op where there is none."""

    def __init__(self, path: Path, folder: bool = False) -> None:
        self.path = path
        self._fd: int | None = None
        if fcntl is None:
            return
        flags = os.O_RDONLY if folder else os.O_RDWR | os.O_CREAT
        try:
            self._fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
        except OSError:  # a read-only folder: no lock file, and nothing can be written anyway
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def _try(self, operation: int) -> bool:
        """True once the lock is taken (or cannot be had at all: see `_give_up`)."""
        assert fcntl is not None and self._fd is not None
        try:
            fcntl.flock(self._fd, operation | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in _TIMEOUT_ERRNOS:
                return False
            self._give_up()
        return True

    def _give_up(self) -> None:
        """A file system without flock (ENOLCK, EINVAL: some network shares): no lock, as on
        Windows, rather than no log."""
        self.release()

    def wait(self, exclusive: bool, doing: str) -> None:
        """Takes the lock, waiting at most BUSY_TIMEOUT_S; else LogError with one line."""
        if fcntl is None or self._fd is None:
            return
        operation = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while not self._try(operation):
            if time.monotonic() > deadline:
                raise LogError(
                    f"{doing}: another program kept the log busy for {BUSY_TIMEOUT_S:g} s "
                    f"— {self.path}"
                )
            time.sleep(_POLL_S)

    def take_alone(self) -> bool:
        """Exclusive at once, or False (without the lock) when anyone else holds it. Without
        locks (Windows, a read-only folder) True: nobody can be seen, and the rename that
        this allows fails there in one line for a file that is open."""
        if fcntl is None or self._fd is None:
            return True
        return self._try(fcntl.LOCK_EX)

    def share(self) -> None:
        """From exclusive to shared (or shared at once: only an opener holds it exclusively,
        and openers take turns under the opening lock)."""
        if fcntl is not None and self._fd is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_SH)
            except OSError:
                self._give_up()

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops its lock
            self._fd = None
