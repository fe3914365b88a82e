"""SyncService: what the screens and the command line use of venue sync (one per log file per
process). The shapes below are the contract with the views (records/sync/__init__.py)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from ..model import MergeReport

if TYPE_CHECKING:
    from ..store import LogStore

Role = Literal["off", "host", "joined"]


@dataclass(frozen=True, slots=True)
class DeviceSeen:
    """A device that synced with this host: its id, its judge's name, when it last synced."""

    device_id: str
    judge: str
    last_seen: datetime


@dataclass(frozen=True, slots=True)
class SyncStatus:
    role: Role
    event_id: str | None  # the shared event's UUID
    event_name: str | None
    judge: str | None  # this device's judge name (None until asked)
    device_id: str  # this device's id (stable, random, stored in the log)
    addresses: tuple[str, ...]  # host: the URLs a joining judge types (large text)
    port: int | None
    code: str | None  # host only: the join code, grouped (K7QF-2MXD-9PLA…)
    host_url: str | None  # joined: the host's URL
    devices: tuple[DeviceSeen, ...]  # host: joined devices, newest first
    last_synced_at: datetime | None
    waiting: int  # local changes not yet sent to the host
    problem: str | None  # one line for the judge, e.g. the code was replaced


@dataclass(frozen=True, slots=True)
class SyncResult:
    ok: bool
    pushed: int
    pulled: int
    host: str | None
    problem: str | None  # one line when not ok


_SERVICES: weakref.WeakKeyDictionary[LogStore, SyncService] = weakref.WeakKeyDictionary()
_SERVICES_LOCK = threading.Lock()


class SyncService:
    """One per log file per process, thread-safe; owns the host server or the joiner's
    background loop (threads of its own; Flet is never touched from them)."""

    def __init__(self, store: LogStore) -> None:
        self.store = store

    @classmethod
    def for_store(cls, store: LogStore) -> SyncService:
        with _SERVICES_LOCK:
            found = _SERVICES.get(store)
            if found is None:
                found = _SERVICES[store] = cls(store)
            return found

    def status(self) -> SyncStatus:
        raise NotImplementedError

    def set_judge(self, name: str) -> None:
        """InvalidInput on an empty name."""
        raise NotImplementedError

    def host(
        self,
        event_id: str,
        *,
        bind: str | None = None,
        port: int | None = None,
        new_code: bool = False,
    ) -> SyncStatus:
        """Starts serving `event_id` in a thread (resuming the same code unless `new_code`)."""
        raise NotImplementedError

    def new_code(self) -> SyncStatus:
        """A new join code; the old one stops working at once."""
        raise NotImplementedError

    def stop_hosting(self) -> None:
        raise NotImplementedError

    def join(self, address: str, code: str) -> SyncResult:
        """Remembers the host and the code, then makes a first sync."""
        raise NotImplementedError

    def sync_now(self) -> SyncResult:
        raise NotImplementedError

    def leave(self) -> None:
        raise NotImplementedError

    def start_background(self, interval_s: float = 3.0) -> None:
        """Idempotent."""
        raise NotImplementedError

    def notify_saved(self) -> None:
        """A local save: sync soon."""
        raise NotImplementedError

    def subscribe(self, callback: Callable[[SyncStatus], None]) -> Callable[[], None]:
        """`callback` is called from a sync thread when the status changes or records were
        pulled; returns the unsubscribe function."""
        raise NotImplementedError

    def move_into_shared(self, local_event_id: str) -> MergeReport:
        """The join screen's "bring my offline records into the shared event": nothing lost or
        doubled."""
        raise NotImplementedError
