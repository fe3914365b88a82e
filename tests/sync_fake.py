"""A test double of records/sync's `SyncService` for the screens' in-process tests: the
contract's shapes (records/sync/service.py), no network, no thread of its own. It keeps its state
in memory over the real log (a LogStore), and lets a test play the other side: a host that
refuses a code, devices that join, records pulled from another judge (`pull`), news sent from
a foreign thread as the real service's sync thread sends it (`emit`).

Install it with `install(monkeypatch)`: every log file the app opens gets its own FakeSync.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from records.errors import InvalidInput, LogError
from records.model import MergeReport, Player, Record, RecordedBy
from records.store import ImportedEvent, LogStore, now_local
from records.sync.service import DeviceSeen, SyncResult, SyncStatus
from views import sync_link

HOST = "http://127.0.0.1:8765"
CODE = "K7QF-2MXD-9PLA"
SHARED_EVENT = "共有の大会"


class FakeSync:
    """What the screens call, recorded (`calls`), answering as the contract says."""

    def __init__(self, store: LogStore) -> None:
        self.store = store
        self.calls: list[str] = []
        self.role = "off"
        self.judge: str | None = None
        self.device_id = "d3v1ce00-0000-4000-8000-000000000001"
        self.event_id: str | None = None
        self.code: str | None = None
        self.host_url: str | None = None
        self.devices: tuple[DeviceSeen, ...] = ()
        self.last_synced_at: datetime | None = None
        self.waiting = 0
        self.problem: str | None = None
        self.problem_code: str | None = None
        self.accepted_code = CODE  # what the "host" takes
        self.reachable = True
        self.subscribers: list[Callable[[SyncStatus], None]] = []
        self.background = 0  # start_background calls
        self.saves = 0  # notify_saved calls
        self.lock = threading.Lock()

    # -- the contract ----------------------------------------------------------------------------

    def status(self, *, stored: bool = False) -> SyncStatus:
        event = self.store.event(self.event_id) if self.event_id else None
        return SyncStatus(
            role=self.role,  # type: ignore[arg-type]
            event_id=self.event_id,
            event_name=event.name if event else None,
            judge=self.judge,
            device_id=self.device_id,
            addresses=(HOST, "http://[::1]:8765") if self.role == "host" else (),
            port=8765 if self.role == "host" else None,
            code=self.code if self.role == "host" else None,
            host_url=self.host_url if self.role == "joined" else None,
            devices=self.devices,
            last_synced_at=self.last_synced_at,
            waiting=self.waiting,
            problem=self.problem,
            problem_code=self.problem_code if self.problem else None,
        )

    def set_judge(self, name: str) -> None:
        self.calls.append(f"set_judge {name}")
        if not name.strip():
            raise InvalidInput("the judge name is empty", "judge", "required")
        self.judge = name

    def host(self, event_id: str, *, bind=None, port=None, new_code: bool = False) -> SyncStatus:
        self.calls.append(f"host {event_id}")
        self.role, self.event_id, self.code = "host", event_id, CODE
        return self.status()

    def new_code(self) -> SyncStatus:
        self.calls.append("new_code")
        self.code = "WXYZ-2345-6789"
        return self.status()

    def stop_hosting(self) -> None:
        self.calls.append("stop_hosting")
        self.role, self.code, self.devices = "off", None, ()

    def join(self, address: str, code: str) -> SyncResult:
        self.calls.append(f"join {address}")
        if not self.reachable:
            return SyncResult(
                False, 0, 0, address, f"cannot reach the host at {address}", "unreachable"
            )
        if fold(code) != fold(self.accepted_code):
            return SyncResult(False, 0, 0, address, "wrong join code", "wrong_code")
        shared = self.store.event_by_name(SHARED_EVENT) or self.store.create_event(SHARED_EVENT)
        self.role, self.host_url, self.event_id = "joined", address, shared.id
        self.problem = None
        self.last_synced_at = datetime.now(UTC)
        return SyncResult(True, 0, 0, address, None)

    def sync_now(self) -> SyncResult:
        self.calls.append("sync_now")
        if not self.reachable:
            self.problem = f"cannot reach the host at {self.host_url}"
            self.problem_code = "unreachable"
            return SyncResult(False, 0, 0, self.host_url, self.problem, self.problem_code)
        self.problem, self.waiting = None, 0
        self.last_synced_at = datetime.now(UTC)
        return SyncResult(True, 1, 0, self.host_url, None)

    def leave(self) -> None:
        self.calls.append("leave")
        self.role, self.host_url = "off", None

    def start_background(self, interval_s: float = 3.0) -> None:
        self.background += 1

    def notify_saved(self) -> None:
        self.saves += 1

    def subscribe(self, callback: Callable[[SyncStatus], None]) -> Callable[[], None]:
        with self.lock:
            self.subscribers.append(callback)

        def unsubscribe() -> None:
            with self.lock:
                if callback in self.subscribers:
                    self.subscribers.remove(callback)

        return unsubscribe

    def move_into_shared(self, local_event_id: str) -> MergeReport:
        self.calls.append(f"move {local_event_id}")
        if self.event_id is None:
            raise LogError("not joined")
        _event, records = self.store.export_records(local_event_id)
        shared = self.store.event(self.event_id)
        assert shared is not None
        # (The engine moves them; a copy under new ids is enough for the screens.)
        moved = tuple(replace(r, event_id=shared.id, id=str(uuid.uuid4())) for r in records)
        return self.store.merge(ImportedEvent(shared.id, shared.name, shared.date, (), moved))

    # -- the other side, played by the test --------------------------------------------------------

    def emit(self) -> None:
        """Sends the status to the subscribers from a foreign thread, as the sync thread does."""
        status = self.status()
        with self.lock:
            callbacks = list(self.subscribers)
        thread = threading.Thread(target=lambda: [c(status) for c in callbacks])
        thread.start()
        thread.join()

    def pull(self, record: Record) -> None:
        """A record of another judge arrives (merged into the shared event), then the news."""
        assert self.event_id is not None
        shared = self.store.event(self.event_id)
        assert shared is not None
        incoming = replace(record, event_id=shared.id)
        self.store.merge(ImportedEvent(shared.id, shared.name, shared.date, (), (incoming,)))
        self.last_synced_at = datetime.now(UTC)
        self.emit()


def fold(code: str) -> str:
    """A typed code as the engine reads it (records/sync/codes.py): case, spaces, dashes."""
    return "".join(ch for ch in code.upper() if ch not in " -")


def other_judges_record(
    event_id: str,
    name: str,
    infraction_id: str,
    tier_id: str,
    judge: str = "佐藤",
    round_: int = 1,
) -> Record:
    """A record as another judge's device made it."""
    moment = now_local() - timedelta(minutes=5)
    return Record(
        id=str(uuid.uuid4()),
        event_id=event_id,
        created_at=moment,
        updated_at=moment,
        round=round_,
        table="7",
        player=Player(name),
        infraction_id=infraction_id,
        tier_id=tier_id,
        note=None,
        recorded_by=RecordedBy(judge, "0ther000-0000-4000-8000-000000000002"),
    )


def install(monkeypatch: pytest.MonkeyPatch) -> dict[str, FakeSync]:
    """Every log the app opens gets a FakeSync (by the log file's path): returned, so the
    test can reach it."""
    fakes: dict[str, FakeSync] = {}

    def service_for(store: LogStore) -> FakeSync:
        return fakes.setdefault(str(store.path), FakeSync(store))

    monkeypatch.setattr(sync_link, "service_for", service_for)
    return fakes
