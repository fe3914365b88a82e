"""The screens' door to the penalty log (records/): opened off the start-up path, shared, and
honest about a file it had to set aside or a folder it cannot use.

`records` is imported and the database opened only when something needs it: the background
thread that builds the search index right after the first view (views/shell.py), or the first log
screen, whichever comes first. Nothing of it runs before the first view (bench/bench_startup.py).

One `LogStore` per database file serves the whole process (it is thread-safe): every session of
the web mode (one per browser tab) shares it, and a file is never opened twice by the app. A
folder that cannot be used is not remembered: each screen asks again, so a judge who frees some
space or fixes a permission needs no restart.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from records.paths import database_path

from . import routes
from .sync_link import SyncLink

if TYPE_CHECKING:
    from records.model import Recovery
    from records.store import LogStore
    from regulation.model import Regulation
    from views.screens.clock_calls import RunningCall
    from views.screens.log_draft import Draft

_stores: dict[Path, LogStore] = {}
_dismissed: set[Path] = set()  # files whose set-aside notice a judge has read
_lock = threading.Lock()


class Logbook:
    """The log as one session's screens see it: the shared store and the session's own
    screen state (drafts of open forms, the player filter, how much of the log is shown)."""

    def __init__(self, regulation: Regulation, path: Path | None = None) -> None:
        self.regulation = regulation
        # Read once, when the session starts: a test (or a judge) that moves the folder later
        # does not move a session that is running.
        self.path = path or database_path()
        self.fault: str | None = None  # why the last attempt to open failed, one line
        self.drafts: dict[str, object] = {}  # route path → an open form's values
        # A record form's values while its judge looks in the finder: the form the finder's
        # answer opens (record this penalty) starts from them, the name typed kept.
        self.finder_draft: Draft | None = None
        self.player_filter = ""
        self.round_filter: int | None = None  # the log shows one round (None: all of them)
        self.table_filter = ""  # …and/or one table
        self.pages = 1  # pages of the log shown (the judge asked for more)
        self.sync = SyncLink(self)  # venue sharing of this log (views/sync_link.py)
        # Judge calls being timed, by table (views/screens/clock_calls.py).
        self.calls: dict[str, RunningCall] = {}
        # How often each thread asked for the store (or its notice): a screen whose building
        # left its thread's count unchanged shows nothing of the records (views/pages.py keeps
        # it when they change). Per thread: the warm-up's opening is no screen's.
        self._reads: dict[int, int] = {}

    @property
    def folder(self) -> Path:
        return self.path.parent

    def open(self) -> LogStore:
        """The store; raises records.errors.LogError (one line) when it cannot be opened."""
        from records.errors import LogError
        from records.store import LogStore

        self._read()
        with _lock:
            store = _stores.get(self.path)
            if store is None:
                try:
                    store = LogStore.open(self.regulation, self.path)
                except LogError as exc:
                    self.fault = str(exc)
                    raise
                _stores[self.path] = store
        self.fault = None
        return store

    def reads(self) -> int:
        """How often this thread asked for the store or its notice."""
        return self._reads.get(threading.get_ident(), 0)

    def _read(self) -> None:
        thread = threading.get_ident()
        self._reads[thread] = self._reads.get(thread, 0) + 1

    def warm(self) -> None:
        """Opens the store ahead of the judge (background thread); a fault waits for the
        first log screen, which says it."""
        from records.errors import LogError

        with contextlib.suppress(LogError):
            self.open()

    def finder_link(self, infraction_id: str) -> str:
        """Where "record this penalty" goes: back to the edit whose picker opened the finder,
        its infraction changed (issue 20, item 3); else a new record's form, which starts from
        a waiting new form's values (views/screens/log_form.py)."""
        waiting = self.finder_draft
        if waiting is None or waiting.record_id is None:
            return routes.LOG_NEW.link(infraction=infraction_id)
        path = routes.LOG_EDIT.link(waiting.record_id)
        self.drafts[path] = waiting.answered(infraction_id)
        self.finder_draft = None  # answered: a later "record this penalty" is a new record
        return path

    def keep_drafts(self, paths: set[str]) -> None:
        """Forgets the forms that left the history (back, or another destination): opening
        the form again starts afresh instead of showing an old name."""
        for path in [p for p in self.drafts if p not in paths]:
            del self.drafts[path]

    def notice(self) -> Recovery | None:
        """A damaged file that was set aside when the log was opened, until a judge has
        read the notice (once per file, in whichever session shows it first)."""
        self._read()
        with _lock:
            store = _stores.get(self.path)
            if store is None or store.recovery is None or self.path in _dismissed:
                return None
            return store.recovery

    def dismiss_notice(self) -> None:
        with _lock:
            _dismissed.add(self.path)
