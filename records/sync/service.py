"""SyncService: what the screens and the command line use of venue sync (one per log file per
process). The shapes below are the contract with the views (records/sync/__init__.py)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import validate
from ..errors import InvalidInput, LogError
from ..model import MergeReport
from ..record_check import MAX_JUDGE
from . import codes, protocol
from .addresses import local_addresses
from .client import DEFAULT_PORT, SyncClient, SyncProblem, host_url
from .server import HostKeys, SyncServer
from .state import SyncState
from .status import DeviceSeen, SyncResult, SyncStatus

if TYPE_CHECKING:
    from ..store import LogStore

MAX_RETIRED = 8
__all__ = ["DeviceSeen", "SyncResult", "SyncService", "SyncStatus"]


_SERVICES: weakref.WeakKeyDictionary[LogStore, SyncService] = weakref.WeakKeyDictionary()
_SERVICES_LOCK = threading.Lock()


class SyncService:
    """One per log file per process, thread-safe; owns the host server or the joiner's
    background loop (threads of its own; Flet is never touched from them)."""

    def __init__(self, store: LogStore) -> None:
        self.store = store
        self.ledger = store.ledger()
        self._lock = threading.RLock()  # the state and the server
        self._syncing = threading.Lock()  # one exchange with the host at a time
        self._server: SyncServer | None = None
        self._urls: tuple[str, ...] = ()
        self._problem: str | None = None
        self._problem_code: str | None = None
        self._subscribers: list[Callable[[SyncStatus], None]] = []
        self._wake = threading.Event()
        self._background: threading.Thread | None = None
        self._interval_s = 3.0
        self._keys: dict[tuple[str, str], codes.Secret] = {}
        self._offset_ms = 0
        self._closed = False
        store.add_save_listener(self.notify_saved)

    @classmethod
    def for_store(cls, store: LogStore) -> SyncService:
        with _SERVICES_LOCK:
            found = _SERVICES.get(store)
            if found is None:
                found = _SERVICES[store] = cls(store)
            return found

    # -- status --------------------------------------------------------------------------------

    def _state(self) -> SyncState:
        return self.ledger.state()

    def status(self, *, stored: bool = False) -> SyncStatus:
        """Now; `stored`: as saved in the log (the command line's `sync status`, while another
        process may be the one hosting)."""
        with self._lock:
            state = self._state()
            hosting = state.role == "host" and (self._server is not None or stored)
            event = self.store.event(state.event_id) if state.event_id else None
            joined = state.role == "joined"
            return SyncStatus(
                role=state.role if (joined or hosting) else "off",
                event_id=state.event_id if (joined or hosting) else None,
                event_name=event.name if event and (joined or hosting) else None,
                judge=self.ledger.judge(),
                device_id=self.ledger.device_id,
                addresses=self._urls if hosting else (),
                port=self._server.port
                if hosting and self._server
                else state.port
                if hosting
                else None,
                code=state.code.value if hosting and state.code else None,
                host_url=state.host_url if joined else None,
                devices=tuple(
                    DeviceSeen(device, judge, at)
                    for device, judge, at in self.ledger.devices(state.event_id)
                )
                if hosting and state.event_id
                else (),
                last_synced_at=state.last_synced if joined else None,
                waiting=self.ledger.waiting(state.event_id, state.pushed)
                if joined and state.event_id
                else 0,
                problem=self._problem,
                problem_code=self._problem_code if self._problem else None,
            )

    def set_judge(self, name: str) -> None:
        """InvalidInput on an empty name."""
        clean = validate.text(name, "judge", MAX_JUDGE, required=True)
        assert clean is not None
        self.ledger.save({"judge": clean})
        self._changed()

    def subscribe(self, callback: Callable[[SyncStatus], None]) -> Callable[[], None]:
        """`callback` is called from a sync thread when the status changes or records were
        pulled; returns the unsubscribe function."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def _changed(self) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        if not subscribers:
            return
        status = self.status()
        for callback in subscribers:
            try:
                callback(status)
            except Exception:  # a screen's fault never stops sync
                continue

    def _key(self, code: codes.Secret, event_id: str) -> codes.Secret:
        found = self._keys.get((code.value, event_id))
        if found is None:
            found = self._keys[(code.value, event_id)] = codes.derive_key(code, event_id)
        return found

    def _wall_ms(self) -> int:
        return protocol.now_ms(self.store.clock())

    # -- hosting -------------------------------------------------------------------------------

    def host(
        self,
        event_id: str,
        *,
        bind: str | None = None,
        port: int | None = None,
        new_code: bool = False,
        code: str | None = None,
    ) -> SyncStatus:
        """Starts serving `event_id` in a thread (resuming the same code unless `new_code`, or
        with the `code` given). Raises LogError (one line) when no address or the port cannot
        be used, InvalidInput for a code that is not one."""
        given = codes.parse_code(code) if code is not None else None
        with self._lock:
            if self.store.event(event_id) is None:
                raise InvalidInput(f"no event with id {event_id!r}", "event", "unknown_id")
            if self._server is not None:
                self._server.stop()
                self._server = None
            state = self._state()
            same = state.event_id == event_id and state.code is not None
            chosen_code = given or (
                state.code if same and state.code and not new_code else codes.new_code()
            )
            retired = state.retired if same else ()
            if same and state.code is not None and state.code != chosen_code:
                retired = (*retired, codes.key_id(self._key(state.code, event_id)))
            addresses = tuple(bind.split(",")) if bind else state.bind if same else ()
            addresses = tuple(a.strip() for a in addresses if a.strip())
            listen = addresses or local_addresses()
            if not listen:
                raise LogError(
                    "no local network found: join the hotspot or Wi-Fi first (or give --bind)"
                )
            wanted = port if port is not None else (state.port if same and state.port else None)
            self.ledger.ensure_event_version(event_id)
            server = SyncServer(
                self.ledger,
                event_id,
                self._host_keys(chosen_code, event_id, retired[-MAX_RETIRED:]),
                self._wall_ms,
                lambda device, judge, accepted: self._seen(event_id, device, judge, accepted),
            )
            try:
                chosen = server.start(listen, DEFAULT_PORT if wanted is None else wanted)
            except OSError as exc:
                raise LogError(
                    f"cannot host on port {wanted or DEFAULT_PORT}: {exc.strerror or exc}"
                ) from None
            self._server = server
            self._urls = tuple(host_url(f"{a}:{chosen}") for a in listen)
            self.store.set_current_event(event_id)
            self._problem = None
            self.ledger.save_state(
                SyncState(
                    role="host",
                    event_id=event_id,
                    code=chosen_code,
                    retired=retired[-MAX_RETIRED:],
                    bind=addresses,
                    port=chosen,
                )
            )
        self._changed()
        return self.status()

    def _host_keys(self, code: codes.Secret, event_id: str, retired: tuple[str, ...]) -> HostKeys:
        key = self._key(code, event_id)
        return HostKeys(key, codes.key_id(key), frozenset(retired))

    def _seen(self, event_id: str, device: str, judge: str | None, accepted: int) -> None:
        """After each request: subscribers hear of new records and of a new or renamed device
        (not of every request: 30 devices every 2 s; a screen refreshes "last seen" itself)."""
        if self.ledger.seen(event_id, device, judge) or accepted:
            self._changed()

    def new_code(self) -> SyncStatus:
        """A new join code; the old one stops working at once."""
        with self._lock:
            state = self._state()
            if state.role != "host" or state.event_id is None or state.code is None:
                raise InvalidInput("this device is not hosting", "sync", "format")
            code = codes.new_code()
            retired = (*state.retired, codes.key_id(self._key(state.code, state.event_id)))
            retired = retired[-MAX_RETIRED:]
            if self._server is not None:
                self._server.keys = self._host_keys(code, state.event_id, retired)
            self.ledger.save_state(state.replaced(code=code, retired=retired))
        self._changed()
        return self.status()

    def close(self) -> None:
        """Stops serving and syncing in this process, keeping the saved state (a restart, or
        the app's next start, resumes)."""
        with self._lock:
            if self._server is not None:
                self._server.stop()
                self._server = None
            self._urls = ()
            self._closed = True
        self._wake.set()

    def stop_hosting(self) -> None:
        with self._lock:
            if self._server is not None:
                self._server.stop()
                self._server = None
            self._urls = ()
            state = self._state()
            if state.role == "host":
                self.ledger.save_state(state.replaced(role="off"))
        self._changed()

    # -- joining -------------------------------------------------------------------------------

    def join(self, address: str, code: str) -> SyncResult:
        """Remembers the host and the code, then makes a first sync."""
        url = host_url(address)
        secret = codes.parse_code(code)
        with self._lock:
            if self._server is not None:
                raise InvalidInput("this device is hosting: end hosting first", "sync", "format")
            try:
                event_id = SyncClient.hello(url)
            except SyncProblem as problem:
                return self._failed(url, problem)
            self.ledger.save_state(
                SyncState(role="joined", event_id=event_id, code=secret, host_url=url)
            )
            self._problem = None
        result = self.sync_now()
        if not result.ok and result.problem and self._problem_code in ("wrong_code", "old_code"):
            with self._lock:  # not remembered: the judge types the code again
                self.ledger.save_state(SyncState())
        self._changed()
        return result

    def leave(self) -> None:
        with self._lock:
            state = self._state()
            if state.role == "joined":
                self.ledger.save_state(SyncState())
            self._problem = None
        self._changed()

    def sync_now(self) -> SyncResult:
        state = self._state()
        if state.role == "host":
            return SyncResult(self._server is not None, 0, 0, None, None)
        if state.role != "joined" or not state.event_id or not state.code or not state.host_url:
            return SyncResult(False, 0, 0, None, "this device has not joined a host", "not_joined")
        with self._syncing:
            pushed = pulled = 0
            client = SyncClient(
                state.host_url,
                state.event_id,
                self.ledger.device_id,
                self._key(state.code, state.event_id),
                codes.key_id(self._key(state.code, state.event_id)),
                self._wall_ms,
            )
            client.offset_ms = self._offset_ms
            judge = self.ledger.judge()
            try:
                while True:
                    state = self._state()
                    assert state.event_id is not None
                    push, last_seq = self.ledger.outgoing(state.event_id, state.pushed)
                    page = client.exchange(judge, state.cursor, push)
                    self._offset_ms = client.offset_ms
                    pulled += self.ledger.pull(state.event_id, page.items, page.cursor, last_seq)
                    pushed += len(push)
                    if not push and not page.more:
                        break
            except SyncProblem as problem:
                return self._failed(state.host_url, problem, pushed, pulled)
            except (InvalidInput, LogError) as exc:
                refused = SyncProblem("bad_data", f"the host's data was refused: {exc}")
                return self._failed(state.host_url, refused, pushed, pulled)
            self.ledger.save({"sync.last_synced": self.store.clock().isoformat()})
            if state.event_id and self.ledger.first_sync_done(state.event_id):
                self.store.set_current_event(state.event_id)  # once: the shared event
        changed = self._problem is not None or pulled > 0
        self._problem = None
        self._problem_code = None
        if changed or pushed:
            self._changed()
        return SyncResult(True, pushed, pulled, state.host_url, None)

    def _failed(
        self, url: str | None, problem: SyncProblem, pushed: int = 0, pulled: int = 0
    ) -> SyncResult:
        changed = self._problem != problem.message
        self._problem = problem.message
        self._problem_code = problem.code
        if changed or pulled:
            self._changed()
        return SyncResult(False, pushed, pulled, url, problem.message, problem.code)

    # -- in the background ---------------------------------------------------------------------

    def start_background(self, interval_s: float = 3.0) -> None:
        """Idempotent."""
        with self._lock:
            self._interval_s = interval_s
            self._closed = False
            if self._background is not None and self._background.is_alive():
                return
            self._background = threading.Thread(
                target=self._loop, name="sync-background", daemon=True
            )
            self._background.start()

    def _loop(self) -> None:
        while not self._closed:
            self._wake.wait(self._interval_s)
            self._wake.clear()
            if self._closed:
                return
            if self._state().role == "joined":
                try:
                    self.sync_now()
                except Exception:  # the loop never dies; the next round tries again
                    continue

    def notify_saved(self) -> None:
        """A local save: sync soon."""
        self._wake.set()

    # -- offline records -----------------------------------------------------------------------

    def move_into_shared(self, local_event_id: str) -> MergeReport:
        """The join screen's "bring my offline records into the shared event": nothing lost or
        doubled."""
        state = self._state()
        if state.role == "off" or not state.event_id:
            raise InvalidInput("join or host an event first", "sync", "format")
        if self.store.event(state.event_id) is None:
            raise InvalidInput("sync once first: the shared event is not here yet", "sync")
        report = self.ledger.move_records(local_event_id, state.event_id)
        self.notify_saved()
        return report
