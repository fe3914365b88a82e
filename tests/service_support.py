"""What the sync service's tests share (tests/test_sync_service.py, test_mutation_service*.py,
the sync command line's tests): judges' devices, each a log and its sync service, a device
hosting an event on 127.0.0.1, and a wait for what a background thread does."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from records.store import LogStore
from records.sync.service import SyncService, SyncStatus
from records.sync.state import SyncState
from regulation.model import Regulation


@dataclass
class Device:
    store: LogStore
    sync: SyncService

    def state(self) -> SyncState:
        return self.sync.ledger.state()

    def close(self) -> None:
        self.sync.close()
        self.store.close()


def open_device(regulation: Regulation, folder: Path, judge: str) -> Device:
    """A judge's device: its log in `folder`, its sync service with the judge's name."""
    store = LogStore.open(regulation, folder / "log.sqlite3")
    sync = SyncService.for_store(store)
    sync.set_judge(judge)
    return Device(store, sync)


def devices(
    regulation: Regulation, tmp_path: Path, judges: Iterable[str]
) -> Iterator[list[Device]]:
    """A device for each judge (a folder each in `tmp_path`), for a fixture: closed after it."""
    made = [open_device(regulation, tmp_path / judge, judge) for judge in judges]
    yield made
    for device in made:
        device.close()


def two_devices(regulation: Regulation, tmp_path: Path) -> Iterator[list[Device]]:
    """Two devices (佐藤's and 鈴木's), for a fixture: closed after the test."""
    yield from devices(regulation, tmp_path, ("佐藤", "鈴木"))


def hosted(device: Device) -> tuple[str, SyncStatus]:
    """`device` hosts a new event, 県大会, on 127.0.0.1 (any free port): its id and status."""
    event = device.store.create_event("県大会")
    status = device.sync.host(event.id, bind="127.0.0.1", port=0)
    assert status.code
    return event.id, status


@contextlib.contextmanager
def another_host(regulation: Regulation, folder: Path) -> Iterator[tuple[LogStore, SyncStatus]]:
    """Another device (本部's, in `folder`) hosting 県大会 in this process, closed after."""
    device = open_device(regulation, folder, "本部")
    try:
        _, status = hosted(device)
        yield device.store, status
    finally:
        device.close()


def wait_for(condition: Callable[[], object], timeout: float = 10.0) -> bool:
    """Whether `condition()` became true within `timeout` seconds (polled every 20 ms)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False
