"""The app's side of venue sync (records/sync/, which knows nothing of Flet): one session's link
to the one `SyncService` of its log file.

- The service's background loop is started when the app opens a log that is shared (joined or
  hosting), and when the judge hosts or joins from the sync screen. With sharing off nothing of
  sync runs in the app: no thread, no timer, no socket.
- News from a sync thread (the status changed, records were pulled) reaches the screens only
  through the app's loop (the shell's `spawn`, views/shell.py): Flet is never touched from that
  thread. Pulled records redraw the open log screens; a status change redraws the status lines.
- Every save of the log asks the service to sync soon (`saved`).
- While sharing is on, the status lines ("last synced 12 s ago") are redrawn every few seconds.

`records` is imported only when a log screen or a shared log needs it (start-up stays light).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable, Coroutine, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from . import routes

if TYPE_CHECKING:
    import flet as ft

    from records.store import LogStore
    from records.sync.service import SyncService, SyncStatus

    from .logbook import Logbook

# The screens redrawn when records of other judges arrive (not forms: they keep what is typed;
# they show the news when opened next).
REDRAWN_ON_PULL = frozenset({routes.LOG, routes.LOG_RECORD, routes.LOG_PLAYER})
# Where the app hosts: the local network's addresses unless these say otherwise (a laptop on
# two networks; the browser tests, which host on 127.0.0.1 only, on a free port).
BIND_VARIABLE = "PENALTY_GUIDE_SYNC_BIND"  # ADDRESS[,ADDRESS…]
PORT_VARIABLE = "PENALTY_GUIDE_SYNC_PORT"  # N (0: any free port)
TICK_S = 5.0  # how often, while sharing is on, "last synced N s ago" is redrawn
STALE_S = 15.0  # a joined device with no good sync for this long shows as offline

Spawn = Callable[[Coroutine[Any, Any, None]], None]
Redraw = Callable[["SyncStatus"], None]  # a status line's, called with each new status
T = TypeVar("T")
StatusText = Callable[["SyncStatus"], str]


def default_service(store: LogStore) -> SyncService:
    from records.sync.service import SyncService

    return SyncService.for_store(store)


# The service of a log file: one per file per process, kept by records/sync itself.
service_for: Callable[[LogStore], SyncService] = default_service


def host_options(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """`bind` and `port` for SyncService.host from the environment (absent: the defaults)."""
    env = os.environ if environ is None else environ
    options: dict[str, Any] = {}
    if env.get(BIND_VARIABLE, "").strip():
        options["bind"] = env[BIND_VARIABLE].strip()
    if env.get(PORT_VARIABLE, "").strip().isdigit():
        options["port"] = int(env[PORT_VARIABLE])
    return options


def short_device(device_id: str) -> str:
    """A device id as a judge reads it: its first 8 characters."""
    return device_id.replace("-", "")[:8]


def now_utc() -> datetime:
    return datetime.now(UTC)


def seconds_since(moment: datetime | None, now: datetime | None = None) -> float | None:
    if moment is None:
        return None
    return max(0.0, ((now or now_utc()) - moment).total_seconds())


def is_offline(status: SyncStatus, now: datetime | None = None) -> bool:
    """A joined device that cannot reach its host (the last try failed, or no good sync for
    a while)."""
    if status.role != "joined":
        return False
    age = seconds_since(status.last_synced_at, now)
    return status.problem is not None or age is None or age > STALE_S


class SyncLink:
    """One session's view of sharing: the service, the latest status, the status lines on
    screen. The shell attaches it to the app's loop (`attach`)."""

    def __init__(self, logbook: Logbook) -> None:
        self.logbook = logbook
        self.last: SyncStatus | None = None  # the latest status seen
        self.notice: str | None = None  # a failure the sync screen says once more when redrawn
        self._lock = threading.Lock()
        self._spawn: Spawn | None = None
        self._on_pulled: Callable[[], None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._watchers: list[Callable[[SyncStatus], None]] = []  # parts of screens shown
        self._seen_marker: tuple[object, ...] = ()  # what the screens last showed (_marker)

    def attach(self, spawn: Spawn, on_pulled: Callable[[], None]) -> None:
        """`spawn` runs a coroutine on the app's loop from any thread; `on_pulled` (called on
        that loop) redraws the open log screens."""
        self._spawn = spawn
        self._on_pulled = on_pulled

    # -- the service -----------------------------------------------------------------------

    def service(self) -> SyncService:
        """The log's sync service; raises records.errors.LogError when the log cannot open."""
        return service_for(self.logbook.open())

    def status(self) -> SyncStatus | None:
        """The status now, or None when the log cannot be opened."""
        from records.errors import LogError

        try:
            status = self.service().status()
        except (LogError, NotImplementedError):  # (the engine's first commit has stubs)
            return None
        self.last = status
        return status

    @property
    def following(self) -> bool:
        return self._unsubscribe is not None

    def follow(self) -> None:
        """Follows a shared log (joined or hosting): the service's background loop runs and
        its news reaches this session. Does nothing, and starts nothing, when sharing is off.
        Called off the loop at start-up (views/shell.py) and after hosting or joining."""
        status = self.status()
        if status is not None and status.role == "off":
            status = self.resume_hosting() or status
        if status is None or status.role == "off":
            self.unfollow()
            return
        with self._lock:
            if self._unsubscribe is not None:
                return
            service = self.service()
            self._seen_marker = self._marker(status)
            service.start_background()
            self._unsubscribe = service.subscribe(self._from_sync_thread)
        if self._spawn is not None:
            self._spawn(self._start_ticker())

    def resume_hosting(self) -> SyncStatus | None:
        """The head judge's device was hosting when the app last closed (or was killed):
        hosting goes on, same event, same code, same port, so that nobody has to join again.
        Nothing when it was not hosting, or when it cannot host now (no network yet: the sync
        screen then offers to host again)."""
        from records.errors import LogError

        try:
            service = self.service()
            stored = service.status(stored=True)
            if stored.role != "host" or stored.event_id is None:
                return None
            status = service.host(stored.event_id, **host_options())
        except (LogError, NotImplementedError):
            return None
        self.last = status
        return status

    def unfollow(self) -> None:
        """Stops listening (sharing ended: left, or hosting stopped)."""
        with self._lock:
            unsubscribe, self._unsubscribe = self._unsubscribe, None
        if unsubscribe is not None:
            unsubscribe()
        ticker, self._ticker = self._ticker, None
        if ticker is not None:
            ticker.cancel()

    def saved(self) -> None:
        """A save of the log: a shared log is sent soon (no wait for the next round)."""
        from records.errors import LogError

        if self.following:
            with contextlib.suppress(LogError):
                self.service().notify_saved()

    # -- news from the sync thread -------------------------------------------------------------

    def _from_sync_thread(self, status: SyncStatus) -> None:
        # A sync thread: nothing of Flet here; what changed is read here (the store is
        # thread-safe), then handed over to the app's loop.
        marker = self._marker(status)
        pulled = marker != self._seen_marker
        self._seen_marker = marker
        if self._spawn is not None:
            self._spawn(self._arrived(status, pulled))

    def _marker(self, status: SyncStatus) -> tuple[object, ...]:
        """What changes when records arrive: the shared event's newest record (a new record,
        on the host or a joined device) and, on a joined device, the last good sync (the
        engine reports a sync only when it pulled or pushed something)."""
        newest: tuple[object, ...] = ()
        if status.event_id:
            from records.errors import LogError

            with contextlib.suppress(LogError):
                found = self.logbook.open().records(status.event_id, limit=1, include_deleted=True)
                newest = tuple((r.id, r.updated_at, r.deleted) for r in found)
        synced = status.last_synced_at if status.role == "joined" else None
        return (status.role, status.event_id, synced, newest)

    async def _arrived(self, status: SyncStatus, pulled: bool) -> None:
        self.last = status
        if pulled and self._on_pulled is not None:
            self._on_pulled()  # redraws the screens, their status lines with them
        else:
            self.redraw_lines()
        if status.role == "off":
            self.unfollow()

    async def _start_ticker(self) -> None:
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def _tick(self) -> None:
        # The engine reports a quiet sync to nobody: the status is read again here (off the
        # loop), so that "last synced N s ago" stays true and "offline" is said in time.
        while self.following:
            await asyncio.sleep(TICK_S)
            await asyncio.to_thread(self.status)
            self.redraw_lines()

    # -- status lines on screen ----------------------------------------------------------------

    def watch(self, redraw: Callable[[SyncStatus], None]) -> None:
        """Registers a part of a screen being built that shows the status: `redraw` (called on
        the app's loop) brings it up to date, whenever the status changes and every few seconds
        while sharing is on."""
        self._watchers.append(redraw)

    def line(self, text: ft.Text, render: StatusText) -> ft.Text:
        """A status line: `render` gives its text for a status."""

        def redraw(status: SyncStatus) -> None:
            value = render(status)
            if value != text.value:
                text.value = value
                with contextlib.suppress(RuntimeError):  # not on the page (yet, or any more)
                    text.update()

        self.watch(redraw)
        return text

    def forget_lines(self, keep: tuple[Redraw, ...] = ()) -> None:
        """The page is about to be drawn afresh: the parts of the screens it drops go; `keep`
        are those of a part kept on the page (a wide window's list pane, views/wide.py)."""
        self._watchers = list(keep)

    def lines_of(self, build: Callable[[], T]) -> tuple[T, tuple[Redraw, ...]]:
        """Builds a part of a screen: it, and the status lines it watches."""
        before = len(self._watchers)
        built = build()
        return built, tuple(self._watchers[before:])

    def redraw_lines(self) -> None:
        if self.last is not None:
            for redraw in list(self._watchers):
                redraw(self.last)
